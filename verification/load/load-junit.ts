import { escapeXml } from '../report-as-junit';
import type { LoadReport } from './load-report';

// JUnit XML of a load run: one test case per step (`load` / `concurrency 8`), failed when the
// step is not healthy, plus `min-concurrency` for the gate — stable names for CI history.

export function renderLoadJunit(report: LoadReport): string {
  const cases = report.steps.map((s) => {
    const open = `    <testcase classname="load" name="concurrency ${s.concurrency}" time="${s.seconds.toFixed(3)}">`;
    const stats = `${s.exchanges} exchanges, ${s.throughput_per_s}/s, p50 ${s.latency_ms.p50} ms, p99 ${s.latency_ms.p99} ms (deadline ${report.verdict.deadline_ms}), timeouts ${s.timeouts}, errors ${s.errors}`;
    if (s.healthy) return `${open}\n      <system-out>${escapeXml(stats)}</system-out>\n    </testcase>`;
    const detail = [
      stats,
      ...Object.entries(s.rule_breaks).map(([rule, n]) => `${rule}: broken ${n}×`),
      ...Object.values(s.first_failures).map((f) =>
        f === undefined ? '' : `${f.rule}: ${f.message} — ${f.reproduces === 'only-under-concurrency' ? `only under concurrency; ${f.replay ?? ''}` : f.curl}`,
      ),
    ];
    return `${open}\n      <failure type="load" message="${escapeXml(`concurrency ${s.concurrency}: ${stats}`)}">${escapeXml(detail.join('\n'))}</failure>\n    </testcase>`;
  });
  const { knee, min_concurrency } = report.verdict;
  const gateOk = knee !== null && knee >= min_concurrency;
  cases.push(
    `    <testcase classname="load" name="min-concurrency" time="0">` +
      (gateOk
        ? ''
        : `\n      <failure type="min-concurrency" message="${escapeXml(`knee ${knee ?? 'none'} is below --min-concurrency ${min_concurrency}`)}"/>\n    `) +
      `</testcase>`,
  );
  const failures = report.steps.filter((s) => !s.healthy).length + (gateOk ? 0 : 1);
  const time = report.steps.reduce((t, s) => t + s.seconds, 0).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="seller-system load (seed ${report.seed})" tests="${cases.length}" failures="${failures}" errors="${report.stopped !== undefined ? 1 : 0}" time="${time}">`,
    `  <testsuite name="load" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="${time}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
