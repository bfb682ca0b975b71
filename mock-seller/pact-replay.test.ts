import { execFile, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { readPact } from '../contracts/pact/pact-file';
import { startPactReplay } from './index';
import { mockSellerCommand } from '../cli/mock-seller-command';
import { runInProcess } from '../cli/testing/run-in-process';

// `npm run mock-seller -- --pact <file>`: the mock serves exactly the pact's interactions.

const pact = readPact(PACT_FILE);
const unknownPart = pact.interactions.find((i) => i.description === 'an item inquiry for an unknown part')!;
const post = (url: string, body: unknown) =>
  fetch(`${url}/seller`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('pact replay from the mock seller', () => {
  it("answers one of the pact's requests with its example reply, and an unmatched one with a 404 listing what the pact offers", async () => {
    const served: string[] = [];
    const running = await startPactReplay({ pact: PACT_FILE, port: 0, onMatch: (d) => served.push(d) });
    try {
      expect(running.port).toBeGreaterThan(0);
      expect(running.interactions).toBe(pact.interactions.length);

      const response = await post(running.url, unknownPart.request.body!.content);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(unknownPart.response.body!.content);
      expect(served).toEqual(['an item inquiry for an unknown part']);

      const unmatched = await post(running.url, {
        service: 'item_inquiry',
        locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
        items: [{ id: 'x-1', mfr_code: 'WIX', part_number: '51515' }],
      });
      expect(unmatched.status).toBe(404);
      const body = (await unmatched.json()) as { message: string; offered: string[] };
      expect(body.message).toContain('item_inquiry');
      const itemInquiries = pact.interactions
        .filter((i) => (i.request.body!.content as { service: string }).service === 'item_inquiry')
        .map((i) => i.description);
      expect(body.offered.sort()).toEqual(itemInquiries.sort());
      expect(served).toHaveLength(1);
    } finally {
      await running.close();
    }
  });

  it('refuses a file that is not a pact, naming it', async () => {
    await expect(startPactReplay({ pact: 'fixtures/scenarios/default.json', port: 0 })).rejects.toThrow(/default\.json is not a pact/);
    await expect(startPactReplay({ pact: 'no/such/pact.json', port: 0 })).rejects.toThrow(/cannot read no\/such\/pact\.json/);
  });

  it('the CLI (--pact) prints how many interactions it replays and serves them (spawned smoke run)', async () => {
    let child: ChildProcess | undefined;
    try {
      const output = await new Promise<string>((resolve, reject) => {
        child = execFile(process.execPath, ['--import', 'tsx', 'scripts/mock-seller.ts', '--pact', PACT_FILE, '--port', '0'], { timeout: 60_000 });
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
    const result = await runInProcess(mockSellerCommand, ['--pact', PACT_FILE, '--scenario', 'fixtures/scenarios/default.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--pact and --scenario exclude each other');
  });
});
