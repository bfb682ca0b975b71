import { catalogueOptionsOf } from '../verification/explore/catalogue-option';
import { writeFile } from 'node:fs/promises';
import { paletteFor } from '../verification/reports/palette';
import type { ConformanceReport } from '../verification/explore/conformance';
import { renderConformanceJunit } from '../verification/explore/conformance-junit';
import { conformanceTestCases } from '../verification/explore/conformance-test-cases';
import { renderCtrf } from '../verification/reports/report-as-ctrf';
import { progressText, renderConformance } from '../verification/explore/conformance-text';
import { readExploreCommandLine, type ExploreCliOptions } from './explore-options';
import { TIME_LIMIT } from '../verification/explore/run-exploration';
import {
  exploreSeller,
  type ExploreSellerOptions,
  type ExploreSellerProgress,
} from '../verification/explore/explore-seller';
import { SIGNAL_EXIT, type CommandIo } from './command-io';
import { DEFAULT_REPLAY_DIR } from '../verification/load/replay-file';
import { writeWhole } from './report-files';
import { renderConformanceHtml } from '../verification/html-report/conformance-html';
import { kitErrorExit } from './kit-error-exit';

// `explore`: generated exchanges on the vendor's catalogue (exploreSeller,
// verification/explore/explore-seller.ts). Here: the flags in, progress on stderr, the
// failures, the conformance table and the verdict on stdout, JSON/JUnit on request.

const PROGRESS_EVERY_MS = 1000;

/** The flags as exploreSeller's options (progress and the signal are the command's). */
export function exploreSellerOptionsOf(options: ExploreCliOptions): ExploreSellerOptions {
  return {
    sellerUrl: options.sellerUrl,
    ...catalogueOptionsOf(options.catalogue),
    runs: options.runs,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.timeLimitMs !== undefined ? { timeLimitMs: options.timeLimitMs } : {}),
    concurrency: options.concurrency,
    minScore: options.minScore,
    headers: options.headers,
    timeoutMs: options.timeoutMs,
    maxReplyBytes: options.maxReplyBytes,
    replayDir: options.replayDir ?? DEFAULT_REPLAY_DIR,
  };
}

/** Progress on stderr: the start, a line a second (and the last), each shrink. */
function progressPrinter(io: CommandIo): (event: ExploreSellerProgress) => void {
  let lastProgress = 0;
  return (event) => {
    switch (event.kind) {
      case 'started':
        return io.stderr(
          `explore: ${event.sellerUrl}, ${event.runs} generated exchanges from ${event.catalogue}, seed ${event.seed} (replay: --seed ${event.seed}), concurrency ${event.concurrency}\n`,
        );
      case 'progress':
        if (event.done === event.total || event.elapsedMs - lastProgress >= PROGRESS_EVERY_MS) {
          lastProgress = event.elapsedMs;
          io.stderr(`${progressText(event)}\n`);
        }
        return;
      case 'shrinking':
        return io.stderr(`explore: shrinking ${event.operation} ${event.rule} (first broken at run ${event.index})\n`);
    }
  };
}

async function writeReports(options: ExploreCliOptions, report: ConformanceReport): Promise<void> {
  if (options.json !== undefined) await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`);
  if (options.junit !== undefined) await writeFile(options.junit, renderConformanceJunit(report));
  if (options.ctrf !== undefined)
    await writeFile(
      options.ctrf,
      renderCtrf('federated-gateway explore', conformanceTestCases(report), Date.now() - report.elapsedMs, Date.now()),
    );
  if (options.html !== undefined) writeWhole(options.html, renderConformanceHtml(report));
}

export async function exploreCommand(argv: string[], io: CommandIo): Promise<number> {
  const parsed = readExploreCommandLine(argv, io);
  return parsed.kind === 'exit' ? parsed.code : runExplore(parsed.options, io);
}

/** An exploration with the flags already read (the CLI reads them before this module loads). */
export async function runExplore(options: ExploreCliOptions, io: CommandIo): Promise<number> {
  let report: ConformanceReport;
  try {
    report = await exploreSeller({
      ...exploreSellerOptionsOf(options),
      signal: io.signal,
      onProgress: progressPrinter(io),
    });
  } catch (error) {
    // Stopped before the exploration began (while its catalogue was read).
    if (io.signal.aborted && error === io.signal.reason) return SIGNAL_EXIT[String(io.signal.reason)] ?? 1;
    return kitErrorExit('explore', error, io);
  }
  io.stdout(`\n${renderConformance(report, paletteFor(io.stdoutIsTTY, io.env))}`);
  await writeReports(options, report);
  if (report.stopped !== undefined && report.stopped !== TIME_LIMIT) return SIGNAL_EXIT[report.stopped] ?? 1;
  return report.ok ? 0 : 1;
}
