import { processIo } from '../mock-seller/record/command-io';
import { runRecord } from '../mock-seller/record/run-record';

// npm run record -- --upstream <seller url> --port <n> --out <scenario file>   (see --help)
process.exitCode = await runRecord(process.argv.slice(2), processIo);
