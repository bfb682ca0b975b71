import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PACT_FILE } from './pact-names';
import { readPact } from './pact-file';
import { paramType, PROVIDER_STATE_CATALOGUE } from './provider-states';

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

  it("types each parameter as the pact's requests carry it: quantity a number, the rest text", () => {
    const seen = new Map<string, Set<string>>();
    for (const interaction of readPact(PACT_FILE).interactions) {
      const request = interaction.request as { body?: unknown; generators?: { body?: Record<string, unknown> } };
      for (const [path, generator] of Object.entries(request.generators?.body ?? {})) {
        const { type, expression } = generator as { type: string; expression?: string };
        if (type !== 'ProviderState' || expression === undefined) continue;
        const param = /^\$\{(\w+)\}$/.exec(expression)?.[1];
        const example = valueAt(request.body, path);
        if (param !== undefined) seen.set(param, (seen.get(param) ?? new Set()).add(typeof example));
      }
    }
    expect(seen.size).toBeGreaterThan(10);
    for (const [param, types] of seen) expect([...types], param).toEqual([paramType(param).type]);
    expect(paramType('quantity')).toEqual({ type: 'number', field: 'quantity_ordered' });
  });
});

/** The value at a generator's path (`$.items[0].quantity_ordered`) of a request body. */
function valueAt(body: unknown, path: string): unknown {
  let at: unknown = typeof body === 'object' && body !== null && 'content' in body ? body.content : body;
  for (const [, key, index] of path.matchAll(/\.(\w+)|\[(\d+)\]/g))
    at = (at as Record<string, unknown> | undefined)?.[key ?? Number(index)];
  return at;
}
