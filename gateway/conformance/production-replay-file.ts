import {
  CONTRACT_VERSION,
  PRODUCTION_REPLAY_KIND,
  type ProductionReplayExchange,
  type ProductionReplayFile,
} from '../../contracts/index';
import type { Clock } from '../clock';
import type { Queryable } from '../store/store';
import { REMOVED_POINTERS } from './de-identified-request';

// A member's replay file: every exchange kept because it broke a rule (the newest few per
// rule), in the shape the kit's `replay` runs (contracts/production-replay.ts). Empty
// `exchanges` for a member whose replies broke nothing.

interface SampleRow {
  operation: ProductionReplayExchange['operation'];
  rule: string;
  seen_at: Date | string;
  request: string;
  reply: string | null;
  reply_bytes: number;
  violations: string;
}

export async function productionReplayFile(
  q: Queryable,
  memberId: string,
  clock: Clock = Date.now,
): Promise<ProductionReplayFile> {
  const { rows } = await q.query<SampleRow>(
    `SELECT operation, rule, seen_at, request, reply, reply_bytes, violations FROM conformance_samples
      WHERE member_id = $1 ORDER BY rule, id DESC`,
    [memberId],
  );
  return {
    kind: PRODUCTION_REPLAY_KIND,
    member: memberId,
    contract_version: CONTRACT_VERSION,
    generated_at: new Date(clock()).toISOString(),
    removed: REMOVED_POINTERS,
    exchanges: rows.map((r) => ({
      rule: r.rule,
      operation: r.operation,
      seen_at: new Date(r.seen_at).toISOString(),
      request: JSON.parse(r.request) as Record<string, unknown>,
      reply: r.reply,
      reply_bytes: Number(r.reply_bytes),
      violations: JSON.parse(r.violations) as ProductionReplayExchange['violations'],
    })),
  };
}

/** Whether the member is known: in the directory, or counted once. */
export async function memberKnown(q: Queryable, memberId: string): Promise<boolean> {
  const { rows } = await q.query(
    `SELECT 1 FROM members WHERE id = $1
     UNION ALL SELECT 1 FROM conformance_replies WHERE member_id = $1 LIMIT 1`,
    [memberId],
  );
  return rows.length > 0;
}
