import { ANSWER_RULE, type ExploreRule } from '../explore/rule-coverage';
import { levelName, levelOf, type LoadModel, type LoadStep, type LoadVerdict, type RuleBroken, type RuleUnderConcurrency, type Slo } from './load-report';
import { runFigures, sloResults, sloValueText } from './slo';

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
  slos: Slo[];
  /** Why the ramp stopped before its last step ended (a sentence), if it did. */
  cutShort?: string;
  /** The signal that stopped the run, if one did. */
  stopped?: string;
  /** Open model: the in-flight cap. */
  maxInFlight?: number;
}

const maxInFlightText = (cap: number | undefined) => (cap === undefined ? '--max-in-flight requests' : `${cap} requests (--max-in-flight)`);

/** The highest level with every step up to it healthy and complete. */
export function kneeOf(steps: LoadStep[]): number | null {
  let knee: number | null = null;
  for (const step of steps) {
    if (!step.healthy || step.partial === true) break;
    knee = levelOf(step);
  }
  return knee;
}

const correctnessRules = (step: LoadStep) => (Object.keys(step.rule_breaks) as ExploreRule[]).filter((r) => r !== ANSWER_RULE);

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

/** Every reply rule and the schema, wherever broken: the first step, the count, whether it needs company. */
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

const list = (names: string[]) => (names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

export function loadVerdict(input: VerdictInput): LoadVerdict {
  const { model, steps } = input;
  const name = (level: number) => levelName(model, level);
  const ran = new Set(steps.filter((s) => s.partial !== true).map(levelOf));
  const notRun = input.levels.filter((l) => !steps.some((s) => levelOf(s) === l));
  const unmeasured = input.levels.filter((l) => !ran.has(l));
  const knee = kneeOf(steps);
  // Above the knee, the next step either failed (an exact knee) or never ran whole (a lower bound).
  const nextLevel = input.levels[knee === null ? 0 : input.levels.indexOf(knee) + 1];
  const kneeIsLowerBound = knee !== null && nextLevel !== undefined && !ran.has(nextLevel) && !steps.some((s) => levelOf(s) === nextLevel && !s.healthy);
  const flag = model === 'closed' ? '--min-concurrency' : '--min-rate';
  const cutWhy = input.cutShort ?? (input.stopped !== undefined ? `stopped by ${input.stopped}` : 'the ramp was cut short');

  const kneeText =
    knee === null
      ? unmeasured.includes(input.levels[0])
        ? `no step was measured whole (${cutWhy})`
        : 'no step held (not even the first)'
      : kneeIsLowerBound
        ? `the knee is at least ${name(knee)} (not measured beyond: ${list(unmeasured.filter((l) => l > knee).map(name))} ${unmeasured.filter((l) => l > knee).length === 1 ? 'was' : 'were'} not measured whole — ${cutWhy})`
        : `the knee is ${name(knee)}`;

  const gateHeld = input.minLevel === 0 || (knee !== null && knee >= input.minLevel);
  let gateMessage = input.minLevel === 0 ? 'no gate' : `${flag} ${input.minLevel}`;
  if (!gateHeld) {
    const needs = input.levels.find((l) => l >= input.minLevel);
    if (needs === undefined) gateMessage = `${flag} ${input.minLevel} is above every step of the ramp (the highest is ${name(input.levels.at(-1)!)})`;
    else if (knee !== null ? kneeIsLowerBound && unmeasured.includes(needs) : unmeasured.includes(needs))
      gateMessage = `${flag} ${input.minLevel} needs ${name(needs)}, which was not measured whole (${cutWhy})`;
    else gateMessage = `the knee is below ${flag} ${input.minLevel}`;
  }

  const slo = sloResults(input.slos, steps, runFigures(steps, input.latencies));
  const broken = rulesBroken(steps);
  const warnings: string[] = [];
  for (const step of steps) {
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

  const failures: string[] = [];
  if (broken.length > 0)
    failures.push(
      `reply rules broken — ${broken
        .map((r) => `${r.rule} from ${name(r.first_level)}${r.only_under_concurrency ? ' (only under concurrency)' : ''}`)
        .join(', ')}; a seller that breaks a reply rule fails whatever its capacity`,
    );
  for (const s of slo) {
    if (s.breached_at.length > 0) failures.push(`--slo ${s.expression} breached at ${list(s.breached_at.map(name))}`);
    else if (!s.run_held) failures.push(`--slo ${s.expression} breached for the run (${sloValueText(s, s.run_value)})`);
  }
  const sloUnmeasured = input.slos.length > 0 ? unmeasured : [];
  if (sloUnmeasured.length > 0) failures.push(`--slo could not be checked at ${list(sloUnmeasured.map(name))}: not measured whole (${cutWhy})`);
  if (!gateHeld) failures.push(gateMessage);
  if (input.stopped !== undefined) failures.push(`stopped (${input.stopped}), partial report`);

  const gateText = input.minLevel > 0 && gateHeld ? `, ${flag} ${input.minLevel}` : '';
  const sloText = input.slos.length > 0 && failures.length === 0 ? `; SLOs held: ${input.slos.map((s) => s.expression).join(', ')}` : '';
  const summary =
    failures.length === 0
      ? `PASS: ${kneeText}${gateText}${sloText}`
      : `FAIL: ${failures.join('; ')} (capacity: ${kneeText}${!gateHeld && input.minLevel > 0 ? '' : gateText})`;

  return {
    knee,
    knee_is_lower_bound: kneeIsLowerBound,
    deadline_ms: input.deadlineMs,
    gate: { flag, value: input.minLevel, held: gateHeld, message: gateMessage },
    rules_broken: broken,
    rules_under_concurrency: rulesBreakingLater(steps),
    slo,
    not_run: notRun,
    ...(input.cutShort !== undefined || input.stopped !== undefined ? { cut_short: cutWhy } : {}),
    warnings,
    summary,
    ok: failures.length === 0,
  };
}
