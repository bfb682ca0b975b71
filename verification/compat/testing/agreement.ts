import type { CompatClass, CompatFinding } from '../compat-finding';
import type { GeneratedHead, HeadKind } from './generate-heads';
import type { HeadVerdict } from './verify-head';

// Compat's static verdict on a head beside the kit's verification of the mock seller against
// it. The policy is "a seller that passed base CAN fail head": so a failed verification must
// come with breaking or new work (else a false safe), and a head called breaking that the mock
// still passes is a false breaking — which may be inherent (the mock happens to satisfy a
// stricter expectation another seller could fail: a witness shows how, breaking-witness.ts)
// or the classifier being coarse (no witness): only the latter counts as a false breaking.

export type HeadClass = CompatClass | 'unchanged';
export type Outcome =
  'agree-failed' | 'agree-passed' | 'false-safe' | 'breaking-mock-satisfied' | 'false-breaking' | 'new-work-passed';

export interface Judged {
  generated: GeneratedHead;
  findings: CompatFinding[];
  verdict: HeadVerdict;
  worst: HeadClass;
  outcome: Outcome;
  /** For a head called breaking that the mock passed: how another seller could pass base and fail head. */
  witness?: string;
}

const RANK: Record<HeadClass, number> = { unchanged: 0, safe: 1, optional: 2, 'new-work': 3, breaking: 4 };

export const worstClass = (findings: readonly CompatFinding[]): HeadClass =>
  findings.reduce<HeadClass>((worst, f) => (RANK[f.class] > RANK[worst] ? f.class : worst), 'unchanged');

export function outcomeOf(worst: HeadClass, verificationOk: boolean, witnessed: boolean): Outcome {
  const flagged = worst === 'breaking' || worst === 'new-work';
  if (!verificationOk) return flagged ? 'agree-failed' : 'false-safe';
  if (worst === 'breaking') return witnessed ? 'breaking-mock-satisfied' : 'false-breaking';
  return worst === 'new-work' ? 'new-work-passed' : 'agree-passed';
}

/** The head's outcome; `witness` finds, for a breaking finding, how a seller could pass base and fail head. */
export function judge(
  generated: GeneratedHead,
  findings: CompatFinding[],
  verdict: HeadVerdict,
  witness: (f: CompatFinding) => string | undefined,
): Judged {
  const worst = worstClass(findings);
  const shown = verdict.ok && worst === 'breaking' ? findings.map(witness).find((w) => w !== undefined) : undefined;
  return {
    generated,
    findings,
    verdict,
    worst,
    outcome: outcomeOf(worst, verdict.ok, shown !== undefined),
    ...(shown !== undefined ? { witness: shown } : {}),
  };
}

export interface KindFigures {
  kind: HeadKind | 'all';
  total: number;
  failed: number;
  classes: Record<HeadClass, number>;
  falseSafe: number;
  falseBreaking: number;
  /** Called breaking, passed by the mock, with a witness: the policy, not a classifier error. */
  breakingMockSatisfied: number;
  newWorkPassed: number;
  /** False breaking over all heads of the kind. */
  falseBreakingRate: number;
  ms: number;
}

function figures(kind: KindFigures['kind'], judged: readonly Judged[]): KindFigures {
  const count = (o: Outcome) => judged.filter((j) => j.outcome === o).length;
  const classes: Record<HeadClass, number> = { breaking: 0, 'new-work': 0, optional: 0, safe: 0, unchanged: 0 };
  for (const j of judged) classes[j.worst]++;
  return {
    kind,
    total: judged.length,
    failed: judged.filter((j) => !j.verdict.ok).length,
    classes,
    falseSafe: count('false-safe'),
    falseBreaking: count('false-breaking'),
    breakingMockSatisfied: count('breaking-mock-satisfied'),
    newWorkPassed: count('new-work-passed'),
    falseBreakingRate: judged.length === 0 ? 0 : count('false-breaking') / judged.length,
    ms: judged.reduce((sum, j) => sum + j.verdict.ms, 0),
  };
}

/** The figures of every kind (sorted by name), then of all heads. */
export function agreementFigures(judged: readonly Judged[]): KindFigures[] {
  const kinds = [...new Set(judged.map((j) => j.generated.kind))].sort();
  return [
    ...kinds.map((k) =>
      figures(
        k,
        judged.filter((j) => j.generated.kind === k),
      ),
    ),
    figures('all', judged),
  ];
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** The figures as a Markdown table. */
export function figuresTable(rows: readonly KindFigures[]): string {
  const head =
    '| mutation | heads | verification failed | breaking | new work | optional | safe | unchanged | false safe | breaking, mock satisfied it | false breaking | rate | new work, mock passed | verification time |';
  const rule = '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|';
  const line = (r: KindFigures) =>
    `| ${r.kind === 'all' ? '**all**' : `\`${r.kind}\``} | ${r.total} | ${r.failed} | ${r.classes.breaking} | ${r.classes['new-work']} | ${r.classes.optional} | ${r.classes.safe} | ${r.classes.unchanged} | ${r.falseSafe} | ${r.breakingMockSatisfied} | ${r.falseBreaking} | ${percent(r.falseBreakingRate)} | ${r.newWorkPassed} | ${(r.ms / 1000).toFixed(1)} s |`;
  return [head, rule, ...rows.map(line)].join('\n');
}

/** One disagreement, for a person: the head's changes, compat's findings, the verification's failures. */
export function disagreementText(j: Judged): string {
  const findings = j.findings.map((f) => `    ${f.class} [${f.policy}] ${f.where} ${f.pointer}`).join('\n');
  const failures = j.verdict.failures.map((f) => `    ${f}`).join('\n');
  return [
    `${j.outcome} — head #${j.generated.index} (${j.generated.kind}), compat: ${j.worst}, verification: ${j.verdict.ok ? 'passed' : 'failed'}`,
    `  changes:\n${j.generated.changes.map((c) => `    ${c}`).join('\n')}`,
    `  findings:\n${findings || '    (none)'}`,
    `  verification failures:\n${failures || '    (none)'}`,
    ...(j.witness !== undefined ? [`  witness: ${j.witness}`] : []),
  ].join('\n');
}
