import { describe, expect, it } from 'vitest';
import { STATE_NAMES } from '../contracts/pact/provider-states';
import { MOCK_SELLER_STATE_HANDLERS } from './provider-states';

describe("the mock seller's provider-state handlers", () => {
  it('set up every state of the catalogue, so our own verification needs no translation', () => {
    expect(STATE_NAMES.filter((name) => !(name in MOCK_SELLER_STATE_HANDLERS))).toEqual([]);
  });
});
