import { headerArgs, httpUrlArg, integerArg, strictArgs, usageFailure, UsageError, type Parsed } from './command-line';
import { PACT_FILE } from '../contracts/pact/pact-names';
import type { CommandIo } from './command-io';
import { DEFAULT_MAX_REPLY_BYTES, MAX_REPLY_BYTES_CEILING } from '../verification/reply-within-limit';

// `rules-proxy`'s command line, apart from the proxy itself so --help and usage errors answer
// before Hono, undici and the validators load (cli/main.ts's gate).

export const RULES_PROXY_USAGE = `Usage: rules-proxy --upstream <seller url> [options]

  --upstream <url>       your seller system's endpoint; every request is POSTed there
  --port <n>             port to listen on (default 0: any free port, printed on stdout)
  --host <h>             address to listen on (default 127.0.0.1)
  --report <file>        the report as text, rewritten after every exchange
  --json <file>          the report as JSON, rewritten after every exchange
  --junit <file>         the report as JUnit XML (one test case per exchange)
  --pact <file>          the pact whose interactions name the exchanges (default: the committed seller pact)
  --timeout <ms>         how long to wait for the seller's reply (default 30000)
  --max-reply-bytes <n>  the largest reply read from the seller (default ${DEFAULT_MAX_REPLY_BYTES}, 8 MiB); a larger
                         one is stopped and answered 502, finding reply.too-large
  --header <name: value> add a header to every request to the seller; repeatable
  --pass-broken          pass broken replies through unchanged (report only)
  --pid-file <file>      write this process's id there once listening (removed at exit): in a
                         script, stop it with kill -INT "$(cat <file>)" (docs/vendor/pact-verifier.md)
  --help                 this text

Takes only JSON (content-type application/json, or none) and no cross-site browser request:
415 or 403 otherwise. A seller reply that is not JSON is never relayed: the verifier gets a
502 with the proxy's own JSON naming reply.not-json.

Runs until SIGINT/SIGTERM, then prints the report. Exit 0: every reply kept the rules;
1: at least one did not (or could not be checked); 2: bad usage, the port is in use, or
the upstream cannot be reached at start.
`;

export interface RulesProxyArgs {
  upstream: string;
  port: number;
  host: string;
  report?: string;
  json?: string;
  junit?: string;
  pact: string;
  timeoutMs: number;
  maxReplyBytes: number;
  headers: Record<string, string>;
  passBroken: boolean;
  pidFile?: string;
}

export function parseRulesProxyArgs(argv: string[]): RulesProxyArgs | 'help' {
  const values = strictArgs(argv, {
    upstream: { type: 'string' },
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    report: { type: 'string' },
    json: { type: 'string' },
    junit: { type: 'string' },
    pact: { type: 'string', default: PACT_FILE },
    timeout: { type: 'string', default: '30000' },
    'max-reply-bytes': { type: 'string', default: String(DEFAULT_MAX_REPLY_BYTES) },
    header: { type: 'string', multiple: true },
    'pass-broken': { type: 'boolean', default: false },
    'pid-file': { type: 'string' },
    help: { type: 'boolean', default: false },
  });
  if (values.help) return 'help';
  if (values.upstream === undefined) throw new UsageError('--upstream is required');
  const upstream = httpUrlArg('--upstream', values.upstream);
  const headers = headerArgs('--header', values.header);
  return {
    upstream,
    port: integerArg('--port', values.port, 0, 65535),
    host: values.host,
    ...(values.report !== undefined ? { report: values.report } : {}),
    ...(values.json !== undefined ? { json: values.json } : {}),
    ...(values.junit !== undefined ? { junit: values.junit } : {}),
    pact: values.pact,
    timeoutMs: integerArg('--timeout', values.timeout, 1, 3_600_000),
    maxReplyBytes: integerArg('--max-reply-bytes', values['max-reply-bytes'], 1, MAX_REPLY_BYTES_CEILING),
    headers,
    passBroken: values['pass-broken'],
    ...(values['pid-file'] !== undefined ? { pidFile: values['pid-file'] } : {}),
  };
}

/** `rules-proxy`'s command line once: the arguments, or the exit code once --help or a usage error was answered. */
export function readRulesProxyCommandLine(
  argv: string[],
  io: Pick<CommandIo, 'stdout' | 'stderr'>,
): Parsed<RulesProxyArgs> {
  try {
    const args = parseRulesProxyArgs(argv);
    if (args !== 'help') return { kind: 'run', options: args };
    io.stdout(RULES_PROXY_USAGE);
    return { kind: 'exit', code: 0 };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { kind: 'exit', code: usageFailure('rules-proxy', error, io) };
  }
}
