import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { checkSellerReplyInOnePass } from '../speedups/one-pass-check';
import { checkSellerReply } from '../../contracts/reply-check';
import type { ItemInquirySellerRequest } from '../../contracts/schemas/item-inquiry';
import { ITEM_INQUIRY_MUTATIONS, itemInquiryExchange } from '../../contracts/testing/arbitraries';
import { buildItemInquiryExchange } from '../../contracts/testing/large-exchange';

// Cases for the differential test of the one-pass reply check against the reference path
// (gateway/speedups/one-pass-check.test.ts bounded, `npm run -w lab one-pass:agreement` at length): a forwarded
// item-inquiry request and the text of a seller reply to it, valid or broken every way there
// is — every reply rule (the mutations of arbitraries.ts, several at once), any field set to a
// number edge, a wrong type, an odd string, deleted, or joined by an extra field, and huge.
// The reply is text, as it reaches the gateway, so that 1e400 and integers past 2^53 are what
// JSON.parse makes of them.

export interface OnePassCase {
  request: ItemInquirySellerRequest;
  replyText: string;
}

/** Raw JSON written in place of a field: number edges, wrong types, odd strings, route times. */
export const EDGE_TOKENS = [
  '0',
  '-0',
  '1',
  '2',
  '3',
  '4',
  '5',
  '-1',
  '0.5',
  '1e21',
  '5e-324',
  '1e15',
  '1000000000000001',
  '9007199254740993',
  '18446744073709551616',
  '1e400',
  '-1e400',
  '2000',
  '2001',
  '3000',
  '1.5',
  'null',
  'true',
  'false',
  '[]',
  '{}',
  '[{}]',
  '""',
  '"NaN"',
  '"Infinity"',
  '"-0"',
  '"1"',
  '"EA"',
  '"ZZ"',
  '"L1"',
  '"\\u0000"',
  '"\\ud800"',
  '"\\ud83d\\ude97"',
  '"2026-03-02 10:30:00"',
  '"2026-02-30 10:30:00"',
  '"2026-03-02 24:00:00"',
  '"2024-02-29 23:59:59"',
  `"${'x'.repeat(65_537)}"`,
  `"${'\\ud83d\\ude97'.repeat(32_768)}"`,
];

type Edit =
  | { kind: 'set'; at: number; token: number }
  | { kind: 'delete'; at: number }
  | { kind: 'extra'; at: number; token: number };

const edit = (): fc.Arbitrary<Edit> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('set' as const),
        at: fc.nat(),
        token: fc.nat({ max: EDGE_TOKENS.length - 1 }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('extra' as const),
        at: fc.nat(),
        token: fc.nat({ max: EDGE_TOKENS.length - 1 }),
      }),
    },
  );

type Slot = { owner: Record<string, unknown> | unknown[]; key: string | number };

/** Every field and element of a value, parents before children. */
function slotsOf(value: unknown, out: Slot[] = []): Slot[] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push({ owner: value, key: i });
      slotsOf(item, out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push({ owner: value as Record<string, unknown>, key });
      slotsOf(item, out);
    }
  }
  return out;
}

const MARK = '\u0001raw\u0001';

/** The edits applied to `reply` (a fresh copy), written as JSON text with the raw tokens in place. */
function applyEdits(reply: unknown, edits: Edit[]): string {
  const copy = structuredClone(reply) as Record<string, unknown>;
  for (const e of edits) {
    const slots = slotsOf(copy);
    if (e.kind === 'extra') {
      const objects = [copy, ...slots.map((s) => (s.owner as Record<string | number, unknown>)[s.key])].filter(
        (v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v),
      );
      objects[e.at % objects.length][`x_extra_${e.at % 3}`] = `${MARK}${e.token}`;
      continue;
    }
    if (slots.length === 0) continue;
    const { owner, key } = slots[e.at % slots.length];
    if (e.kind === 'delete') {
      if (Array.isArray(owner)) owner.splice(key as number, 1);
      else delete owner[key as string];
    } else {
      (owner as Record<string | number, unknown>)[key] = `${MARK}${e.token}`;
    }
  }
  return JSON.stringify(copy).replace(/"\\u0001raw\\u0001(\d+)"/g, (_, n: string) => EDGE_TOKENS[Number(n)]);
}

/** One exchange: a generated valid one, broken by 0–3 reply rules and then 0–3 edits; now and then a huge one. */
export const onePassCase = (): fc.Arbitrary<OnePassCase> =>
  fc.oneof(
    {
      weight: 20,
      arbitrary: fc
        .tuple(
          itemInquiryExchange(),
          fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 3 }),
          fc.array(edit(), { maxLength: 3 }),
        )
        .map(([exchange, mutations, edits]) => {
          const ex = structuredClone(exchange);
          for (const [which, pick] of mutations) {
            const mutation = ITEM_INQUIRY_MUTATIONS[which % ITEM_INQUIRY_MUTATIONS.length];
            try {
              if (mutation.applies(ex)) mutation.apply(ex, pick);
            } catch {
              // An earlier mutation took what this one needs (a requested-part entry): skip it.
            }
          }
          return { request: ex.request, replyText: applyEdits(ex.reply, edits) };
        }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 20, max: 80 }), fc.boolean(), fc.array(edit(), { maxLength: 2 }))
        .map(([items, distinctRouteTimes, edits]) => {
          const { request, reply } = buildItemInquiryExchange({
            items,
            alternates: 3,
            locations: 5,
            distinctRouteTimes,
          });
          return { request, replyText: applyEdits(reply, edits) };
        }),
    },
  );

/**
 * Where the one-pass check and the reference part ways on a case, in words; undefined when they
 * agree: the same verdict, the same findings (rule, path, message, every field, in order) and
 * the reply left as it was — and, given the buyer-reply writer (`write`, which lives in the
 * gateway), the same bytes written from the reply after each.
 */
export function disagreement(
  { request, replyText }: OnePassCase,
  write?: (reply: unknown) => Uint8Array,
): string | undefined {
  const referenceReply: unknown = JSON.parse(replyText);
  const onePassReply: unknown = JSON.parse(replyText);
  const reference = checkSellerReply('item-inquiry', request, referenceReply);
  const onePass = checkSellerReplyInOnePass('item-inquiry', request, onePassReply);
  if (!isDeepStrictEqual(onePass, reference))
    return `findings differ:\n  reference ${JSON.stringify(reference)}\n  one pass  ${JSON.stringify(onePass)}`;
  if (!isDeepStrictEqual(onePassReply, referenceReply)) return 'the one-pass check changed the reply';
  if (write !== undefined && Buffer.compare(write(onePassReply), write(referenceReply)) !== 0)
    return 'the buyer reply bytes differ';
  return undefined;
}
