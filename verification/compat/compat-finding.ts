// One change between two versions of the contract, classified for the side it reaches: a
// seller system (the pact, the reply rules, the JSON Schemas) or a buyer program (the buyer
// and internal OpenAPI documents). Every comparison — pact or OpenAPI — yields these, and every
// output form (text, JSON, Markdown, HTML, changelog) is drawn from them.

/** Who the change reaches. */
export type CompatSide = 'seller' | 'buyer';

/**
 * - breaking: a system that passed (or a program that worked against) base can fail head;
 * - new-work: a new required interaction the seller must implement;
 * - optional: a new optional interaction (listed, never failing);
 * - safe: nothing that passed base can fail head.
 */
export type CompatClass = 'breaking' | 'new-work' | 'optional' | 'safe';

export const COMPAT_CLASSES = ['breaking', 'new-work', 'optional', 'safe'] as const satisfies readonly CompatClass[];

export interface CompatFinding {
  side: CompatSide;
  class: CompatClass;
  /** The policy rule it falls under (docs/contract-evolution.md), e.g. 'reply-field-newly-required'. */
  policy: string;
  /** The interaction's description (seller), or `METHOD /path` of the operation (buyer). */
  where: string;
  /** JSON pointer into the compared document (the interaction, or the OpenAPI document). */
  pointer: string;
  /** The value on each side; undefined where the side has none. */
  base?: unknown;
  head?: unknown;
  /** One sentence a reader acts on. */
  message: string;
}
