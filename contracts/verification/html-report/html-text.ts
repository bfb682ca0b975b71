// HTML built safe by default: every value put into the `html` template is escaped unless it
// is itself markup made by `html` (or `trustedHtml`, for our own constant strings). Everything
// in a report came from the seller at some point, so nothing is written out raw by accident.

const MARKUP = Symbol('markup');

export interface Html {
  readonly [MARKUP]: string;
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const isHtml = (value: unknown): value is Html => typeof value === 'object' && value !== null && MARKUP in value;

function textOf(value: HtmlValue): string {
  if (value === null || value === undefined) return '';
  if (isHtml(value)) return value[MARKUP];
  if (Array.isArray(value)) return value.map(textOf).join('');
  return escapeHtml(String(value as string | number | boolean));
}

/** Markup from a template: the literal parts as written, every `${value}` escaped (arrays joined). */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += textOf(values[i]) + strings[i + 1];
  return { [MARKUP]: out };
}

/** Our own constant markup (never a value that came from outside). */
export const trustedHtml = (markup: string): Html => ({ [MARKUP]: markup });

export const markupOf = (value: HtmlValue): string => textOf(value);
