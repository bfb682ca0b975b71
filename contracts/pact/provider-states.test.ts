import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROVIDER_STATES as MOCK_SELLER_STATES } from '../../mock-seller/provider-states';
import { PACT_FILE } from './pact-names';
import { readPact } from './pact-file';
import { PROVIDER_STATES, STATE_NAMES } from './provider-states';

describe('the provider-state catalogue', () => {
  it('names only states the mock seller can set up, so our own verification needs no translation', () => {
    expect(STATE_NAMES.filter((name) => !(name in MOCK_SELLER_STATES))).toEqual([]);
  });

  it('covers every state and parameter the committed pact uses', () => {
    for (const interaction of readPact(PACT_FILE).interactions) {
      for (const state of interaction.providerStates ?? []) {
        const definition = PROVIDER_STATES[state.name as keyof typeof PROVIDER_STATES];
        expect(definition, state.name).toBeDefined();
        for (const param of Object.keys(state.params ?? {})) expect(Object.keys(definition.params), `${state.name}: ${param}`).toContain(param);
      }
    }
  });

  it("is documented, state by state, in the vendor's guide", () => {
    const guide = readFileSync('docs/seller-vendor-guide.md', 'utf8');
    for (const [name, definition] of Object.entries(PROVIDER_STATES)) {
      expect(guide).toContain(`| \`${name}\` | ${Object.keys(definition.params).map((p) => `\`${p}\``).join(', ')} | ${definition.setup} |`);
    }
  });
});
