import { CLASS_ORDER, CLASS_TITLES, sideLabel, type CompatReport } from './compat-report';

// The entry contracts/CHANGELOG.md gets for a release: generated from the findings and
// reviewed, never written by hand. The policy check looks for each breaking rule's name in it.

export function changelogEntry(version: string, report: CompatReport): string {
  const lines = [
    `## ${version}`,
    '',
    `Compared with ${sideLabel(report.base)}. For seller systems: ${CLASS_ORDER.map((c) => `${report.summary[c]} ${CLASS_TITLES[c].toLowerCase()}`).join(', ')}.`,
  ];
  for (const cls of CLASS_ORDER) {
    const findings = report.findings.filter((f) => f.class === cls);
    if (findings.length === 0) continue;
    lines.push('', `### ${CLASS_TITLES[cls]}`, '');
    for (const f of findings)
      lines.push(`- \`${f.policy}\` — ${f.where}${f.pointer === '' ? '' : ` (\`${f.pointer}\`)`}: ${f.message}`);
  }
  if (report.findings.length === 0) lines.push('', 'No change for seller systems.');
  return `${lines.join('\n')}\n`;
}
