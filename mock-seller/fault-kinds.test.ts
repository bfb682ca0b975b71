import { describe, expect, it } from 'vitest';
import { createMockSeller } from './index';
import { readDefaultScenario } from './default-scenario';
import { createFaultRegistry } from './fault-registry';
import { parseFaultHeader } from './faults';
import { BadRequestError } from './errors';

// Each kind of fault takes its own parameters and no other kind's (faults.ts).

describe('a fault of one kind', () => {
  it("refuses another kind's parameter, naming it, in the header and in a rule", () => {
    expect(() => parseFaultHeader('reset;ms=5')).toThrow(BadRequestError);
    expect(() => parseFaultHeader('latency;ms=5, missing-field;id=a')).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ path: '/1/id', message: "unknown field 'id'" })] }),
    );
    expect(() => createFaultRegistry().add({ service: '*', fault: { kind: 'http-status', code: 5503 } })).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ path: '/fault/code' })] }),
    );
  });

  it('reads a header parameter as its field is typed: integers, numbers, text', () => {
    expect(
      parseFaultHeader(
        'latency;distribution=log-normal;median_ms=40;sigma=0.8, status-code;code=3220, drop-id;part_number=51515',
      ),
    ).toEqual([
      { kind: 'latency', distribution: 'log-normal', median_ms: 40, sigma: 0.8 },
      { kind: 'status-code', code: 3220 },
      { kind: 'drop-id', part_number: '51515' },
    ]);
    expect(() => parseFaultHeader('http-status;status=5x3')).toThrow(BadRequestError);
  });

  it("takes a rule's part number as its target only when it tampers with an item", () => {
    const seller = createMockSeller(readDefaultScenario());
    seller.faults.add({ service: '*', part_number: '51515', fault: { kind: 'drop-id' } });
    seller.faults.add({ service: '*', part_number: '51515', fault: { kind: 'latency', ms: 0 } });
    expect(seller.faults.take('item_inquiry', () => ['51515'])).toEqual([
      { kind: 'drop-id', part_number: '51515' },
      { kind: 'latency', ms: 0 },
    ]);
  });
});
