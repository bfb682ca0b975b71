import { describe, expect, it } from 'vitest';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { readPact } from '../contracts/pact/pact-file';
import { startPactReplay } from './index';

// The mock serves exactly a pact's interactions (`npm run mock-seller -- --pact <file>`; the
// command line itself: cli/mock-seller-command.test.ts).

const pact = readPact(PACT_FILE);
const unknownPart = pact.interactions.find((i) => i.description === 'an item inquiry for an unknown part')!;
const post = (url: string, body: unknown) =>
  fetch(`${url}/seller`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

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
    await expect(startPactReplay({ pact: 'fixtures/scenarios/default.json', port: 0 })).rejects.toThrow(
      /default\.json is not a pact/,
    );
    await expect(startPactReplay({ pact: 'no/such/pact.json', port: 0 })).rejects.toThrow(
      /cannot read no\/such\/pact\.json/,
    );
  });
});
