import { execFile, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { readPact } from '../contracts/pact/pact-file';
import { mockSellerCommand } from './mock-seller-command';
import { runInProcess } from './testing/run-in-process';

// `npm run mock-seller -- --pact <file>` from the command line (the replay itself:
// mock-seller/pact-replay.test.ts).

const pact = readPact(PACT_FILE);
const unknownPart = pact.interactions.find((i) => i.description === 'an item inquiry for an unknown part')!;
const post = (url: string, body: unknown) =>
  fetch(`${url}/seller`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('mock-seller --pact', () => {
  it('the CLI (--pact) prints how many interactions it replays and serves them (spawned smoke run)', async () => {
    let child: ChildProcess | undefined;
    try {
      const output = await new Promise<string>((resolve, reject) => {
        child = execFile(
          process.execPath,
          ['--import', 'tsx', 'scripts/mock-seller.ts', '--pact', PACT_FILE, '--port', '0'],
          { timeout: 60_000 },
        );
        let text = '';
        child.stdout!.on('data', (chunk) => {
          text += chunk;
          if (text.includes('listening on')) resolve(text);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
      });
      expect(output).toContain(`replaying ${pact.interactions.length} interactions from ${PACT_FILE}`);
      const url = /listening on (http:\/\/\S+)/.exec(output)![1];
      const response = await post(url, unknownPart.request.body!.content);
      expect(await response.json()).toEqual(unknownPart.response.body!.content);
    } finally {
      child?.kill('SIGTERM');
    }
  });

  it('the CLI refuses --pact together with --scenario', async () => {
    // In-process through (argv, io): the spawned run above is this command's smoke test.
    const result = await runInProcess(mockSellerCommand, [
      '--pact',
      PACT_FILE,
      '--scenario',
      'fixtures/scenarios/default.json',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--pact and --scenario exclude each other');
  });
});
