import { PLAIN, type Palette } from '../reports/palette';
import { CLASS_ORDER, CLASS_TITLES, shortValue, sideLabel, summaryLine, type CompatReport } from './compat-report';

// The terminal form: grouped by class, breaking first; colour only through the palette the
// command chose (a TTY without NO_COLOR).

export function compatAsText(report: CompatReport, palette: Palette = PLAIN): string {
  const lines = [`base: ${sideLabel(report.base)}`, `head: ${sideLabel(report.head)}`, ''];
  for (const cls of CLASS_ORDER) {
    const findings = report.findings.filter((f) => f.class === cls);
    if (findings.length === 0) continue;
    const paint =
      cls === 'breaking' || cls === 'new-work' ? palette.fail : cls === 'safe' ? palette.pass : (text: string) => text;
    lines.push(paint(`${CLASS_TITLES[cls]} (${findings.length})`));
    for (const f of findings) {
      lines.push(`  ${paint('●')} ${f.where}${f.pointer === '' ? '' : ` ${palette.dim(f.pointer)}`}`);
      lines.push(`    ${f.message} ${palette.dim(`[${f.policy}]`)}`);
      if (f.base !== undefined || f.head !== undefined)
        lines.push(palette.dim(`    base: ${shortValue(f.base)}`), palette.dim(`    head: ${shortValue(f.head)}`));
    }
    lines.push('');
  }
  for (const note of report.notes) lines.push(palette.dim(`note: ${note}`));
  const verdict = summaryLine(report);
  lines.push(report.summary.verdict === 'breaking' ? palette.fail(verdict) : palette.pass(verdict));
  return `${lines.join('\n')}\n`;
}
