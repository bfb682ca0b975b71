import { readRulesProxyCommandLine, type RulesProxyArgs } from './rules-proxy-options';
import { PactFileError, readV4Pact, type PactDocument } from '../contracts/pact/pact-file';
import { interactionsShaped, requestShape } from '../contracts/pact/interaction-of-request';
import {
  exchangeLine,
  proxyReport,
  renderProxyJunit,
  renderProxyText,
  toProxyExchange,
  type ProxyExchange,
} from '../verification/rules-proxy/rules-proxy-report';
import { startRulesProxy, type RunningRulesProxy } from '../verification/rules-proxy/rules-proxy';
import type { Exchange } from '../verification/rules-proxy/proxied-exchange';
import type { CommandIo } from './command-io';
import { writeWhole } from './report-files';
import { writePidFile } from './pid-file';
import { INSPECTOR_PATH, createProxyInspector } from '../verification/rules-proxy/proxy-inspector';
import { probeUpstream } from '../shared/http/upstream-probe';
import { otherSchemeUrl, protocolMismatch } from '../verification/seller-options';

// `rules-proxy`: the reply rules for any Pact verifier. The vendor points their own verifier
// (pact-jvm, pact-net, the Rust CLI…) at this proxy instead of their seller; every reply that
// breaks a rule is answered 502 with a body naming rule, item id, path, expected and found,
// so their verifier fails the interaction, and this proxy's report says the same in the
// contract's words.

export { parseRulesProxyArgs, RULES_PROXY_USAGE } from './rules-proxy-options';

/** Exits early: --help, a usage error, an unreadable pact, an upstream not there. */
type Early = { exit: number };

export async function rulesProxyCommand(argv: string[], io: CommandIo): Promise<number> {
  const parsed = readRulesProxyCommandLine(argv, io);
  return parsed.kind === 'exit' ? parsed.code : runRulesProxy(parsed.options, io);
}

/** The proxy with its arguments already read (the CLI reads them before this module loads). */
export async function runRulesProxy(args: RulesProxyArgs, io: CommandIo): Promise<number> {
  const pact = readPact(args, io);
  if ('exit' in pact) return pact.exit;
  const unreachable = await probeUpstream(args.upstream);
  if (unreachable !== undefined) {
    io.stderr(
      `rules-proxy: the upstream ${args.upstream} cannot be reached: ${unreachable}. Start your seller system first, or check --upstream.\n`,
    );
    return 2;
  }
  const mismatch = await protocolMismatch(args.upstream);
  if (mismatch !== undefined) {
    io.stderr(
      `rules-proxy: ${args.upstream} answers ${mismatch}, not ${mismatch === 'TLS' ? 'plain HTTP' : 'TLS'}: use --upstream ${otherSchemeUrl(args.upstream)}\n`,
    );
    return 2;
  }
  const reporting = reportAsItGoes(args, pact.pact, io);
  const proxy = await startOrSay(args, reporting, io);
  if ('exit' in proxy) return proxy.exit;
  reporting.writeReports();
  io.stdout(
    `rules-proxy: listening on ${proxy.url}, forwarding to ${args.upstream}${args.passBroken ? ' (broken replies passed through)' : ''}\n`,
  );
  io.stdout(`rules-proxy: inspector page at ${proxy.url}${INSPECTOR_PATH}\n`);
  // The pid file after the address is printed: a script waits for the file, then reads the address.
  const removePidFile = writePidFile(args.pidFile);
  await stopped(io.signal);
  io.stderr(`rules-proxy: ${String(io.signal.reason ?? 'stop')}, closing\n`);
  reporting.inspector.close();
  await proxy.close();
  const report = reporting.writeReports();
  removePidFile();
  io.stdout(renderProxyText(report));
  return report.broken === 0 ? 0 : 1;
}

function readPact(args: RulesProxyArgs, io: CommandIo): { pact: PactDocument } | Early {
  try {
    return { pact: readV4Pact(args.pact) };
  } catch (error) {
    if (!(error instanceof PactFileError)) throw error;
    io.stderr(`rules-proxy: ${error.message}\n`);
    return { exit: 2 };
  }
}

/**
 * Every exchange, as it is answered: named by the pact's interactions,
 * on the inspector page, on stderr and in the report files.
 */
function reportAsItGoes(args: RulesProxyArgs, pact: PactDocument, io: CommandIo) {
  const exchanges: ProxyExchange[] = [];
  const writeReports = () => {
    const report = proxyReport(args.upstream, exchanges);
    if (args.report !== undefined) writeWhole(args.report, renderProxyText(report));
    if (args.json !== undefined) writeWhole(args.json, `${JSON.stringify(report, null, 2)}\n`);
    if (args.junit !== undefined) writeWhole(args.junit, renderProxyJunit(report));
    return report;
  };
  const inspector = createProxyInspector(`Rules proxy → ${args.upstream}`);
  const onExchange = (exchange: Exchange) => {
    inspector.record(exchange);
    const named = interactionsShaped(pact, exchange.request);
    const shape = requestShape(exchange.request);
    const entry = toProxyExchange(exchange, named.length === 1 ? `${named[0]} (${shape})` : shape);
    exchanges.push(entry);
    io.stderr(`${exchangeLine(entry)}\n`);
    writeReports();
  };
  return { inspector, onExchange, writeReports };
}

/** The proxy listening, or exit 2 once why it cannot is said. */
async function startOrSay(
  args: RulesProxyArgs,
  reporting: ReturnType<typeof reportAsItGoes>,
  io: CommandIo,
): Promise<RunningRulesProxy | Early> {
  const { inspector, onExchange } = reporting;
  const options = {
    sellerUrl: args.upstream,
    headers: args.headers,
    timeoutMs: args.timeoutMs,
    maxReplyBytes: args.maxReplyBytes,
    rejectBroken: !args.passBroken,
    routes: inspector.routes,
    onExchange,
  };
  try {
    return await startRulesProxy({ ...options, host: args.host, port: args.port });
  } catch (error) {
    inspector.close();
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? 'the port is in use'
        : code === 'EADDRNOTAVAIL'
          ? 'no such address here'
          : (error as Error).message;
    io.stderr(`rules-proxy: cannot listen on ${args.host}:${args.port}: ${why}\n`);
    return { exit: 2 };
  }
}

const stopped = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
