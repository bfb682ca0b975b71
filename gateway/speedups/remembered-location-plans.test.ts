import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { BuyerUser, UserLocation } from '../directory/directory';
import { FRESH_PLANS } from '../operations/buyer-locations';
import { REMEMBERED_PLANS } from './remembered-location-plans';

const locationPlan = REMEMBERED_PLANS.of;
const listedPlan = REMEMBERED_PLANS.ofListed;

const at = (locationId: string, memberId: string, sortOrder: number): UserLocation => ({
  locationId,
  memberId,
  accountId: `acct-${locationId}`,
  description: locationId,
  type: 1,
  canOrder: true,
  sortOrder,
});

describe('location plan', () => {
  const own = Object.freeze([at('L1', 'M1', 1), at('L2', 'M2', 2), at('L3', 'M1', 3)]);

  it("groups by member in the user's sort order, with what each seller is sent", () => {
    const plan = locationPlan(own);
    expect([...plan.groups.keys()]).toEqual(['M1', 'M2']);
    expect(plan.members).toEqual(['M1', 'M2']);
    expect(plan.groups.get('M1')!.locations.map((l) => l.locationId)).toEqual(['L1', 'L3']);
    expect(plan.groups.get('M1')!.forwarded).toEqual([
      { id: 'L1', member: 'M1', account: 'acct-L1' },
      { id: 'L3', member: 'M1', account: 'acct-L3' },
    ]);
    expect([...plan.asked]).toEqual(['L1', 'L2', 'L3']);
  });

  it("plans a user's own (frozen) list once, and shares nothing a request could change", () => {
    const plan = locationPlan(own);
    expect(locationPlan(own)).toBe(plan);
    expect(Object.isFrozen(plan.groups.get('M1')!.forwarded)).toBe(true);
    expect(Object.isFrozen(plan.groups.get('M1')!.forwarded[0])).toBe(true);
    expect(Object.isFrozen(plan.members)).toBe(true);
  });

  it('plans a listed subset afresh, sorted', () => {
    const listed = [own[2], own[0]];
    const plan = locationPlan(listed);
    expect(locationPlan(listed)).not.toBe(plan);
    expect(plan.groups.get('M1')!.locations.map((l) => l.locationId)).toEqual(['L1', 'L3']);
    expect([...plan.asked]).toEqual(['L3', 'L1']);
  });
});

describe('remembered plans against fresh ones', () => {
  const location = fc.record({
    locationId: fc.constantFrom('L1', 'L2', 'L3', 'L4', 'L5'),
    memberId: fc.constantFrom('M1', 'M2', 'M3'),
    accountId: fc.constantFrom('A1', 'A2'),
    description: fc.string(),
    type: fc.constantFrom(1, 2),
    canOrder: fc.boolean(),
    sortOrder: fc.integer({ min: 0, max: 5 }),
  });

  it('plan exactly what a fresh plan would, for own lists and listings, the first time and after', () => {
    fc.assert(
      fc.property(fc.array(location, { maxLength: 8 }), fc.boolean(), (locations, frozen) => {
        const list = frozen ? Object.freeze(locations) : locations;
        const fresh = FRESH_PLANS.of(list);
        expect(locationPlan(list)).toEqual(fresh);
        expect(locationPlan(list)).toEqual(fresh);
        const user = { username: 'u' } as BuyerUser;
        const listing = locations.map((l) => ({ id: l.locationId, member: l.memberId, account: l.accountId }));
        const choose = () => locations;
        expect(listedPlan(user, listing, choose)).toEqual(FRESH_PLANS.ofListed(user, listing, choose));
        expect(listedPlan(user, listing, choose)).toEqual(FRESH_PLANS.ofListed(user, listing, choose));
      }),
      { numRuns: 200 },
    );
  });
});

describe('listed plan', () => {
  const user = { username: 'u' } as BuyerUser;
  const locations = [at('L1', 'M1', 1), at('L2', 'M2', 2)];
  const ref = (l: UserLocation) => ({ id: l.locationId, member: l.memberId, account: l.accountId });

  it('chooses once per listing and user, and remembers nothing the slow way must judge', () => {
    let chosen = 0;
    const choose = () => (chosen++, locations);
    const first = listedPlan(user, locations.map(ref), choose);
    expect(listedPlan(user, locations.map(ref), choose)).toBe(first);
    expect(chosen).toBe(1);
    expect([...first!.asked]).toEqual(['L1', 'L2']);
    // Another account under the same ids is another listing.
    expect(listedPlan(user, [{ ...ref(locations[0]), account: 'other' }], () => undefined)).toBeUndefined();
    expect(listedPlan(user, [{ ...ref(locations[0]), account: 'other' }], () => undefined)).toBeUndefined();
    // Another user object (a directory reload) plans again.
    listedPlan({ username: 'u' } as BuyerUser, locations.map(ref), choose);
    expect(chosen).toBe(2);
  });

  it('keys a listing so that no two listings share a key', () => {
    const choose = (l: UserLocation) => () => [l];
    const a = listedPlan(user, [{ id: 'L1', member: 'M1x', account: 'y' }], choose(locations[0]));
    const b = listedPlan(user, [{ id: 'L1', member: 'M1', account: 'xy' }], choose(locations[1]));
    expect(a).not.toBe(b);
  });
});
