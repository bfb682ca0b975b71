import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { normalisePact, type PactDocument } from '../../contracts/pact/pact-file';
import { findingsByInteraction, needsPending } from '../verify/interaction-notes';
import { compareDocuments } from './compare-documents';
import type { CompatReport } from './compat-report';
import { CompatInputError, loadContract } from './contract-source';

// The next contract as it is published while vendors catch up: the head pact with V4
// `pending: true` on every interaction that is new or changed in a way a seller that passed the
// last release can fail, `pending: false` on the rest. Every standard Pact verifier then reports
// those interactions without failing the run — the same verdict `verify --since … --pending` gives.

export interface PendingPact {
  pact: PactDocument;
  /** The interactions marked pending, by description, sorted. */
  pending: string[];
  report: CompatReport;
}

/** `head` with `pending` set on every interaction from the comparison of base and head. */
export function markPending(head: PactDocument, report: CompatReport): PendingPact {
  const byInteraction = findingsByInteraction(report, head.interactions);
  const interactions = head.interactions.map((i) => ({
    ...i,
    pending: needsPending(byInteraction.get(i.description) ?? []),
  }));
  const pending = interactions
    .filter((i) => i.pending)
    .map((i) => i.description)
    .sort();
  return { pact: { ...head, interactions }, pending, report };
}

/**
 * Compares `base` with `head` (pact, directory or git ref of `repo`) and
 * writes head, pending-marked, to `out`. CompatInputError for bad input.
 */
export function writePendingPact(options: { base: string; head: string; out: string; repo: string }): PendingPact {
  const base = loadContract(options.base, options.repo);
  const head = loadContract(options.head, options.repo);
  const report = compareDocuments(base, head);
  if (head.kind !== 'pact')
    throw new CompatInputError(`${options.head} is not a pact: only a pact's interactions can be marked pending`);
  const marked = markPending(head.contract.pact, report);
  try {
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, normalisePact(marked.pact));
  } catch (error) {
    throw new CompatInputError(
      `cannot write ${options.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return marked;
}
