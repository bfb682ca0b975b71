import { CLASS_ORDER, CLASS_TITLES, shortValue, sideLabel, summaryLine, type CompatReport } from './compat-report';

// Ready to post as a pull-request comment: a table per class, breaking first. Seller payloads
// never reach this form, but pipes and backticks in values are escaped all the same.

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string) => (text === '' || text === '—' ? text : `\`${text.replace(/`/g, 'ˋ')}\``);

export function compatAsMarkdown(report: CompatReport): string {
  const lines = [
    `### Contract compatibility for seller systems`,
    '',
    `**${summaryLine(report)}**`,
    '',
    `- base: ${cell(sideLabel(report.base))}`,
    `- head: ${cell(sideLabel(report.head))}`,
  ];
  for (const note of report.notes) lines.push(`- note: ${cell(note)}`);
  for (const cls of CLASS_ORDER) {
    const findings = report.findings.filter((f) => f.class === cls);
    if (findings.length === 0) continue;
    lines.push(
      '',
      `#### ${CLASS_TITLES[cls]} (${findings.length})`,
      '',
      '| interaction | pointer | base | head | rule | what |',
      '|---|---|---|---|---|---|',
    );
    for (const f of findings)
      lines.push(
        `| ${cell(f.where)} | ${cell(code(f.pointer))} | ${cell(code(shortValue(f.base, 60)))} | ${cell(code(shortValue(f.head, 60)))} | \`${f.policy}\` | ${cell(f.message)} |`,
      );
  }
  return `${lines.join('\n')}\n`;
}
