import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { compileValidator, SERVICE_OF, type Service, type ValidationIssue, type Validator } from '../contracts/index';
import { BadRequestError } from './errors';

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

// Each kind of fault once: its parameters (the fields its object and its header part may
// carry, and no others), the services it can spoil, and how a seeded rule deals it (per item,
// per item that has a related part, or per request). What it does is its injector's business
// (fault-injectors.ts).

export const SERVICES: readonly Service[] = Object.values(SERVICE_OF);
const ITEM_SERVICES: readonly Service[] = ['item_inquiry', 'place_order'];
const ITEM_INQUIRY: readonly Service[] = ['item_inquiry'];

const DELAY = {
  ms: Type.Optional(Type.Integer({ minimum: 0, description: 'latency: fixed delay' })),
  min_ms: Type.Optional(Type.Integer({ minimum: 0, description: 'latency: random delay, lower bound' })),
  max_ms: Type.Optional(Type.Integer({ minimum: 0, description: 'latency: random delay, upper bound' })),
  distribution: Type.Optional(
    Type.Union([Type.Literal('fixed'), Type.Literal('log-normal')], {
      description: 'latency: log-normal draws around median_ms with spread sigma',
    }),
  ),
  median_ms: Type.Optional(Type.Integer({ minimum: 0, description: 'latency, log-normal: the median delay' })),
  sigma: Type.Optional(
    Type.Number({ minimum: 0, maximum: 5, description: 'latency, log-normal: the spread (default 0.5)' }),
  ),
};
const ITEM_TARGET = {
  id: Type.Optional(
    Type.String({ minLength: 1, description: 'violations: the item id to tamper with (default: the first)' }),
  ),
  part_number: Type.Optional(
    Type.String({ minLength: 1, description: 'violations: tamper with the item of this part number' }),
  ),
};

interface KindDefinition {
  params: TProperties;
  services: readonly Service[];
  /**
   * How a rule with a probability deals it: per item (one fault per item
   * struck), per item whose part has a related part, or per request.
   */
  dealt: 'per-item' | 'per-related-item' | 'per-request';
}

const KINDS = {
  latency: { params: DELAY, services: SERVICES, dealt: 'per-request' },
  'http-status': {
    params: {
      status: Type.Optional(
        Type.Integer({ minimum: 100, maximum: 599, description: 'http-status: the HTTP status (default 503)' }),
      ),
    },
    services: SERVICES,
    dealt: 'per-request',
  },
  'status-code': {
    params: {
      code: Type.Optional(Type.Integer({ description: 'status-code: the seller status_code (default 5503)' })),
    },
    services: SERVICES,
    dealt: 'per-request',
  },
  'malformed-json': { params: {}, services: SERVICES, dealt: 'per-request' },
  truncated: { params: {}, services: SERVICES, dealt: 'per-request' },
  reset: { params: {}, services: SERVICES, dealt: 'per-request' },
  hang: { params: {}, services: SERVICES, dealt: 'per-request' },
  'drop-id': { params: ITEM_TARGET, services: ITEM_SERVICES, dealt: 'per-item' },
  'change-id': { params: ITEM_TARGET, services: ITEM_SERVICES, dealt: 'per-item' },
  'add-unknown-id': { params: ITEM_TARGET, services: ITEM_SERVICES, dealt: 'per-request' },
  'wrong-original-part': { params: ITEM_TARGET, services: ITEM_INQUIRY, dealt: 'per-related-item' },
  'wrong-original-mfr': { params: ITEM_TARGET, services: ITEM_INQUIRY, dealt: 'per-related-item' },
  'extra-location': { params: ITEM_TARGET, services: ITEM_INQUIRY, dealt: 'per-item' },
  'missing-field': {
    params: {
      field: Type.Optional(
        Type.String({ pattern: '^(/[^/]+)+$', description: 'missing-field: JSON pointer of the field to drop' }),
      ),
    },
    services: SERVICES,
    dealt: 'per-request',
  },
} satisfies Record<string, KindDefinition>;

export type FaultKind = keyof typeof KINDS;
export const FAULT_KINDS = Object.keys(KINDS) as FaultKind[];

const SCHEDULED = Type.Optional(
  Type.String({
    description: 'set by the mock: the seeded rule that dealt this fault (rule id, seed, probability), for the journal',
  }),
);
const faultSchema = <K extends FaultKind>(kind: K) =>
  Type.Object(
    { kind: Type.Literal(kind), ...KINDS[kind].params, scheduled: SCHEDULED },
    { additionalProperties: false },
  );

type ParamsOf<K extends FaultKind> = (typeof KINDS)[K]['params'];
/** Every parameter name of every kind. */
type AnyParam = { [K in FaultKind]: keyof ParamsOf<K> }[FaultKind];
/**
 * The fault of one kind: its kind and its own parameters. Other kinds' parameters are typed
 * absent (as the schema refuses them), so `fault.id` reads as undefined on a latency.
 */
export type FaultOf<K extends FaultKind> = {
  [Kind in FaultKind]: { kind: Kind; scheduled?: string } & Static<TObject<ParamsOf<Kind>>> & {
      [P in Exclude<AnyParam, keyof ParamsOf<Kind>>]?: never;
    };
}[K];
/** One fault, of any kind: a union discriminated by `kind`. */
export type Fault = FaultOf<FaultKind>;

/** Kinds that tamper with one item of a reply (an id or a part number names which). */
export type ItemFaultKind = { [K in FaultKind]: ParamsOf<K> extends typeof ITEM_TARGET ? K : never }[FaultKind];
export type ItemFault = FaultOf<ItemFaultKind>;
export const isItemFault = (fault: Fault): fault is ItemFault => KINDS[fault.kind].params === ITEM_TARGET;

/** How a seeded rule deals faults of this kind. */
export const dealtOf = (kind: FaultKind): KindDefinition['dealt'] => KINDS[kind].dealt;

/** Whether a fault of this kind can spoil the service's replies (violations need item ids, locations, alternates). */
export const appliesTo = (service: Service, kind: FaultKind): boolean => KINDS[kind].services.includes(service);

const validateKind = compileValidator(Type.Object({ kind: Type.Union(FAULT_KINDS.map((kind) => Type.Literal(kind))) }));
const validateOfKind = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, compileValidator(faultSchema(kind))])) as {
  [K in FaultKind]: Validator<FaultOf<K>>;
};

/** What the fields cannot say: a latency needs one of its three forms, and bounds in order. */
function latencyIssues(fault: FaultOf<'latency'>): { path: string; message: string }[] {
  if (fault.distribution === 'log-normal' && fault.median_ms === undefined)
    return [{ path: '/median_ms', message: 'a log-normal latency needs median_ms (and sigma, default 0.5)' }];
  if (
    fault.distribution !== 'log-normal' &&
    fault.ms === undefined &&
    (fault.min_ms === undefined || fault.max_ms === undefined)
  )
    return [{ path: '', message: 'latency needs ms, min_ms and max_ms, or distribution log-normal with median_ms' }];
  if (fault.min_ms !== undefined && fault.max_ms !== undefined && fault.min_ms > fault.max_ms)
    return [{ path: '/min_ms', message: 'min_ms is above max_ms' }];
  return [];
}

/** The issues of `value` as a fault, their paths under `at`; none when it is one. */
export function faultIssues(value: unknown, at: string): ValidationIssue[] {
  const under = (issues: ValidationIssue[]) => issues.map((issue) => ({ ...issue, path: `${at}${issue.path}` }));
  const kind = validateKind(value);
  if (!kind.valid) return under(kind.errors);
  const fault = value as Fault;
  const shape = validateOfKind[fault.kind](fault);
  if (!shape.valid) return under(shape.errors);
  return fault.kind === 'latency' ? under(latencyIssues(fault).map((issue) => ({ keyword: 'fault', ...issue }))) : [];
}

export function describeFault(fault: Fault): string {
  const params = Object.entries(fault)
    .filter(([k]) => k !== 'kind')
    .map(([k, v]) => `;${k}=${v}`);
  return fault.kind + params.join('');
}

/**
 * A header parameter's value as its field is typed: integers and
 * numbers as numbers, the rest (and anything unparsable) as written.
 */
function paramValue(kind: string, name: string, value: string): unknown {
  const params: TProperties | undefined = Object.hasOwn(KINDS, kind) ? KINDS[kind as FaultKind].params : undefined;
  const type =
    params !== undefined && Object.hasOwn(params, name) ? (params[name] as { type?: unknown }).type : undefined;
  if (type === 'integer' && /^-?\d+$/.test(value)) return Number(value);
  if (type === 'number' && /^\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
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
        fault[param.slice(0, eq)] = paramValue(kind, param.slice(0, eq), param.slice(eq + 1));
      }
      const issues = faultIssues(fault, `/${i}`);
      if (issues.length > 0)
        throw new BadRequestError(`x-mock-fault: '${part}' is not a fault (kinds: ${FAULT_KINDS.join(', ')})`, issues);
      return fault as Fault;
    });
}

/** Faults in `faults` that the service cannot honour; the seller endpoint ignores them (journaled as not applied). */
export function inapplicable(service: Service, faults: readonly Fault[]): Fault[] {
  return faults.filter((f) => !appliesTo(service, f.kind));
}
