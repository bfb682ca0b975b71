// Two releases of the seller API document (contracts/openapi/seller.openapi.json), compared for
// the seller system that serves it. The same walk as the buyer documents' (openapi-compat.ts)
// finds what changed; only the reading turns round: a seller system reads the requests the
// gateway writes and writes the replies the gateway reads, so a change that is safe for a buyer
// (a reply newly required to carry a field) breaks a seller, and the other way.
import type { CompatClass, CompatFinding } from './compat-finding';
import { compareOpenApiDocuments } from './openapi-compat';
import type { OpenApiPolicy } from './openapi-compat-policy';

/**
 * The class of each change for a seller system. Where one rule covers a change that breaks and
 * one that does not (a pattern changed or added), it is breaking: a seller's verdict is settled
 * by running verification, not by this reading. An operation the gateway starts calling is new work.
 */
export const SELLER_API_POLICY = {
  'path-removed': 'breaking',
  'path-added': 'new-work',
  'operation-removed': 'breaking',
  'operation-added': 'new-work',
  'response-status-removed': 'breaking',
  'response-status-added': 'safe',
  'response-content-type-removed': 'breaking',
  'response-content-type-added': 'safe',
  'reply-header-removed': 'safe',
  'reply-header-added': 'breaking',
  'request-body-content-type-removed': 'safe',
  'request-body-content-type-added': 'breaking',
  'request-body-newly-required': 'safe',
  'request-body-made-optional': 'breaking',
  'request-body-removed': 'breaking',
  'request-parameter-newly-required': 'safe',
  'request-parameter-added': 'safe',
  'request-parameter-made-optional': 'breaking',
  'request-parameter-removed': 'breaking',
  'security-changed': 'breaking',
  'security-alternative-added': 'breaking',
  'request-field-newly-required': 'safe',
  'request-field-added': 'safe',
  'request-field-made-optional': 'breaking',
  'request-field-removed': 'breaking',
  'reply-field-removed': 'breaking',
  'reply-field-made-optional': 'safe',
  'reply-field-added': 'safe',
  'reply-field-newly-required': 'breaking',
  'request-type-narrowed': 'safe',
  'request-type-widened': 'breaking',
  'reply-type-changed': 'breaking',
  'reply-type-narrowed': 'breaking',
  'request-enum-narrowed': 'safe',
  'request-enum-widened': 'breaking',
  'reply-enum-widened': 'safe',
  'reply-enum-narrowed': 'breaking',
  'request-union-narrowed': 'safe',
  'request-union-widened': 'breaking',
  'reply-union-widened': 'safe',
  'reply-union-narrowed': 'breaking',
  'request-range-narrowed': 'safe',
  'request-range-loosened': 'breaking',
  'reply-range-widened': 'safe',
  'reply-range-narrowed': 'breaking',
  'request-pattern-changed': 'breaking',
  'request-pattern-removed': 'breaking',
  'reply-pattern-changed': 'breaking',
  'reply-pattern-added': 'breaking',
  'request-format-changed': 'breaking',
  'request-format-removed': 'breaking',
  'reply-format-changed': 'breaking',
  'reply-format-added': 'breaking',
  'request-additional-properties-closed': 'safe',
  'request-additional-properties-opened': 'breaking',
  'reply-additional-properties-changed': 'breaking',
  'request-default-changed': 'breaking',
  'reply-default-changed': 'breaking',
  'schema-changed': 'breaking',
  deprecated: 'safe',
  'operation-id-changed': 'safe',
  'wording-changed': 'safe',
  'example-changed': 'safe',
} as const satisfies Record<OpenApiPolicy, CompatClass>;

/** The buyer walk's sentence with its buyer's consequence left out: what changed, for a seller. */
const forSeller = (message: string) =>
  message.replace(/: (?:a|the) buyer\b.*$/, '').replace(/\bthe buyer\b/g, 'the gateway');

/** Every change from base to head of the seller API document, classified for a seller system. */
export function compareSellerApiDocuments(base: unknown, head: unknown): CompatFinding[] {
  return compareOpenApiDocuments(base, head).map((finding) => ({
    ...finding,
    side: 'seller',
    class: SELLER_API_POLICY[finding.policy as OpenApiPolicy],
    message: forSeller(finding.message),
  }));
}
