import { runAsProcess } from '../cli/command-io';
import { runRecord } from '../mock-seller/record/run-record';

// npm run record -- --upstream <seller url> --port <n> --out <scenario file>   (see --help)
runAsProcess(runRecord);
