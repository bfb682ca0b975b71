import { describe, expect, it } from 'vitest';
import { agreementFigures, disagreementText, figuresTable, runAgreement } from './openapi-agreement/run-agreement';
import type { Kind } from './openapi-agreement/derive-documents';

// check-openapi proven against runs, not guessed: one derived vendor document of each of ten
// kinds of change, its static verdict beside the kit's `verify` of a seller that answers
// exactly as the document says (one mock seller on port 0 behind the document's own
// validation). No document called compatible whose seller fails verify; none called
// incompatible whose seller passes. `npm run -w lab openapi:agreement` runs every kind, twelve each.

const KINDS: Kind[] = [
  'field-dropped',
  'required-added',
  'enum-widened',
  'nullable-3.0',
  'bound-max-wider',
  'extras-typed',
  'allof-closed-parts',
  'reply-media-type',
  'wrong-method',
  'request-field-dropped',
];

describe('check-openapi agrees with verify on derived vendor documents', () => {
  it(
    `one document of each of ${KINDS.length} kinds: no false compatible, no false incompatible`,
    { timeout: 180_000 },
    async () => {
      const run = await runAgreement({ perKind: 1, kinds: KINDS });
      const figures = agreementFigures(run.judged);
      const all = figures.at(-1)!;
      const text = run.judged
        .filter((j) => j.outcome.startsWith('false-'))
        .map(disagreementText)
        .join('\n\n');
      expect(run.judged).toHaveLength(KINDS.length);
      // Both verdicts occur, or agreement means nothing.
      expect(all.verifyFails, figuresTable(figures)).toBeGreaterThan(0);
      expect(all.verifyFails, figuresTable(figures)).toBeLessThan(KINDS.length);
      expect(all.falseCompatible, text).toBe(0);
      expect(all.falseIncompatible, text).toBe(0);
    },
  );
});
