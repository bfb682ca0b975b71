import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { httpUrlArg, integerArg, strictArgs, UsageError } from './command-line';

// `record`'s command line in two steps, as it answers them: flags that do not parse get the
// whole usage text; values that parse but do not fit name the flag and point at --help.

export const RECORD_USAGE = `Usage: record --upstream <seller url> --out <scenario file> [--port <n>] [--host <h>] [--name <scenario name>]

Sits in front of a seller system, passes every exchange through, and learns a mock-seller
scenario from the answers: members, locations (type, route times), parts with prices and
stock, related parts, the stock orders needed, accounts with invoices and statements.
Point the gateway (or any client) at http://<host>:<port>/seller instead of the seller.
Stop it with Ctrl-C (SIGINT) or SIGTERM: the scenario learned so far is written to --out
(valid, deduplicated, sorted), ready for: npm run mock-seller -- --scenario <file>

  --upstream <url>   the seller endpoint to record, e.g. http://127.0.0.1:9090/seller
  --out <file>       where the scenario goes (overwritten when the recording stops)
  --port <n>         port to listen on (default 0: any free port, printed)
  --host <h>         address to listen on (default 127.0.0.1)
  --name <name>      the scenario's name (default "recorded")
  -h, --help         this text

Exit status: 0 scenario written, 1 failure (port in use, upstream unreachable, nothing
learned, cannot write), 2 wrong usage. Progress goes to stderr.
`;

const RECORD_FLAGS = {
  upstream: { type: 'string' },
  out: { type: 'string' },
  port: { type: 'string', default: '0' },
  host: { type: 'string', default: '127.0.0.1' },
  name: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type RecordFlags = ReturnType<typeof parseRecordFlags>;

export interface RecordOptions {
  upstream: URL;
  /** The scenario file, resolved; its folder exists. */
  out: string;
  port: number;
  host: string;
  /** The scenario's name (the learner's default when absent). */
  name?: string;
}

/** The flags as written (UsageError: an unknown flag, a missing value). */
export function parseRecordFlags(argv: string[]) {
  return strictArgs(argv, RECORD_FLAGS);
}

/** The flags' values checked (UsageError naming the flag); call after --help is answered. */
export function checkRecordFlags(flags: RecordFlags): RecordOptions {
  if (flags.upstream === undefined) throw new UsageError('--upstream <seller url> is required');
  if (flags.out === undefined) throw new UsageError('--out <scenario file> is required');
  const upstream = new URL(httpUrlArg('--upstream', flags.upstream));
  const port = integerArg('--port', flags.port, 0, 65_535);
  const out = resolve(flags.out);
  if (!existsSync(dirname(out))) throw new UsageError(`--out: the folder ${dirname(out)} does not exist`);
  return { upstream, out, port, host: flags.host, ...(flags.name !== undefined ? { name: flags.name } : {}) };
}
