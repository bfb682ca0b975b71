import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../shared/testing/temporary-directory';
import { brokerSettings, BrokerSettingsError, uncommitted } from './broker-cli';
import { PACT_FILE } from './pact-names';
import { startRecordingBroker } from '../testing/recording-broker';

// npm run pact:publish / pact:can-i-deploy against a recording broker on loopback: what the
// real `pact` CLI sends, and how the scripts exit.

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runScript(script: string, env: Record<string, string | undefined>, args: string[] = []): Promise<Run> {
  const clean = { ...process.env };
  for (const name of [
    'PACT_BROKER_BASE_URL',
    'PACT_BROKER_TOKEN',
    'PACT_BROKER_USERNAME',
    'PACT_BROKER_PASSWORD',
    'PACT_CONSUMER_VERSION',
    'PACT_BRANCH',
    'PACT_ENVIRONMENT',
  ])
    delete clean[name];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { env: { ...clean, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
      },
    );
  });
}

const head = () => execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
const branch = () => execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { encoding: 'utf8' }).trim();

describe('npm run pact:publish', () => {
  it('publishes the committed pact under the git SHA and branch, with the token as a bearer', async () => {
    const broker = await startRecordingBroker();
    try {
      const before = head();
      // --allow-dirty: other work in this checkout may have touched contracts/pacts meanwhile.
      const run = await runScript(
        'scripts/pact-publish.ts',
        { PACT_BROKER_BASE_URL: broker.url, PACT_BROKER_TOKEN: 'ci-token' },
        ['--allow-dirty'],
      );
      expect(run.code, run.stderr).toBe(0);
      const publish = broker.calls.find((c) => c.method === 'POST' && c.path === '/contracts/publish');
      expect(publish).toBeDefined();
      expect(broker.calls.every((c) => c.authorization === 'Bearer ci-token')).toBe(true);
      const body = publish!.body as {
        pacticipantName: string;
        pacticipantVersionNumber: string;
        branch: string;
        contracts: {
          consumerName: string;
          providerName: string;
          specification: string;
          contentType: string;
          content: string;
        }[];
      };
      expect(body.pacticipantName).toBe('federated-gateway');
      expect([before, head()]).toContain(body.pacticipantVersionNumber);
      expect(body.branch).toBe(branch());
      expect(body.contracts).toHaveLength(1);
      expect(body.contracts[0]).toMatchObject({
        consumerName: 'federated-gateway',
        providerName: 'seller-system',
        specification: 'pact',
        contentType: 'application/json',
      });
      const published = JSON.parse(Buffer.from(body.contracts[0].content, 'base64').toString('utf8'));
      const committed = JSON.parse(readFileSync(PACT_FILE, 'utf8'));
      // The CLI stamps its own pactRust version into the metadata; the contract itself is ours.
      expect({ ...published, metadata: { ...published.metadata, pactRust: undefined } }).toEqual({
        ...committed,
        metadata: { ...committed.metadata, pactRust: undefined },
      });
    } finally {
      await broker.close();
    }
  });

  it('publishes the pending-marked next contract that npm run contract:pending writes (--pacts <file>)', async () => {
    const out = join(temporaryDirectory('pending-publish'), 'next.json');
    const written = await runScript('scripts/contract-pending.ts', {}, [
      '--base',
      PACT_FILE,
      '--head',
      'fixtures/pacts/next-contract-example.json',
      '--out',
      out,
    ]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toBe(
      `${out}: pending: true on 1 of 15 interaction(s)\n  an item inquiry for a part stocked at two locations\n`,
    );
    const broker = await startRecordingBroker();
    try {
      const run = await runScript(
        'scripts/pact-publish.ts',
        { PACT_BROKER_BASE_URL: broker.url, PACT_BROKER_TOKEN: 'ci-token' },
        ['--allow-dirty', '--pacts', out],
      );
      expect(run.code, run.stderr).toBe(0);
      const body = broker.calls.find((c) => c.method === 'POST' && c.path === '/contracts/publish')!.body as {
        contracts: { content: string }[];
      };
      const published = JSON.parse(Buffer.from(body.contracts[0].content, 'base64').toString('utf8')) as {
        interactions: { description: string; pending: boolean }[];
      };
      expect(published.interactions.filter((i) => i.pending).map((i) => i.description)).toEqual([
        'an item inquiry for a part stocked at two locations',
      ]);
      expect(published.interactions.filter((i) => !i.pending)).toHaveLength(14);
    } finally {
      await broker.close();
    }
    const missing = await runScript(
      'scripts/pact-publish.ts',
      { PACT_BROKER_BASE_URL: 'http://127.0.0.1:9', PACT_BROKER_TOKEN: 't' },
      ['--allow-dirty', '--pacts', `${out}.nope`],
    );
    expect([missing.code, missing.stderr]).toEqual([2, `pact:publish: --pacts ${out}.nope does not exist\n`]);
  });

  it('stops with a clear message, before calling anything, when the broker settings are missing', async () => {
    const run = await runScript('scripts/pact-publish.ts', {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('missing broker settings: PACT_BROKER_BASE_URL');
    expect(run.stderr).toContain('PACT_BROKER_TOKEN');
  });
});

describe('npm run pact:can-i-deploy', () => {
  it('asks the matrix about this commit of the gateway and the target environment; exit 0 on yes', async () => {
    const broker = await startRecordingBroker({ deployable: true });
    try {
      const run = await runScript(
        'scripts/pact-can-i-deploy.ts',
        { PACT_BROKER_BASE_URL: broker.url, PACT_BROKER_TOKEN: 'ci-token', PACT_CONSUMER_VERSION: 'abc123' },
        ['--to-environment', 'staging'],
      );
      expect(run.code, run.stderr).toBe(0);
      const matrix = broker.calls.find((c) => c.path === '/matrix');
      expect(matrix?.query).toContain('q[][pacticipant]=federated-gateway');
      expect(matrix?.query).toContain('q[][version]=abc123');
      expect(matrix?.query).toContain('environment=staging');
      expect(matrix?.authorization).toBe('Bearer ci-token');
    } finally {
      await broker.close();
    }
  });

  it('exits non-zero when the broker says no', async () => {
    const broker = await startRecordingBroker({ deployable: false });
    try {
      const run = await runScript('scripts/pact-can-i-deploy.ts', {
        PACT_BROKER_BASE_URL: broker.url,
        PACT_BROKER_TOKEN: 'ci-token',
        PACT_CONSUMER_VERSION: 'abc123',
      });
      expect(run.code).not.toBe(0);
      expect(broker.calls.find((c) => c.path === '/matrix')?.query).toContain('environment=production');
    } finally {
      await broker.close();
    }
  });

  it('stops with a clear message when the broker settings are missing', async () => {
    const run = await runScript('scripts/pact-can-i-deploy.ts', { PACT_BROKER_TOKEN: 'ci-token' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('missing broker settings: PACT_BROKER_BASE_URL');
  });
});

describe('broker settings', () => {
  it('accepts basic auth instead of a token, and rejects a base URL that is not http(s)', () => {
    expect(
      brokerSettings({
        PACT_BROKER_BASE_URL: 'https://broker.example',
        PACT_BROKER_USERNAME: 'ci',
        PACT_BROKER_PASSWORD: 'pw',
      }).env,
    ).toEqual({
      PACT_BROKER_USERNAME: 'ci',
      PACT_BROKER_PASSWORD: 'pw',
    });
    expect(() => brokerSettings({ PACT_BROKER_BASE_URL: 'broker.example', PACT_BROKER_TOKEN: 't' })).toThrow(
      BrokerSettingsError,
    );
  });

  it('sees uncommitted pact changes, which would be published under a SHA that does not hold them', () => {
    const repo = temporaryDirectory('pact-dirty');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: repo,
        stdio: 'pipe',
      });
    git('init', '-q');
    writeFileSync(join(repo, 'pact.json'), '{}');
    git('add', 'pact.json');
    git('commit', '-q', '-m', 'pact');
    expect(uncommitted('pact.json', repo)).toEqual([]);
    writeFileSync(join(repo, 'pact.json'), '{"changed":true}');
    expect(uncommitted('pact.json', repo)).toEqual([expect.stringMatching(/M pact\.json$/)]);
  });
});
