import type { LoadReportView } from '../html-report/load-html';
import { levelOf, type LoadReport } from './load-report';

// The HTML page draws from its own view of a load run; the JSON report maps onto it field for
// field, every verdict (health, correctness, the knee, SLOs, the sentence) as the run drew it.
export function loadReportView(report: LoadReport): LoadReportView {
  const { verdict } = report;
  return {
    seller_url: report.seller_url,
    ...(report.run !== undefined ? { run: report.run } : {}),
    model: report.model,
    steps: report.steps.map((s) => ({
      level: levelOf(s),
      exchanges: s.exchanges,
      throughput_per_s: s.throughput_per_s,
      latency_ms: s.latency_ms,
      timeouts: s.timeouts,
      errors: s.errors,
      rule_breaks: s.rule_breaks,
      healthy: s.healthy,
      correct: s.correct,
      slo_breaches: s.slo_breaches,
      ...(s.partial === true ? { partial: true } : {}),
      ...(s.model === 'open' ? { dropped: s.dropped, schedule_kept: s.schedule_kept } : {}),
      ...(s.model === 'closed' && s.coordinated_omission !== undefined
        ? { coordinated_omission: { corrected_p99_ms: s.coordinated_omission.corrected_p99_ms } }
        : {}),
    })),
    knee: verdict.knee,
    knee_is_lower_bound: verdict.knee_is_lower_bound,
    deadline_ms: verdict.deadline_ms,
    not_run: verdict.not_run,
    ...(verdict.cut_short !== undefined ? { cut_short: verdict.cut_short } : {}),
    rules_broken: verdict.rules_broken.map((r) => ({
      rule: r.rule,
      first_level: r.first_level,
      exchanges: r.exchanges,
      only_under_concurrency: r.only_under_concurrency,
      curl: r.first_failure.curl,
      message: r.first_failure.message,
      path: r.first_failure.path,
      ...(r.first_failure.replay !== undefined ? { replay: r.first_failure.replay } : {}),
    })),
    slo: verdict.slo.map((s) => ({
      expression: s.expression,
      metric: s.metric,
      value: s.value,
      breached: s.breached_at.length > 0 || !s.run_held,
    })),
    verdict: verdict.summary,
    ok: verdict.ok,
    warnings: verdict.warnings,
    notes: verdict.notes,
    ...(report.stopped !== undefined ? { stopped: report.stopped } : {}),
  };
}
