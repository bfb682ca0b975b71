import type { PactInteraction } from '../../../contracts/pact/pact-file';
import type { CompatFinding } from '../compat-finding';
import type { PathSegment } from '../pact-rule-paths';
import { accepts, expectationAt, type MatchingRule } from '../reply-expectation';
import type { SellerContract } from '../seller-contract';
import type { SellerPolicyRule } from '../seller-policy';

// When compat calls a head breaking and the mock seller still passes it, is that the policy
// ("a seller that passed base CAN fail head") with a mock that happens to satisfy the new
// expectation, or the classifier being coarse? A witness tells them apart: a seller behaviour
// that passes base and fails head. Some rules have one by construction; for a reply value or
// matcher, a probe value base accepts and head refuses (the mock's own value, the examples,
// their neighbours) is sought. No witness: counted as a false breaking.

/** Rules whose finding describes a seller that passes base and fails head, whatever the values. */
const BY_CONSTRUCTION: Partial<Record<SellerPolicyRule, string>> = {
  'reply-rule-added': 'a reply breaking the new rule passed base',
  'reply-field-newly-required': 'a seller omitting the field passed base',
  'reply-header-newly-required': 'a seller omitting the header passed base',
  'reply-range-narrowed': 'an array of a length base allows and head does not passed base',
  'provider-state-renamed': "a seller whose state set-up knows base's state names passed base",
  'provider-state-params-changed': "a seller whose state set-up reads base's parameters passed base",
  'provider-states-changed': "a seller whose state set-up knows base's states passed base",
  'request-field-removed': 'a seller reading the field passed base',
  'request-field-added': "a seller validating its requests with the contract's closed schema passed base",
  'request-value-changed': 'a seller reading the value base sent passed base',
  'request-changed': 'a seller serving the request base sent passed base',
  'reply-status-changed': 'a seller giving the status base expected passed base',
  'pact-specification-changed': "a verifier that reads only base's specification passed base",
};

const REPLY_BODY = '/response/body/content';

const segmentsOf = (pointer: string): PathSegment[] =>
  pointer
    .slice(REPLY_BODY.length)
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));

const valueAt = (root: unknown, path: readonly PathSegment[]) =>
  path.reduce<unknown>(
    (node, s) => (node !== null && typeof node === 'object' ? (node as Record<PathSegment, unknown>)[s] : undefined),
    root,
  );

const bodyRules = (i: PactInteraction | undefined) =>
  (i?.response as { matchingRules?: { body?: Record<string, MatchingRule> } } | undefined)?.matchingRules?.body;

/** Values a seller might send in place of `seen`. */
function probes(seen: unknown[]): unknown[] {
  const out: unknown[] = [...seen, '', 'x', '0', 0, 1, -1, 0.5, 1_000_000, true, false];
  for (const v of seen) {
    if (typeof v === 'string') out.push(`${v}x`, `x${v}`, v.slice(1), v.toLowerCase(), v.toUpperCase());
    if (typeof v === 'number') out.push(v + 1, v + 0.5, -v, Math.round(v), v * 10);
  }
  return out;
}

/** How a seller could pass base and fail head on `finding`, or undefined when none is found. */
export function witnessOf(
  finding: CompatFinding,
  base: SellerContract,
  head: SellerContract,
  observed: ReadonlyMap<string, unknown>,
): string | undefined {
  if (finding.class !== 'breaking') return undefined;
  const known = BY_CONSTRUCTION[finding.policy as SellerPolicyRule];
  if (known !== undefined) return known;
  if (
    (finding.policy !== 'reply-matcher-stricter' && finding.policy !== 'reply-value-changed') ||
    !finding.pointer.startsWith(REPLY_BODY)
  )
    return undefined;
  const h = head.pact.interactions.find((i) => i.description === finding.where);
  // Paired by description, or reworded (base then carries head's states).
  const b =
    base.pact.interactions.find((i) => i.description === finding.where) ??
    base.pact.interactions.find((i) => JSON.stringify(i.providerStates) === JSON.stringify(h?.providerStates));
  const path = segmentsOf(finding.pointer);
  const baseExample = valueAt(b?.response.body?.content, path);
  const headExample = valueAt(h?.response.body?.content, path);
  if (baseExample === undefined || headExample === undefined || typeof headExample === 'object') return undefined;
  const eb = expectationAt(bodyRules(b), path);
  const eh = expectationAt(bodyRules(h), path);
  const seen = [baseExample, headExample, valueAt(observed.get(b?.description ?? ''), path)].filter(
    (v) => v !== undefined,
  );
  const witness = probes(seen).find(
    (p) => accepts(eb, baseExample, p) === true && accepts(eh, headExample, p) === false,
  );
  return witness === undefined
    ? undefined
    : `a seller sending ${JSON.stringify(witness)} at ${finding.pointer.slice(REPLY_BODY.length)} passed base`;
}
