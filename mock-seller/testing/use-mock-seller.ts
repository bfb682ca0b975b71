import { afterAll, afterEach, beforeAll } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../start-mock-seller';

/**
 * One mock seller (default scenario) for a test file: started before its tests, its faults
 * cleared and its data reset after each test, closed at the end. The object returned is
 * filled in once it runs, so tests read `mock.url` as usual.
 */
export function useMockSeller(): RunningMockSeller {
  const mock = {} as RunningMockSeller;
  beforeAll(async () => {
    Object.assign(mock, await startMockSeller());
  });
  afterEach(async () => {
    await fetch(`${mock.url}/__admin/faults`, { method: 'DELETE' });
    await fetch(`${mock.url}/__admin/reset`, { method: 'POST' });
  });
  afterAll(async () => {
    await mock.close?.();
  });
  return mock;
}
