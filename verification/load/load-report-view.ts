import type { LoadReportView, RuleBrokenView } from '../html-report/load-html';
import type { LoadReport } from './load-report';

// The HTML page draws from its own view of a load run. A stop-gap mapping of today's report
// (closed model only, no SLOs, no p90) until the run reports the new fields itself.
export function loadReportView(report: LoadReport): LoadReportView {
  const { verdict } = report;
  const rules = new Map<string, RuleBrokenView>();
  for (const step of report.steps)
    for (const [rule, n] of Object.entries(step.rule_breaks)) {
      const seen = rules.get(rule);
      const first = step.first_failures[rule as keyof typeof step.first_failures];
      if (seen !== undefined) seen.exchanges += n ?? 0;
      else if (first !== undefined)
        rules.set(rule, {
          rule,
          first_level: step.concurrency,
          exchanges: n ?? 0,
          only_under_concurrency: first.reproduces === 'only-under-concurrency',
          curl: first.curl,
          message: first.message,
          path: first.path,
          ...(first.replay !== undefined ? { replay: first.replay } : {}),
        });
    }
  // The text report's verdict line (load-text.ts), until the run composes it in one place.
  const knee = verdict.knee === null ? 'no step held (not even the first)' : `the knee is concurrency ${verdict.knee}`;
  const gate = verdict.min_concurrency > 0 ? `, --min-concurrency ${verdict.min_concurrency}` : '';
  const stopped = report.stopped !== undefined ? ` — stopped (${report.stopped}), partial report` : '';
  return {
    seller_url: report.seller_url,
    model: 'closed',
    steps: report.steps.map((s) => ({
      level: s.concurrency,
      exchanges: s.exchanges,
      throughput_per_s: s.throughput_per_s,
      // No p90 measured yet: the p95 stands in (an upper bound of it).
      latency_ms: { ...s.latency_ms, p90: s.latency_ms.p95 },
      timeouts: s.timeouts,
      errors: s.errors,
      rule_breaks: s.rule_breaks,
      healthy: s.healthy,
      correct: Object.values(s.rule_breaks).every((n) => (n ?? 0) === 0),
      ...(s.partial !== undefined ? { partial: s.partial } : {}),
    })),
    knee: verdict.knee,
    knee_is_lower_bound: false,
    deadline_ms: verdict.deadline_ms,
    not_run: [],
    rules_broken: [...rules.values()],
    slo: [],
    verdict: verdict.ok ? `PASS: ${knee}${gate}` : `FAIL: ${knee}${gate}${stopped}`,
    ok: verdict.ok,
    warnings: [],
    ...(report.stopped !== undefined ? { stopped: report.stopped } : {}),
  };
}
