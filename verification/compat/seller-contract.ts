import { contractVersionOf, replyRulesOf } from '../../contracts/pact/contract-metadata';
import type { PactDocument } from '../../contracts/pact/pact-file';

// The seller contract of one release: the pact, the reply-rule catalogue the gateway and the
// rules proxy enforce beyond it, and the contract version — as they were in that release.
// Since 3.2.0 the pact's metadata carries the other two; older releases give them from their
// own files (contracts/reply-rules/violation.ts), or leave them unknown.

export interface SellerContract {
  /** Where it came from, as the user named it: a file, a directory, or `<ref>:<path>`. */
  source: string;
  pact: PactDocument;
  /** Undefined: that release stated none (before 3.2.0). */
  version: string | undefined;
  /** Rule name → what it guards; undefined: not known for that release. */
  replyRules: Record<string, string> | undefined;
}

/** The seller contract of `pact`, its version and rules from the pact's metadata, else from `fallback`. */
export function sellerContractOf(
  pact: PactDocument,
  source: string,
  fallback: { version?: string; replyRules?: Record<string, string> } = {},
): SellerContract {
  return {
    source,
    pact,
    version: contractVersionOf(pact) ?? fallback.version,
    replyRules: replyRulesOf(pact) ?? fallback.replyRules,
  };
}

/** Why two contracts cannot be compared (another consumer or provider), or undefined. */
export function incomparable(base: SellerContract, head: SellerContract): string | undefined {
  const pair = (c: SellerContract) => `${c.pact.consumer?.name}/${c.pact.provider?.name}`;
  return pair(base) === pair(head)
    ? undefined
    : `${base.source} is a pact between ${pair(base)} and ${head.source} between ${pair(head)}: only two versions of one consumer/provider pair compare`;
}
