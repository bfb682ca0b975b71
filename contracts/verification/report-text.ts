import type { InteractionReport, VerificationReport } from './report';

// The report as a vendor reads it in a terminal: one block per interaction, then one per
// broken rule with every item id, JSON path, expected and found.

const show = (value: unknown): string => (value === undefined ? '(missing)' : typeof value === 'string' ? `'${value}'` : JSON.stringify(value));

function verdict(i: InteractionReport): string {
  const ok = i.pact === 'passed' && i.rules === 'passed' && i.problems.length === 0;
  return `${ok ? 'PASS' : 'FAIL'}  ${i.description}`;
}

export function renderReport(report: VerificationReport): string {
  const lines: string[] = [];
  lines.push(`Seller verification of ${report.sellerUrl}`);
  if (report.fatal !== undefined) lines.push('', `Pact could not run: ${report.fatal}`);
  lines.push('', 'Interactions');
  for (const i of report.interactions) {
    lines.push(`  ${verdict(i)}`);
    if (i.states.length > 0) lines.push(`        given ${i.states.join(', ')}`);
    lines.push(`        pact: ${i.pact}   reply rules: ${i.rules}${i.exchange !== undefined ? `   (HTTP ${i.exchange.status}, ${i.exchange.elapsedMs} ms)` : ''}`);
    for (const m of i.pactMismatches) {
      lines.push(`        pact mismatch${m.path !== undefined ? ` at ${m.path}` : ''}: ${m.message}`);
    }
    for (const e of i.schemaErrors) lines.push(`        reply.schema at ${e.path || '/'}: ${e.message}`);
    for (const v of i.violations) {
      lines.push(`        ${v.rule}${v.id !== undefined ? ` [id ${v.id}]` : ''} at ${v.path}: ${v.message}`);
    }
    for (const p of i.problems) lines.push(`        problem: ${p}`);
  }
  if (report.rules.length > 0) {
    lines.push('', 'Broken rules');
    for (const rule of report.rules) {
      lines.push(`  ${rule.rule} — ${rule.description} (${rule.breaches.length})`);
      for (const b of rule.breaches) {
        lines.push(`    - ${b.interaction}`);
        lines.push(`      item id: ${b.id ?? '—'}   path: ${b.path}`);
        if (b.expected !== undefined || b.found !== undefined) lines.push(`      expected: ${show(b.expected)}   found: ${show(b.found)}`);
        lines.push(`      ${b.message}`);
      }
    }
  }
  const failed = report.interactions.filter((i) => !(i.pact === 'passed' && i.rules === 'passed' && i.problems.length === 0)).length;
  lines.push('', `${report.ok ? 'PASSED' : 'FAILED'}: ${report.interactions.length - failed} of ${report.interactions.length} interactions passed${report.rules.length > 0 ? `; broken rules: ${report.rules.map((r) => r.rule).join(', ')}` : ''}`);
  return `${lines.join('\n')}\n`;
}
