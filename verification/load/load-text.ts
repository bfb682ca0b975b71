import { identityLines } from '../reports/run-identity';
import type { Palette } from '../reports/palette';
import { ALONE_TRIES } from '../explore/alone';
import { sloValueText } from './slo';
import {
  levelName,
  levelOf,
  stepOutcome,
  type LoadFailingExchange,
  type LoadModel,
  type LoadReport,
  type LoadStep,
} from './load-report';

// The load report as text: one row per step, then the steps that did not run, the failures
// (told apart: alone, or only under concurrency with a replay command), the SLOs, the
// warnings, and the verdict line (load-verdict.ts wrote it; every form prints the same).

const pad = (text: string, width: number) => text.padStart(width);

function rules(step: LoadStep): string {
  const entries = Object.entries(step.rule_breaks);
  return entries.length === 0 ? '—' : entries.map(([rule, n]) => `${rule} ×${n}`).join(', ');
}

export function stepLine(step: LoadStep, deadlineMs: number, palette: Palette): string {
  const outcome = stepOutcome(step);
  const mark = outcome === 'held' ? palette.pass('ok  ') : outcome === 'failed' ? palette.fail('FAIL') : 'cut ';
  const p99 = `${step.latency_ms.p99}`;
  const level =
    step.model === 'closed'
      ? [pad(String(step.concurrency), 11)]
      : [
          pad(String(step.rate), 6),
          pad(step.sent_per_s.toFixed(1), 8),
          pad(step.dropped > 0 ? palette.fail(String(step.dropped)) : '0', 7),
        ];
  const notes = [
    step.partial === true ? '(partial)' : '',
    step.slo_breaches.length > 0 ? `SLO breached: ${step.slo_breaches.join(', ')}` : '',
    step.model === 'closed' && step.coordinated_omission !== undefined
      ? `(coordinated omission? p99 ≈ ${step.coordinated_omission.corrected_p99_ms} ms corrected)`
      : '',
    step.model === 'open' && !step.schedule_kept && step.partial !== true ? '(schedule not kept)' : '',
  ].filter((n) => n !== '');
  return [
    mark,
    ...level,
    pad(String(step.exchanges), 9),
    pad(step.throughput_per_s.toFixed(1), 8),
    pad(String(step.latency_ms.p50), 7),
    pad(String(step.latency_ms.p90), 7),
    pad(String(step.latency_ms.p95), 7),
    pad(step.latency_ms.p99 >= deadlineMs ? palette.fail(p99) : p99, 7),
    pad(String(step.latency_ms.max), 7),
    pad(String(step.timeouts), 8),
    pad(String(step.errors), 6),
    `  ${rules(step)}${notes.length > 0 ? ` ${notes.join(' ')}` : ''}`,
  ].join(' ');
}

const FIGURES_HEADER = 'exchanges   req/s     p50     p90     p95     p99     max timeouts errors  rule breaks';

export function stepHeader(model: LoadModel): string {
  switch (model) {
    case 'closed':
      return `step concurrency ${FIGURES_HEADER}`;
    case 'open':
      return `step   rate  sent/s dropped ${FIGURES_HEADER}`;
  }
}

function failureText(model: LoadModel, level: number, f: LoadFailingExchange): string {
  const head = `  ${f.rule} (${f.operation}) first broken at ${levelName(model, level)}: ${f.message} at ${f.path || '/'}`;
  if (f.reproduces === 'only-under-concurrency')
    return [
      head,
      `    only under concurrency: sent alone ${ALONE_TRIES} times after the run, the reply was correct every time — a lone curl would pass.`,
      `    ${f.companions?.length ?? 0} request(s) were in flight beside it; replay them together:`,
      `    ${f.replay ?? '(no replay file written)'}`,
    ].join('\n');
  const alone = f.reproduces === 'alone' ? 'reproduces alone' : 'not re-sent (run stopped)';
  return [head, `    ${alone}: ${f.curl}`].join('\n');
}

export function renderLoad(report: LoadReport, palette: Palette): string {
  const { verdict, model } = report;
  const name = (level: number) => levelName(model, level);
  const lines = [
    `Load on ${report.seller_url} (${report.catalogue}, seed ${report.seed}), ${model === 'closed' ? 'closed model' : `open model (at most ${report.max_in_flight} in flight)`}, deadline ${verdict.deadline_ms} ms, ${report.step_seconds} s a step`,
    ...(report.run !== undefined ? identityLines(report.run) : []),
    '',
    stepHeader(model),
    ...report.steps.map((s) => stepLine(s, verdict.deadline_ms, palette)),
    '',
  ];
  if (verdict.not_run.length > 0)
    lines.push(
      palette.fail(
        `Not run: ${verdict.not_run.map(name).join(', ')} — ${verdict.cut_short ?? 'the ramp was cut short'}.`,
      ),
      '',
    );
  const shown = new Set<string>();
  const failures: string[] = [];
  for (const step of report.steps)
    for (const f of Object.values(step.first_failures)) {
      if (f === undefined || shown.has(f.rule)) continue;
      shown.add(f.rule);
      failures.push(failureText(model, levelOf(step), f));
    }
  if (failures.length > 0) lines.push('Failures (the first of each rule):', ...failures, '');
  for (const r of verdict.rules_under_concurrency)
    lines.push(
      palette.fail(`${r.rule} held at ${name(levelOf(report.steps[0]))} and broke from ${name(r.first_broken_at)} on`),
    );
  if (verdict.slo.length > 0) {
    lines.push('', 'SLOs:');
    for (const s of verdict.slo) {
      const held = s.breached_at.length === 0 && s.run_held;
      const where =
        s.breached_at.length > 0
          ? `breached at ${s.breached_at.map(name).join(', ')}`
          : held
            ? 'held at every step'
            : 'breached for the run';
      lines.push(
        `  ${held ? palette.pass('held    ') : palette.fail('BREACHED')} ${s.expression}: ${where} (the run: ${sloValueText(s, s.run_value)})`,
      );
    }
  }
  if (verdict.warnings.length > 0) lines.push('', ...verdict.warnings.map((w) => `warning: ${w}`));
  if (verdict.notes.length > 0) lines.push('', ...verdict.notes.map((n) => `note: ${n}`));
  if (lines.at(-1) !== '') lines.push('');
  lines.push(verdict.ok ? palette.pass(verdict.summary) : palette.fail(verdict.summary), '');
  return lines.join('\n');
}
