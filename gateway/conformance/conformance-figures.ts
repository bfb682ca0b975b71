import type { ForwardedOperation } from '../../contracts/index';
import { CURRENT_CONTRACT_MAJOR } from '../certification/certification-types';
import type { Clock } from '../clock';
import type { Queryable } from '../store/store';
import { CONFORMANCE_RULES, FORWARDED_OPERATIONS } from './conformance-rules';
import { MINUTE_MS } from './conformance-counter';

// The figures production conformance serves (internal API JSON, the page): per member ×
// operation × rule, replies judged and replies that broke it, over the rolling hour, day and
// week (the current minute and the ones before it) and since the member's last passing
// certificate for the current contract major. A member without one is counted since counting
// began (`since.from` is the first minute counted). Read from the store: every instance's
// flushed counts, added up.

export const WINDOWS = { hour: 60, day: 24 * 60, week: 7 * 24 * 60 } as const;
export type WindowName = keyof typeof WINDOWS | 'since_certificate';
export const WINDOW_NAMES: readonly WindowName[] = ['hour', 'day', 'week', 'since_certificate'];

export interface RuleFigure {
  rule: string;
  /** Replies that broke it (once per reply however often). */
  broken: number;
  /** broken / judged; null when nothing was judged. */
  rate: number | null;
}

export interface OperationFigure {
  operation: ForwardedOperation;
  judged: number;
  /** Replies that broke at least one rule. */
  nonconforming: number;
  rate: number | null;
  rules: RuleFigure[];
}

export interface WindowFigure {
  /** The first minute the window counts (ISO 8601); null for a member never counted and never certified. */
  from: string | null;
  operations: OperationFigure[];
}

export interface MemberConformance {
  member: string;
  /** The member's status in the directory; null when it is no longer there. */
  status: string | null;
  certificate: { id: number; issued_at: string; contract_version: string } | null;
  windows: Record<WindowName, WindowFigure>;
  /** Exchanges kept for the member's replay file. */
  samples: number;
}

export interface ConformanceReport {
  generated_at: string;
  members: MemberConformance[];
}

const rate = (part: number, whole: number) => (whole === 0 ? null : part / whole);

interface Counts {
  judged: Record<WindowName, number>;
  nonconforming: Record<WindowName, number>;
  rules: Map<string, Record<WindowName, number>>;
}

const zeros = (): Record<WindowName, number> => ({ hour: 0, day: 0, week: 0, since_certificate: 0 });

interface Read {
  counts: Map<string, Map<ForwardedOperation, Counts>>;
  status: Map<string, string>;
  certificate: Map<string, { id: string; issued_at: Date | string; contract_version: string }>;
  first: Map<string, string>;
  samples: Map<string, number>;
}

type Starts = Record<keyof typeof WINDOWS, Date>;

const CERTIFIED = `
  certified AS (
    SELECT DISTINCT ON (member_id) member_id, id, issued_at, contract_version FROM certificates
     WHERE verdict = 'passed' AND contract_major = ${Number(CURRENT_CONTRACT_MAJOR)}
     ORDER BY member_id, issued_at DESC, id DESC)`;

/** Sums of `column` over each window ($1 hour, $2 day, $3 week starts; since the certificate, else all). */
const sums = (column: string, prefix = '') => `
    sum(${column}) FILTER (WHERE minute >= $1::timestamptz) AS ${prefix}hour,
    sum(${column}) FILTER (WHERE minute >= $2::timestamptz) AS ${prefix}day,
    sum(${column}) FILTER (WHERE minute >= $3::timestamptz) AS ${prefix}week,
    sum(${column}) FILTER (WHERE c.issued_at IS NULL OR minute >= date_trunc('minute', c.issued_at)) AS ${prefix}since_certificate`;

type Sums = Record<WindowName, string | number | null> & { member_id: string; operation: ForwardedOperation };
type NonSums = Record<`non_${WindowName}`, string | number | null>;
const n = (value: string | number | null | undefined) => Number(value ?? 0);
const windowsOf = (row: Record<string, string | number | null>, prefix = '') =>
  Object.fromEntries(WINDOW_NAMES.map((w) => [w, n(row[`${prefix}${w}`])])) as Record<WindowName, number>;

async function readCounts(q: Queryable, starts: Starts, member: string | null): Promise<Read> {
  const params = [starts.hour.toISOString(), starts.day.toISOString(), starts.week.toISOString(), member];
  const one = (column = 'member_id', at = '$1') => `(${at}::text IS NULL OR ${column} = ${at}::text)`;
  const [replies, broken, firsts, directory, certs, sampleCounts] = await Promise.all([
    q.query<Sums & NonSums>(
      `WITH ${CERTIFIED} SELECT r.member_id, r.operation, ${sums('judged')}, ${sums('nonconforming', 'non_')}
         FROM conformance_replies r LEFT JOIN certified c USING (member_id)
        WHERE ${one('r.member_id', '$4')} GROUP BY 1, 2`,
      params,
    ),
    q.query<Sums & { rule: string }>(
      `WITH ${CERTIFIED} SELECT b.member_id, b.operation, b.rule, ${sums('replies')}
         FROM conformance_broken b LEFT JOIN certified c USING (member_id)
        WHERE ${one('b.member_id', '$4')} GROUP BY 1, 2, 3`,
      params,
    ),
    q.query<{ member_id: string; first: Date | string }>(
      `SELECT member_id, min(minute) AS first FROM conformance_replies WHERE ${one()} GROUP BY 1`,
      [member],
    ),
    q.query<{ id: string; status: string }>(`SELECT id, status FROM members WHERE ${one('id')}`, [member]),
    q.query<{ member_id: string; id: string; issued_at: Date | string; contract_version: string }>(
      `WITH ${CERTIFIED} SELECT * FROM certified WHERE ${one()}`,
      [member],
    ),
    q.query<{ member_id: string; n: string }>(
      `SELECT member_id, count(*) AS n FROM conformance_samples WHERE ${one()} GROUP BY 1`,
      [member],
    ),
  ]);
  const counts = new Map<string, Map<ForwardedOperation, Counts>>();
  const countsOf = (memberId: string, operation: ForwardedOperation): Counts => {
    let ofMember = counts.get(memberId);
    if (ofMember === undefined) counts.set(memberId, (ofMember = new Map()));
    let c = ofMember.get(operation);
    if (c === undefined) ofMember.set(operation, (c = { judged: zeros(), nonconforming: zeros(), rules: new Map() }));
    return c;
  };
  for (const row of replies.rows) {
    const c = countsOf(row.member_id, row.operation);
    c.judged = windowsOf(row);
    c.nonconforming = windowsOf(row, 'non_');
  }
  for (const row of broken.rows) countsOf(row.member_id, row.operation).rules.set(row.rule, windowsOf(row));
  return {
    counts,
    status: new Map(directory.rows.map((r) => [r.id, r.status])),
    certificate: new Map(certs.rows.map((r) => [r.member_id, r])),
    first: new Map(firsts.rows.map((r) => [r.member_id, new Date(r.first).toISOString()])),
    samples: new Map(sampleCounts.rows.map((r) => [r.member_id, Number(r.n)])),
  };
}

function operationFigure(c: Counts | undefined, operation: ForwardedOperation, w: WindowName): OperationFigure {
  const judged = c?.judged[w] ?? 0;
  const non = c?.nonconforming[w] ?? 0;
  return {
    operation,
    judged,
    nonconforming: non,
    rate: rate(non, judged),
    rules: CONFORMANCE_RULES[operation].map((rule) => {
      const broken = c?.rules.get(rule)?.[w] ?? 0;
      return { rule, broken, rate: rate(broken, judged) };
    }),
  };
}

const minuteOf = (at: Date | string) => new Date(Math.floor(new Date(at).getTime() / MINUTE_MS) * MINUTE_MS);

function memberFigures(id: string, read: Read, starts: Starts): MemberConformance {
  const cert = read.certificate.get(id);
  const froms: Record<WindowName, string | null> = {
    hour: starts.hour.toISOString(),
    day: starts.day.toISOString(),
    week: starts.week.toISOString(),
    since_certificate: cert === undefined ? (read.first.get(id) ?? null) : minuteOf(cert.issued_at).toISOString(),
  };
  const windows = Object.fromEntries(
    WINDOW_NAMES.map((w) => [
      w,
      {
        from: froms[w],
        operations: FORWARDED_OPERATIONS.map((o) => operationFigure(read.counts.get(id)?.get(o), o, w)),
      },
    ]),
  ) as Record<WindowName, WindowFigure>;
  return {
    member: id,
    status: read.status.get(id) ?? null,
    certificate:
      cert === undefined
        ? null
        : {
            id: Number(cert.id),
            issued_at: new Date(cert.issued_at).toISOString(),
            contract_version: cert.contract_version,
          },
    windows,
    samples: read.samples.get(id) ?? 0,
  };
}

/** Every member's figures (the directory's and any counted since), or the one `member`'s. */
export async function conformanceReport(
  q: Queryable,
  options: { clock?: Clock; member?: string } = {},
): Promise<ConformanceReport> {
  const now = (options.clock ?? Date.now)();
  const thisMinute = Math.floor(now / MINUTE_MS);
  const starts = Object.fromEntries(
    Object.entries(WINDOWS).map(([name, minutes]) => [name, new Date((thisMinute - minutes + 1) * MINUTE_MS)]),
  ) as Starts;
  const read = await readCounts(q, starts, options.member ?? null);
  const ids = [...new Set([...read.status.keys(), ...read.counts.keys()])].sort();
  return { generated_at: new Date(now).toISOString(), members: ids.map((id) => memberFigures(id, read, starts)) };
}
