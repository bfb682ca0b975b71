import { runAsProcess } from '../cli/command-io';
import { recordCommand } from '../cli/record-command';

// npm run record -- --upstream <seller url> --port <n> --out <scenario file>   (see --help)
runAsProcess(recordCommand);
