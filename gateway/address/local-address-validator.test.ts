import { describe, it, expect } from 'vitest';
import { createLocalAddressValidator } from './local-address-validator';
import type { PostalAddress } from './address-validator';

const validator = createLocalAddressValidator();
const good: PostalAddress = { address: '123 Main St', city: 'Springfield', state: 'IL', zip: '62701' };
const problemsOf = async (change: Partial<PostalAddress>) => {
  const check = await validator.validate({ ...good, ...change });
  return check.valid ? [] : check.problems;
};

describe('local address validator', () => {
  it('accepts a street number and name in an existing state with a ZIP of that state', async () => {
    expect(await validator.validate(good)).toEqual({ valid: true, standardized: good });
  });

  it('accepts ZIP+4, letter-suffixed and Queens-style house numbers, and PO boxes', async () => {
    expect(await problemsOf({ zip: '62701-1234' })).toEqual([]);
    expect(await problemsOf({ address: '12B Elm Avenue' })).toEqual([]);
    expect(await problemsOf({ address: '12-34 56th Ave', city: 'Flushing', state: 'NY', zip: '11354' })).toEqual([]);
    expect(await problemsOf({ address: 'P.O. Box 42' })).toEqual([]);
  });

  it('standardizes case and spacing of what it accepts', async () => {
    const check = await validator.validate({
      address: ' 9  Lake  Shore Dr ',
      city: ' Chicago ',
      state: 'il',
      zip: ' 60601 ',
    });
    expect(check).toEqual({
      valid: true,
      standardized: { address: '9 Lake Shore Dr', city: 'Chicago', state: 'IL', zip: '60601' },
    });
  });

  it('refuses an address without a street number', async () => {
    expect(await problemsOf({ address: 'Main Street' })).toEqual([
      { field: 'address', message: 'address must start with a street number followed by the street name' },
    ]);
  });

  it('refuses a street number without a street name', async () => {
    expect((await problemsOf({ address: '123 4' }))[0].field).toBe('address');
    expect((await problemsOf({ address: '0 Main St' }))[0].message).toMatch(/zero/);
  });

  it('refuses a two-letter state that does not exist', async () => {
    expect(await problemsOf({ state: 'XX' })).toEqual([
      { field: 'state', message: "state 'XX' is not a two-letter US state code" },
    ]);
    expect((await problemsOf({ state: 'Illinois' }))[0].field).toBe('state');
  });

  it('refuses a ZIP of the wrong form', async () => {
    for (const zip of ['6270', '627011', '62701-12', 'ABCDE', '00000']) {
      expect(await problemsOf({ zip }), zip).toHaveLength(1);
    }
  });

  it("refuses a ZIP outside the state's range", async () => {
    expect(await problemsOf({ zip: '90210' })).toEqual([{ field: 'zip', message: 'zip 90210 is not in IL' }]);
  });

  it('refuses a city that is not a town name', async () => {
    expect((await problemsOf({ city: '12345' }))[0].field).toBe('city');
  });

  it('reports every problem at once', async () => {
    const fields = (await problemsOf({ address: 'nowhere', city: '!', state: 'ZZ', zip: '1' })).map((p) => p.field);
    expect(fields).toEqual(['address', 'city', 'state', 'zip']);
  });
});
