import type { ForwardedOperation } from '../../../contracts/reply-check';

// Reply rules a future release might add to the catalogue, each with the check its code would
// run: the generated heads name them in `metadata.replyRules`, and the agreement run applies
// the ones a head names to the replies of their operation. Some hold for the mock seller's
// replies and some do not, so a new rule is seen both passing and failing.

export interface CandidateRule {
  operation: ForwardedOperation;
  /** What it guards, as the catalogue says it. */
  description: string;
  /** What is wrong with `reply`, or undefined when it holds. */
  check(request: unknown, reply: unknown): string | undefined;
}

type Json = Record<string, unknown>;
const list = (value: unknown, key: string): Json[] => {
  const found = (value as Json | undefined)?.[key];
  return Array.isArray(found) ? (found as Json[]) : [];
};
const first = <T>(items: T[], wrong: (item: T) => boolean, say: (item: T) => string): string | undefined => {
  const bad = items.find(wrong);
  return bad === undefined ? undefined : say(bad);
};
const locationsOf = (reply: unknown) => list(reply, 'items').flatMap((item) => list(item, 'locations'));

export const CANDIDATE_RULES = {
  'order.number-prefix': {
    operation: 'place-order',
    description: 'Order numbers start with SO-',
    check: (_request, reply) =>
      String((reply as Json).order_number ?? '').startsWith('SO-')
        ? undefined
        : `order_number ${JSON.stringify((reply as Json).order_number)}`,
  },
  'order.item-comment': {
    operation: 'place-order',
    description: 'Every answered item carries a comment',
    check: (_request, reply) =>
      first(
        list(reply, 'items'),
        (i) => typeof i.comment !== 'string',
        (i) => `item ${String(i.id)} has no comment`,
      ),
  },
  'order.currency': {
    operation: 'place-order',
    description: 'An order reply states its currency',
    check: (_request, reply) => ((reply as Json).currency === undefined ? 'no currency' : undefined),
  },
  'item.weight-positive': {
    operation: 'item-inquiry',
    description: 'A found part carries a weight above zero',
    check: (_request, reply) =>
      first(
        list(reply, 'items').filter((i) => i.status_code !== 0),
        (i) => !(typeof i.weight === 'number' && i.weight > 0),
        (i) => `item ${String(i.id)} weighs ${JSON.stringify(i.weight)}`,
      ),
  },
  'location.cost-below-list': {
    operation: 'item-inquiry',
    description: "A location's cost is below its list price",
    check: (_request, reply) =>
      first(
        locationsOf(reply),
        (l) => !(Number(l.cost) < Number(l.list)),
        (l) => `location ${String(l.id)} costs ${String(l.cost)}, lists ${String(l.list)}`,
      ),
  },
  'location.quantity-cap': {
    operation: 'item-inquiry',
    description: 'A location has fewer than 100 available',
    check: (_request, reply) =>
      first(
        locationsOf(reply),
        (l) => Number(l.quantity_available) >= 100,
        (l) => `location ${String(l.id)} has ${String(l.quantity_available)}`,
      ),
  },
  'location.warehouse-only': {
    operation: 'item-inquiry',
    description: 'Stock is quoted at warehouses (type 2) only',
    check: (_request, reply) =>
      first(
        locationsOf(reply),
        (l) => l.type !== 2,
        (l) => `location ${String(l.id)} is of type ${String(l.type)}`,
      ),
  },
  'invoice.total-of-lines': {
    operation: 'invoice',
    description: "An invoice's total_cost is the sum of its lines' quantity × cost",
    check: (_request, reply) =>
      first(
        list(reply, 'invoices'),
        (i) =>
          Math.abs(
            list(i, 'invoice_detail').reduce((sum, l) => sum + Number(l.item_quantity) * Number(l.cost), 0) -
              Number(i.total_cost),
          ) > 0.005,
        (i) => `invoice ${String(i.invoice_number)} totals ${String(i.total_cost)}`,
      ),
  },
  'invoice.link-https': {
    operation: 'invoice',
    description: 'An invoice copy is linked over https',
    check: (_request, reply) =>
      first(
        list(reply, 'invoices'),
        (i) => i.link_url !== undefined && !String(i.link_url).startsWith('https://'),
        (i) => `invoice ${String(i.invoice_number)} links ${String(i.link_url)}`,
      ),
  },
  'statement.paid-within-amount': {
    operation: 'statement',
    description: 'A statement line is never paid beyond its amount',
    check: (_request, reply) =>
      first(
        list(reply, 'statements').flatMap((s) => list(s, 'statement_detail')),
        (l) => Math.abs(Number(l.paid_amount)) > Math.abs(Number(l.original_amount)),
        (l) => `line ${String(l.invoice_number)} paid ${String(l.paid_amount)} of ${String(l.original_amount)}`,
      ),
  },
  'statement.currency': {
    operation: 'statement',
    description: 'A statement states its currency',
    check: (_request, reply) =>
      first(
        list(reply, 'statements'),
        (s) => s.currency === undefined,
        (s) => `statement ${String(s.statement_date)} has no currency`,
      ),
  },
} as const satisfies Record<string, CandidateRule>;

export type CandidateRuleName = keyof typeof CANDIDATE_RULES;
export const isCandidateRule = (name: string): name is CandidateRuleName => Object.hasOwn(CANDIDATE_RULES, name);
