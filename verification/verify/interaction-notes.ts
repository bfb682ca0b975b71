import type { PactInteraction } from '../../contracts/pact/pact-file';
import type { CompatClass, CompatFinding } from '../compat/compat-finding';
import type { CompatReport } from '../compat/compat-report';

// What a vendor is told about each interaction beyond its verdict: what changed in it since the
// contract they last passed (`verify --since`), and whether it runs as pending — reported with
// its PASS/FAIL, never failing the run, as Pact's pending pacts are.

/** One change of an interaction since the vendor's last passing contract. */
export interface InteractionChange {
  class: CompatClass;
  policy: string;
  /** JSON pointer into the interaction ('' for the whole interaction: a new one). */
  pointer: string;
  message: string;
}

export interface ChangedSince {
  /** The release compared against: its contract version, else where it came from. */
  since: string;
  changes: InteractionChange[];
}

export interface InteractionNotes {
  changedSince?: ChangedSince;
  /** Why it runs as pending; absent: it counts. */
  pending?: string;
}

/** Why an interaction the pact itself marks `pending: true` runs as pending. */
export const PENDING_IN_PACT = 'marked pending in the pact';

/** A new interaction (any kind of addition): the whole interaction is what changed. */
const isAddition = (f: CompatFinding) => f.policy.startsWith('interaction-added');

/**
 * Whether these changes can make a seller that passed base fail the interaction now: new, or
 * changed in a breaking or new-work way. These run as pending (and are marked so in a published
 * next pact); a safe change cannot fail a seller that passed, so it stays as it was.
 */
export const needsPending = (findings: readonly CompatFinding[]): boolean =>
  findings.some((f) => f.class === 'breaking' || f.class === 'new-work' || isAddition(f));

/** The release a report's base names, as a reader knows it: `3.2.0`, else its source. */
export const sinceLabel = (report: CompatReport): string => report.base.version ?? report.base.source;

/**
 * The findings of a seller comparison per head interaction (by
 * description); contract-wide ones are left to the summary.
 */
export function findingsByInteraction(
  report: CompatReport,
  head: readonly PactInteraction[],
): Map<string, CompatFinding[]> {
  const descriptions = new Set(head.map((i) => i.description));
  const byInteraction = new Map<string, CompatFinding[]>();
  for (const f of report.findings) {
    if (f.side !== 'seller' || !descriptions.has(f.where)) continue;
    byInteraction.set(f.where, [...(byInteraction.get(f.where) ?? []), f]);
  }
  return byInteraction;
}

/**
 * The marks of every head interaction: what changed since base, and — with `pendingChanges`
 * (`verify --pending`) — pending for those `needsPending` picks. `pending: true` in the pact
 * is honoured whatever the flags.
 */
export function interactionNotes(
  head: readonly PactInteraction[],
  compat: CompatReport | undefined,
  pendingChanges: boolean,
): Map<string, InteractionNotes> {
  const byInteraction = compat === undefined ? new Map<string, CompatFinding[]>() : findingsByInteraction(compat, head);
  const marks = new Map<string, InteractionNotes>();
  for (const interaction of head) {
    const findings = byInteraction.get(interaction.description) ?? [];
    const mark: InteractionNotes = {};
    if (compat !== undefined && findings.length > 0)
      mark.changedSince = {
        since: sinceLabel(compat),
        changes: findings.map((f) => ({ class: f.class, policy: f.policy, pointer: f.pointer, message: f.message })),
      };
    if (interaction.pending === true) mark.pending = PENDING_IN_PACT;
    else if (pendingChanges && compat !== undefined && needsPending(findings))
      mark.pending = `${findings.some(isAddition) ? 'new' : 'changed'} since ${sinceLabel(compat)} (--pending)`;
    if (mark.changedSince !== undefined || mark.pending !== undefined) marks.set(interaction.description, mark);
  }
  return marks;
}

/**
 * The mark as one line: `changed since 3.2.0: reply-field-newly-required /response/…` (at most three changes named).
 */
export function changedSinceText(mark: ChangedSince): string {
  if (mark.changes.some((c) => c.policy.startsWith('interaction-added'))) return `new since ${mark.since}`;
  const shown = mark.changes.slice(0, 3).map((c) => `${c.policy}${c.pointer === '' ? '' : ` ${c.pointer}`}`);
  const more = mark.changes.length > 3 ? `, and ${mark.changes.length - 3} more` : '';
  return `changed since ${mark.since}: ${shown.join(', ')}${more}`;
}
