import { Type, type TSchema, type TProperties, type ObjectOptions } from '@sinclair/typebox';
import type { FormatName } from '../formats';

// Building blocks shared by every payload. `float` in the specification is Type.Number
// (the gateway's serializer writes these with a decimal point); `integer` is Type.Integer.
//
// Bounds (docs/gateway/answers.md, "What the contract refuses"): what a buyer sends is stored in
// PostgreSQL text/jsonb and forwarded, so request strings are bounded in length and hold no
// NUL (PostgreSQL text cannot) and no lone surrogate (not Unicode, no UTF-8 form). Seller
// replies come from sellers: their strings get only a generous length, never the pattern.
// Every number is finite (the validator's strictNumbers; JSON.parse turns 1e400 into Infinity).

/**
 * No NUL, no lone surrogate: a character class body, and the pattern of a string of
 * others. Ajv compiles patterns with the `u` flag, where a surrogate pair is one
 * code point above U+FFFF and so matches `[^…]`; only an unpaired half is refused.
 */
export const REFUSED_CHARACTERS = '\\u0000\\uD800-\\uDFFF';
export const PLAIN_TEXT_PATTERN = `^[^${REFUSED_CHARACTERS}]*$`;

/** Request string limits, in characters (code points, as PostgreSQL and Ajv count them). */
export const MAX_ID_LENGTH = 100;
export const MAX_NAME_LENGTH = 200;
export const MAX_TEXT_LENGTH = 1000;
/** A public key in PEM (the internal API's key registration): a few KB at most. */
export const MAX_PEM_LENGTH = 16_384;
/** Reply strings: generous, only to refuse a runaway seller; no honest field comes near. */
export const MAX_REPLY_TEXT_LENGTH = 65_536;

/** PostgreSQL integer (int4): catalog keys, sort orders, user ids. */
export const MAX_INT4 = 2_147_483_647;
/** Quantities on an order or cart line; the cart stores numeric(12, 3). */
export const MAX_QUANTITY = 100_000;
/** Money, weights and counts in replies: beyond this a double no longer holds cents. */
export const MAX_REPLY_NUMBER = 1e15;

const plain = (maxLength: number, description?: string) => ({ maxLength, pattern: PLAIN_TEXT_PATTERN, description });

/** Identifiers and codes in requests: a string with something in it, at most `maxLength` characters. */
export const Id = (description?: string, maxLength = MAX_ID_LENGTH) =>
  Type.String({ minLength: 1, ...plain(maxLength, description) });
/** Free text in requests (names, addresses, comments). */
export const Text = (description?: string, maxLength = MAX_NAME_LENGTH) => Type.String(plain(maxLength, description));
/** Identifiers and codes in replies. */
export const ReplyId = (description?: string) =>
  Type.String({ minLength: 1, maxLength: MAX_REPLY_TEXT_LENGTH, description });
/** Free text in replies. */
export const ReplyText = (description?: string) => Type.String({ maxLength: MAX_REPLY_TEXT_LENGTH, description });
/** Reply strings the gateway stores (a place-order reply goes into jsonb, which holds no NUL). */
export const StoredReplyId = (description?: string) =>
  Type.String({ minLength: 1, maxLength: MAX_REPLY_TEXT_LENGTH, pattern: PLAIN_TEXT_PATTERN, description });
export const StoredReplyText = (description?: string) =>
  Type.String({ maxLength: MAX_REPLY_TEXT_LENGTH, pattern: PLAIN_TEXT_PATTERN, description });
export const Formatted = (format: FormatName, description?: string) => Type.String({ format, description });
export const CalendarDate = (description?: string) => Formatted('date', description);

/** A key held in an int4 column. */
export const Key = (description?: string) => Type.Integer({ minimum: 1, maximum: MAX_INT4, description });
/** An integer held in an int4 column that may be zero or negative, e.g. a sort order. */
export const Int4 = (options: { minimum?: number; description?: string } = {}) =>
  Type.Integer({ minimum: -MAX_INT4 - 1, maximum: MAX_INT4, ...options });
/** A quantity a buyer orders: above zero, at most MAX_QUANTITY. */
export const Quantity = (description?: string) =>
  Type.Number({ exclusiveMinimum: 0, maximum: MAX_QUANTITY, description });

/** Money, weights and quantities that cannot be below zero. */
export const NonNegativeFloat = (description?: string) =>
  Type.Number({ minimum: 0, maximum: MAX_REPLY_NUMBER, description });
/** Amounts on invoices and statements: credit memos and returns are negative. */
export const SignedFloat = (description?: string) =>
  Type.Number({ minimum: -MAX_REPLY_NUMBER, maximum: MAX_REPLY_NUMBER, description });

/** An integer restricted to one of the code lists in codes.ts. */
export const CodeOf = (list: Record<string, number>, description?: string) =>
  Type.Integer({ enum: Object.values(list), description });

/** Buyer requests: a typo such as `part_numbr` is an error naming the field. */
export const Closed = <T extends TProperties>(properties: T, options: ObjectOptions = {}) =>
  Type.Object(properties, { ...options, additionalProperties: false });

/** Seller replies: sellers may send more; the validator reports extras as notes. */
export const Open = <T extends TProperties>(properties: T, options: ObjectOptions = {}) =>
  Type.Object(properties, { ...options, additionalProperties: true });

export const ListOf = <T extends TSchema>(item: T, options: { minItems?: number; description?: string } = {}) =>
  Type.Array(item, options);
