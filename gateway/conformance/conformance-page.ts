import { escapeHtml, pageHeaders } from '../../inspector/page-security';
import type { ConformanceReport, MemberConformance, OperationFigure, WindowName } from './conformance-figures';
import { WINDOW_NAMES } from './conformance-figures';

// The operator's page of production conformance, beside the inspector (GET
// /inspector/conformance): server-rendered, no script. Per member, each operation's replies
// that broke any rule and each rule broken in some window, as broken / judged and a rate,
// over the hour, day, week and since the last certificate; and the member's replay file.

const STYLE = `
:root { --broken: #b42318; --ok: #1a7f37; --line: #d0d7de; --muted: #57606a; }
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1f2328; }
header { padding: .6rem 1rem; border-bottom: 1px solid var(--line); background: #f6f8fa; }
h1 { font-size: 1.15rem; margin: 0; } h2 { font-size: 1.05rem; margin: 1.2rem 0 .3rem; }
main { padding: 0 1rem 2rem; } .muted { color: var(--muted); }
table { border-collapse: collapse; } th, td { text-align: left; padding: .25rem .6rem; border-bottom: 1px solid #eaeef2; white-space: nowrap; }
td.n { text-align: right; font-variant-numeric: tabular-nums; } td.broken { color: var(--broken); font-weight: 600; } td.clean { color: var(--ok); }
`;

export const conformancePageHeaders = pageHeaders(STYLE, '');

const WINDOW_TITLES: Record<WindowName, string> = {
  hour: 'last hour',
  day: 'last day',
  week: 'last week',
  since_certificate: 'since certificate',
};

const percent = (rate: number | null) => (rate === null ? '–' : `${(rate * 100).toFixed(2)}%`);

function cell(member: string, operation: string, rule: string, window: WindowName, broken: number, judged: number) {
  const rate = judged === 0 ? null : broken / judged;
  const cls = judged === 0 ? 'n muted' : broken > 0 ? 'n broken' : 'n clean';
  return `<td class="${cls}" data-member="${escapeHtml(member)}" data-operation="${operation}" data-rule="${escapeHtml(rule)}" data-window="${window}" data-broken="${broken}" data-judged="${judged}">${broken} / ${judged} (${percent(rate)})</td>`;
}

function operationRows(m: MemberConformance, operation: OperationFigure['operation']): string[] {
  const of = (w: WindowName) => m.windows[w].operations.find((o) => o.operation === operation)!;
  if (WINDOW_NAMES.every((w) => of(w).judged === 0)) return [];
  const rows = [
    `<tr><th>${operation}</th><td>any rule</td>${WINDOW_NAMES.map((w) => cell(m.member, operation, '*', w, of(w).nonconforming, of(w).judged)).join('')}</tr>`,
  ];
  for (const { rule } of of('week').rules) {
    if (WINDOW_NAMES.every((w) => of(w).rules.find((r) => r.rule === rule)!.broken === 0)) continue;
    rows.push(
      `<tr><td></td><td>${escapeHtml(rule)}</td>${WINDOW_NAMES.map((w) => cell(m.member, operation, rule, w, of(w).rules.find((r) => r.rule === rule)!.broken, of(w).judged)).join('')}</tr>`,
    );
  }
  return rows;
}

function memberSection(m: MemberConformance, basePath: string): string {
  const certificate =
    m.certificate === null
      ? `no passing certificate: "since" counts from ${m.windows.since_certificate.from === null ? 'the first reply' : escapeHtml(m.windows.since_certificate.from)}`
      : `certificate ${m.certificate.id} (contract ${escapeHtml(m.certificate.contract_version)}) issued ${escapeHtml(m.certificate.issued_at)}`;
  const operations = m.windows.week.operations.flatMap((o) => operationRows(m, o.operation));
  const replay = `<a href="${escapeHtml(basePath)}/${encodeURIComponent(m.member)}/replay" download>replay file</a> (${m.samples} exchange${m.samples === 1 ? '' : 's'})`;
  const table =
    operations.length === 0
      ? '<p class="muted">No replies judged yet.</p>'
      : `<table><thead><tr><th>operation</th><th>rule</th>${WINDOW_NAMES.map((w) => `<th>${WINDOW_TITLES[w]}</th>`).join('')}</tr></thead><tbody>${operations.join('')}</tbody></table>`;
  return `<section data-member="${escapeHtml(m.member)}"><h2>${escapeHtml(m.member)} <span class="muted">${escapeHtml(m.status ?? 'not in the directory')}</span></h2>
<p class="muted">${certificate}; ${replay}</p>
${table}</section>`;
}

export function conformancePage(report: ConformanceReport, basePath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gateway — production conformance</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>Gateway — production conformance</h1><span class="muted">replies that broke a rule / replies judged, every instance added up, at ${escapeHtml(report.generated_at)}</span></header>
<main>
${report.members.length === 0 ? '<p class="muted">No members.</p>' : report.members.map((m) => memberSection(m, basePath)).join('\n')}
</main>
</body>
</html>
`;
}
