import { RULES } from '../../contracts/reply-rules/index';
import { escapeXml } from '../reports/xml-text';
import { valueText } from '../reports/report-as-text';
import { exchangeOutcomeText } from '../reports/exchange-outcome';
import type { ReplyCheck } from '../../contracts/reply-check';
import type { Exchange } from './proxied-exchange';
import type { ReplyFinding } from '../reply-findings';

// The standalone rules proxy's report: one entry per exchange it carried, in the words of the
// contract (rule, item id, JSON path, expected, found), as text, JSON and JUnit.

export interface ProxyBreach {
  rule: string;
  id?: string;
  path: string;
  message: string;
  expected?: unknown;
  found?: unknown;
}

export interface ProxyExchange {
  index: number;
  /**
   * What the request was: its pact interaction when the shape names exactly one, else service and item ids or filters.
   */
  label: string;
  /** The seller's HTTP status; null when it sent none within the limit (see `noAnswerWithinMs`). */
  status: number | null;
  elapsedMs: number;
  noAnswerWithinMs?: number;
  verdict: 'ok' | 'broken' | 'not-checked';
  breaches: ProxyBreach[];
  problem?: string;
  /** A reply the proxy did not relay (not JSON, too large), as data. */
  finding?: ReplyFinding;
}

export interface ProxyReport {
  upstream: string;
  exchanges: ProxyExchange[];
  broken: number;
}

/** Schema errors (as `reply.schema`) and rule violations of one reply, as breaches. */
export const breachesOf = (check: ReplyCheck): ProxyBreach[] => [
  ...check.errors.map((e) => ({ rule: 'reply.schema', path: e.path || '/', message: e.message })),
  ...check.violations.map((v) => ({
    rule: v.rule,
    ...(v.id !== undefined ? { id: v.id } : {}),
    path: v.path,
    message: v.message,
    expected: v.expected,
    found: v.found,
  })),
];

export function toProxyExchange(exchange: Exchange, label: string): ProxyExchange {
  const check = exchange.check;
  const breaches = check === undefined ? [] : breachesOf(check);
  return {
    index: exchange.index,
    label,
    status: exchange.limitMs !== undefined || exchange.status === 0 ? null : exchange.status,
    elapsedMs: exchange.elapsedMs,
    ...(exchange.limitMs !== undefined ? { noAnswerWithinMs: exchange.limitMs } : {}),
    verdict: check === undefined ? 'not-checked' : check.ok ? 'ok' : 'broken',
    breaches,
    ...(exchange.problem !== undefined ? { problem: exchange.problem } : {}),
    ...(exchange.finding !== undefined ? { finding: exchange.finding } : {}),
  };
}

export const proxyReport = (upstream: string, exchanges: ProxyExchange[]): ProxyReport => ({
  upstream,
  exchanges,
  broken: exchanges.filter((e) => e.verdict !== 'ok').length,
});

export function breachLine(b: ProxyBreach): string {
  const values =
    'expected' in b || 'found' in b ? `   expected: ${valueText(b.expected)}   found: ${valueText(b.found)}` : '';
  return `${b.rule}${b.id !== undefined ? ` [id ${b.id}]` : ''} at ${b.path}: ${b.message}${values}`;
}

export function exchangeLine(e: ProxyExchange): string {
  const verdict =
    e.verdict === 'ok'
      ? 'reply rules ok'
      : e.verdict === 'broken'
        ? `BROKEN: ${[...new Set(e.breaches.map((b) => b.rule))].join(', ')}`
        : `not checked: ${e.problem}`;
  return `#${e.index} ${e.label} — ${exchangeOutcomeText(e)} — ${verdict}`;
}

export function renderProxyText(report: ProxyReport): string {
  const lines = [
    `Rules proxy in front of ${report.upstream}: ${report.exchanges.length} exchanges, ${report.broken} not passing the reply rules`,
    '',
  ];
  for (const e of report.exchanges) {
    lines.push(`  ${exchangeLine(e)}`);
    for (const b of e.breaches) lines.push(`      ${breachLine(b)}`);
  }
  const rules = [...new Set(report.exchanges.flatMap((e) => e.breaches.map((b) => b.rule)))].sort();
  if (rules.length > 0) {
    lines.push('', 'Broken rules');
    for (const rule of rules)
      lines.push(`  ${rule} — ${RULES[rule as keyof typeof RULES] ?? "The reply has the contract's shape"}`);
  }
  return `${lines.join('\n')}\n`;
}

export function renderProxyJunit(report: ProxyReport, suiteName = 'seller-system reply rules'): string {
  const cases = report.exchanges.map((e) => {
    const open = `    <testcase classname="${escapeXml(report.upstream)}" name="${escapeXml(`#${e.index} ${e.label}`)}" time="${(e.elapsedMs / 1000).toFixed(3)}"`;
    if (e.verdict === 'ok') return `${open}/>`;
    const body = e.verdict === 'broken' ? e.breaches.map(breachLine).join('\n') : (e.problem ?? '');
    const message =
      e.verdict === 'broken'
        ? `broken rules: ${[...new Set(e.breaches.map((b) => b.rule))].join(', ')}`
        : 'not checked';
    return `${open}>\n      <failure message="${escapeXml(message)}" type="reply-rules">${escapeXml(body)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(suiteName)}" tests="${report.exchanges.length}" failures="${report.broken}">`,
    `  <testsuite name="${escapeXml(suiteName)}" tests="${report.exchanges.length}" failures="${report.broken}" errors="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
