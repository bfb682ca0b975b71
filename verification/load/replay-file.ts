import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExploreCase } from '../explore/generators';
import type { ExploreRule } from '../explore/rule-coverage';

// A failure seen only under concurrency, as a file `replay <file>` reads: the failing request
// and the requests that were in flight beside it, sent together again. One file per failure, named after its rule.

/** Where the commands write replay files unless told (`--replay-dir`). */
export const DEFAULT_REPLAY_DIR = 'verify-replays';

export interface ReplayFile {
  kind: 'replay';
  seller_url: string;
  headers: Record<string, string>;
  timeout_ms: number;
  rule: ExploreRule;
  /** The request that broke the rule. */
  failing: ExploreCase;
  /** The requests in flight beside it. */
  companions: ExploreCase[];
}

export function isReplayFile(data: unknown): data is ReplayFile {
  const d = data as Partial<ReplayFile> | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    d.kind === 'replay' &&
    typeof d.seller_url === 'string' &&
    typeof d.rule === 'string' &&
    typeof d.failing === 'object' &&
    Array.isArray(d.companions)
  );
}

/** Writes the file; returns the command that replays it. */
export async function writeReplayFile(dir: string, n: number, replay: ReplayFile): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${replay.rule.replace(/[^\w.-]/g, '_')}-${n}.json`);
  await writeFile(file, `${JSON.stringify(replay, null, 2)}\n`);
  return `npx federated-gateway replay ${file}`;
}
