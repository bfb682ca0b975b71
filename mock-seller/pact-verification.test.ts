import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Verifier } from '@pact-foundation/pact';
import { startMockSeller, type RunningMockSeller } from './index';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { readPact } from '../contracts/pact/pact-file';
import { STATE_NAMES } from '../contracts/pact/provider-states';
import { createStateHandlers, remoteStateSource, type StateEvent } from '../verification/states/state-handlers';
import {
  baseOptions,
  pactSourceOptions,
  publishOptions,
  stateHandlerOptions,
} from '../verification/verify/verifier-options';

// Provider side against our own mock seller: proves the contract can be satisfied and
// that the mock conforms. States are set up through the mock's provider-state endpoint.

let mock: RunningMockSeller;
beforeAll(async () => {
  mock = await startMockSeller();
});
afterAll(async () => {
  await mock?.close();
});

describe('the mock seller honours the gateway → seller pact', () => {
  it('verifies every interaction, with each state set up through /__admin/provider-state', async () => {
    const events: StateEvent[] = [];
    const verifier = new Verifier({
      ...baseOptions(mock.url),
      ...pactSourceOptions({ kind: 'file', files: [PACT_FILE] }),
      ...stateHandlerOptions(
        createStateHandlers(STATE_NAMES, remoteStateSource(`${mock.url}/__admin/provider-state`), (e) =>
          events.push(e),
        ),
      ),
      ...publishOptions(undefined),
    });
    await expect(verifier.verifyProvider()).resolves.toBeDefined();
    // Every state was set up without error, and torn down again.
    expect(events.filter((e) => e.error !== undefined)).toEqual([]);
    const interactions = readPact(PACT_FILE).interactions.length;
    expect(events.filter((e) => e.action === 'setup').length).toBe(interactions);
    expect(events.filter((e) => e.action === 'teardown').length).toBe(interactions);
  });
});
