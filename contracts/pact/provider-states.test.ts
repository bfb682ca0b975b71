import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PACT_FILE } from './pact-names';
import { readPact } from './pact-file';
import { PROVIDER_STATE_CATALOGUE } from './provider-states';

describe('the provider-state catalogue', () => {
  it("gives every interaction of the committed pact exactly one state, so no verifier merges two states' values", () => {
    const pact = readPact(PACT_FILE);
    expect(pact.interactions.filter((i) => (i.providerStates ?? []).length !== 1).map((i) => i.description)).toEqual(
      [],
    );
    // Every injected expression names a parameter of that state.
    for (const interaction of pact.interactions) {
      const params = Object.keys(interaction.providerStates![0].params ?? {});
      const expressions = [...JSON.stringify(interaction.request).matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]);
      expect(
        expressions.filter((name) => !params.includes(name)),
        interaction.description,
      ).toEqual([]);
    }
  });

  it('covers every state and parameter the committed pact uses', () => {
    for (const interaction of readPact(PACT_FILE).interactions) {
      for (const state of interaction.providerStates ?? []) {
        const definition = PROVIDER_STATE_CATALOGUE[state.name as keyof typeof PROVIDER_STATE_CATALOGUE];
        expect(definition, state.name).toBeDefined();
        for (const param of Object.keys(state.params ?? {}))
          expect(Object.keys(definition.params), `${state.name}: ${param}`).toContain(param);
      }
    }
  });

  it("is documented, state by state, on the vendor's state maps page", () => {
    const guide = readFileSync('docs/vendor/state-maps.md', 'utf8');
    for (const [name, definition] of Object.entries(PROVIDER_STATE_CATALOGUE)) {
      expect(guide).toContain(
        `| \`${name}\` | ${Object.keys(definition.params)
          .map((p) => `\`${p}\``)
          .join(', ')} | ${definition.setup} |`,
      );
    }
  });
});
