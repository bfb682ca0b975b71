import { describe, expect, it } from 'vitest';
import type { UserLocation } from '../directory/directory';
import { locationPlan } from './buyer-locations';

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

  it('plans a listed subset in sort order, asking what was listed', () => {
    const plan = locationPlan([own[2], own[0]]);
    expect(plan.groups.get('M1')!.locations.map((l) => l.locationId)).toEqual(['L1', 'L3']);
    expect([...plan.asked]).toEqual(['L3', 'L1']);
  });

  it('makes each request its own plan: nothing one request changes reaches the next', () => {
    const first = locationPlan(own);
    (first.groups.get('M1')!.forwarded as unknown as { id: string }[])[0].id = 'changed';
    expect(locationPlan(own).groups.get('M1')!.forwarded[0].id).toBe('L1');
  });
});
