import { createHash } from 'node:crypto';
import type { Service } from '../contracts/index';
import type { FaultRule } from './fault-registry';
import { dealtOf, isItemFault, type Fault, type FaultOf } from './faults';
import type { SellerData } from './seller-data';

// Seeded fault schedules: a rule with a `probability` strikes a share of what it could spoil,
// decided by a hash of its seed and the thing spoiled — never by arrival order. So the same
// seed gives the same faults to the same requests whatever the concurrency, a replayed request
// (a vendor's curl) meets its fault again, and a request cut down to the one item that was
// spoiled is spoiled again: item faults are drawn per item (its id and part), the others per
// request body. Latency draws its delay the same way, fixed or log-normal.

/** A uniform draw in [0, 1) from the seed and a key. */
export function draw(seed: number, ...key: string[]): number {
  const digest = createHash('sha256')
    .update(`${seed}\u0000${key.join('\u0000')}`)
    .digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** Standard normal from two uniform draws (Box–Muller). */
const normal = (u1: number, u2: number) => Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);

/** The delay of a latency fault: fixed, uniform between min and max, or log-normal around a median. */
export function latencyMs(fault: FaultOf<'latency'>, uniform: () => number = Math.random): number {
  if (fault.distribution === 'log-normal')
    return Math.round((fault.median_ms ?? 0) * Math.exp((fault.sigma ?? 0.5) * normal(uniform(), uniform())));
  if (fault.ms !== undefined) return fault.ms;
  if (fault.min_ms !== undefined && fault.max_ms !== undefined)
    return fault.min_ms + Math.round(uniform() * (fault.max_ms - fault.min_ms));
  return 0;
}

interface RequestItem {
  id: string;
  mfr_code?: string;
  part_number?: string;
}

/** The faults a scheduled rule deals one request: none, one per spoiled item, or one for the whole reply. */
export function scheduledFaults(
  rule: FaultRule,
  service: Service,
  request: unknown,
  body: string,
  data: SellerData,
): Fault[] {
  const p = rule.probability ?? 1;
  const seed = rule.seed ?? 0;
  const tag = `${rule.id}/seed=${seed}/p=${p}`;
  const { fault } = rule;
  const { kind } = fault;
  const dealt = dealtOf(kind);
  const items = (request as { items?: RequestItem[] }).items;
  if (dealt !== 'per-request' && isItemFault(fault) && items !== undefined) {
    const out: Fault[] = [];
    for (const item of items) {
      // Faults on alternate, superseded and equivalent entries: only items whose part has one are candidates.
      if (
        dealt === 'per-related-item' &&
        (item.mfr_code === undefined ||
          item.part_number === undefined ||
          (data.findPart(item.mfr_code, item.part_number)?.related.length ?? 0) === 0)
      )
        continue;
      if (draw(seed, kind, item.id, item.mfr_code ?? '', item.part_number ?? '') < p)
        out.push({ ...fault, id: item.id, scheduled: tag });
    }
    return out;
  }
  if (draw(seed, kind, body) >= p) return [];
  if (fault.kind !== 'latency') return [{ ...fault, scheduled: tag }];
  let n = 0;
  const ms = latencyMs(fault, () => draw(seed, 'latency-delay', String(n++), body));
  return [{ kind: 'latency', ms, scheduled: tag }];
}
