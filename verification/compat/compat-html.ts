import { markup } from '../html-report/html-text';
import { badge, htmlPage, verdictBlock } from '../html-report/page-shell';
import { CLASS_ORDER, CLASS_TITLES, shortValue, sideLabel, summaryLine, type CompatReport } from './compat-report';

// The kit's page (page-shell.ts): one self-contained file, a table per class, breaking first.

export function compatAsHtml(report: CompatReport): string {
  const sections = CLASS_ORDER.map((cls) => {
    const findings = report.findings.filter((f) => f.class === cls);
    if (findings.length === 0) return markup``;
    const kind = cls === 'breaking' || cls === 'new-work' ? 'fail' : cls === 'safe' ? 'pass' : 'dim';
    return markup`<h2>${badge(kind, CLASS_TITLES[cls])} ${findings.length}</h2>
<table data-class="${cls}"><tr><th>interaction</th><th>pointer</th><th>base</th><th>head</th><th>rule</th><th>what</th></tr>
${findings.map(
  (f) =>
    markup`<tr><td>${f.where}</td><td><code>${f.pointer}</code></td><td><code>${shortValue(f.base)}</code></td><td><code>${shortValue(f.head)}</code></td><td><code>${f.policy}</code></td><td>${f.message}</td></tr>\n`,
)}</table>`;
  });
  const body = markup`<h1>Contract compatibility for seller systems</h1>
<p class="meta">base: ${sideLabel(report.base)}<br>head: ${sideLabel(report.head)}</p>
${verdictBlock(report.summary.verdict !== 'breaking', summaryLine(report))}
${report.notes.map((note) => markup`<p class="note">${note}</p>`)}
${sections}`;
  return htmlPage({ title: 'Contract compatibility', kind: 'compat', body });
}
