import type { CommandIo } from './command-io';
import { argsWithPositionals, usageFailure, UsageError, type Parsed } from './command-line';

// `replay <file>`: its command line, read before the exchange machinery (Ajv, undici) loads.

export const ROUNDS = 5;

export const REPLAY_USAGE = `Usage: replay <file>

A failure that needs company, sent again with its company: the failing request and the requests
that were in flight beside it, all at once, ${ROUNDS} rounds, to the seller the file names. load and
explore write such files (--replay-dir) for a rule broken only under concurrency, and print the
command that replays each.

  --help                    this text

Exit 1: the rule broke again (the failure is shown); 0: it did not in ${ROUNDS} rounds; 2: bad usage or
a file that is not a replay file; 130/143: stopped by SIGINT/SIGTERM.
`;

/** `replay`'s command line: the file, or the exit code once --help or a usage error was answered. */
export function readReplayCommandLine(argv: string[], io: CommandIo): Parsed<{ file: string }> {
  try {
    const { values, positionals } = argsWithPositionals(argv, { help: { type: 'boolean', default: false } }, 1);
    if (values.help) {
      io.stdout(REPLAY_USAGE);
      return { kind: 'exit', code: 0 };
    }
    const file = positionals[0];
    if (file === undefined)
      throw new UsageError('a replay file is required: replay <file> (load and explore write them)');
    return { kind: 'run', options: { file } };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { kind: 'exit', code: usageFailure('replay', error, io) };
  }
}
