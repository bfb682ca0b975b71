import { withRun, type TestCase, type TestCaseList } from '../reports/test-cases';
import { sloValueText } from './slo';
import { levelName, levelOf, stepOutcome, type LoadReport, type LoadStep } from './load-report';

// A load run as test cases, for JUnit and CTRF: one per step (stable names for CI history:
// `concurrency 8`, `200 req/s`), failed when the step is unhealthy, broke a rule or an SLO;
// one skipped per step that did not run, saying why; one per broken reply rule (correctness
// fails the run whatever the knee); one per SLO; one for the capacity gate; an error when a
// signal stopped the run.

function stepCase(report: LoadReport, s: LoadStep): TestCase {
  const deadline = report.verdict.deadline_ms;
  const stats =
    `${s.exchanges} exchanges, ${s.throughput_per_s}/s, p50 ${s.latency_ms.p50} ms, p99 ${s.latency_ms.p99} ms (deadline ${deadline}), timeouts ${s.timeouts}, errors ${s.errors}` +
    (s.model === 'open' ? `, sent ${s.sent_per_s}/s, dropped ${s.dropped}` : '');
  const problems = [
    ...(s.healthy ? [] : [s.model === 'open' && !s.schedule_kept ? 'unhealthy (schedule not kept)' : 'unhealthy']),
    ...(s.correct ? [] : ['reply rules broken']),
    ...s.slo_breaches.map((e) => `SLO ${e} breached`),
    ...(s.partial === true ? ['cut short'] : []),
  ];
  const base = { classname: 'load', name: levelName(report.model, levelOf(s)), seconds: s.seconds };
  switch (stepOutcome(s)) {
    case 'held':
      return { ...base, status: 'passed', detail: stats };
    case 'cut-short':
      // Not measured whole, nothing broken: skipped with the reason, as a step that never ran.
      return {
        ...base,
        status: 'skipped',
        message: `cut short: ${report.verdict.cut_short ?? report.stopped ?? 'the ramp was cut short'}; ${stats}`,
      };
    case 'failed':
      break;
  }
  const detail = [
    stats,
    ...Object.entries(s.rule_breaks).map(([rule, n]) => `${rule}: broken ${n}×`),
    ...Object.values(s.first_failures).map((f) =>
      f === undefined
        ? ''
        : `${f.rule}: ${f.message} — ${f.reproduces === 'only-under-concurrency' ? `only under concurrency; ${f.replay ?? ''}` : f.curl}`,
    ),
  ].join('\n');
  return { ...base, status: 'failed', message: `${base.name}: ${problems.join(', ')}; ${stats}`, detail };
}

export function loadTestCases(report: LoadReport): TestCaseList {
  const { verdict, model } = report;
  const cases = report.steps.map((s) => stepCase(report, s));
  for (const level of verdict.not_run)
    cases.push({
      classname: 'load',
      name: levelName(model, level),
      seconds: 0,
      status: 'skipped',
      message: `not run: ${verdict.cut_short ?? 'the ramp was cut short'}`,
    });
  for (const r of verdict.rules_broken)
    cases.push({
      classname: 'rule',
      name: r.rule,
      seconds: 0,
      status: 'failed',
      message: `${r.rule} broken in ${r.exchanges} exchange(s), first at ${levelName(model, r.first_level)}${r.only_under_concurrency ? ', only under concurrency' : ''}: ${r.first_failure.message}`,
      detail: r.first_failure.replay ?? r.first_failure.curl,
    });
  for (const s of verdict.slo) {
    const held = s.breached_at.length === 0 && s.run_held;
    cases.push({
      classname: 'slo',
      name: s.expression,
      seconds: 0,
      status: held ? 'passed' : 'failed',
      ...(held
        ? {}
        : {
            message: `${s.expression} breached${s.breached_at.length > 0 ? ` at ${s.breached_at.map((l) => levelName(model, l)).join(', ')}` : ''} (the run: ${sloValueText(s, s.run_value)})`,
          }),
    });
  }
  const gate = verdict.gate;
  // A gate the vendor did not give is no test case of its name: the case is the first step's capacity.
  cases.push({
    classname: 'load',
    name: gate.given ? gate.flag.slice(2) : 'capacity',
    seconds: 0,
    status: gate.held ? 'passed' : 'failed',
    ...(gate.held ? {} : { message: `${gate.message} (knee ${verdict.knee ?? 'none'})` }),
  });
  if (report.stopped !== undefined)
    cases.push({
      classname: 'load',
      name: `run stopped by ${report.stopped}`,
      seconds: 0,
      status: 'error',
      message: `run stopped by ${report.stopped}: ${verdict.not_run.length} step(s) not run`,
    });
  return withRun(cases, report.run);
}
