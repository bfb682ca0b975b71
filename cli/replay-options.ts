import type { CommandIo } from './command-io';
import {
  argsWithPositionals,
  headerArgs,
  httpUrlArg,
  integerArg,
  usageFailure,
  UsageError,
  type Parsed,
} from './command-line';

// `replay <file>`: its command line, read before the exchange machinery (Ajv, undici) loads.

export const ROUNDS = 5;

export const REPLAY_USAGE = `Usage: replay <file> [--seller-url <url>] [options]

Sends the exchanges of a replay file again and says whether their rule still breaks.

A file load or explore wrote (--replay-dir): a failure seen only under concurrency, sent with the
requests that were in flight beside it, all at once, ${ROUNDS} rounds, to the seller the file names.

A production replay file (the gateway's, per member: GET /internal/conformance/<member>/replay):
each exchange that broke a rule in production, sent one at a time to --seller-url (your
staging system); each says "fails" (the same rule broke again) or "no longer fails".

  --seller-url <url>        where to send them (required for a production file; overrides a load/explore file's)
  --header <name: value>    add a header to every request (e.g. authorization); repeatable
  --timeout <ms>            per exchange (default 30000, or the file's)
  --json                    the verdicts as JSON on stdout
  --help                    this text

Exit 1: a rule broke again (each failure is shown); 0: none did; 2: bad usage or a file that is
not a replay file; 130/143: stopped by SIGINT/SIGTERM.
`;

export interface ReplayOptions {
  file: string;
  sellerUrl?: string;
  headers: Record<string, string>;
  timeoutMs?: number;
  json: boolean;
}

/** `replay`'s command line: the file, or the exit code once --help or a usage error was answered. */
export function readReplayCommandLine(argv: string[], io: CommandIo): Parsed<ReplayOptions> {
  try {
    const { values, positionals } = argsWithPositionals(
      argv,
      {
        help: { type: 'boolean', default: false },
        'seller-url': { type: 'string' },
        header: { type: 'string', multiple: true },
        timeout: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      1,
    );
    if (values.help) {
      io.stdout(REPLAY_USAGE);
      return { kind: 'exit', code: 0 };
    }
    const file = positionals[0];
    if (file === undefined)
      throw new UsageError(
        'a replay file is required: replay <file> (load and explore write them; so does the gateway)',
      );
    return {
      kind: 'run',
      options: {
        file,
        ...(values['seller-url'] === undefined ? {} : { sellerUrl: httpUrlArg('--seller-url', values['seller-url']) }),
        headers: headerArgs('--header', values.header),
        ...(values.timeout === undefined ? {} : { timeoutMs: integerArg('--timeout', values.timeout, 1, 3_600_000) }),
        json: values.json,
      },
    };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { kind: 'exit', code: usageFailure('replay', error, io) };
  }
}
