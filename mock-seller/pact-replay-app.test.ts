import { describe, expect, it } from 'vitest';
import { checkSellerReply } from '../contracts/reply-check';
import { SERVICE_OF } from '../contracts/schemas/index';
import type { ForwardedOperation } from '../contracts/reply-check';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { readPact } from '../contracts/pact/pact-file';
import { createPactReplay } from './pact-replay';

const pact = readPact(PACT_FILE);
const operationOf = Object.fromEntries(Object.entries(SERVICE_OF).map(([op, service]) => [service, op])) as Record<
  string,
  ForwardedOperation
>;
const json = async (response: Response): Promise<any> => response.json();
const post = (app: ReturnType<typeof createPactReplay>, body: unknown) =>
  app.request('/seller', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('pact replay', () => {
  it("answers each of the pact's example requests with exactly its example reply", async () => {
    const served: string[] = [];
    const app = createPactReplay(pact, { onMatch: (d) => served.push(d) });
    for (const interaction of pact.interactions) {
      const request = interaction.request.body!.content as { service: string };
      const response = await post(app, request);
      expect(response.status).toBe(interaction.response.status);
      const reply = await json(response);
      expect(reply).toEqual(interaction.response.body!.content);
      // The examples honour the reply rules, so a consumer replaying them sees a conforming seller.
      expect(checkSellerReply(operationOf[request.service], request, reply).ok).toBe(true);
    }
    expect(served).toEqual(pact.interactions.map((i) => i.description));
  });

  it('tells apart requests of one service by their items and by their filter fields', async () => {
    const app = createPactReplay(pact);
    const byPo = await json(
      await post(app, { service: 'invoice', member: 'M100', account: 'A-1001', po_number: 'PO-7005' }),
    );
    const byNumber = await json(
      await post(app, { service: 'invoice', member: 'M100', account: 'A-1001', invoice_number: 'INV-100405' }),
    );
    expect(byPo.invoices[0].po_number).toBe('PO-7005');
    expect(byNumber.invoices[0].invoice_number).toBe('INV-100405');
    const superseded = await json(
      await post(app, {
        service: 'item_inquiry',
        locations: [{ id: 'L150', member: 'M100', account: 'A-1001' }],
        items: [{ id: 'superseded-1', mfr_code: 'BOS', part_number: '0242236562' }],
      }),
    );
    expect(superseded.items.map((i: { status_code: number }) => i.status_code)).toEqual([1, 3]);
  });

  it("answers 404 naming the pact's interactions when nothing matches", async () => {
    const app = createPactReplay(pact);
    const response = await post(app, {
      service: 'item_inquiry',
      locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
      items: [{ id: 'other', mfr_code: 'WIX', part_number: '49100' }],
    });
    expect(response.status).toBe(404);
    const body = await json(response);
    expect(body.offered).toContain('an item inquiry for an unknown part');
    expect((await post(app, [])).status).toBe(400);
  });
});
