// HTML built safe by default: every value put into the `markup` template is escaped unless it
// is itself markup made by `markup` (or `trustedMarkup`, for our own constant strings).
// Everything in a report came from the seller at some point, so nothing is written out raw by
// accident. (Not named `html`: Prettier would reformat such templates and change the output.)

const MARKUP = Symbol('markup');

export interface Markup {
  readonly [MARKUP]: string;
}

export type MarkupValue = Markup | string | number | boolean | null | undefined | readonly MarkupValue[];

export const escapeHtml = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

const isMarkup = (value: unknown): value is Markup => typeof value === 'object' && value !== null && MARKUP in value;

/**
 * The text of a value as it goes into a page: markup as is, arrays
 * joined, null/undefined as nothing, anything else escaped.
 */
export function markupText(value: MarkupValue): string {
  if (value === null || value === undefined) return '';
  if (isMarkup(value)) return value[MARKUP];
  if (Array.isArray(value)) return value.map(markupText).join('');
  return escapeHtml(String(value as string | number | boolean));
}

/** Markup from a template: the literal parts as written, every `${value}` through markupText. */
export function markup(strings: TemplateStringsArray, ...values: MarkupValue[]): Markup {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += markupText(values[i]) + strings[i + 1];
  return { [MARKUP]: out };
}

/** Our own constant markup (never a value that came from outside). */
export const trustedMarkup = (text: string): Markup => ({ [MARKUP]: text });
