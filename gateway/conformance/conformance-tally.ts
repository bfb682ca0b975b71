import type { ForwardedOperation } from '../../contracts/index';
import type { ConformanceRule } from './conformance-rules';
import { deIdentifiedRequest } from './de-identified-request';
import type { ReplyJudgement } from './reply-judgement';

// What one instance counted since its last flush, in memory: per minute × member × operation,
// replies judged and broken (any rule, each rule), and the newest few exchanges of each
// member × rule. A few map look-ups a reply; a sample is made only for a broken one.

export const MINUTE_MS = 60_000;
/** A reply larger than this is sampled without its body (reply null, reply_bytes kept). */
export const MAX_SAMPLE_REPLY_BYTES = 256 * 1024;

export interface Cell {
  judged: number;
  nonconforming: number;
  rules: Map<ConformanceRule, number>;
}

export interface ConformanceSample {
  memberId: string;
  operation: ForwardedOperation;
  rule: ConformanceRule;
  seenAt: Date;
  request: string;
  reply: string | null;
  replyBytes: number;
  violations: string;
}

/** One row of counts, in a fixed order (minute, member, operation): flushes lock rows in the same order. */
export interface CountRow {
  minute: number;
  member: string;
  operation: ForwardedOperation;
  cell: Cell;
}

const sorted = <K>(keys: Iterable<K>) => [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

export class ConformanceTally {
  private readonly cells = new Map<number, Map<string, Map<ForwardedOperation, Cell>>>();
  private readonly samples = new Map<string, ConformanceSample[]>();
  private currentMinute = -1;
  private current: Map<string, Map<ForwardedOperation, Cell>> | undefined;

  constructor(private readonly keep: number) {}

  get empty(): boolean {
    return this.cells.size === 0 && this.samples.size === 0;
  }

  count(j: ReplyJudgement, broken: readonly ConformanceRule[], now: number): void {
    const cell = this.cellOf(Math.floor(now / MINUTE_MS), j.memberId, j.operation);
    cell.judged += 1;
    if (broken.length === 0) return;
    cell.nonconforming += 1;
    for (const rule of broken) {
      cell.rules.set(rule, (cell.rules.get(rule) ?? 0) + 1);
      this.addSample(sampleOf(j, rule, now));
    }
  }

  rows(): CountRow[] {
    const rows: CountRow[] = [];
    for (const minute of sorted(this.cells.keys())) {
      const members = this.cells.get(minute)!;
      for (const member of sorted(members.keys())) {
        const operations = members.get(member)!;
        for (const operation of sorted(operations.keys()))
          rows.push({ minute, member, operation, cell: operations.get(operation)! });
      }
    }
    return rows;
  }

  sampled(): ConformanceSample[] {
    return [...this.samples.values()].flat();
  }

  /** Adds another tally (one whose flush failed) to this one: nothing counted is lost. */
  merge(other: ConformanceTally): void {
    for (const { minute, member, operation, cell: old } of other.rows()) {
      const cell = this.cellOf(minute, member, operation);
      cell.judged += old.judged;
      cell.nonconforming += old.nonconforming;
      for (const [rule, n] of old.rules) cell.rules.set(rule, (cell.rules.get(rule) ?? 0) + n);
    }
    // Older first, so the newest `keep` stay.
    const mine = this.sampled();
    this.samples.clear();
    for (const s of [...other.sampled(), ...mine]) this.addSample(s);
  }

  private cellOf(minute: number, member: string, operation: ForwardedOperation): Cell {
    if (minute !== this.currentMinute || this.current === undefined) {
      this.currentMinute = minute;
      this.current = this.cells.get(minute);
      if (this.current === undefined) this.cells.set(minute, (this.current = new Map()));
    }
    let ofMember = this.current.get(member);
    if (ofMember === undefined) this.current.set(member, (ofMember = new Map()));
    let cell = ofMember.get(operation);
    if (cell === undefined) ofMember.set(operation, (cell = { judged: 0, nonconforming: 0, rules: new Map() }));
    return cell;
  }

  private addSample(sample: ConformanceSample): void {
    const key = `${sample.memberId}\u0000${sample.rule}`;
    let list = this.samples.get(key);
    if (list === undefined) this.samples.set(key, (list = []));
    list.push(sample);
    if (list.length > this.keep) list.shift();
  }
}

function sampleOf(j: ReplyJudgement, rule: ConformanceRule, now: number): ConformanceSample {
  const text = j.replyText ?? JSON.stringify(j.reply);
  const bytes = Buffer.byteLength(text, 'utf8');
  const found = j.check.errors.length > 0 ? j.check.errors : j.check.violations.filter((v) => v.rule === rule);
  return {
    memberId: j.memberId,
    operation: j.operation,
    rule,
    seenAt: new Date(now),
    request: JSON.stringify(deIdentifiedRequest(j.operation, j.request)),
    reply: bytes > MAX_SAMPLE_REPLY_BYTES ? null : text,
    replyBytes: bytes,
    violations: JSON.stringify(found.slice(0, 20)),
  };
}
