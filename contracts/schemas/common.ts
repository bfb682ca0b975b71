import { Type, type TSchema, type TProperties, type ObjectOptions } from '@sinclair/typebox';
import type { FormatName } from '../formats';

// Building blocks shared by every payload. `float` in the specification is Type.Number
// (the gateway's serializer writes these with a decimal point); `integer` is Type.Integer.

/** Identifiers and codes: a string with something in it. */
export const Id = (description?: string) => Type.String({ minLength: 1, description });
export const Text = (description?: string) => Type.String({ description });
export const Formatted = (format: FormatName, description?: string) => Type.String({ format, description });
export const CalendarDate = (description?: string) => Formatted('date', description);

/** Money, weights and quantities that cannot be below zero. */
export const NonNegativeFloat = (description?: string) => Type.Number({ minimum: 0, description });
/** Amounts on invoices and statements: credit memos and returns are negative. */
export const SignedFloat = (description?: string) => Type.Number({ description });

/** An integer restricted to one of the code lists in codes.ts. */
export const CodeOf = (list: Record<string, number>, description?: string) => Type.Integer({ enum: Object.values(list), description });

/** Buyer requests: a typo such as `part_numbr` is an error naming the field. */
export const Closed = <T extends TProperties>(properties: T, options: ObjectOptions = {}) =>
  Type.Object(properties, { ...options, additionalProperties: false });

/** Seller replies: sellers may send more; the validator reports extras as notes. */
export const Open = <T extends TProperties>(properties: T, options: ObjectOptions = {}) => Type.Object(properties, { ...options, additionalProperties: true });

export const ListOf = <T extends TSchema>(item: T, options: { minItems?: number; description?: string } = {}) => Type.Array(item, options);
