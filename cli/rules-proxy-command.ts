import { UsageError } from './command-line';
import { parseRulesProxyArgs, RULES_PROXY_USAGE, type RulesProxyArgs } from './rules-proxy-options';
import { PactFileError, readV4Pact } from '../contracts/pact/pact-file';
import { interactionsShaped, requestShape } from '../contracts/pact/interaction-of-request';
import { exchangeLine, proxyReport, renderProxyJunit, renderProxyText, toProxyExchange, type ProxyExchange } from '../verification/rules-proxy-report';
import { startRulesProxy, type RunningRulesProxy } from '../verification/rules-proxy';
import type { CommandIo } from './command-io';
import { writeWhole } from './report-files';
import { writePidFile } from './pid-file';
import { INSPECTOR_PATH, createProxyInspector } from '../verification/proxy-inspector';
import { probeUpstream } from '../shared/http/upstream-probe';

// `rules-proxy`: the reply rules for any Pact verifier. The vendor points their own verifier
// (pact-jvm, pact-net, the Rust CLI…) at this proxy instead of their seller; every reply that
// breaks a rule is answered 502 with a body naming rule, item id, path, expected and found,
// so their verifier fails the interaction, and this proxy's report says the same in the
// contract's words.

export { parseRulesProxyArgs, RULES_PROXY_USAGE } from './rules-proxy-options';

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
    proxy = await startRulesProxy({
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
      host: args.host,
      port: args.port,
    });
  } catch (error) {
    inspector.close();
    const code = (error as NodeJS.ErrnoException).code;
    io.stderr(
      `rules-proxy: cannot listen on ${args.host}:${args.port}: ${code === 'EADDRINUSE' ? 'the port is in use' : code === 'EADDRNOTAVAIL' ? 'no such address here' : (error as Error).message}\n`,
    );
    return 2;
  }
  writeReports();
  io.stdout(`rules-proxy: listening on ${proxy.url}, forwarding to ${upstream}${args.passBroken ? ' (broken replies passed through)' : ''}\n`);
  io.stdout(`rules-proxy: inspector page at ${proxy.url}${INSPECTOR_PATH}\n`);
  // The pid file after the address is printed: a script waits for the file, then reads the address.
  const removePidFile = writePidFile(args.pidFile);

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
