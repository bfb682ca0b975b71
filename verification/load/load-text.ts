import type { Palette } from '../palette';
import { ALONE_TRIES } from '../explore/alone';
import type { LoadFailingExchange, LoadReport, LoadStep } from './load-report';

// The load report as text: one row per step, then the failures (told apart: alone, or only
// under concurrency with a replay command), then the verdict with the knee.

const pad = (text: string, width: number) => text.padStart(width);

function rules(step: LoadStep): string {
  const entries = Object.entries(step.rule_breaks);
  return entries.length === 0 ? '—' : entries.map(([rule, n]) => `${rule} ×${n}`).join(', ');
}

export function stepLine(step: LoadStep, deadlineMs: number, palette: Palette): string {
  const mark = step.healthy ? palette.pass('ok  ') : palette.fail('FAIL');
  const p99 = `${step.latency_ms.p99}`;
  return [
    mark,
    pad(String(step.concurrency), 11),
    pad(String(step.exchanges), 9),
    pad(step.throughput_per_s.toFixed(1), 8),
    pad(String(step.latency_ms.p50), 7),
    pad(String(step.latency_ms.p95), 7),
    pad(step.latency_ms.p99 >= deadlineMs ? palette.fail(p99) : p99, 7),
    pad(String(step.latency_ms.max), 7),
    pad(String(step.timeouts), 8),
    pad(String(step.errors), 6),
    `  ${rules(step)}${step.partial ? ' (partial)' : ''}`,
  ].join(' ');
}

export const STEP_HEADER = 'step concurrency exchanges   req/s     p50     p95     p99     max timeouts errors  rule breaks';

function failureText(concurrency: number, f: LoadFailingExchange): string {
  const head = `  ${f.rule} (${f.operation}) first broken at concurrency ${concurrency}: ${f.message} at ${f.path || '/'}`;
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
  const lines = [
    `Load on ${report.seller_url} (${report.catalogue}, seed ${report.seed}), deadline ${report.verdict.deadline_ms} ms, ${report.step_seconds} s a step`,
    '',
    STEP_HEADER,
    ...report.steps.map((s) => stepLine(s, report.verdict.deadline_ms, palette)),
    '',
  ];
  const shown = new Set<string>();
  const failures: string[] = [];
  for (const step of report.steps) {
    for (const f of Object.values(step.first_failures)) {
      if (f === undefined || shown.has(f.rule)) continue;
      shown.add(f.rule);
      failures.push(failureText(step.concurrency, f));
    }
  }
  if (failures.length > 0) lines.push('Failures (the first of each rule):', ...failures, '');
  for (const r of report.verdict.rules_under_concurrency)
    lines.push(palette.fail(`${r.rule} held at concurrency ${report.steps[0].concurrency} and broke from concurrency ${r.first_broken_at} on`));
  const { knee, min_concurrency } = report.verdict;
  const kneeText = knee === null ? 'no step held (not even the first)' : `the knee is concurrency ${knee}`;
  const gate = min_concurrency > 0 ? `, --min-concurrency ${min_concurrency}` : '';
  const stopped = report.stopped !== undefined ? ` — stopped (${report.stopped}), partial report` : '';
  lines.push(report.verdict.ok ? palette.pass(`PASS: ${kneeText}${gate}`) : palette.fail(`FAIL: ${kneeText}${gate}${stopped}`), '');
  return lines.join('\n');
}
