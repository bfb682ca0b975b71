import { COMPAT_CLASSES, type CompatClass, type CompatFinding } from './compat-finding';

// One comparison's result, as every output form draws it: the two sides, the findings, a count
// per class, and what the comparison could not see. Its verdict is the command's exit status.

export interface CompatSideInfo {
  source: string;
  /** The contract version that side states, if any. */
  version: string | undefined;
}

export interface CompatReport {
  base: CompatSideInfo;
  head: CompatSideInfo;
  findings: CompatFinding[];
  summary: Record<CompatClass, number> & { verdict: 'unchanged' | 'safe' | 'breaking' };
  notes: string[];
}

export function compatReport(
  base: CompatSideInfo,
  head: CompatSideInfo,
  findings: CompatFinding[],
  notes: string[] = [],
): CompatReport {
  const counts = Object.fromEntries(
    COMPAT_CLASSES.map((c) => [c, findings.filter((f) => f.class === c).length]),
  ) as Record<CompatClass, number>;
  const verdict = findings.length === 0 ? 'unchanged' : counts.breaking + counts['new-work'] > 0 ? 'breaking' : 'safe';
  return { base, head, findings, summary: { ...counts, verdict }, notes };
}

/** 0: nothing changed or every change is safe (or optional); 1: something breaks or is new work. */
export const compatExitCode = (report: CompatReport): 0 | 1 => (report.summary.verdict === 'breaking' ? 1 : 0);

/** The classes in the order a reader needs them: what fails first. */
export const CLASS_ORDER = ['breaking', 'new-work', 'optional', 'safe'] as const satisfies readonly CompatClass[];

export const CLASS_TITLES = {
  breaking: 'Breaking',
  'new-work': 'New work',
  optional: 'Optional',
  safe: 'Safe',
} as const satisfies Record<CompatClass, string>;

export const sideLabel = (side: CompatSideInfo): string =>
  `${side.source}${side.version === undefined ? '' : ` (contract ${side.version})`}`;

/** The one-line summary every form opens with. */
export function summaryLine(report: CompatReport): string {
  if (report.summary.verdict === 'unchanged') return 'No change to the contract.';
  const parts = CLASS_ORDER.map((c) => `${report.summary[c]} ${CLASS_TITLES[c].toLowerCase()}`);
  return `${report.findings.length} change(s): ${parts.join(', ')}.`;
}

/** A value shown in one line (long values cut). */
export function shortValue(value: unknown, limit = 120): string {
  if (value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
