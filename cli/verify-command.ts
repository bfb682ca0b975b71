import { writeFile } from 'node:fs/promises';
import { readVerifyCommandLine, type KitOptions } from './verify-options';
import { movedFromVerify } from './old-spellings';
import { paletteFor } from '../verification/reports/palette';
import { renderJunit } from '../verification/reports/report-as-junit';
import { verificationTestCases } from '../verification/reports/verification-test-cases';
import { renderCtrf } from '../verification/reports/report-as-ctrf';
import { progressLine, renderReport } from '../verification/reports/report-as-text';
import { SIGNAL_EXIT, type Command, type CommandIo } from './command-io';
import { INSPECTOR_PATH, createProxyInspector } from '../verification/rules-proxy/proxy-inspector';
import { lackingValuesText } from '../verification/states/example-values';
import { writeWhole } from './report-files';
import { renderVerificationHtml, type ExchangeBodies } from '../verification/html-report/verification-html';
import { compatAsText } from '../verification/compat/compat-text';
import {
  ExampleValuesError,
  verifySellerWith,
  type VerifyProgress,
  type VerifySellerOptions,
} from '../verification/verify/verify-seller';
import type { VerificationReport } from '../verification/reports/verification-report';
import type { KitInputError } from '../verification/kit-errors';
import { kitErrorExit } from './kit-error-exit';

// `verify`: Pact verification of a seller system with the reply rules applied to every
// exchange (verifySeller, verification/verify/verify-seller.ts). Here: the flags in, progress on
// stderr, the report on stdout, files on request.

/** The flags as verifySeller's options (progress and the signal are the command's). */
export function verifySellerOptionsOf(options: KitOptions): VerifySellerOptions {
  const { pacts } = options;
  return {
    sellerUrl: options.sellerUrl,
    ...(pacts.kind === 'file'
      ? { pact: pacts.files }
      : {
          broker: {
            url: pacts.brokerUrl,
            ...(pacts.token !== undefined ? { token: pacts.token } : {}),
            ...(pacts.username !== undefined ? { username: pacts.username, password: pacts.password ?? '' } : {}),
            ...(pacts.selectors?.[0]?.branch !== undefined ? { consumerBranch: pacts.selectors[0].branch } : {}),
            ...(options.publish !== undefined ? { publish: options.publish } : {}),
          },
        }),
    ...(options.states.kind === 'map'
      ? { stateMap: options.states.file }
      : options.states.kind === 'url'
        ? { statesUrl: options.states.url }
        : {}),
    headers: options.headers,
    timeoutMs: options.timeoutMs,
    maxReplyBytes: options.maxReplyBytes,
    notOffered: options.notOffered,
    allowExampleValues: options.allowExampleValues,
    ...(options.since !== undefined ? { since: options.since } : {}),
    pending: options.pending,
  };
}

/** Each progress event as the terminal shows it; the last exchange of each interaction kept for the HTML report. */
function progressPrinter(
  options: KitOptions,
  io: CommandIo,
  lastExchanges: (ExchangeBodies | undefined)[],
  record: (event: VerifyProgress) => void,
) {
  const progressColours = paletteFor(io.stderrIsTTY, io.env);
  return (event: VerifyProgress): void => {
    record(event);
    switch (event.kind) {
      case 'example-values':
        return io.stderr(
          `verify: ${event.source === 'state map' ? `the state map ${event.stateMapFile ?? ''} gives` : 'without --state-map or --states-url, the run has'} ` +
            `no value for these states' parameters; the contract's example values would be sent:\n${lackingValuesText(event.lacking)}`,
        );
      case 'pending-in-pact':
        return io.stderr(
          `verify: --pending without --since: the interactions the pact marks pending run as pending (${event.count} here)\n`,
        );
      case 'since':
        return io.stdout(
          `Changes since the contract you last passed (--since):\n${compatAsText(event.compat, paletteFor(io.stdoutIsTTY, io.env))}`,
        );
      case 'started':
        return io.stderr(
          `verify: ${event.sellerUrl} against ${event.pacts} (limit ${event.timeoutMs} ms per exchange)\n`,
        );
      case 'proxy-ready':
        return io.stderr(`verify: the exchanges, live, while the run lasts: ${event.url}${INSPECTOR_PATH}\n`);
      case 'interaction':
        lastExchanges[event.index - 1] = event.lastExchange;
        return io.stderr(`${progressLine(event.interaction, event.index, event.total, progressColours)}\n`);
      case 'pact-output':
        if (options.verbose) io.stderr(event.text.replace(/^/gm, '  pact | '));
        return;
      case 'exchange':
        return;
    }
  };
}

/** The kit's errors in the command's words. */
const inFlags = (error: KitInputError): string =>
  error instanceof ExampleValuesError
    ? 'Add them to the state map (or declare an optional state "not_offered"), or run with --allow-example-values.'
    : error.option === 'since'
      ? `--since: ${error.detail}`
      : error.detail;

async function writeReports(
  options: KitOptions,
  report: VerificationReport,
  lastExchanges: (ExchangeBodies | undefined)[],
  started: number,
): Promise<void> {
  if (options.junit !== undefined) await writeFile(options.junit, renderJunit(report));
  if (options.ctrf !== undefined)
    await writeFile(
      options.ctrf,
      renderCtrf('federated-gateway verify', verificationTestCases(report), started, Date.now()),
    );
  if (options.json !== undefined) await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`);
  if (options.html !== undefined) writeWhole(options.html, renderVerificationHtml(report, lastExchanges));
}

/** The commands verify's old flags became, loaded only when spelled the old way. */
const MOVED_COMMANDS = {
  explore: async () => (await import('./explore-command')).exploreCommand,
  load: async () => (await import('./load-command')).loadCommand,
  replay: async () => (await import('./replay-command')).replayCommand,
} satisfies Record<NonNullable<ReturnType<typeof movedFromVerify>>['command'], () => Promise<Command>>;

/** `verify <argv>`: the old spellings of explore, load and replay go to those commands (cli/old-spellings.ts). */
export async function verifyCommand(argv: string[], io: CommandIo): Promise<number> {
  const moved = movedFromVerify(argv, io);
  if (moved !== undefined) return (await MOVED_COMMANDS[moved.command]())(moved.argv, io);
  const parsed = readVerifyCommandLine(argv, io);
  return parsed.kind === 'exit' ? parsed.code : runVerify(parsed.options, io);
}

/** A verification with the flags already read (the CLI reads them before this module loads). */
export async function runVerify(options: KitOptions, io: CommandIo): Promise<number> {
  const inspector = createProxyInspector(`Verification of ${options.sellerUrl}`);
  // Each interaction's last exchange, for the HTML report's request/reply view (by report position).
  const lastExchanges: (ExchangeBodies | undefined)[] = [];
  const started = Date.now();
  let report: VerificationReport;
  try {
    report = await verifySellerWith(
      {
        ...verifySellerOptionsOf(options),
        signal: io.signal,
        onProgress: progressPrinter(options, io, lastExchanges, (event) => {
          if (event.kind === 'exchange') inspector.record(event.exchange);
        }),
      },
      { proxyRoutes: inspector.routes },
    );
  } catch (error) {
    return kitErrorExit('verify', error, io, inFlags);
  } finally {
    inspector.close();
  }

  io.stdout(`\n${renderReport(report, paletteFor(io.stdoutIsTTY, io.env))}`);
  await writeReports(options, report, lastExchanges, started);
  if (report.stopped !== undefined) return SIGNAL_EXIT[report.stopped] ?? 1;
  return report.ok ? 0 : 1;
}
