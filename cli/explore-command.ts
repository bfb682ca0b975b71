import { writeFile } from 'node:fs/promises';
import { UsageError } from './command-line';
import { paletteFor } from '../verification/palette';
import { CatalogueError, loadCatalogue } from '../verification/explore/catalogue-source';
import { conformanceReport } from '../verification/explore/conformance';
import { renderConformanceJunit } from '../verification/explore/conformance-junit';
import { conformanceTestCases } from '../verification/explore/conformance-test-cases';
import { renderCtrf } from '../verification/report-as-ctrf';
import { progressText, renderConformance } from '../verification/explore/conformance-text';
import { EXPLORE_USAGE, parseExploreOptions } from './explore-options';
import { partsTheSellerLacks } from '../verification/explore/preflight';
import { runExploration, TIME_LIMIT } from '../verification/explore/run-exploration';
import { SIGNAL_EXIT, type CommandIo } from './command-io';
import { probeUpstream } from './upstream-probe';
import { DEFAULT_REPLAY_DIR, writeReplayFile } from './replay-files';
import { writeWhole } from './report-files';
import { renderConformanceHtml } from '../verification/html-report/conformance-html';

// `verify --explore`: generated exchanges on the vendor's catalogue. Progress on stderr, the
// failures, the conformance table and the verdict on stdout, JSON/JUnit on request.

const PROGRESS_EVERY_MS = 1000;

export async function exploreCommand(argv: string[], io: CommandIo): Promise<number> {
  let options;
  try {
    options = parseExploreOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message === '') {
      io.stdout(EXPLORE_USAGE);
      return 0;
    }
    io.stderr(`verify --explore: ${error.message}\n\n${EXPLORE_USAGE}`);
    return 2;
  }
  const unreachable = await probeUpstream(options.sellerUrl);
  if (unreachable !== undefined) {
    io.stderr(`verify --explore: your system at ${options.sellerUrl} cannot be reached: ${unreachable}. Start it, or check --seller-url.\n`);
    return 2;
  }
  const target = { sellerUrl: options.sellerUrl, headers: options.headers, timeoutMs: options.timeoutMs, maxReplyBytes: options.maxReplyBytes };
  let catalogue;
  try {
    catalogue = await loadCatalogue(options.catalogue, options.headers, io.signal);
  } catch (error) {
    if (!(error instanceof CatalogueError)) throw error;
    if (io.signal.aborted) return SIGNAL_EXIT[String(io.signal.reason)] ?? 1;
    io.stderr(`verify --explore: ${error.message}\n`);
    return 2;
  }
  // A stop ends the pre-flight at once; the exploration below then reports the run as stopped.
  const lacking = await partsTheSellerLacks(target, catalogue, io.signal);
  if (lacking.length > 0 && !io.signal.aborted) {
    io.stderr(
      `verify --explore: ${catalogue.origin} names ${lacking.length === 1 ? 'a part' : 'parts'} your system does not ` +
        `have:\n${lacking.map((l) => `  - ${l}\n`).join('')}Correct the catalogue (or list such parts under explore.unknown_parts) and run again.\n`,
    );
    return 2;
  }

  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  io.stderr(
    `verify --explore: ${options.sellerUrl}, ${options.runs} generated exchanges from ${catalogue.origin}, seed ${seed} (replay: --seed ${seed}), concurrency ${options.concurrency}\n`,
  );
  let lastProgress = 0;
  const result = await runExploration({
    target,
    catalogue,
    runs: options.runs,
    seed,
    concurrency: options.concurrency,
    ...(options.timeLimitMs !== undefined ? { timeLimitMs: options.timeLimitMs } : {}),
    signal: io.signal,
    onProgress: (p) => {
      if (p.done === p.total || p.elapsedMs - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = p.elapsedMs;
        io.stderr(`${progressText(p)}\n`);
      }
    },
    onShrink: (operation, rule, index) => io.stderr(`explore: shrinking ${operation} ${rule} (first broken at run ${index})\n`),
  });
  // A failure that needs company gets a replay file instead of a lone curl that would pass.
  let n = 0;
  for (const f of result.failures.filter((x) => x.reproduces === 'only-under-concurrency'))
    f.replay = await writeReplayFile(options.replayDir ?? DEFAULT_REPLAY_DIR, ++n, {
      kind: 'replay',
      seller_url: options.sellerUrl,
      headers: options.headers,
      timeout_ms: options.timeoutMs,
      rule: f.rule,
      failing: f.original,
      companions: f.companions ?? [],
    });
  const report = conformanceReport(result, options.minScore);
  io.stdout(`\n${renderConformance(report, paletteFor(io.stdoutIsTTY, io.env))}`);
  if (options.json !== undefined) await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`);
  if (options.junit !== undefined) await writeFile(options.junit, renderConformanceJunit(report));
  if (options.ctrf !== undefined)
    await writeFile(options.ctrf, renderCtrf('federated-gateway verify --explore', conformanceTestCases(report), Date.now() - report.elapsedMs, Date.now()));
  if (options.html !== undefined) writeWhole(options.html, renderConformanceHtml(report));
  if (report.stopped !== undefined && report.stopped !== TIME_LIMIT) return SIGNAL_EXIT[report.stopped] ?? 1;
  return report.ok ? 0 : 1;
}
