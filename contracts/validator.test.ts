import { describe, it, expect } from 'vitest';
import { validators, compileValidator } from './validator';
import { ALL_PAYLOADS, loadFixture } from './payload-examples';
import { Type } from '@sinclair/typebox';
import { Closed, Open } from './schemas/common';

type AnyValidator = (data: unknown) => {
  valid: boolean;
  errors: { path: string; message: string; keyword: string }[];
  notes: { path: string; message: string }[];
};
const validatorOf = (operation: string, payload: string) =>
  (validators as unknown as Record<string, Record<string, AnyValidator>>)[operation][payload];

const errorPaths = (result: { errors: { path: string }[] }) => result.errors.map((e) => e.path);

describe('every payload schema accepts its fixture', () => {
  it.each(ALL_PAYLOADS)('$operation.$payload', ({ operation, payload }) => {
    const result = validatorOf(operation, payload)(loadFixture(operation, payload as never));
    expect(result.errors).toEqual([]);
    expect(result.notes).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

describe('item inquiry buyer request', () => {
  const validate = validators['item-inquiry']['buyer-request'];
  const fixture = () => loadFixture('item-inquiry', 'buyer-request');

  it('rejects a missing required field, naming it', () => {
    const body = fixture();
    delete body.items[1].part_number;
    const result = validate(body);
    expect(result.valid).toBe(false);
    expect(result.errors).toContainEqual({ keyword: 'required', path: '/items/1/part_number', message: 'is required' });
  });

  it('rejects an unknown field such as part_numbr and names it in the path', () => {
    const body = fixture();
    body.items[0].part_numbr = body.items[0].part_number;
    delete body.items[0].part_number;
    const result = validate(body);
    expect(result.valid).toBe(false);
    expect(result.errors).toContainEqual({
      keyword: 'additionalProperties',
      path: '/items/0/part_numbr',
      message: "unknown field 'part_numbr'",
    });
    expect(result.notes).toEqual([]);
  });

  it('rejects an unknown top-level field', () => {
    const result = validate({ ...fixture(), location: [] });
    expect(errorPaths(result)).toEqual(['/location']);
  });

  it('rejects a location entry missing member', () => {
    const body = fixture();
    delete body.locations[1].member;
    expect(errorPaths(validate(body))).toEqual(['/locations/1/member']);
  });

  it('rejects a wrong type with a readable message', () => {
    const body = fixture();
    body.items[0].mfr_code = 42;
    expect(validate(body).errors).toEqual([
      { keyword: 'type', path: '/items/0/mfr_code', message: 'must be a string' },
    ]);
  });

  it('reports every error, not just the first', () => {
    const body = fixture();
    delete body.items[0].id;
    body.items[2].part_number = '';
    body.locations[0].account = 7;
    expect(errorPaths(validate(body)).sort()).toEqual(['/items/0/id', '/items/2/part_number', '/locations/0/account']);
  });

  it('rejects an empty items list', () => {
    expect(errorPaths(validate({ items: [] }))).toEqual(['/items']);
  });

  it('is() agrees with the full result', () => {
    expect(validate.is(fixture())).toBe(true);
    expect(validate.is({ ...fixture(), extra: 1 })).toBe(false);
  });
});

describe('item inquiry seller reply', () => {
  const validate = validators['item-inquiry']['seller-reply'];
  const fixture = () => loadFixture('item-inquiry', 'seller-reply');

  it('reports extra fields as notes, not errors, wherever they are', () => {
    const body = fixture();
    body.seller_trace = 'abc';
    body.items[1].warranty = '2 years';
    body.items[0].locations[0].route_times[0].driver = 'Sam';
    const result = validate(body);
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.notes.map((n) => n.path).sort()).toEqual([
      '/items/0/locations/0/route_times/0/driver',
      '/items/1/warranty',
      '/seller_trace',
    ]);
    expect(validate.is(body)).toBe(true);
  });

  it('treats an optional field set to undefined (not possible in JSON) as absent', () => {
    const body = fixture();
    body.items[0].comment = undefined;
    body.items[0].locations[0].core = undefined;
    expect(validate(body)).toEqual({ valid: true, errors: [], notes: [] });
  });

  it('keeps notes alongside errors when both are present', () => {
    const body = fixture();
    body.items[0].bonus = true;
    delete body.items[0].locations[0].cost;
    const result = validate(body);
    expect(result.valid).toBe(false);
    expect(errorPaths(result)).toEqual(['/items/0/locations/0/cost']);
    expect(result.notes.map((n) => n.path)).toEqual(['/items/0/bonus']);
  });

  it.each([
    ['an overall status code outside its list', (b: any) => (b.status_code = 2001), '/status_code', 'enum'],
    ['an item status code outside its list', (b: any) => (b.items[0].status_code = 5), '/items/0/status_code', 'enum'],
    [
      'a location type outside its list',
      (b: any) => (b.items[0].locations[0].type = 3),
      '/items/0/locations/0/type',
      'enum',
    ],
    ['a fractional status code', (b: any) => (b.items[0].status_code = 1.5), '/items/0/status_code', 'type'],
    ['a negative cost', (b: any) => (b.items[0].locations[0].cost = -0.01), '/items/0/locations/0/cost', 'minimum'],
    [
      'a negative quantity available',
      (b: any) => (b.items[0].locations[1].quantity_available = -1),
      '/items/0/locations/1/quantity_available',
      'minimum',
    ],
    ['a negative weight', (b: any) => (b.items[0].weight = -2), '/items/0/weight', 'minimum'],
    [
      'a price given as a string',
      (b: any) => (b.items[0].locations[0].list = '52.99'),
      '/items/0/locations/0/list',
      'type',
    ],
    [
      'a route time without seconds',
      (b: any) => (b.items[0].locations[0].route_times[0].cutoff_time = '2026-03-02 14:30'),
      '/items/0/locations/0/route_times/0/cutoff_time',
      'format',
    ],
    [
      'a route time at hour 24',
      (b: any) => (b.items[0].locations[0].route_times[0].arrival_time = '2026-03-02 24:00:00'),
      '/items/0/locations/0/route_times/0/arrival_time',
      'format',
    ],
    [
      'a route time on 2026-02-30',
      (b: any) => (b.items[0].locations[0].route_times[0].pickup_time = '2026-02-30 10:00:00'),
      '/items/0/locations/0/route_times/0/pickup_time',
      'format',
    ],
    [
      'a location missing pack_code',
      (b: any) => delete b.items[0].locations[0].pack_code,
      '/items/0/locations/0/pack_code',
      'required',
    ],
    ['an item missing locations', (b: any) => delete b.items[4].locations, '/items/4/locations', 'required'],
  ])('rejects %s', (_what, mutate, path, keyword) => {
    const body = fixture();
    mutate(body);
    const result = validate(body);
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => [e.path, e.keyword])).toEqual([[path, keyword]]);
  });

  it('accepts a pack code outside the common list (the reply rules note it)', () => {
    const body = fixture();
    body.items[0].locations[0].pack_code = 'DZ';
    expect(validate(body).valid).toBe(true);
  });
});

describe('place order', () => {
  it.each([
    ['an order type outside its list', (b: any) => (b.order_type = 9), '/order_type', 'enum'],
    ['a zero quantity', (b: any) => (b.items[0].quantity_ordered = 0), '/items/0/quantity_ordered', 'exclusiveMinimum'],
    ['a bad country code', (b: any) => (b.ship_to.country_code = 'XX'), '/ship_to/country_code', 'format'],
    ['a lower-case country code', (b: any) => (b.ship_to.country_code = 'us'), '/ship_to/country_code', 'format'],
    ['a bad e-mail', (b: any) => (b.ship_to.email = 'dana at demo-garage'), '/ship_to/email', 'format'],
    ['an unknown ship_to field', (b: any) => (b.ship_to.zip = '62701'), '/ship_to/zip', 'additionalProperties'],
    [
      'a missing purchase order number',
      (b: any) => delete b.purchase_order_number,
      '/purchase_order_number',
      'required',
    ],
  ])('buyer request: rejects %s', (_what, mutate, path, keyword) => {
    const body = loadFixture('place-order', 'buyer-request');
    mutate(body);
    expect(validators['place-order']['buyer-request'](body).errors.map((e) => [e.path, e.keyword])).toEqual([
      [path, keyword],
    ]);
  });

  it('forwarded request: requires account_id and member_id on each item', () => {
    const body = loadFixture('place-order', 'seller-request');
    delete body.items[1].member_id;
    expect(errorPaths(validators['place-order']['seller-request'](body))).toEqual(['/items/1/member_id']);
  });

  it('forwarded request: requires service place_order', () => {
    const body = loadFixture('place-order', 'seller-request');
    body.service = 'item_inquiry';
    expect(validators['place-order']['seller-request'](body).errors).toEqual([
      { keyword: 'const', path: '/service', message: 'must be "place_order"' },
    ]);
  });

  it('seller reply: rejects an item order status outside its list', () => {
    const body = loadFixture('place-order', 'seller-reply');
    body.items[0].status_code = 3;
    expect(errorPaths(validators['place-order']['seller-reply'](body))).toEqual(['/items/0/status_code']);
  });
});

describe('invoice and statement', () => {
  it('rejects an impossible date (2026-02-30) in a request', () => {
    const body = loadFixture('statement', 'buyer-request');
    body.to_statement_date = '2026-02-30';
    expect(validators.statement['buyer-request'](body).errors).toEqual([
      { keyword: 'format', path: '/to_statement_date', message: 'must be a calendar date YYYY-MM-DD' },
    ]);
  });

  it('rejects a date in another layout', () => {
    const body = loadFixture('invoice', 'buyer-request');
    body.from_invoice_date = '02/01/2026';
    expect(errorPaths(validators.invoice['buyer-request'](body))).toEqual(['/from_invoice_date']);
  });

  it('invoice buyer request needs only member', () => {
    expect(validators.invoice['buyer-request']({ member: 'M100' }).valid).toBe(true);
    expect(errorPaths(validators.invoice['buyer-request']({}))).toEqual(['/member']);
  });

  it('accepts negative totals (credit memos) but not negative prices', () => {
    const body = loadFixture('invoice', 'seller-reply');
    expect(body.invoices[1].total_cost).toBeLessThan(0);
    expect(validators.invoice['seller-reply'](body).valid).toBe(true);
    body.invoices[1].invoice_detail[0].list_price = -7.99;
    expect(errorPaths(validators.invoice['seller-reply'](body))).toEqual(['/invoices/1/invoice_detail/0/list_price']);
  });

  it('statement reply: a statement date must be a real day', () => {
    const body = loadFixture('statement', 'seller-reply');
    body.statements[0].statement_date = '2026-13-01';
    expect(errorPaths(validators.statement['seller-reply'](body))).toEqual(['/statements/0/statement_date']);
  });

  it('statement forwarded request requires service and member', () => {
    const body = loadFixture('statement', 'seller-request');
    delete body.member;
    delete body.service;
    expect(errorPaths(validators.statement['seller-request'](body)).sort()).toEqual(['/member', '/service']);
  });
});

describe('users-create request', () => {
  const validate = validators['users-create'].request;
  const fixture = () => loadFixture('users-create', 'request');

  it.each([
    ['a bad phone number', (b: any) => (b.phone_number = '555-0142'), '/phone_number', 'pattern'],
    ['a phone number with 9 digits', (b: any) => (b.phone_number = '555555014'), '/phone_number', 'pattern'],
    ['a bad e-mail', (b: any) => (b.email = 'jordan@'), '/email', 'format'],
    ['a sort_order of 0', (b: any) => (b.locations[0].sort_order = 0), '/locations/0/sort_order', 'minimum'],
    ['can_order given as a string', (b: any) => (b.locations[1].can_order = 'yes'), '/locations/1/can_order', 'type'],
    ['a missing catalog_region_id', (b: any) => delete b.catalog_region_id, '/catalog_region_id', 'required'],
    ['no locations', (b: any) => (b.locations = []), '/locations', 'minItems'],
  ])('rejects %s', (_what, mutate, path, keyword) => {
    const body = fixture();
    mutate(body);
    expect(validate(body).errors.map((e) => [e.path, e.keyword])).toEqual([[path, keyword]]);
  });

  it('accepts the phone forms the pattern allows, and the empty default', () => {
    for (const phone_number of ['5555550142', '15555550142', '+15555550142', '+5555550142', '']) {
      expect(validate({ ...fixture(), phone_number }).valid).toBe(true);
    }
  });

  it('accepts the optional fields left out', () => {
    const body = fixture();
    delete body.phone_number;
    delete body.company_name;
    delete body.terminal_pin;
    expect(validate(body).valid).toBe(true);
  });
});

describe('bodies that are not objects', () => {
  it.each(ALL_PAYLOADS)(
    '$operation.$payload: null, an array, a string or a number is one error at the root, never a crash',
    ({ operation, payload }) => {
      const validate = validatorOf(operation, payload);
      for (const body of [null, [], 'items', 42, undefined]) {
        const result = validate(body);
        expect(result.valid).toBe(false);
        expect(result.errors).toEqual([{ keyword: 'type', path: '', message: 'must be an object' }]);
      }
    },
  );
});

describe('compileValidator', () => {
  it('escapes ~ and / in field names of the JSON pointer', () => {
    const validate = compileValidator(Closed({ a: Type.String() }));
    expect(validate({ a: 'x', 'b/c~d': 1 }).errors.map((e) => e.path)).toEqual(['/b~1c~0d']);
  });

  it('tells extras of an open object from errors in a closed one nested inside it', () => {
    const validate = compileValidator(Open({ inner: Closed({ a: Type.String() }) }));
    const result = validate({ extra: 1, inner: { a: 'x', typo: 2 } });
    expect(result.errors.map((e) => e.path)).toEqual(['/inner/typo']);
    expect(result.notes.map((e) => e.path)).toEqual(['/extra']);
  });
});
