import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../shared/package-root';
import { GATEWAY_HEAP_FLAGS, withGatewayHeapFlags } from './node-flags';

describe('the gateway heap flags', () => {
  it('are the ones npm start and npm run gateway run with', () => {
    const scripts = (
      JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    for (const name of ['start', 'gateway']) {
      expect(scripts[name], name).toMatch(
        new RegExp(`^node ${GATEWAY_HEAP_FLAGS.join(' ')} scripts/run-bundled.mjs ${name}$`),
      );
    }
  });

  it('are added to a worker’s execArgv, keeping a limit the primary was given', () => {
    expect(withGatewayHeapFlags(['--inspect'])).toEqual(['--inspect', ...GATEWAY_HEAP_FLAGS]);
    const own = withGatewayHeapFlags(['--max-old-space-size=512']);
    expect(own).toContain('--max-old-space-size=512');
    expect(own.filter((f) => f.startsWith('--max-old-space-size='))).toHaveLength(1);
    expect(own).toContain(GATEWAY_HEAP_FLAGS[1]);
  });
});
