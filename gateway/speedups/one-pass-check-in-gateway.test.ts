import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { checkSellerReply } from '../../contracts/index';
import { checkSellerReplyInOnePass, type SellerReplyCheck } from './one-pass-check';
import { ALL_SPEEDUPS } from './speedups';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { V3_2 } from '../app';

// The gateway's seam for the seller reply check: one pass by default, the reference
// path selectable. Here the gateway checks every reply both ways through the seam, answers with
// the reference's verdict, and records any difference, over honest and faulty sellers.

const compared: { operation: string; same: boolean }[] = [];
const both: SellerReplyCheck = (operation, request, reply) => {
  const copy = structuredClone(reply);
  const reference = checkSellerReply(operation, request, reply);
  const onePass = checkSellerReplyInOnePass(operation, request, copy);
  compared.push({ operation, same: isDeepStrictEqual(onePass, reference) && isDeepStrictEqual(copy, reply) });
  return reference;
};

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({
    config: { forwardHeaders: ['x-mock-fault'] },
    speedups: { ...ALL_SPEEDUPS, checkSellerReply: both },
  });
});
afterAll(() => gw.close());

const INQUIRY = {
  items: [
    { id: 'item-1', mfr_code: 'WIX', part_number: '51515' },
    { id: 'item-2', mfr_code: 'GAT', part_number: '22433' },
  ],
};

describe('one-pass reply check in the gateway', () => {
  it('gives the verdict of the reference path on every seller reply, honest or broken', async () => {
    const faults = [
      undefined,
      'add-unknown-id',
      'change-id;id=item-2',
      'drop-id;id=item-2',
      'extra-location',
      'missing-field;field=/items/0/locations',
      'missing-field;field=/items/0/status_code',
      'wrong-original-part;id=item-1',
      'wrong-original-mfr;id=item-1',
    ];
    const statuses: number[] = [];
    for (const fault of faults) {
      const response = await gw.post(`${V3_2}/item_inquiry`, INQUIRY, {
        headers: fault === undefined ? {} : { 'x-mock-fault': fault },
      });
      statuses.push(response.status);
    }
    expect(statuses[0]).toBe(200);
    expect(statuses.slice(1).every((s) => s === 502)).toBe(true);
    expect(compared.length).toBeGreaterThanOrEqual(faults.length);
    expect(compared.filter((c) => !c.same)).toEqual([]);
  });
});
