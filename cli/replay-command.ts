import { readFile } from 'node:fs/promises';
import { exchange } from '../verification/explore/exchange';
import { isReplayFile, type ReplayFile } from '../verification/load/replay-file';
import {
  PRODUCTION_REPLAY_KIND,
  validateProductionReplayFile,
  type ProductionReplayFile,
} from '../contracts/production-replay';
import type { CommandIo } from './command-io';
import { readReplayCommandLine, ROUNDS, type ReplayOptions } from './replay-options';
import { runProductionReplay } from './production-replay-command';

// `replay <file>`: a failure seen only under concurrency, sent again as it was seen — the
// failing request and the requests that were in flight beside it, all at once, a few rounds.
// Or a production replay file (the gateway's): each exchange sent again, a verdict each.
// Exit 1 when a rule breaks again (the failure is shown), 0 when none did this time.

export async function replayCommand(argv: string[], io: CommandIo): Promise<number> {
  const parsed = readReplayCommandLine(argv, io);
  return parsed.kind === 'exit' ? parsed.code : runReplay(parsed.options, io);
}

/** The file's failing request and the requests beside it, a few rounds; or a production file's exchanges. */
export async function runReplay(options: ReplayOptions, io: CommandIo): Promise<number> {
  const { file } = options;
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    io.stderr(`replay: ${file}: ${(error as Error).message}\n`);
    return 2;
  }
  if ((data as { kind?: unknown } | null)?.kind === PRODUCTION_REPLAY_KIND) {
    const shape = validateProductionReplayFile(data);
    if (!shape.valid) {
      const [first] = shape.errors;
      io.stderr(`replay: ${file} is not a production replay file: ${first.path || '/'} ${first.message}\n`);
      return 2;
    }
    return runProductionReplay(data as ProductionReplayFile, options, io);
  }
  if (!isReplayFile(data)) {
    io.stderr(
      `replay: ${file} is not a replay file (kind "replay", seller_url, rule, failing, companions; or kind "${PRODUCTION_REPLAY_KIND}")\n`,
    );
    return 2;
  }
  return replayWithCompany(data, options, io);
}

async function replayWithCompany(data: ReplayFile, options: ReplayOptions, io: CommandIo): Promise<number> {
  const target = {
    sellerUrl: options.sellerUrl ?? data.seller_url,
    headers: { ...data.headers, ...options.headers },
    timeoutMs: options.timeoutMs ?? data.timeout_ms,
  };
  io.stderr(
    `replay: ${data.rule}: the failing request with ${data.companions.length} beside it, ${ROUNDS} rounds, to ${target.sellerUrl}\n`,
  );
  for (let round = 1; round <= ROUNDS; round++) {
    if (io.signal.aborted) return 130;
    const [failing] = await Promise.all([
      exchange(target, data.failing, io.signal),
      ...data.companions.map((c) => exchange(target, c, io.signal)),
    ]);
    const finding = failing.findings.find((f) => f.rule === data.rule);
    if (finding !== undefined) {
      io.stdout(`broken again in round ${round}: ${data.rule}: ${finding.message} at ${finding.path || '/'}\n`);
      return 1;
    }
  }
  io.stdout(
    `${data.rule} was not broken in ${ROUNDS} rounds together (a failure under concurrency may need more luck, or is fixed)\n`,
  );
  return 0;
}
