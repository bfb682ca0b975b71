import type { LoadReportView } from '../html-report/load-html';
import { levelOf, type LoadReport } from './load-report';

// The HTML page draws from its own view of a load run; the JSON report maps onto it field for field.
export function loadReportView(report: LoadReport): LoadReportView {
  const { verdict } = report;
  return {
    seller_url: report.seller_url,
    steps: report.steps.map((s) => ({ ...s, concurrency: levelOf(s) })),
    knee: verdict.knee,
    deadline_ms: verdict.deadline_ms,
    min_concurrency: verdict.gate.value,
    ok: verdict.ok,
    ...(report.stopped !== undefined ? { stopped: report.stopped } : {}),
    rules_only_under_concurrency: verdict.rules_under_concurrency.map(({ rule, first_broken_at, first_failure }) => ({
      rule,
      first_concurrency: first_broken_at,
      curl: first_failure.curl,
      message: first_failure.message,
      path: first_failure.path,
      ...(first_failure.replay !== undefined ? { replay: first_failure.replay } : {}),
    })),
  };
}
