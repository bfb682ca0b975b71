import { CONTRACT_VERSION } from '../contract-version';
import { RULES } from '../reply-rules/violation';
import type { PactDocument } from './pact-file';

// The pact carries the rest of the seller contract in its metadata: the contract version and
// the reply-rule catalogue of that release. So a pact file alone — a vendor's last passing
// pact — is a whole seller contract to compare against. Both are flat string maps, the shape
// every Pact implementation's metadata accepts (pact-jvm and older Rust read string → string).

export const CONTRACT_METADATA_KEY = 'contract';
export const REPLY_RULES_METADATA_KEY = 'replyRules';

/** The pact with today's contract version and reply-rule catalogue in its metadata. */
export function stampContract(
  pact: PactDocument,
  version: string = CONTRACT_VERSION,
  rules: Record<string, string> = RULES,
): PactDocument {
  return {
    ...pact,
    metadata: { ...pact.metadata, [CONTRACT_METADATA_KEY]: { version }, [REPLY_RULES_METADATA_KEY]: { ...rules } },
  };
}

/** The contract version a pact states, if it states one (pacts before 3.2.0 do not). */
export function contractVersionOf(pact: PactDocument): string | undefined {
  const contract = pact.metadata?.[CONTRACT_METADATA_KEY] as { version?: unknown } | undefined;
  return typeof contract?.version === 'string' ? contract.version : undefined;
}

/** The reply-rule catalogue a pact carries (name → what it guards), if it carries one. */
export function replyRulesOf(pact: PactDocument): Record<string, string> | undefined {
  const rules = pact.metadata?.[REPLY_RULES_METADATA_KEY];
  if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) return undefined;
  return Object.fromEntries(
    Object.entries(rules).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}
