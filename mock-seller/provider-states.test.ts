import { describe, expect, it } from 'vitest';
import { STATE_NAMES } from '../contracts/pact/provider-states';
import { MOCK_SELLER_STATE_HANDLERS, setUpProviderState } from './provider-states';
import { readDefaultScenario } from './default-scenario';
import { BadRequestError } from './errors';

describe("the mock seller's provider-state handlers", () => {
  it('set up every state of the catalogue, so our own verification needs no translation', () => {
    expect(STATE_NAMES.filter((name) => !(name in MOCK_SELLER_STATE_HANDLERS))).toEqual([]);
  });
});

describe('setUpProviderState', () => {
  it('refuses a name no handler has, a property of every object included, as a bad request', () => {
    for (const state of ['no such state', 'toString', '__proto__'])
      expect(() => setUpProviderState(readDefaultScenario(), state), state).toThrow(BadRequestError);
  });
});
