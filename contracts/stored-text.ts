import { REFUSED_CHARACTERS } from './schemas/common';
import type { ValidationIssue } from './validator';

// A place-order reply is stored as jsonb, which holds no NUL and no unpaired surrogate. The
// schema bounds the fields it names; this walks everything else a seller may add (names too),
// so no reply the contract admits can fail the write. With the u flag a valid pair is one code
// point, so only a lone half matches.
const UNSTORABLE = new RegExp(`[${REFUSED_CHARACTERS}]`, 'u');

const pointer = (path: string, key: string | number) =>
  `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The first string or field name jsonb cannot hold, as a schema-style issue at its path. */
export function unstorableText(value: unknown, path = ''): ValidationIssue | undefined {
  if (typeof value === 'string') {
    return UNSTORABLE.test(value)
      ? {
          path,
          keyword: 'stored-text',
          message: 'must not contain a NUL or an unpaired surrogate (the reply is stored)',
        }
      : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const issue = unstorableText(value[i], pointer(path, i));
      if (issue) return issue;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    if (UNSTORABLE.test(key))
      return {
        path: pointer(path, key),
        keyword: 'stored-text',
        message: 'field name must not contain a NUL or an unpaired surrogate (the reply is stored)',
      };
    const issue = unstorableText(child, pointer(path, key));
    if (issue) return issue;
  }
  return undefined;
}
