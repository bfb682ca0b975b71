import { Type, type Static } from '@sinclair/typebox';
import { compileValidator, type Service, type ValidationIssue } from '../contracts/index';
import { BadRequestError, UnknownResourceError } from './errors';
import { appliesTo, faultIssues, isItemFault, SERVICES, type Fault } from './faults';

// The control API's fault rules: which faults the next requests of a service meet (for the
// next N, or until cleared; for one part number; or dealt by a seeded schedule).

const FaultRuleFields = Type.Object(
  {
    service: Type.Union([...SERVICES.map((s) => Type.Literal(s)), Type.Literal('*')]),
    fault: Type.Unknown({ description: "A fault (faults.ts): its kind and that kind's parameters" }),
    count: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Applies to the next N matching requests; until cleared when omitted' }),
    ),
    part_number: Type.Optional(Type.String({ minLength: 1, description: 'Only requests naming this part number' })),
    probability: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'A seeded schedule: the share of items (item faults) or requests (others) it strikes',
      }),
    ),
    seed: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: "The schedule's seed (default 0): the same seed strikes the same items and requests",
      }),
    ),
  },
  { additionalProperties: false },
);
/** A rule as the control API takes it. */
export type FaultRuleInput = Omit<Static<typeof FaultRuleFields>, 'fault'> & { fault: Fault };

export interface FaultRule extends FaultRuleInput {
  id: string;
  /** Requests it still applies to; null until cleared. */
  remaining: number | null;
  applied: number;
}

const validateRule = compileValidator(FaultRuleFields);

export interface FaultRegistry {
  add(input: unknown): FaultRule;
  /** Every rule of the list, or none: each is checked before any is added (400 naming the index and the field). */
  addAll(inputs: readonly unknown[]): FaultRule[];
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

/** What is wrong with `input` as a fault rule, each issue at its JSON pointer (after `at`); none when it is one. */
function ruleIssues(input: unknown, at = ''): ValidationIssue[] {
  const shape = validateRule(input);
  const within = (issues: ValidationIssue[]) => issues.map((issue) => ({ ...issue, path: `${at}${issue.path}` }));
  if (!shape.valid) return within(shape.errors);
  const issues = faultIssues((input as { fault: unknown }).fault, '/fault');
  if (issues.length > 0) return within(issues);
  const rule = input as FaultRuleInput;
  if (rule.service !== '*' && !appliesTo(rule.service, rule.fault.kind))
    return within([
      { keyword: 'fault', path: '/fault/kind', message: `${rule.fault.kind} does not apply to ${rule.service}` },
    ]);
  return [];
}

export function createFaultRegistry(): FaultRegistry {
  let rules: FaultRule[] = [];
  let nextId = 1;
  const append = (rule: FaultRuleInput): FaultRule => {
    const added: FaultRule = { ...rule, id: `fault-${nextId++}`, remaining: rule.count ?? null, applied: 0 };
    rules.push(added);
    return added;
  };
  return {
    add(input) {
      const issues = ruleIssues(input);
      if (issues.length > 0) throw new BadRequestError('not a fault rule', issues);
      return append(input as FaultRuleInput);
    },
    addAll(inputs) {
      const bad = inputs.map((input, i) => ruleIssues(input, `/${i}`)).filter((issues) => issues.length > 0);
      if (bad.length > 0) {
        const indices = bad.map((issues) => issues[0].path.split('/')[1]);
        throw new BadRequestError(
          `not a list of fault rules: ${indices.length === 1 ? 'rule' : 'rules'} ${indices.join(', ')} (from 0) ` +
            `${indices.length === 1 ? 'is' : 'are'} not fault rules; none of the ${inputs.length} was added`,
          bad.flat(),
        );
      }
      return inputs.map((input) => append(input as FaultRuleInput));
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
        if (!appliesTo(service, rule.fault.kind)) continue;
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
        const { fault } = rule;
        const targeted =
          rule.part_number !== undefined &&
          isItemFault(fault) &&
          fault.id === undefined &&
          fault.part_number === undefined;
        out.push(targeted ? { ...fault, part_number: rule.part_number } : fault);
        rule.applied += 1;
        if (rule.remaining !== null) rule.remaining -= 1;
      }
      rules = rules.filter((r) => r.remaining === null || r.remaining > 0);
      return out;
    },
  };
}
