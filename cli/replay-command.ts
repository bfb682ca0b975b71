import { readFile } from 'node:fs/promises';
import { exchange } from '../verification/explore/exchange';
import { isReplayFile } from '../verification/load/replay-file';
import type { CommandIo } from './command-io';
import { readReplayCommandLine, ROUNDS } from './replay-options';

// `replay <file>`: a failure that needs company, sent again with its company — the
// failing request and the requests that were in flight beside it, all at once, a few rounds.
// Exit 1 when the rule breaks again (the failure is shown), 0 when it did not this time.

export async function replayCommand(argv: string[], io: CommandIo): Promise<number> {
  const parsed = readReplayCommandLine(argv, io);
  return parsed.kind === 'exit' ? parsed.code : runReplay(parsed.options, io);
}

/** The file's failing request and its company, a few rounds. */
export async function runReplay({ file }: { file: string }, io: CommandIo): Promise<number> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    io.stderr(`replay: ${file}: ${(error as Error).message}\n`);
    return 2;
  }
  if (!isReplayFile(data)) {
    io.stderr(`replay: ${file} is not a replay file (kind "replay", seller_url, rule, failing, companions)\n`);
    return 2;
  }
  const target = { sellerUrl: data.seller_url, headers: data.headers, timeoutMs: data.timeout_ms };
  io.stderr(
    `replay: ${data.rule}: the failing request with ${data.companions.length} beside it, ${ROUNDS} rounds, to ${data.seller_url}\n`,
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
