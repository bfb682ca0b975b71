import { ANSWER_RULE, type ExploreRule } from '../explore/rule-coverage';
import {
  levelName,
  levelOf,
  type LoadModel,
  type LoadStep,
  type LoadVerdict,
  type RuleBroken,
  type RuleUnderConcurrency,
  type Slo,
  type SloResult,
} from './load-report';
import { runFigures, sloResults, sloValueText } from './slo';
import { smallWritesNote } from './small-writes';

// The verdict of a load run, in one place for every form of the report. Correctness is not
// capacity: any reply rule or schema broken at any step fails the run, whatever the knee. The
// knee speaks only of capacity (latency, timeouts, errors, the schedule), and never of a step
// that did not run: a ramp cut short says so, and a gate that needs an unmeasured step fails.

export interface VerdictInput {
  model: LoadModel;
  /** The levels announced, in order. */
  levels: number[];
  steps: LoadStep[];
  /** Each step's latencies, as recorded (for the run's SLO figures). */
  latencies: Float64Array[];
  deadlineMs: number;
  /** --min-concurrency or --min-rate (0: no gate). */
  minLevel: number;
  /** Whether the vendor gave that gate: the verdict names no flag they did not pass. */
  minLevelGiven: boolean;
  slos: Slo[];
  /** Why the ramp stopped before its last step ended (a sentence), if it did. */
  cutShort?: string;
  /** What cut a step under way: 'the time limit (--time-limit 2s)', 'the request budget (--max-requests 8)'. */
  cutBy?: string;
  /** The signal that stopped the run, if one did. */
  stopped?: string;
  /** Open model: the in-flight cap. */
  maxInFlight?: number;
}

const maxInFlightText = (cap: number | undefined) =>
  cap === undefined ? '--max-in-flight requests' : `${cap} requests (--max-in-flight)`;

/** The highest level with every step up to it healthy and complete. */
export function kneeOf(steps: LoadStep[]): number | null {
  let knee: number | null = null;
  for (const step of steps) {
    if (!step.healthy || step.partial === true) break;
    knee = levelOf(step);
  }
  return knee;
}

const correctnessRules = (step: LoadStep) =>
  (Object.keys(step.rule_breaks) as ExploreRule[]).filter((r) => r !== ANSWER_RULE);

/** Rules kept at the first step and broken at a later one, with the step they first broke at. */
export function rulesBreakingLater(steps: LoadStep[]): RuleUnderConcurrency[] {
  if (steps.length === 0) return [];
  const atFirst = new Set(Object.keys(steps[0].rule_breaks));
  const out = new Map<ExploreRule, RuleUnderConcurrency>();
  for (const step of steps.slice(1))
    for (const rule of correctnessRules(step)) {
      if (atFirst.has(rule) || out.has(rule)) continue;
      out.set(rule, { rule, first_broken_at: levelOf(step), first_failure: step.first_failures[rule]! });
    }
  return [...out.values()];
}

/** Every reply rule and the schema, wherever broken: the first step, the count, whether only under concurrency. */
export function rulesBroken(steps: LoadStep[]): RuleBroken[] {
  const out = new Map<ExploreRule, RuleBroken>();
  for (const step of steps)
    for (const rule of correctnessRules(step)) {
      const seen = out.get(rule);
      if (seen !== undefined) {
        seen.exchanges += step.rule_breaks[rule] ?? 0;
        continue;
      }
      const first = step.first_failures[rule]!;
      out.set(rule, {
        rule,
        first_level: levelOf(step),
        exchanges: step.rule_breaks[rule] ?? 0,
        only_under_concurrency: first.reproduces === 'only-under-concurrency',
        first_failure: first,
      });
    }
  return [...out.values()];
}

/** The signal as the vendor gave it: Ctrl-C is SIGINT. */
const signalWords = (signal: string) => (signal === 'SIGINT' ? 'Ctrl-C (SIGINT)' : signal);

const list = (names: string[]) =>
  names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/** What the ramp measured: the knee, whether it is only a lower bound, and the levels not measured whole. */
function capacityOf(input: VerdictInput) {
  const { steps } = input;
  const name = (level: number) => levelName(input.model, level);
  const ran = new Set(steps.filter((s) => s.partial !== true).map(levelOf));
  const unmeasured = input.levels.filter((l) => !ran.has(l));
  const knee = kneeOf(steps);
  // Above the knee, the next step either failed (an exact knee) or never ran whole (a lower bound).
  const nextLevel = input.levels[knee === null ? 0 : input.levels.indexOf(knee) + 1];
  const kneeIsLowerBound =
    knee !== null &&
    nextLevel !== undefined &&
    !ran.has(nextLevel) &&
    !steps.some((s) => levelOf(s) === nextLevel && !s.healthy);
  const cutWhy =
    input.cutShort ??
    (input.stopped !== undefined ? `stopped by ${signalWords(input.stopped)}` : 'the ramp was cut short');
  const above = knee === null ? [] : unmeasured.filter((l) => l > knee);
  const kneeText =
    knee === null
      ? unmeasured.includes(input.levels[0])
        ? `no step was measured whole (${cutWhy})`
        : 'no step held (not even the first)'
      : kneeIsLowerBound
        ? `the knee is at least ${name(knee)} (not measured beyond: ${list(above.map(name))} ${above.length === 1 ? 'was' : 'were'} not measured whole — ${cutWhy})`
        : `the knee is ${name(knee)}`;
  return { knee, kneeIsLowerBound, unmeasured, cutWhy, kneeText };
}
type Capacity = ReturnType<typeof capacityOf>;

/**
 * The capacity gate. Given (--min-concurrency / --min-rate above 0): the knee must reach it, said
 * as "--min-concurrency 4: not met, the knee is concurrency 2". Not given: no flag is named, and
 * the run still needs its first step measured whole and held — a run that measured nothing, or
 * whose first step failed, is not a success. `saysKnee`: the message already states the capacity.
 */
function gateOf(input: VerdictInput, capacity: Capacity) {
  const { knee, kneeIsLowerBound, unmeasured, cutWhy } = capacity;
  const name = (level: number) => levelName(input.model, level);
  const flag = input.model === 'closed' ? ('--min-concurrency' as const) : ('--min-rate' as const);
  const given = input.minLevelGiven && input.minLevel > 0;
  const firstUnmeasured = knee === null && unmeasured.includes(input.levels[0]);
  const base = { flag, value: given ? input.minLevel : 0, given };
  if (!given) {
    if (knee !== null) return { ...base, held: true, message: 'no gate', saysKnee: false };
    if (firstUnmeasured)
      return {
        ...base,
        held: false,
        message: `capacity not stated: ${name(input.levels[0])} was not measured whole (${cutWhy})`,
        saysKnee: true,
      };
    return { ...base, held: false, message: `not even the first step held (${name(input.levels[0])})`, saysKnee: true };
  }
  const gate = `${flag} ${input.minLevel}`;
  if (knee !== null && knee >= input.minLevel) return { ...base, held: true, message: `${gate}: met`, saysKnee: false };
  const needs = input.levels.find((l) => l >= input.minLevel);
  const needsUnmeasured =
    needs !== undefined &&
    (knee !== null ? kneeIsLowerBound && unmeasured.includes(needs) : unmeasured.includes(needs));
  if (needs === undefined)
    return {
      ...base,
      held: false,
      message: `${gate}: cannot be met, the ramp's highest step is ${name(input.levels.at(-1)!)}`,
      saysKnee: false,
    };
  if (needsUnmeasured && firstUnmeasured)
    return {
      ...base,
      held: false,
      message: `${gate}: not judged, no step was measured whole (${cutWhy})`,
      saysKnee: true,
    };
  if (needsUnmeasured)
    return {
      ...base,
      held: false,
      message: `${gate}: not judged, ${name(needs)} was not measured whole (${cutWhy})`,
      saysKnee: false,
    };
  return {
    ...base,
    held: false,
    message: `${gate}: not met, ${knee === null ? 'no step held (not even the first)' : `the knee is ${name(knee)}`}`,
    saysKnee: true,
  };
}

/** Sentences the reader should see: coordinated omission suspected, a schedule not kept. */
function warningsOf(input: VerdictInput): string[] {
  const name = (level: number) => levelName(input.model, level);
  const warnings: string[] = [];
  for (const step of input.steps) {
    if (step.model === 'closed' && step.coordinated_omission !== undefined)
      warnings.push(
        `${name(step.concurrency)}: the latencies suggest coordinated omission — the slowest reply took ${step.coordinated_omission.max_ms} ms while most took ${step.latency_ms.p50} ms; ` +
          `a closed model sends less while the seller stalls, so the stall hides in the percentiles (p99 ${step.latency_ms.p99} ms measured, ≈ ${step.coordinated_omission.corrected_p99_ms} ms had requests kept arriving). Measure with --rate.`,
      );
    if (step.model === 'open' && !step.schedule_kept && step.partial !== true)
      warnings.push(
        step.dropped > 0
          ? `${name(step.rate)}: ${step.dropped} request(s) came due while ${maxInFlightText(input.maxInFlight)} were still waiting, and were dropped — the gateway would have refused them (5503): your system did not keep up with this rate.`
          : `${name(step.rate)}: the driver sent only ${step.sent_per_s} req/s — this step did not measure the rate it names (a busy machine, or a rate beyond the driver).`,
      );
  }
  return warnings;
}

/** Why the run fails, each as a sentence: broken rules, SLOs breached or unchecked, the gate, a stop. */
function failuresOf(
  input: VerdictInput,
  broken: RuleBroken[],
  slo: SloResult[],
  capacity: Capacity,
  gate: { held: boolean; message: string },
): string[] {
  const name = (level: number) => levelName(input.model, level);
  const failures: string[] = [];
  if (broken.length > 0)
    failures.push(`${brokenCount(input, broken)}; a seller that breaks a reply rule fails whatever its capacity`);
  for (const s of slo) {
    if (s.breached_at.length > 0) failures.push(`--slo ${s.expression} breached at ${list(s.breached_at.map(name))}`);
    else if (!s.run_held) failures.push(`--slo ${s.expression} breached for the run (${sloValueText(s, s.run_value)})`);
  }
  const sloUnmeasured = input.slos.length > 0 ? capacity.unmeasured : [];
  if (sloUnmeasured.length > 0)
    failures.push(
      `--slo could not be checked at ${list(sloUnmeasured.map(name))}: not measured whole (${capacity.cutWhy})`,
    );
  if (!gate.held) failures.push(gate.message);
  if (input.stopped !== undefined) failures.push(`stopped (${input.stopped}), partial report`);
  return failures;
}

const counted = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The verdict of a run the vendor stopped, in their words: how far it got, what capacity the
 * finished steps showed (nothing about those that did not finish, nor about a gate), and
 * correctness over every reply checked, which holds whatever the stop.
 */
function stoppedSummary(
  input: VerdictInput & { stopped: string },
  capacity: Capacity,
  broken: RuleBroken[],
  slo: SloResult[],
): string {
  const name = (level: number) => levelName(input.model, level);
  const finished = input.steps.filter((s) => s.partial !== true).length;
  const { knee } = capacity;
  // The step above the knee: a failure it measured (a partial step with replies that broke the
  // deadline) bounds the knee; one the stop cut before it measured anything does not.
  const next = knee === null ? input.levels[0] : input.levels[input.levels.indexOf(knee) + 1];
  const nextStep = input.steps.find((s) => levelOf(s) === next);
  const nextFailed = nextStep !== undefined && !nextStep.healthy && nextStep.exchanges > 0;
  const measured =
    knee !== null && (next === undefined || nextFailed)
      ? `the knee is ${name(knee)}`
      : nextFailed
        ? 'no step held (not even the first)'
        : knee === null
          ? 'capacity not stated: no step finished'
          : `held up to ${name(knee)}, capacity not stated for the steps that did not finish`;
  const breaches = slo
    .filter((s) => s.breached_at.length > 0)
    .map((s) => `; --slo ${s.expression} breached at ${list(s.breached_at.map(name))}`)
    .join('');
  const signal = input.stopped === 'SIGINT' ? 'Ctrl-C' : input.stopped;
  return `STOPPED (${signal}) after ${finished} of ${counted(input.levels.length, 'step', 'steps')}: ${measured}${breaches}; correctness: ${correctnessOf(input, broken)}`;
}

/** Correctness over every reply checked, whatever else the run measured (a stop, a cut). */
function correctnessOf(input: VerdictInput, broken: RuleBroken[]): string {
  const replies = counted(repliesChecked(input.steps), 'reply checked', 'replies checked');
  return broken.length === 0 ? `no reply broke a rule in the ${replies}` : `FAIL, ${brokenCount(input, broken)}`;
}

/** Replies checked: every exchange answered in time with HTTP 200 (the rest are capacity, not correctness). */
const repliesChecked = (steps: LoadStep[]) =>
  steps.reduce((n, s) => n + Math.max(0, s.exchanges - s.timeouts - s.errors), 0);

/**
 * "212 of 9,840 replies broke a reply rule — item.unknown-id ×180 from concurrency 16 (only under
 * concurrency), …": the replies that broke any rule (each once), then each rule with its count.
 */
function brokenCount(input: VerdictInput, broken: RuleBroken[]): string {
  const name = (level: number) => levelName(input.model, level);
  const checked = repliesChecked(input.steps);
  // A reply breaking two rules counts once; never fewer than the rule broken most often.
  const replies = Math.max(
    input.steps.reduce((n, s) => n + s.replies_broken, 0),
    ...broken.map((r) => r.exchanges),
  );
  const rules = broken
    .map(
      (r) =>
        `${r.rule} ×${r.exchanges.toLocaleString('en-US')} from ${name(r.first_level)}${r.only_under_concurrency ? ' (only under concurrency)' : ''}`,
    )
    .join(', ');
  return `${replies.toLocaleString('en-US')} of ${counted(checked, 'reply', 'replies')} broke a reply rule — ${rules}`;
}

/**
 * A run cut during its first step with no gate given and nothing broken: it measured no step
 * whole, so it states no capacity (and checked no SLO), only the correctness of what it saw.
 */
function notMeasuredSummary(input: VerdictInput, capacity: Capacity, broken: RuleBroken[]): string {
  const first = levelName(input.model, input.levels[0]);
  const why =
    input.cutBy !== undefined ? `${input.cutBy} ended the run during its first step (${first})` : capacity.cutWhy;
  const slos = input.slos.length > 0 ? `, --slo ${input.slos.map((s) => s.expression).join(',')} not checked` : '';
  return `NOT MEASURED: ${why}: capacity not stated${slos}; correctness: ${correctnessOf(input, broken)}`;
}

export function loadVerdict(input: VerdictInput): LoadVerdict {
  const capacity = capacityOf(input);
  const gate = gateOf(input, capacity);
  const slo = sloResults(input.slos, input.steps, runFigures(input.steps, input.latencies));
  const broken = rulesBroken(input.steps);
  const failures = failuresOf(input, broken, slo, capacity, gate);

  const gateText = gate.given && gate.held ? `; ${gate.message}` : '';
  const sloText =
    input.slos.length > 0 && failures.length === 0
      ? `; SLOs held: ${input.slos.map((s) => s.expression).join(', ')}`
      : '';
  const nothingMeasured =
    !gate.given &&
    capacity.knee === null &&
    capacity.unmeasured.includes(input.levels[0]) &&
    broken.length === 0 &&
    slo.every((s) => s.breached_at.length === 0 && s.run_held);
  const summary =
    input.stopped !== undefined
      ? stoppedSummary({ ...input, stopped: input.stopped }, capacity, broken, slo)
      : nothingMeasured
        ? notMeasuredSummary(input, capacity, broken)
        : failures.length === 0
          ? `PASS: ${capacity.kneeText}${gateText}${sloText}`
          : `FAIL: ${failures.join('; ')}${!gate.held && gate.saysKnee ? '' : ` (capacity: ${capacity.kneeText}${gateText})`}`;

  return {
    knee: capacity.knee,
    knee_is_lower_bound: capacity.kneeIsLowerBound,
    deadline_ms: input.deadlineMs,
    gate: { flag: gate.flag, value: gate.value, given: gate.given, held: gate.held, message: gate.message },
    rules_broken: broken,
    rules_under_concurrency: rulesBreakingLater(input.steps),
    slo,
    not_run: input.levels.filter((l) => !input.steps.some((s) => levelOf(s) === l)),
    ...(input.cutShort !== undefined || input.stopped !== undefined ? { cut_short: capacity.cutWhy } : {}),
    warnings: warningsOf(input),
    notes: input.steps.flatMap((s) =>
      s.model === 'closed' && s.small_writes_held !== undefined ? [smallWritesNote(s.small_writes_held)] : [],
    ),
    summary,
    ok: failures.length === 0,
  };
}
