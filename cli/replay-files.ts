import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReplayFile } from '../verification/load/replay-file';

// Replay files of failures that need company (verify --load, verify --explore): one per
// failure, named after its rule, and the command that sends it again with its company.

export const DEFAULT_REPLAY_DIR = 'verify-replays';

/** Writes the file; returns the command that replays it. */
export async function writeReplayFile(dir: string, n: number, replay: ReplayFile): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${replay.rule.replace(/[^\w.-]/g, '_')}-${n}.json`);
  await writeFile(file, `${JSON.stringify(replay, null, 2)}\n`);
  return `npx federated-gateway verify --replay ${file}`;
}
