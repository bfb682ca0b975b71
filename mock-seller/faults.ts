import { Type, type Static } from '@sinclair/typebox';
import { compileValidator, type Service, type ValidationIssue } from '../contracts/index';
import { BadRequestError, UnknownResourceError } from './errors';

// Faults: how the mock seller misbehaves on demand. Set through the control API (per
// service, for the next N requests or until cleared, optionally for one part number) or per
// request with the `x-mock-fault` header, so tests running in parallel don't disturb each other.
//
// Header syntax: a comma-separated list of faults, each `kind[;param=value]...`, e.g.
//   x-mock-fault: latency;ms=250
//   x-mock-fault: latency;min_ms=10;max_ms=200, drop-id;id=item-2
//   x-mock-fault: http-status;status=502
//   x-mock-fault: status-code;code=5503
//   x-mock-fault: missing-field;field=/items/0/locations
// Kinds and parameters are the same as in the control API's `fault` object.

export const TRANSPORT_FAULTS = ['latency', 'http-status', 'status-code', 'malformed-json', 'truncated', 'reset', 'hang'] as const;
export const ITEM_VIOLATIONS = ['drop-id', 'change-id', 'add-unknown-id', 'wrong-original-part', 'wrong-original-mfr', 'extra-location'] as const;
export const FAULT_KINDS = [...TRANSPORT_FAULTS, ...ITEM_VIOLATIONS, 'missing-field'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const SERVICES: readonly Service[] = ['item_inquiry', 'place_order', 'invoice', 'statement'];

/** Which fault kinds make sense for which service (violations need item ids, locations, alternates). */
export const FAULTS_OF_SERVICE: Record<Service, ReadonlySet<FaultKind>> = {
  item_inquiry: new Set(FAULT_KINDS),
  place_order: new Set([...TRANSPORT_FAULTS, 'drop-id', 'change-id', 'add-unknown-id', 'missing-field']),
  invoice: new Set([...TRANSPORT_FAULTS, 'missing-field']),
  statement: new Set([...TRANSPORT_FAULTS, 'missing-field']),
};

export const Fault = Type.Object(
  {
    kind: Type.Union(FAULT_KINDS.map((k) => Type.Literal(k))),
    ms: Type.Optional(Type.Integer({ minimum: 0, description: 'latency: fixed delay' })),
    min_ms: Type.Optional(Type.Integer({ minimum: 0, description: 'latency: random delay, lower bound' })),
    max_ms: Type.Optional(Type.Integer({ minimum: 0, description: 'latency: random delay, upper bound' })),
    distribution: Type.Optional(
      Type.Union([Type.Literal('fixed'), Type.Literal('log-normal')], { description: 'latency: log-normal draws around median_ms with spread sigma' }),
    ),
    median_ms: Type.Optional(Type.Integer({ minimum: 0, description: 'latency, log-normal: the median delay' })),
    sigma: Type.Optional(Type.Number({ minimum: 0, maximum: 5, description: 'latency, log-normal: the spread (default 0.5)' })),
    scheduled: Type.Optional(
      Type.String({ description: 'set by the mock: the seeded rule that dealt this fault (rule id, seed, probability), for the journal' }),
    ),
    status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, description: 'http-status: the HTTP status (default 503)' })),
    code: Type.Optional(Type.Integer({ description: 'status-code: the seller status_code (default 5503)' })),
    id: Type.Optional(Type.String({ minLength: 1, description: 'violations: the item id to tamper with (default: the first)' })),
    part_number: Type.Optional(Type.String({ minLength: 1, description: 'violations: tamper with the item of this part number' })),
    field: Type.Optional(Type.String({ pattern: '^(/[^/]+)+$', description: 'missing-field: JSON pointer of the field to drop' })),
  },
  { additionalProperties: false },
);
export type Fault = Static<typeof Fault>;

export const FaultRuleInput = Type.Object(
  {
    service: Type.Union([...SERVICES.map((s) => Type.Literal(s)), Type.Literal('*')]),
    fault: Fault,
    count: Type.Optional(Type.Integer({ minimum: 1, description: 'Applies to the next N matching requests; until cleared when omitted' })),
    part_number: Type.Optional(Type.String({ minLength: 1, description: 'Only requests naming this part number' })),
    probability: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: 'A seeded schedule: the share of items (item faults) or requests (others) it strikes' }),
    ),
    seed: Type.Optional(Type.Integer({ minimum: 0, description: "The schedule's seed (default 0): the same seed strikes the same items and requests" })),
  },
  { additionalProperties: false },
);
export type FaultRuleInput = Static<typeof FaultRuleInput>;

export interface FaultRule extends FaultRuleInput {
  id: string;
  /** Requests it still applies to; null until cleared. */
  remaining: number | null;
  applied: number;
}

const validateFault = compileValidator(Fault);
const validateRule = compileValidator(FaultRuleInput);

function faultIssues(fault: Fault, at: string): ValidationIssue[] {
  const issue = (path: string, message: string): ValidationIssue => ({ keyword: 'fault', path: `${at}${path}`, message });
  if (fault.kind === 'latency') {
    if (fault.distribution === 'log-normal' && fault.median_ms === undefined)
      return [issue('/median_ms', 'a log-normal latency needs median_ms (and sigma, default 0.5)')];
    if (fault.distribution !== 'log-normal' && fault.ms === undefined && (fault.min_ms === undefined || fault.max_ms === undefined))
      return [issue('', 'latency needs ms, min_ms and max_ms, or distribution log-normal with median_ms')];
    if (fault.min_ms !== undefined && fault.max_ms !== undefined && fault.min_ms > fault.max_ms) return [issue('/min_ms', 'min_ms is above max_ms')];
  }
  return [];
}

export function describeFault(fault: Fault): string {
  const params = Object.entries(fault)
    .filter(([k]) => k !== 'kind')
    .map(([k, v]) => `;${k}=${v}`);
  return fault.kind + params.join('');
}

/** Parses the `x-mock-fault` header; throws BadRequestError naming the part at fault. */
export function parseFaultHeader(header: string): Fault[] {
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part, i) => {
      const [kind, ...params] = part.split(';').map((p) => p.trim());
      const fault: Record<string, unknown> = { kind };
      for (const param of params) {
        const eq = param.indexOf('=');
        if (eq <= 0)
          throw new BadRequestError(`x-mock-fault: '${param}' is not name=value`, [
            { keyword: 'fault', path: `/${i}`, message: `'${param}' is not name=value` },
          ]);
        const name = param.slice(0, eq);
        const value = param.slice(eq + 1);
        fault[name] =
          (['ms', 'min_ms', 'max_ms', 'status', 'code', 'median_ms'].includes(name) && /^-?\d+$/.test(value)) ||
          (name === 'sigma' && /^\d+(\.\d+)?$/.test(value))
            ? Number(value)
            : value;
      }
      const shape = validateFault(fault);
      const issues = shape.valid ? faultIssues(fault as Fault, `/${i}`) : shape.errors.map((e) => ({ ...e, path: `/${i}${e.path}` }));
      if (issues.length > 0) throw new BadRequestError(`x-mock-fault: '${part}' is not a fault (kinds: ${FAULT_KINDS.join(', ')})`, issues);
      return fault as Fault;
    });
}

/** Faults in `faults` that the service cannot honour; the seller endpoint ignores them (journaled as not applied). */
export function inapplicable(service: Service, faults: readonly Fault[]): Fault[] {
  return faults.filter((f) => !FAULTS_OF_SERVICE[service].has(f.kind));
}

export interface FaultRegistry {
  add(input: unknown): FaultRule;
  list(): FaultRule[];
  remove(id: string): void;
  clear(): void;
  /** Rules in force; 0 lets the hot path skip take(). */
  readonly size: number;
  /**
   * The faults for one request; counts go down. `partNumbers` are those the request names;
   * `schedule` deals the faults of a seeded rule (one with a probability) for this request.
   */
  take(service: Service, partNumbers: () => readonly string[], schedule?: (rule: FaultRule) => Fault[]): Fault[];
}

const NONE: Fault[] = [];

export function createFaultRegistry(): FaultRegistry {
  let rules: FaultRule[] = [];
  let nextId = 1;
  return {
    add(input) {
      const shape = validateRule(input);
      if (!shape.valid) throw new BadRequestError('not a fault rule', shape.errors);
      const rule = input as FaultRuleInput;
      const issues = faultIssues(rule.fault, '/fault');
      if (rule.service !== '*' && !FAULTS_OF_SERVICE[rule.service].has(rule.fault.kind)) {
        issues.push({ keyword: 'fault', path: '/fault/kind', message: `${rule.fault.kind} does not apply to ${rule.service}` });
      }
      if (issues.length > 0) throw new BadRequestError('not a fault rule', issues);
      const added: FaultRule = { ...rule, id: `fault-${nextId++}`, remaining: rule.count ?? null, applied: 0 };
      rules.push(added);
      return added;
    },
    list: () => rules.map((r) => ({ ...r })),
    remove(id) {
      const before = rules.length;
      rules = rules.filter((r) => r.id !== id);
      if (rules.length === before) throw new UnknownResourceError(`no fault rule '${id}'`);
    },
    clear() {
      rules = [];
    },
    get size() {
      return rules.length;
    },
    take(service, partNumbers, schedule) {
      if (rules.length === 0) return NONE; // the hot path: nothing configured
      const out: Fault[] = [];
      for (const rule of rules) {
        if (rule.service !== '*' && rule.service !== service) continue;
        if (!FAULTS_OF_SERVICE[service].has(rule.fault.kind)) continue;
        if (rule.part_number !== undefined && !partNumbers().includes(rule.part_number)) continue;
        if (rule.probability !== undefined) {
          const dealt = schedule?.(rule) ?? [];
          if (dealt.length === 0) continue; // not this time: a count is spent only on a strike
          out.push(...dealt);
          rule.applied += 1;
          if (rule.remaining !== null) rule.remaining -= 1;
          continue;
        }
        // A rule for one part number tampers with that part's item unless it names another.
        const targeted = rule.part_number !== undefined && rule.fault.id === undefined && rule.fault.part_number === undefined;
        out.push(targeted ? { ...rule.fault, part_number: rule.part_number } : rule.fault);
        rule.applied += 1;
        if (rule.remaining !== null) rule.remaining -= 1;
      }
      rules = rules.filter((r) => r.remaining === null || r.remaining > 0);
      return out;
    },
  };
}
