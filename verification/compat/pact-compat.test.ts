import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../shared/package-root';
import { PACT_FILE } from '../../contracts/pact/pact-names';
import { readPact, type PactDocument, type PactInteraction } from '../../contracts/pact/pact-file';
import { compareSellerContracts } from './pact-compat';
import { sellerContractOf, type SellerContract } from './seller-contract';
import { SELLER_POLICY, type SellerPolicyRule } from './seller-policy';
import { validators } from '../../contracts/validator';

// Each rule of the policy, shown on one mutation of today's pact: the classifier names that
// rule, with the class the policy gives it, and nothing else.

const today = readPact(PACT_FILE);
const base = sellerContractOf(today, 'base');
const ORDER = 'an order for a part in stock, received';
const INVOICE = 'an invoice by invoice number';
const ROUTE_TIMES = 'an item inquiry for a part at a location with route times';

type Json = Record<string, any>; // mutations reach anywhere in a pact
const find = (pact: PactDocument, description: string) => pact.interactions.find((i) => i.description === description)!;

function headWith(
  change: (pact: PactDocument, find: (description: string) => Json, contract: SellerContract) => void,
): SellerContract {
  const pact = structuredClone(today);
  const contract = sellerContractOf(pact, 'head');
  contract.replyRules = { ...contract.replyRules };
  const find = (description: string) => pact.interactions.find((i) => i.description === description) as Json;
  change(pact, find, contract);
  return contract;
}

const CASES: [SellerPolicyRule, string, Parameters<typeof headWith>[0]][] = [
  [
    'interaction-added',
    'a new required interaction',
    (p, find) =>
      p.interactions.push({
        ...structuredClone(find(ORDER)),
        description: 'an order, twice',
        providerStates: [{ name: 'two orders' }],
      } as unknown as PactInteraction),
  ],
  [
    'interaction-added-optional',
    'a new interaction for an optional field',
    (p, find) =>
      p.interactions.push({
        ...structuredClone(find(ORDER)),
        description: 'an order with a note',
        providerStates: [{ name: 'notes' }],
        comments: { optional_field: 'note' },
      } as unknown as PactInteraction),
  ],
  [
    'interaction-added-pending',
    'a new pending interaction',
    (p, find) =>
      p.interactions.push({
        ...structuredClone(find(ORDER)),
        description: 'an order, pending',
        providerStates: [{ name: 'later' }],
        pending: true,
      } as unknown as PactInteraction),
  ],
  [
    'interaction-made-required',
    'an optional interaction made required',
    (_p, find) => delete find(ROUTE_TIMES).comments.optional_field,
  ],
  ['interaction-made-optional', 'a required interaction made pending', (_p, find) => (find(ORDER).pending = true)],
  [
    'interaction-removed',
    'an interaction removed',
    (p) => (p.interactions = p.interactions.filter((i) => i.description !== ORDER)),
  ],
  [
    'interaction-reworded',
    'a description reworded, all else equal',
    (_p, find) => (find(ORDER).description = 'an order received'),
  ],
  [
    'interaction-type-changed',
    'an HTTP interaction made a message',
    (_p, find) => (find(ORDER).type = 'Asynchronous/Messages'),
  ],
  [
    'wording-changed',
    'the comment text of an optional interaction',
    (_p, find) => (find(ROUTE_TIMES).comments.text = ['reworded']),
  ],
  [
    'provider-state-renamed',
    'a state renamed',
    (_p, find) => (find(ORDER).providerStates[0].name = 'order is received'),
  ],
  [
    'provider-state-params-changed',
    'a state parameter changed',
    (_p, find) => (find(ORDER).providerStates[0].params.quantity = 3),
  ],
  [
    'provider-states-changed',
    'a second state',
    (_p, find) => find(ORDER).providerStates.push({ name: 'the seller is open' }),
  ],
  ['request-changed', 'the request path', (_p, find) => (find(ORDER).request.path = '/seller/v2')],
  [
    'request-field-removed',
    'a request field the seller may read',
    (_p, find) => delete find(ORDER).request.body.content.order_type,
  ],
  [
    'request-field-added',
    'a new request field',
    (_p, find) => (find(ORDER).request.body.content.note = 'leave at the back'),
  ],
  [
    'request-value-changed',
    'a literal request value',
    (_p, find) => (find(ORDER).request.body.content.service = 'order'),
  ],
  [
    'request-example-changed',
    "an example the seller's state replaces",
    (_p, find) => (find(ORDER).request.body.content.items[0].part_number = '51515'),
  ],
  [
    'request-matcher-changed',
    'a request matcher',
    (_p, find) =>
      (find(ORDER).request.matchingRules.body['$.items[0].account_id'].matchers = [{ match: 'regex', regex: '^A-' }]),
  ],
  ['request-header-added', 'a new request header', (_p, find) => (find(ORDER).request.headers['X-Trace'] = ['1'])],
  ['reply-status-changed', 'the reply status', (_p, find) => (find(ORDER).response.status = 201)],
  [
    'reply-header-newly-required',
    'a reply header expected',
    (_p, find) => (find(ORDER).response.headers['X-Seller'] = ['1']),
  ],
  [
    'reply-header-no-longer-required',
    'a reply header dropped',
    (_p, find) => delete find(ORDER).response.headers['Content-Type'],
  ],
  [
    'reply-field-newly-required',
    'a reply field newly expected',
    (_p, find) => (find(ORDER).response.body.content.currency = 'USD'),
  ],
  [
    'reply-field-no-longer-required',
    'a reply field no longer expected',
    (_p, find) => delete find(ORDER).response.body.content.order_number,
  ],
  ['reply-value-changed', 'an exact reply value', (_p, find) => (find(ORDER).response.body.content.status_code = 2001)],
  [
    'reply-matcher-stricter',
    'type to regex',
    (_p, find) =>
      (find(ORDER).response.matchingRules.body['$.order_number'].matchers = [{ match: 'regex', regex: '^SO-\\d+$' }]),
  ],
  [
    'reply-matcher-stricter',
    'number to integer',
    (_p, find) =>
      (find(ORDER).response.matchingRules.body['$.items[0].quantity_ordered'].matchers = [{ match: 'integer' }]),
  ],
  [
    'reply-matcher-stricter',
    'type to include',
    (_p, find) =>
      (find(ORDER).response.matchingRules.body['$.order_number'].matchers = [{ match: 'include', value: 'SO-' }]),
  ],
  [
    'reply-matcher-stricter',
    'a regex changed',
    (_p, find) =>
      (find(INVOICE).response.matchingRules.body['$.invoices[*].invoice_date'].matchers = [
        { match: 'regex', regex: '^2026-' },
      ]),
  ],
  [
    'reply-matcher-stricter',
    'a matcher on a value only type-matched before',
    (_p, find) =>
      (find(INVOICE).response.matchingRules.body['$.invoices[*].invoice_detail[*].line_code'].matchers = [
        { match: 'regex', regex: '^[A-Z]{3}$' },
      ]),
  ],
  [
    'reply-matcher-loosened',
    'regex to type',
    (_p, find) =>
      (find(INVOICE).response.matchingRules.body['$.invoices[*].invoice_date'].matchers = [{ match: 'type' }]),
  ],
  [
    'reply-matcher-loosened',
    'an exact value given a number matcher',
    (_p, find) =>
      (find(ORDER).response.matchingRules.body['$.status_code'] = { combine: 'AND', matchers: [{ match: 'number' }] }),
  ],
  [
    'reply-range-narrowed',
    'min raised',
    (_p, find) => (find(INVOICE).response.matchingRules.body['$.invoices'].matchers = [{ match: 'type', min: 2 }]),
  ],
  [
    'reply-range-widened',
    'min lowered',
    (_p, find) => (find(INVOICE).response.matchingRules.body['$.invoices'].matchers = [{ match: 'type', min: 0 }]),
  ],
  [
    'reply-example-changed',
    'an example under a type matcher',
    (_p, find) => (find(ORDER).response.body.content.order_number = 'SO-999'),
  ],
  [
    'reply-rule-added',
    'a new reply rule',
    (_p, _f, c) => (c.replyRules!['order.currency'] = 'Orders are priced in the account currency'),
  ],
  ['reply-rule-removed', 'a reply rule dropped', (_p, _f, c) => delete c.replyRules!['location.pack-code']],
  [
    'reply-rule-reworded',
    "a rule's description reworded",
    (_p, _f, c) => (c.replyRules!['item.id-echo'] = 'Every requested id is echoed'),
  ],
  [
    'pact-specification-changed',
    'the Pact specification version',
    (p) => (p.metadata = { ...p.metadata, pactSpecification: { version: '4.1' } }),
  ],
  ['unclassified-change', 'a part of the interaction no rule names', (_p, find) => (find(ORDER).transport = 'https')],
];

describe('compareSellerContracts: one rule per kind of change', () => {
  it('reports nothing for two identical contracts, well under a second', () => {
    const started = performance.now();
    expect(compareSellerContracts(base, sellerContractOf(structuredClone(today), 'head'))).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it.each(CASES)('%s: %s', (rule, _what, change) => {
    const findings = compareSellerContracts(base, headWith(change));
    expect(findings.map((f) => f.policy)).toEqual([rule]);
    expect(findings[0].class).toBe(SELLER_POLICY[rule].class);
    expect(findings[0].side).toBe('seller');
  });

  it('has a case for every rule of the policy', () => {
    expect(new Set(CASES.map(([rule]) => rule))).toEqual(new Set(Object.keys(SELLER_POLICY)));
  });

  it('is documented: docs/contract-evolution.md lists every rule with its class', () => {
    const doc = readFileSync(packagePath('docs', 'contract-evolution.md'), 'utf8');
    for (const [rule, { class: cls }] of Object.entries(SELLER_POLICY))
      expect(doc, rule).toContain(`| \`${rule}\` | ${cls} |`);
  });

  it('names the interaction, the JSON pointer into it, and both sides', () => {
    const [finding] = compareSellerContracts(
      base,
      headWith((_p, find) => (find(ORDER).response.body.content.status_code = 2001)),
    );
    expect(finding).toMatchObject({
      where: ORDER,
      pointer: '/response/body/content/status_code',
      base: 2000,
      head: 2001,
      class: 'breaking',
    });
  });

  it('pairs an interaction reworded and changed by its unique provider states', () => {
    const findings = compareSellerContracts(
      base,
      headWith((_p, find) => {
        const order = find(ORDER);
        order.description = 'an order received in full';
        order.response.body.content.currency = 'USD';
      }),
    );
    expect(findings.map((f) => [f.policy, f.where])).toEqual([
      ['interaction-reworded', 'an order received in full'],
      ['reply-field-newly-required', 'an order received in full'],
    ]);
  });

  // Found by the agreement run (lab/compat-agreement.test.ts): the mock seller answered 400
  // to a request with a new field, which compat called safe. The seller-request schemas are closed.
  it("calls a new request field breaking: the contract's own seller-request schema refuses it", () => {
    const head = headWith((_p, find) => (find(ORDER).request.body.content.note = 'leave at the back'));
    const order = head.pact.interactions.find((i) => i.description === ORDER)!;
    expect(validators['place-order']['seller-request'](order.request.body!.content).valid).toBe(false);
    expect(validators['place-order']['seller-request'](find(today, ORDER).request.body!.content).valid).toBe(true);
    expect(compareSellerContracts(base, head).map((f) => [f.policy, f.class])).toEqual([
      ['request-field-added', 'breaking'],
    ]);
  });

  // Found by the agreement run: an exact 2000 given the regex '^20' was called loosened, and the
  // Pact verifier failed the mock seller ("Expected '2000' to match '^20'"): Pact's regex must match
  // the whole value, so '^20' accepts only "20".
  it('reads a regex as Pact does, on the whole value: an exact value given a regex that only matches its start is stricter', () => {
    const regex = (pattern: string) =>
      compareSellerContracts(
        base,
        headWith(
          (_p, find) =>
            (find(ORDER).response.matchingRules.body['$.status_code'] = {
              combine: 'AND',
              matchers: [{ match: 'regex', regex: pattern }],
            }),
        ),
      ).map((f) => f.policy);
    expect(regex('^20')).toEqual(['reply-matcher-stricter']);
    expect(regex('20')).toEqual(['reply-matcher-stricter']);
    expect(regex('^20\\d\\d$')).toEqual(['reply-matcher-loosened']);
    expect(regex('2\\d+')).toEqual(['reply-matcher-loosened']);
  });

  it('leaves the reply rules out when one side does not know its catalogue (a pact from before 3.2.0)', () => {
    const head = headWith((_p, _f, c) => (c.replyRules!['order.currency'] = 'new'));
    expect(compareSellerContracts({ ...base, replyRules: undefined }, head)).toEqual([]);
  });
});
