import type { ExploreCase } from '../explore/generators';
import type { ExploreRule } from '../explore/rule-coverage';

// A failure that needs company, as a file `verify --replay <file>` reads: the failing request
// and the requests that were in flight beside it, sent together again.

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
