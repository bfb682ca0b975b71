import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { killAllGatewayProcesses, startGatewayProcess } from './testing/gateway-process';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { PACKAGE_ROOT } from '../shared/package-root';
import { openGatewayStore } from './open-gateway-store';
import { DEV_KEYS, mintDevToken } from './auth/dev-keys';
import { docBlock } from '../shared/testing/doc-blocks';

// The run an operator makes: NODE_ENV=production on a new data directory, the
// variable GATEWAY_SEED forgotten. The one test here that needs a process: its exit code.

const PRODUCTION = { NODE_ENV: 'production', GATEWAY_PUBLIC_URL: 'https://gw.example', GATEWAY_LOG: 'off' };

/** `npm run gateway` until it exits by itself: its code and what it printed. */
function runGatewayToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/run-bundled.mjs', 'gateway'], {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('a production gateway process', () => {
  const dataDir = useTemporaryDirectory('fgw-production');
  afterAll(killAllGatewayProcesses);

  it('on a new data directory seeds nothing and refuses the dev token (401); with a development key in its store it exits 2 naming it', async () => {
    const env = { ...PRODUCTION, GATEWAY_DATA_DIR: dataDir.path, DATABASE_URL: '' };
    const gateway = await startGatewayProcess({ env });
    try {
      const response = await fetch(`${gateway.url}/json/federated/v3_2/item_inquiry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await mintDevToken('dev-key-1')}` },
        body: JSON.stringify({ items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }] }),
      });
      expect(response.status).toBe(401);
      // The line docs/gateway/production.md shows, as the gateway prints it.
      expect(gateway.output()).toContain(docBlock('docs/gateway/production.md', 'posture-line').text);
    } finally {
      expect((await gateway.kill('SIGTERM')).code).toBe(0);
    }

    // A development key registered by hand (as an old install or a careless operator would have it).
    const store = await openGatewayStore({ GATEWAY_DATA_DIR: dataDir.path, GATEWAY_SEED: 'off' });
    const pem = await readFile(DEV_KEYS['dev-key-1'].publicKeyFile, 'utf8');
    await store.query("INSERT INTO api_clients (id, name) VALUES ('legacy-client', 'Legacy')");
    await store.query(
      "INSERT INTO api_keys (kid, client_id, algorithm, public_key_pem) VALUES ('legacy-kid', 'legacy-client', 'RS256', $1)",
      [pem],
    );
    await store.close();

    const refused = await runGatewayToExit(env);
    expect(refused.code).toBe(2);
    expect(refused.output).toContain("kid 'legacy-kid' of client 'legacy-client'");
    expect(refused.output).toContain('npm run keys -- revoke --kid legacy-kid');
    expect(refused.output).not.toMatch(/listening on/);
  }, 60_000);
});
