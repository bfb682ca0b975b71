import { writeWhole } from './report-files';
import { renderLoadReportHtml } from '../verification/html-report/load-html';
import { loadReportView } from '../verification/load/load-report-view';
import { writeFile } from 'node:fs/promises';
import { UsageError } from './command-line';
import { paletteFor } from '../verification/palette';
import { CatalogueError, loadCatalogue } from '../verification/explore/catalogue-source';
import { partsTheSellerLacks } from '../verification/explore/preflight';
import { renderLoadJunit } from '../verification/load/load-junit';
import { renderLoad, stepHeader, stepLine } from '../verification/load/load-text';
import { levelName } from '../verification/load/load-report';
import { loadTestCases } from '../verification/load/load-test-cases';
import { renderCtrf } from '../verification/report-as-ctrf';
import { feedableMix, runLoad, type PendingFailure } from '../verification/load/run-load';
import { LOAD_USAGE, parseLoadOptions } from './load-options';
import { SIGNAL_EXIT, type CommandIo } from './command-io';
import { probeUpstream } from './upstream-probe';
import { writeReplayFile } from './replay-files';

// `verify --load`: the seller under the gateway's load. The bound on requests on stderr
// before anything is sent, a line per step as it ends, then the report on stdout.

export async function loadCommand(argv: string[], io: CommandIo): Promise<number> {
  let options;
  try {
    options = parseLoadOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message === '') {
      io.stdout(LOAD_USAGE);
      return 0;
    }
    io.stderr(`verify --load: ${error.message}\n\n${LOAD_USAGE}`);
    return 2;
  }
  const unreachable = await probeUpstream(options.sellerUrl);
  if (unreachable !== undefined) {
    io.stderr(`verify --load: your system at ${options.sellerUrl} cannot be reached: ${unreachable}. Start it, or check --seller-url.\n`);
    return 2;
  }
  const target = { sellerUrl: options.sellerUrl, headers: options.headers, timeoutMs: options.timeoutMs };
  let catalogue;
  try {
    catalogue = await loadCatalogue(options.catalogue, options.headers);
  } catch (error) {
    if (!(error instanceof CatalogueError)) throw error;
    io.stderr(`verify --load: ${error.message}\n`);
    return 2;
  }
  const lacking = await partsTheSellerLacks(target, catalogue);
  if (lacking.length > 0) {
    io.stderr(
      `verify --load: ${catalogue.origin} names ${lacking.length === 1 ? 'a part' : 'parts'} your system does not have:\n` +
        `${lacking.map((l) => `  - ${l}\n`).join('')}Correct the catalogue (or list such parts under explore.unknown_parts) and run again.\n`,
    );
    return 2;
  }
  const palette = paletteFor(io.stdoutIsTTY, io.env);
  const mix = feedableMix(options.mix, catalogue, options.orders);
  if (Object.keys(mix).length === 0) {
    io.stderr(`verify --load: ${catalogue.origin} cannot feed any operation of --mix (documents need an account, orders an order location)\n`);
    return 2;
  }
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const seconds = options.levels.length * options.stepSeconds;
  const steps = options.model === 'closed' ? options.levels.join(', ') : options.levels.map((l) => levelName('open', l)).join(', ');
  const model = options.model === 'closed' ? 'closed model, concurrency' : `open model (at most ${options.maxInFlight} in flight), rates`;
  io.stderr(
    `verify --load: ${options.sellerUrl}, ${model} ${steps} × ${options.stepSeconds} s (about ${Math.ceil(seconds)} s), ` +
      `deadline ${options.timeoutMs} ms, at most ${options.maxRequests} requests (${options.maxRequestsSource === 'given' ? '--max-requests' : 'the bound, sized from the steps'})` +
      `${options.timeLimitMs !== undefined ? `, at most ${options.timeLimitMs / 1000} s (--time-limit)` : ''}` +
      `${mix['place-order'] !== undefined ? ' (place order included: fresh PO numbers)' : ', no orders'}, ` +
      `seed ${seed} (replay: --seed ${seed})\n${options.slos.length > 0 ? `SLOs: ${options.slos.map((s) => s.expression).join(', ')}${options.abortOnFail ? ' (--abort-on-fail)' : ''}\n` : ''}${stepHeader(options.model)}\n`,
  );
  const started = Date.now();
  const { report, failures } = await runLoad({
    target,
    catalogue,
    seed,
    mix: options.mix,
    orders: options.orders,
    model: options.model,
    levels: options.levels,
    maxInFlight: options.maxInFlight,
    stepSeconds: options.stepSeconds,
    maxRequests: options.maxRequests,
    maxRequestsSource: options.maxRequestsSource,
    ...(options.timeLimitMs !== undefined ? { timeLimitMs: options.timeLimitMs } : {}),
    minLevel: options.minLevel,
    slos: options.slos,
    abortOnFail: options.abortOnFail,
    signal: io.signal,
    onStep: (step) => io.stderr(`${stepLine(step, options.timeoutMs, paletteFor(io.stderrIsTTY, io.env))}\n`),
  });
  let n = 0;
  for (const f of failures.filter((x) => x.reproduces === 'only-under-concurrency'))
    f.replay = await writeReplayFile(options.replayDir, ++n, {
      kind: 'replay',
      seller_url: options.sellerUrl,
      headers: options.headers,
      timeout_ms: options.timeoutMs,
      rule: f.rule,
      failing: f.case,
      companions: f.companionCases,
    });
  // The report carries requests, not the generator's cases.
  for (const f of failures) {
    delete (f as Partial<PendingFailure>).case;
    delete (f as Partial<PendingFailure>).companionCases;
  }
  io.stdout(`\n${renderLoad(report, palette)}`);
  if (options.json !== undefined) await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`);
  if (options.junit !== undefined) await writeFile(options.junit, renderLoadJunit(report));
  if (options.ctrf !== undefined) await writeFile(options.ctrf, renderCtrf('federated-gateway verify --load', loadTestCases(report), started, Date.now()));
  if (options.html !== undefined) writeWhole(options.html, renderLoadReportHtml(loadReportView(report)));
  if (report.stopped !== undefined) return SIGNAL_EXIT[report.stopped] ?? 1;
  return report.verdict.ok ? 0 : 1;
}
