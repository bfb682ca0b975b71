import { catalogueOptionsOf } from '../verification/explore/catalogue-option';
import { writeWhole } from './report-files';
import { renderLoadReportHtml } from '../verification/html-report/load-html';
import { loadReportView } from '../verification/load/load-report-view';
import { writeFile } from 'node:fs/promises';
import { paletteFor } from '../verification/reports/palette';
import { renderLoadJunit } from '../verification/load/load-junit';
import { renderLoad, stepHeader, stepLine } from '../verification/load/load-text';
import { levelName, type LoadReport } from '../verification/load/load-report';
import { loadTestCases } from '../verification/load/load-test-cases';
import { renderCtrf } from '../verification/reports/report-as-ctrf';
import { loadSeller, type LoadSellerOptions, type LoadSellerProgress } from '../verification/load/load-seller';
import { readLoadCommandLine, type LoadCliOptions } from './load-options';
import { SIGNAL_EXIT, type CommandIo } from './command-io';
import { kitErrorExit } from './kit-error-exit';

// `load`: the seller under the gateway's load (loadSeller,
// verification/load/load-seller.ts). Here: the flags in, the bound on requests on stderr
// before anything is sent, a line per step as it ends, then the report on stdout.

/** The flags as loadSeller's options (progress and the signal are the command's). */
export function loadSellerOptionsOf(options: LoadCliOptions): LoadSellerOptions {
  return {
    sellerUrl: options.sellerUrl,
    ...catalogueOptionsOf(options.catalogue),
    ...(options.model === 'closed'
      ? { concurrency: options.levels }
      : { rate: options.levels, maxInFlight: options.maxInFlight }),
    stepSeconds: options.stepSeconds,
    timeoutMs: options.timeoutMs,
    mix: options.mix,
    orders: options.orders,
    // Sized from the steps by loadSeller as by the flags, so the report says which.
    ...(options.maxRequestsSource === 'given' ? { maxRequests: options.maxRequests } : {}),
    ...(options.timeLimitMs !== undefined ? { timeLimitMs: options.timeLimitMs } : {}),
    ...(options.minLevelGiven ? { minLevel: options.minLevel } : {}),
    slos: options.slos.map((s) => s.expression),
    abortOnFail: options.abortOnFail,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    headers: options.headers,
    replayDir: options.replayDir,
  };
}

/** Whether the run places orders on the vendor's system, said before anything is sent. */
export function ordersLine(options: LoadCliOptions, placesOrders: boolean): string {
  if (placesOrders) return `load: placing real orders on ${options.sellerUrl} (--orders)`;
  if (options.orders)
    return 'load: no orders will be placed: --orders, but the mix or your catalogue leaves place_order out';
  return 'load: no orders will be placed (add --orders to include place-order in the mix)';
}

/** What the run will send, and its bound, before the first request. */
function startLine(event: LoadSellerProgress & { kind: 'started' }): string {
  const steps =
    event.model === 'closed' ? event.levels.join(', ') : event.levels.map((l) => levelName('open', l)).join(', ');
  const model =
    event.model === 'closed'
      ? 'closed model, concurrency'
      : `open model (at most ${event.maxInFlight} in flight), rates`;
  const seconds = event.levels.length * event.stepSeconds;
  const source = event.maxRequestsSource === 'given' ? '--max-requests' : 'the bound, sized from the steps';
  const slos =
    event.slos.length > 0
      ? `SLOs: ${event.slos.map((s) => s.expression).join(', ')}${event.abortOnFail ? ' (--abort-on-fail)' : ''}\n`
      : '';
  return (
    `load: ${event.sellerUrl}, ${model} ${steps} × ${event.stepSeconds} s (about ${Math.ceil(seconds)} s), ` +
    `deadline ${event.timeoutMs} ms, at most ${event.maxRequests} requests (${source})` +
    `${event.timeLimitMs !== undefined ? `, at most ${event.timeLimitMs / 1000} s (--time-limit)` : ''}` +
    `, seed ${event.seed} (replay: --seed ${event.seed})\n${slos}${stepHeader(event.model)}\n`
  );
}

function progressPrinter(options: LoadCliOptions, io: CommandIo): (event: LoadSellerProgress) => void {
  return (event) => {
    switch (event.kind) {
      case 'started':
        return io.stderr(`${ordersLine(options, event.placesOrders)}\n${startLine(event)}`);
      case 'step':
        return io.stderr(`${stepLine(event.step, options.timeoutMs, paletteFor(io.stderrIsTTY, io.env))}\n`);
    }
  };
}

async function writeReports(options: LoadCliOptions, report: LoadReport, started: number): Promise<void> {
  if (options.json !== undefined) await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`);
  if (options.junit !== undefined) await writeFile(options.junit, renderLoadJunit(report));
  if (options.ctrf !== undefined)
    await writeFile(options.ctrf, renderCtrf('federated-gateway load', loadTestCases(report), started, Date.now()));
  if (options.html !== undefined) writeWhole(options.html, renderLoadReportHtml(loadReportView(report)));
}

export async function loadCommand(argv: string[], io: CommandIo): Promise<number> {
  const parsed = readLoadCommandLine(argv, io);
  return parsed.kind === 'exit' ? parsed.code : runLoadCommand(parsed.options, io);
}

/** A load run with the flags already read (the CLI reads them before this module loads). */
export async function runLoadCommand(options: LoadCliOptions, io: CommandIo): Promise<number> {
  const started = Date.now();
  let report: LoadReport;
  try {
    report = await loadSeller({
      ...loadSellerOptionsOf(options),
      signal: io.signal,
      onProgress: progressPrinter(options, io),
    });
  } catch (error) {
    return kitErrorExit('load', error, io);
  }
  io.stdout(`\n${renderLoad(report, paletteFor(io.stdoutIsTTY, io.env))}`);
  await writeReports(options, report, started);
  if (report.stopped !== undefined) return SIGNAL_EXIT[report.stopped] ?? 1;
  return report.verdict.ok ? 0 : 1;
}
