import { REFUSED_CHARACTERS } from '../../contracts/schemas/common';

// PostgreSQL text and jsonb hold no NUL, and jsonb no unpaired surrogate escape. Buyer requests
// and order replies are bounded by the contract, but an error answer may quote what a seller
// sent (a refused order's body, a path naming a field it added): written as is, that write
// fails and the buyer gets a 500 for a seller's fault. These keep the characters readable
// as \uXXXX text instead.

// An escape in JSON.stringify's output, not preceded by an escaped backslash: NUL, or any
// surrogate (stringify writes a valid pair as raw characters, so an escaped one is lone).
const UNSTORABLE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(0000|d[89a-f][0-9a-f]{2})/gi;

/** JSON text for a jsonb column: as JSON.stringify, with NUL and lone surrogates spelled out. */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes('\\u') ? json.replace(UNSTORABLE_ESCAPE, '$1\\\\u$2') : json;
}

const UNSTORABLE_CHARACTER = new RegExp(`[${REFUSED_CHARACTERS}]`, 'gu');

/** A string for a text column: NUL and lone surrogates spelled out as \uXXXX. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE_CHARACTER, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
