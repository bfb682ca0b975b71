import { operationOfService, validators, type ValidationIssue } from '../../contracts/index';
import type { Scenario } from '../../contracts/schemas/scenario';
import { ScenarioError } from '../errors';
import { checkScenario } from '../scenario-file';
import { createScenarioLearner, type ScenarioLearner, type ScenarioLearnerOptions } from './scenario-learner';

// The learner `record` runs: one odd exchange must not cost the whole recording. Each
// exchange is screened before it is learned (a forwarded request that breaks its schema, a
// 200 whose body is not a readable reply, a value the scenario cannot hold) and left out,
// with why, when it fails; scenario() is always valid (or undefined when nothing showed a
// location), so a stop always writes what the good exchanges taught.

/** Text that could not be parsed as JSON; kept apart from parsed values so the screen can say so. */
export const NOT_JSON: unique symbol = Symbol('not JSON');

export interface LeftOutExchange {
  /** The exchange's number in the recording (1 = the first). */
  exchange: number;
  service: string | null;
  why: string;
}

export type LearnOutcome =
  { kind: 'learned' } | { kind: 'nothing-to-learn' } | ({ kind: 'left-out' } & LeftOutExchange);

export interface RecordingLearner {
  /** One exchange, in the order the seller answered; `request`/`reply` parsed, or NOT_JSON. */
  learn(exchange: number, request: unknown, httpStatus: number | null, reply: unknown): LearnOutcome;
  /**
   * A valid scenario of every exchange kept; undefined until an answer showed
   * a location. Leaves out, and lists, any exchange the whole would not hold.
   */
  scenario(): Scenario | undefined;
  /** Exchanges left out so far, in the order they came. */
  readonly leftOut: readonly LeftOutExchange[];
  counts: ScenarioLearner['counts'];
  readonly dropped: ScenarioLearner['dropped'];
}

interface Kept {
  request: unknown;
  httpStatus: number | null;
  reply: unknown;
  exchange: number;
  service: string;
}

const firstIssue = (issues: ValidationIssue[]) =>
  issues.length === 0 ? '' : `${issues[0].path || '/'}: ${issues[0].message}`;

/** The first problem of the scenario as it will be written: JSON turns a sum that overflowed to Infinity into null. */
const problemOf = (scenario: Scenario | undefined): string | undefined => {
  if (scenario === undefined) return undefined;
  try {
    checkScenario(JSON.parse(JSON.stringify(scenario)), 'the learned scenario');
    return undefined;
  } catch (error) {
    if (error instanceof ScenarioError) return firstIssue(error.issues) || error.message;
    throw error;
  }
};

/** Why the exchange cannot be learned from; no `why` when it can (or, not being a 200, simply teaches nothing). */
function screenExchange(
  request: unknown,
  httpStatus: number | null,
  reply: unknown,
): { why?: string; service: string | null } {
  if (request === NOT_JSON) return { why: 'the forwarded request is not JSON', service: null };
  const named = (request as { service?: unknown } | null)?.service;
  const service = typeof named === 'string' ? named : null;
  const operation = service === null ? undefined : operationOfService(service);
  if (operation === undefined) return { why: 'the forwarded request names no service the contract knows', service };
  const sent = validators[operation]['seller-request'](request);
  if (!sent.valid)
    return {
      why: `the forwarded request breaks the ${service} seller-request schema at ${firstIssue(sent.errors)}`,
      service,
    };
  if (httpStatus !== 200) return { service };
  if (reply === NOT_JSON) return { why: 'the seller answered 200 with a body that is not JSON', service };
  const answered = validators[operation]['seller-reply'](reply);
  if (!answered.valid)
    return { why: `the reply breaks the ${service} seller-reply schema at ${firstIssue(answered.errors)}`, service };
  return { service };
}

/** A learner that has learned these exchanges, in order. */
function replayed(options: ScenarioLearnerOptions, exchanges: readonly Kept[]): ScenarioLearner {
  const fresh = createScenarioLearner(options);
  for (const k of exchanges) fresh.learn(k.request, k.httpStatus, k.reply);
  return fresh;
}

/** Bisects for the shortest prefix of `kept` whose scenario is invalid, given one of length `valid` that is valid. */
function firstBrokenPrefix(
  options: ScenarioLearnerOptions,
  kept: readonly Kept[],
  valid: number,
): { valid: number; broken: number } {
  let broken = kept.length;
  while (broken - valid > 1) {
    const middle = (valid + broken) >> 1;
    if (problemOf(replayed(options, kept.slice(0, middle)).scenario()) === undefined) valid = middle;
    else broken = middle;
  }
  return { valid, broken };
}

export function createRecordingLearner(options: ScenarioLearnerOptions): RecordingLearner {
  let learner = createScenarioLearner(options);
  // Every exchange kept, so the scenario can be rebuilt without one the whole turns out not to hold.
  let kept: Kept[] = [];
  const leftOut: LeftOutExchange[] = [];

  function leave(exchange: number, service: string | null, why: string): LearnOutcome {
    const entry = { exchange, service, why };
    leftOut.push(entry);
    return { kind: 'left-out', ...entry };
  }

  return {
    learn(exchange, request, httpStatus, reply) {
      const { why, service } = screenExchange(request, httpStatus, reply);
      if (why !== undefined) return leave(exchange, service, why);
      if (httpStatus !== 200) return { kind: 'nothing-to-learn' };
      // The exchange alone first: a value the scenario cannot hold shows there, before it is mixed in.
      const alone = createScenarioLearner(options);
      try {
        alone.learn(request, httpStatus, reply);
      } catch (error) {
        return leave(exchange, service, `the learner could not read it: ${(error as Error).message}`);
      }
      const problem = problemOf(alone.scenario());
      if (problem !== undefined) return leave(exchange, service, `it would make the scenario invalid (${problem})`);
      if (alone.learned === 0) return { kind: 'nothing-to-learn' };
      learner.learn(request, httpStatus, reply);
      kept.push({ request, httpStatus, reply, exchange, service: service! });
      return { kind: 'learned' };
    },
    scenario() {
      // Each exchange holds on its own; what is left is one that clashes with others. Bisect
      // for the first prefix that breaks, leave its last exchange out, and go on.
      let scenario = learner.scenario();
      let problem = problemOf(scenario);
      let valid = 0; // a prefix of `kept` known to make a valid scenario
      while (problem !== undefined) {
        const prefix = firstBrokenPrefix(options, kept, valid);
        const broken = prefix.broken;
        valid = prefix.valid;
        const culprit = kept[broken - 1];
        const why = problemOf(replayed(options, kept.slice(0, broken)).scenario()) ?? problem;
        leftOut.push({
          exchange: culprit.exchange,
          service: culprit.service,
          why: `with what came before it, it would make the scenario invalid (${why})`,
        });
        kept = [...kept.slice(0, broken - 1), ...kept.slice(broken)];
        learner = replayed(options, kept);
        scenario = learner.scenario();
        problem = problemOf(scenario);
      }
      leftOut.sort((a, b) => a.exchange - b.exchange);
      return scenario;
    },
    get leftOut() {
      return leftOut;
    },
    counts: () => learner.counts(),
    get dropped() {
      return learner.dropped;
    },
  };
}
