import { Counter, type Registry } from 'prom-client';
import { FORWARDED_OPERATIONS } from '../conformance/conformance-rules';
import type { Queryable } from '../store/store';

// Production conformance in Prometheus, with its denominators: replies judged per member ×
// operation, those that broke any rule, and those that broke each rule. A broken-reply rate
// is gateway_replies_broken_total / gateway_replies_judged_total over the same labels, summed
// across instances. Labels are bounded: members are the directory's, operations four, rules
// the closed list (conformance/conformance-rules.ts). Alert rules: alert-rules.yml beside this.

type Child = { inc(value?: number): void };

export function replyCounters(registry: Registry, store: Queryable | undefined) {
  const judged = new Counter({
    name: 'gateway_replies_judged_total',
    help: 'Seller replies the gateway judged (a JSON 2xx body checked against the schema and the reply rules), by member and operation',
    labelNames: ['member', 'operation'],
    registers: [registry],
    // Every live member is exported from the start (at 0), so "a member with no replies" is a
    // series that stays flat rather than one that is missing.
    async collect() {
      if (store === undefined) return;
      const live = await liveMembers(store).catch(() => []);
      for (const member of live) for (const operation of FORWARDED_OPERATIONS) this.inc({ member, operation }, 0);
    },
  });
  const nonconforming = new Counter({
    name: 'gateway_replies_nonconforming_total',
    help: 'Seller replies that broke at least one reply rule (or the schema), by member and operation',
    labelNames: ['member', 'operation'],
    registers: [registry],
  });
  const broken = new Counter({
    name: 'gateway_replies_broken_total',
    help: 'Seller replies that broke a reply rule (reply.schema: not the contract’s shape), by member, operation and rule; once per reply',
    labelNames: ['member', 'operation', 'rule'],
    registers: [registry],
  });
  // Children cached per label set: the hot path skips prom-client's label hashing.
  const children = new Map<string, { judged: Child; nonconforming: Child; rules: Map<string, Child> }>();
  const childrenOf = (member: string, operation: string) => {
    const key = `${member}\u0000${operation}`;
    let c = children.get(key);
    if (c === undefined)
      children.set(
        key,
        (c = {
          judged: judged.labels({ member, operation }),
          nonconforming: nonconforming.labels({ member, operation }),
          rules: new Map(),
        }),
      );
    return c;
  };
  return {
    judged(member: string, operation: string, rules: readonly string[]): void {
      const c = childrenOf(member, operation);
      c.judged.inc();
      if (rules.length === 0) return;
      c.nonconforming.inc();
      for (const rule of rules) {
        let child = c.rules.get(rule);
        if (child === undefined) c.rules.set(rule, (child = broken.labels({ member, operation, rule })));
        child.inc();
      }
    },
  };
}

async function liveMembers(store: Queryable): Promise<string[]> {
  const { rows } = await store.query<{ id: string }>(`SELECT id FROM members WHERE status = 'live' ORDER BY id`);
  return rows.map((r) => r.id);
}
