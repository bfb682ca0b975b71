import type { Queryable } from '../store/store';
import { MINUTE_MS, type ConformanceSample, type CountRow } from './conformance-tally';

// How counts reach the store: additive upserts (n = n + excluded.n), so instances add up,
// in the fixed order of the rows given; samples appended, then trimmed to the newest few.

export async function addCounts(tx: Queryable, rows: readonly CountRow[]): Promise<void> {
  if (rows.length === 0) return;
  const at = rows.map((r) => new Date(r.minute * MINUTE_MS).toISOString());
  await tx.query(
    `INSERT INTO conformance_replies (member_id, operation, minute, judged, nonconforming)
     SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::bigint[], $5::bigint[])
     ON CONFLICT (member_id, operation, minute) DO UPDATE
       SET judged = conformance_replies.judged + excluded.judged,
           nonconforming = conformance_replies.nonconforming + excluded.nonconforming`,
    [
      rows.map((r) => r.member),
      rows.map((r) => r.operation),
      at,
      rows.map((r) => r.cell.judged),
      rows.map((r) => r.cell.nonconforming),
    ],
  );
  const broken = rows.flatMap((r, i) =>
    [...r.cell.rules.keys()].sort().map((rule) => ({ ...r, rule, at: at[i], n: r.cell.rules.get(rule)! })),
  );
  if (broken.length === 0) return;
  await tx.query(
    `INSERT INTO conformance_broken (member_id, operation, rule, minute, replies)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::bigint[])
     ON CONFLICT (member_id, operation, rule, minute) DO UPDATE
       SET replies = conformance_broken.replies + excluded.replies`,
    [
      broken.map((b) => b.member),
      broken.map((b) => b.operation),
      broken.map((b) => b.rule),
      broken.map((b) => b.at),
      broken.map((b) => b.n),
    ],
  );
}

export async function addSamples(tx: Queryable, samples: readonly ConformanceSample[], keep: number): Promise<void> {
  if (samples.length === 0) return;
  await tx.query(
    `INSERT INTO conformance_samples (member_id, operation, rule, seen_at, request, reply, reply_bytes, violations)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::integer[], $8::text[])`,
    [
      samples.map((s) => s.memberId),
      samples.map((s) => s.operation),
      samples.map((s) => s.rule),
      samples.map((s) => s.seenAt.toISOString()),
      samples.map((s) => s.request),
      samples.map((s) => s.reply),
      samples.map((s) => s.replyBytes),
      samples.map((s) => s.violations),
    ],
  );
  // The newest `keep` of each member × rule stay.
  await tx.query(
    `DELETE FROM conformance_samples WHERE id IN (
       SELECT id FROM (
         SELECT id, row_number() OVER (PARTITION BY member_id, rule ORDER BY id DESC) AS n
           FROM conformance_samples WHERE member_id = ANY($1::text[])
       ) ranked WHERE n > $2)`,
    [[...new Set(samples.map((s) => s.memberId))], keep],
  );
}

/**
 * Minute buckets before `before` folded into their hour. DELETE … RETURNING feeds an additive
 * upsert: rows another instance folded first are not returned here, so nothing counts twice.
 */
export async function foldOldBuckets(q: Queryable, before: Date): Promise<void> {
  await q.query(
    `WITH old AS (DELETE FROM conformance_replies
                   WHERE minute < $1::timestamptz AND minute <> date_trunc('hour', minute) RETURNING *)
     INSERT INTO conformance_replies (member_id, operation, minute, judged, nonconforming)
     SELECT member_id, operation, date_trunc('hour', minute), sum(judged)::bigint, sum(nonconforming)::bigint
       FROM old GROUP BY 1, 2, 3
     ON CONFLICT (member_id, operation, minute) DO UPDATE
       SET judged = conformance_replies.judged + excluded.judged,
           nonconforming = conformance_replies.nonconforming + excluded.nonconforming`,
    [before.toISOString()],
  );
  await q.query(
    `WITH old AS (DELETE FROM conformance_broken
                   WHERE minute < $1::timestamptz AND minute <> date_trunc('hour', minute) RETURNING *)
     INSERT INTO conformance_broken (member_id, operation, rule, minute, replies)
     SELECT member_id, operation, rule, date_trunc('hour', minute), sum(replies)::bigint
       FROM old GROUP BY 1, 2, 3, 4
     ON CONFLICT (member_id, operation, rule, minute) DO UPDATE
       SET replies = conformance_broken.replies + excluded.replies`,
    [before.toISOString()],
  );
}
