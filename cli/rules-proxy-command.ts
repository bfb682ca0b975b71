import { headerArgs, httpUrlArg, integerArg, strictArgs, UsageError } from './command-line';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { PactFileError, readV4Pact } from '../contracts/pact/pact-file';
import { interactionsShaped, requestShape } from '../contracts/pact/interaction-of-request';
import { exchangeLine, proxyReport, renderProxyJunit, renderProxyText, toProxyExchange, type ProxyExchange } from '../contracts/verification/proxy-report';
import { startRulesProxy, type RunningRulesProxy } from '../contracts/verification/rules-proxy';
import type { CommandIo } from './command-io';
import { writeWhole } from './report-files';
import { writePidFile } from './pid-file';
import { INSPECTOR_PATH, createProxyInspector } from './proxy-inspector';
import { probeUpstream } from './upstream-probe';
import { DEFAULT_MAX_REPLY_BYTES, MAX_REPLY_BYTES_CEILING } from '../contracts/verification/reply-within-limit';

// `rules-proxy`: the reply rules for any Pact verifier. The vendor points their own verifier
// (pact-jvm, pact-net, the Rust CLI…) at this proxy instead of their seller; every reply that
// breaks a rule is answered 502 with a body naming rule, item id, path, expected and found,
// so their verifier fails the interaction, and this proxy's report says the same in the
// contract's words.

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
                         script, stop it with kill -INT "$(cat <file>)" (see the guide)
  --help                 this text

Takes only JSON (content-type application/json, or none) and no cross-site browser request:
415 or 403 otherwise. A seller reply that is not JSON is never relayed: the verifier gets a
502 with the proxy's own JSON naming reply.not-json.

Runs until SIGINT/SIGTERM, then prints the report. Exit 0: every reply kept the rules;
1: at least one did not (or could not be checked); 2: bad usage, the port is in use, or
the upstream cannot be reached at start.
`;

interface RulesProxyArgs {
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

export async function rulesProxyCommand(argv: string[], io: CommandIo): Promise<number> {
  let args: RulesProxyArgs | 'help';
  try {
    args = parseRulesProxyArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`rules-proxy: ${error.message}\n\n${RULES_PROXY_USAGE}`);
    return 2;
  }
  if (args === 'help') {
    io.stdout(RULES_PROXY_USAGE);
    return 0;
  }

  let pact;
  try {
    pact = readV4Pact(args.pact);
  } catch (error) {
    if (!(error instanceof PactFileError)) throw error;
    io.stderr(`rules-proxy: ${error.message}\n`);
    return 2;
  }
  const unreachable = await probeUpstream(args.upstream);
  if (unreachable !== undefined) {
    io.stderr(`rules-proxy: the upstream ${args.upstream} cannot be reached: ${unreachable}. Start your seller system first, or check --upstream.\n`);
    return 2;
  }

  const exchanges: ProxyExchange[] = [];
  const { upstream } = args;
  const writeReports = () => {
    const report = proxyReport(upstream, exchanges);
    if (args.report !== undefined) writeWhole(args.report, renderProxyText(report));
    if (args.json !== undefined) writeWhole(args.json, `${JSON.stringify(report, null, 2)}\n`);
    if (args.junit !== undefined) writeWhole(args.junit, renderProxyJunit(report));
    return report;
  };

  const inspector = createProxyInspector(`Rules proxy → ${upstream}`);
  let proxy: RunningRulesProxy;
  try {
    proxy = await startRulesProxy(
      {
        sellerUrl: upstream,
        headers: args.headers,
        timeoutMs: args.timeoutMs,
        maxReplyBytes: args.maxReplyBytes,
        rejectBroken: !args.passBroken,
        routes: inspector.routes,
        onExchange: (exchange) => {
          inspector.record(exchange);
          const named = interactionsShaped(pact, exchange.request);
          const entry = toProxyExchange(exchange, named.length === 1 ? `${named[0]} (${requestShape(exchange.request)})` : requestShape(exchange.request));
          exchanges.push(entry);
          io.stderr(`${exchangeLine(entry)}\n`);
          writeReports();
        },
      },
      args.host,
      args.port,
    );
  } catch (error) {
    inspector.close();
    const code = (error as NodeJS.ErrnoException).code;
    io.stderr(
      `rules-proxy: cannot listen on ${args.host}:${args.port}: ${code === 'EADDRINUSE' ? 'the port is in use' : code === 'EADDRNOTAVAIL' ? 'no such address here' : (error as Error).message}\n`,
    );
    return 2;
  }
  writeReports();
  const removePidFile = writePidFile(args.pidFile);
  io.stdout(`rules-proxy: listening on ${proxy.url}, forwarding to ${upstream}${args.passBroken ? ' (broken replies passed through)' : ''}\n`);
  io.stdout(`rules-proxy: inspector page at ${proxy.url}${INSPECTOR_PATH}\n`);

  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  io.stderr(`rules-proxy: ${String(io.signal.reason ?? 'stop')}, closing\n`);
  inspector.close();
  await proxy.close();
  const report = writeReports();
  removePidFile();
  io.stdout(renderProxyText(report));
  return report.broken === 0 ? 0 : 1;
}
