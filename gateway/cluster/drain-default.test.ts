import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../shared/package-root';
import { DEFAULT_DRAIN_MS } from '../server-settings';

// GATEWAY_DRAIN_MS's default is twice what the shipped haproxy.cfg takes to drop a draining
// instance (check interval × fall count): change one, and this says to change the other.

describe('GATEWAY_DRAIN_MS default', () => {
  it("is twice the shipped HAProxy check's interval times its fall count", () => {
    const cfg = readFileSync(packagePath('gateway', 'cluster', 'haproxy.cfg'), 'utf8');
    const check = /default-server check inter (\d+)ms fall (\d+)/.exec(cfg);
    expect(check).not.toBeNull();
    expect(DEFAULT_DRAIN_MS).toBe(2 * Number(check![1]) * Number(check![2]));
  });
});
