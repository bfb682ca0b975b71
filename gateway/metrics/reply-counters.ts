import { Counter, type Registry } from 'prom-client';
import { FORWARDED_OPERATIONS } from '../conformance/conformance-rules';
import type { Queryable } from '../store/store';

// Production conformance in Prometheus, with its denominators: replies judged per member ×
// operation, those that broke any rule, and those that broke each rule. A broken-reply rate
// is gateway_replies_broken_total / gateway_replies_judged_total over the same labels, summed
// across instances. Labels are bounded: members are the directory's, operations four, rules
// the closed list (conformance/conformance-rules.ts). Alert rules: alert-rules.yml beside this.

interface Totals {
  judged: number;
  nonconforming: number;
  rules: Map<string, number>;
}

/**
 * The counts are plain numbers bumped per reply (prom-client hashes a label set on every
 * inc(), some microseconds on the hot path); each counter writes them out at scrape time.
 */
export function replyCounters(registry: Registry, store: Queryable | undefined) {
  const totals = new Map<string, Map<string, Totals>>();
  const each = (visit: (member: string, operation: string, t: Totals) => void) => {
    for (const [member, operations] of totals) for (const [operation, t] of operations) visit(member, operation, t);
  };
  new Counter({
    name: 'gateway_replies_judged_total',
    help: 'Seller replies the gateway judged (a JSON 2xx body checked against the schema and the reply rules), by member and operation',
    labelNames: ['member', 'operation'],
    registers: [registry],
    // Every live member is exported from the start (at 0), so "a member with no replies" is a
    // series that stays flat rather than one that is missing.
    async collect() {
      const live = store === undefined ? [] : await liveMembers(store).catch(() => []);
      this.reset();
      for (const member of live) for (const operation of FORWARDED_OPERATIONS) this.inc({ member, operation }, 0);
      each((member, operation, t) => this.inc({ member, operation }, t.judged));
    },
  });
  new Counter({
    name: 'gateway_replies_nonconforming_total',
    help: 'Seller replies that broke at least one reply rule (or the schema), by member and operation',
    labelNames: ['member', 'operation'],
    registers: [registry],
    collect() {
      this.reset();
      each((member, operation, t) => this.inc({ member, operation }, t.nonconforming));
    },
  });
  new Counter({
    name: 'gateway_replies_broken_total',
    help: 'Seller replies that broke a reply rule (reply.schema: not the contract’s shape), by member, operation and rule; once per reply',
    labelNames: ['member', 'operation', 'rule'],
    registers: [registry],
    collect() {
      this.reset();
      each((member, operation, t) => {
        for (const [rule, n] of t.rules) this.inc({ member, operation, rule }, n);
      });
    },
  });
  return {
    judged(member: string, operation: string, rules: readonly string[]): void {
      let ofMember = totals.get(member);
      if (ofMember === undefined) totals.set(member, (ofMember = new Map()));
      let t = ofMember.get(operation);
      if (t === undefined) ofMember.set(operation, (t = { judged: 0, nonconforming: 0, rules: new Map() }));
      t.judged += 1;
      if (rules.length === 0) return;
      t.nonconforming += 1;
      for (const rule of rules) t.rules.set(rule, (t.rules.get(rule) ?? 0) + 1);
    },
  };
}

async function liveMembers(store: Queryable): Promise<string[]> {
  const { rows } = await store.query<{ id: string }>(`SELECT id FROM members WHERE status = 'live' ORDER BY id`);
  return rows.map((r) => r.id);
}
