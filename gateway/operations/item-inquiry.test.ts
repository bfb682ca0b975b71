import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { V3_2 } from '../app';

// Item inquiry through the whole gateway: real store, real directory, real mock seller.

const PATH = `${V3_2}/item_inquiry`;
interface Location {
  id: string;
  description?: string;
  can_order?: boolean;
  sort_order?: number;
  type?: number;
  cost: number;
}
interface Item {
  id: string;
  mfr_code: string;
  part_number: string;
  status_code: number;
  original_part?: string;
  locations: Location[];
}
interface Reply {
  status_code: number;
  items: Item[];
  message?: string;
  errors?: { path: string; message: string }[];
}

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

async function inquire(body: unknown, user: 'demo' | 'other' = 'demo') {
  const response = await gw.post(PATH, body, { user });
  return { status: response.status, text: await response.clone().text(), body: (await response.json()) as Reply };
}

const OIL_FILTER = { id: 'item-1', mfr_code: 'WIX', part_number: '51515' };

describe('item inquiry refuses what it cannot carry', () => {
  it('refuses a NUL or a lone surrogate in an item id, mfr code or location, and an overlong part number, asking no seller', async () => {
    const asked = gw.seller.seller.journal.entries({ service: 'item_inquiry' }).length;
    const cases: [string, string][] = [
      [`{"items":[{"id":"a\\u0000","mfr_code":"WIX","part_number":"51515"}]}`, '/items/0/id'],
      [`{"items":[{"id":"a","mfr_code":"WIX\\ud800","part_number":"51515"}]}`, '/items/0/mfr_code'],
      [`{"items":[{"id":"a","mfr_code":"WIX","part_number":"${'5'.repeat(101)}"}]}`, '/items/0/part_number'],
      [
        `{"items":[{"id":"a","mfr_code":"WIX","part_number":"51515"}],"locations":[{"id":"L101\\udfff","member":"M100","account":"A-1001"}]}`,
        '/locations/0/id',
      ],
    ];
    for (const [body, path] of cases) {
      const { status, body: reply } = await inquire(body);
      expect(status, body).toBe(422);
      expect(reply.status_code).toBe(4422);
      expect(reply.errors!.map((e) => e.path)).toEqual([path]);
    }
    expect(gw.seller.seller.journal.entries({ service: 'item_inquiry' })).toHaveLength(asked);
  });
});

describe('item inquiry', () => {
  it("returns every one of the buyer's locations, enriched and sorted by sort_order, from both members", async () => {
    const { status, body } = await inquire({ items: [OIL_FILTER] });
    expect(status).toBe(200);
    expect(body.status_code).toBe(2000);
    const requested = body.items.find((i) => i.status_code === 1)!;
    expect(requested).toMatchObject({ id: 'item-1', mfr_code: 'WIX', part_number: '51515' });
    expect(requested.locations.map((l) => l.id)).toEqual(['L101', 'L150', 'L201', 'L250']);
    expect(requested.locations.map((l) => l.sort_order)).toEqual([1, 2, 3, 4]);
    expect(requested.locations[0]).toMatchObject({ description: 'Northside Main St', can_order: true, type: 1 });
    expect(requested.locations[1]).toMatchObject({
      description: 'Northside Distribution Center',
      can_order: true,
      type: 2,
    });
    expect(requested.locations[3]).toMatchObject({
      description: 'Lakeshore Distribution Center',
      can_order: false,
      sort_order: 4,
      type: 2,
    });
    // Both members' seller systems were asked, each with only its own locations and the user's account there.
    const asked = gw.seller.seller.journal.entries({ service: 'item_inquiry', limit: 2 }).map(
      (e) =>
        e.request as {
          locations: { id: string; member: string; account: string }[];
          terminal_id?: string;
          integration?: string;
        },
    );
    const byMember = Object.fromEntries(asked.map((r) => [r.locations[0].member, r]));
    expect(byMember.M100.locations).toEqual([
      { id: 'L101', member: 'M100', account: 'A-1001' },
      { id: 'L150', member: 'M100', account: 'A-1001' },
    ]);
    expect(byMember.M200.locations).toEqual([
      { id: 'L201', member: 'M200', account: 'A-2001' },
      { id: 'L250', member: 'M200', account: 'A-2001' },
    ]);
    expect(byMember.M100).toMatchObject({
      service: 'item_inquiry',
      integration: 'northside-dev',
      terminal_id: 'T-DEMO-1',
    });
  });

  it('keeps alternates and equivalents as extra entries with the requested id, after the requested part', async () => {
    const { body } = await inquire({ items: [OIL_FILTER] });
    expect(body.items[0].status_code).toBe(1);
    const related = body.items.slice(1);
    expect(related.map((i) => [i.status_code, i.part_number])).toEqual(
      expect.arrayContaining([
        [2, '51515XP'],
        [4, 'FL400S'],
      ]),
    );
    for (const item of related)
      expect(item).toMatchObject({ id: 'item-1', original_part: '51515', original_mfr: 'WIX' });
  });

  it('answers each of several items, an unknown part with status 0', async () => {
    const { body } = await inquire({
      items: [
        OIL_FILTER,
        { id: 'item-2', mfr_code: 'NGK', part_number: 'BKR5E' },
        { id: 'item-3', mfr_code: 'ZZZ', part_number: 'NO-SUCH-PART' },
      ],
      locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
    });
    const requested = body.items.filter((i) => i.status_code <= 1);
    expect(requested.map((i) => [i.id, i.status_code])).toEqual([
      ['item-1', 1],
      ['item-2', 1],
      ['item-3', 0],
    ]);
    expect(body.items.some((i) => i.id === 'item-2' && i.status_code === 3 && i.part_number === 'BKR5E-11')).toBe(true);
  });

  it('returns only the listed locations when the buyer names a subset', async () => {
    const before = gw.seller.seller.journal.size;
    const { status, body } = await inquire({
      items: [OIL_FILTER],
      locations: [{ id: 'L201', member: 'M200', account: 'A-2001' }],
    });
    expect(status).toBe(200);
    for (const item of body.items) expect(item.locations.every((l) => l.id === 'L201')).toBe(true);
    expect(body.items[0].locations[0]).toMatchObject({
      description: 'Lakeshore Harbor',
      sort_order: 3,
      can_order: true,
    });
    // Only M200's seller was asked.
    const entries = gw.seller.seller.journal.entries({ service: 'item_inquiry' });
    expect(gw.seller.seller.journal.size - before).toBe(1);
    expect((entries.at(-1)!.request as { locations: unknown[] }).locations).toEqual([
      { id: 'L201', member: 'M200', account: 'A-2001' },
    ]);
  });

  it('writes money and quantities as floats', async () => {
    const { text } = await inquire({
      items: [OIL_FILTER],
      locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
    });
    // 24 in stock at L101: a float field, so 24.0.
    expect(text).toContain('"quantity_available":24.0');
    expect(text).toMatch(/"pack_quantity":1[,}]/);
    expect(text).toMatch(/"sort_order":1[,}]/);
  });

  it('refuses a location that does not exist with 3100', async () => {
    const { status, body } = await inquire({
      items: [OIL_FILTER],
      locations: [{ id: 'L999', member: 'M100', account: 'A-1001' }],
    });
    expect(status).toBe(422);
    expect(body.status_code).toBe(3100);
    expect(body.errors).toEqual([{ path: '/locations/0/id', message: "location 'L999' does not exist" }]);
  });

  it("refuses another buyer's location with 3110", async () => {
    const { status, body } = await inquire({
      items: [OIL_FILTER],
      locations: [{ id: 'L102', member: 'M100', account: 'A-1002' }],
    });
    expect(status).toBe(403);
    expect(body.status_code).toBe(3110);
    expect(body.message).toContain("location 'L102' is not one of your locations");
  });

  it('refuses a location listed with the wrong member or account with 3110, naming the field', async () => {
    const wrongMember = await inquire({
      items: [OIL_FILTER],
      locations: [{ id: 'L101', member: 'M200', account: 'A-1001' }],
    });
    expect(wrongMember.body.status_code).toBe(3110);
    expect(wrongMember.body.errors?.[0].path).toBe('/locations/0/member');
    const wrongAccount = await inquire({
      items: [OIL_FILTER],
      locations: [{ id: 'L101', member: 'M100', account: 'A-1002' }],
    });
    expect(wrongAccount.body.status_code).toBe(3110);
    expect(wrongAccount.body.errors?.[0].path).toBe('/locations/0/account');
  });

  it('keeps user other to their own locations', async () => {
    const { body } = await inquire({ items: [OIL_FILTER] }, 'other');
    const ids = new Set(body.items.flatMap((i) => i.locations.map((l) => l.id)));
    expect([...ids].sort()).toEqual(['L102', 'L201']);
    const refused = await inquire(
      { items: [OIL_FILTER], locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }] },
      'other',
    );
    expect(refused.body.status_code).toBe(3110);
  });

  it('lists every bad field with 4422', async () => {
    const { status, body } = await inquire({
      items: [
        { id: 'a', mfr_code: 'WIX' },
        { id: 'a', mfr_code: 'WIX', part_number: '1', part_numbr: 'x' },
      ],
      locations: [{ id: 'L101' }],
    });
    expect(status).toBe(422);
    expect(body.status_code).toBe(4422);
    const paths = body.errors!.map((e) => e.path).sort();
    expect(paths).toEqual([
      '/items/0/part_number',
      '/items/1/part_numbr',
      '/locations/0/account',
      '/locations/0/member',
    ]);
  });

  it('refuses an empty locations list with 4422 rather than answering nothing', async () => {
    const { status, body } = await inquire({ items: [OIL_FILTER], locations: [] });
    expect(status).toBe(422);
    expect(body.errors).toEqual([{ path: '/locations', message: 'must not be empty when present' }]);
  });

  it('applies the request rules after the schema: duplicate item ids are refused', async () => {
    const { body } = await inquire({ items: [OIL_FILTER, OIL_FILTER] });
    expect(body.status_code).toBe(4422);
    expect(body.errors).toEqual([{ path: '/items/1/id', message: "duplicate item id 'item-1' (also at /items/0/id)" }]);
  });

  it('refuses a body that is not JSON with 4422', async () => {
    const { status, body } = await inquire('{"items": [');
    expect(status).toBe(422);
    expect(body.status_code).toBe(4422);
    expect(body.message).toMatch(/not valid JSON/);
  });
});
