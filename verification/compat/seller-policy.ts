import type { CompatClass, CompatFinding } from './compat-finding';

// The policy for seller systems: every kind of change between two seller contracts, the class
// it falls in, and why. docs/contract-evolution.md lists these names; findings carry them.
// A kind of change nobody named falls under 'unclassified-change' and counts as breaking.

export const SELLER_POLICY = {
  // Interactions as a whole.
  'interaction-added': { class: 'new-work', why: 'a new required interaction: every seller must implement it' },
  'interaction-added-optional': {
    class: 'optional',
    why: 'a new interaction for an optional field of the specification: a seller may leave it out',
  },
  'interaction-added-pending': {
    class: 'optional',
    why: 'a new interaction marked pending: reported by verifiers, never failing, until it is required',
  },
  'interaction-made-required': {
    class: 'new-work',
    why: 'an interaction that was optional or pending now counts: a seller that left it out must implement it',
  },
  'interaction-made-optional': {
    class: 'safe',
    why: 'an interaction became optional or pending: nothing that passed can fail',
  },
  'interaction-removed': {
    class: 'safe',
    why: 'an interaction is no longer in the pact: nothing that passed can fail',
  },
  'interaction-reworded': { class: 'safe', why: 'only the description changed (matched by everything else): wording' },
  'interaction-type-changed': { class: 'breaking', why: 'the interaction is of another kind (e.g. HTTP to message)' },
  'wording-changed': { class: 'safe', why: 'a comment for people changed' },
  // Provider states: what the seller sets up before the request.
  'provider-state-renamed': { class: 'breaking', why: "the seller's state handlers and state map know the old name" },
  'provider-state-params-changed': {
    class: 'breaking',
    why: "the parameters a seller's state set-up receives changed",
  },
  'provider-states-changed': {
    class: 'breaking',
    why: 'a provider state was added to or removed from the interaction',
  },
  // The request the seller receives (the pact's example, with values injected from its states).
  'request-changed': { class: 'breaking', why: 'the method, path, query or a header the seller receives changed' },
  'request-field-removed': { class: 'breaking', why: 'a request field the seller may read is no longer sent' },
  // The seller-request schemas are closed (additionalProperties: false): a seller validating
  // with them, as the mock seller does, answers 400 to a field it does not know.
  'request-field-added': {
    class: 'breaking',
    why: "a new request field: the contract's seller-request schemas are closed, so a seller validating with them refuses it",
  },
  'request-value-changed': {
    class: 'breaking',
    why: 'the seller receives another value (or another number of array entries) than before',
  },
  'request-example-changed': {
    class: 'safe',
    why: "the example changed where the seller receives its own state's value instead",
  },
  'request-matcher-changed': {
    class: 'safe',
    why: "request matchers bind the gateway's calls, not the seller: the seller receives the example either way",
  },
  'request-header-added': { class: 'safe', why: 'a new request header: a seller ignores what it does not read' },
  // The reply the seller must give.
  'reply-status-changed': { class: 'breaking', why: 'the reply status a seller gave no longer matches' },
  'reply-header-newly-required': {
    class: 'breaking',
    why: 'a reply header is newly expected, or its expected value changed',
  },
  'reply-header-no-longer-required': { class: 'safe', why: 'a reply header is no longer expected' },
  'reply-field-newly-required': {
    class: 'breaking',
    why: 'a reply field is newly expected: a seller that omits it fails',
  },
  'reply-field-no-longer-required': {
    class: 'safe',
    why: 'a reply field is no longer expected (extra fields are allowed)',
  },
  'reply-value-changed': {
    class: 'breaking',
    why: 'the reply must carry another exact value, shape or number of entries',
  },
  'reply-matcher-stricter': {
    class: 'breaking',
    why: 'a matcher accepts fewer values (type to regex, regex changed, number to integer, include, …)',
  },
  'reply-matcher-loosened': { class: 'safe', why: 'a matcher accepts every value it accepted before, and more' },
  'reply-range-narrowed': {
    class: 'breaking',
    why: 'an array must have more entries (min raised) or fewer (max lowered)',
  },
  'reply-range-widened': {
    class: 'safe',
    why: 'an array may have fewer entries (min lowered) or more (max raised or dropped)',
  },
  'reply-example-changed': {
    class: 'safe',
    why: "the example changed under a matcher that accepts the old one: the seller's reply is judged the same",
  },
  // The reply rules the kit's rules proxy and the gateway enforce beyond the pact.
  'reply-rule-added': { class: 'breaking', why: 'a new reply rule: a reply that passed may break it' },
  'reply-rule-removed': { class: 'safe', why: 'a reply rule is no longer enforced' },
  'reply-rule-reworded': { class: 'safe', why: "only the rule's description changed" },
  // The file as a whole.
  'pact-specification-changed': {
    class: 'breaking',
    why: "the pact's specification version changed: the seller's verifier may not read it",
  },
  'unclassified-change': {
    class: 'breaking',
    why: 'a change no other rule names: counted as breaking until the policy names it',
  },
} as const satisfies Record<string, { class: CompatClass; why: string }>;

export type SellerPolicyRule = keyof typeof SELLER_POLICY;

export const classOf = (rule: SellerPolicyRule): CompatClass => SELLER_POLICY[rule].class;

/** A seller-side finding under `rule`, its class taken from the policy. */
export function sellerFinding(
  rule: SellerPolicyRule,
  where: string,
  pointer: string,
  sides: { base?: unknown; head?: unknown },
  message: string,
): CompatFinding {
  return { side: 'seller', class: classOf(rule), policy: rule, where, pointer, ...sides, message };
}
