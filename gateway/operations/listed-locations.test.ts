import { describe, expect, it } from 'vitest';
import type { BuyerUser, Location, UserLocation } from '../directory/directory';
import { listedLocations, ownListedLocations, type ListedLocations } from './listed-locations';

// The fast judge (ownListedLocations, no waiting) and the full one (listedLocations, every
// problem reported) must agree: the fast one answers exactly the lists the full one accepts,
// with the same locations.

const at = (locationId: string, memberId: string, accountId: string, sortOrder: number): UserLocation => ({
  locationId,
  memberId,
  accountId,
  description: locationId,
  type: 1,
  canOrder: true,
  sortOrder,
});

const USER: BuyerUser = {
  id: 1,
  username: 'demo',
  email: 'demo@example.test',
  terminalPin: null,
  accountId: 'A1',
  locations: [at('L1', 'M1', 'A1', 1), at('L2', 'M1', 'A1', 2), at('L3', 'M2', 'A2', 3)],
};

const KNOWN = new Map<string, Location>(
  ['L1', 'L2', 'L3', 'L9'].map((id) => [id, { id, memberId: 'M1', description: id, type: 1 }]),
);
const directory = { findLocation: async (id: string) => KNOWN.get(id) };

const ref = (id: string, member: string, account: string) => ({ id, member, account });

const CASES: { name: string; listed: ListedLocations; refused?: RegExp }[] = [
  { name: 'one own location', listed: [ref('L1', 'M1', 'A1')] },
  { name: 'own locations at two members', listed: [ref('L3', 'M2', 'A2'), ref('L1', 'M1', 'A1')] },
  { name: 'the same location twice', listed: [ref('L2', 'M1', 'A1'), ref('L2', 'M1', 'A1')] },
  {
    name: 'another member than the location is at',
    listed: [ref('L1', 'M2', 'A1')],
    refused: /belongs to member 'M1', not 'M2'/,
  },
  {
    name: 'another account than the user holds there',
    listed: [ref('L1', 'M1', 'A2')],
    refused: /your account at location 'L1' is 'A1', not 'A2'/,
  },
  {
    name: 'a location that is not the user’s',
    listed: [ref('L9', 'M1', 'A1')],
    refused: /location 'L9' is not one of your locations/,
  },
  {
    name: 'a location that does not exist',
    listed: [ref('L404', 'M1', 'A1')],
    refused: /location 'L404' does not exist/,
  },
  {
    name: 'one good, one bad',
    listed: [ref('L1', 'M1', 'A1'), ref('L3', 'M2', 'A1')],
    refused: /your account at location 'L3'/,
  },
];

describe('ownListedLocations and listedLocations give the same verdict', () => {
  it.each(CASES)('$name', async ({ listed, refused }) => {
    const fast = ownListedLocations(USER, listed);
    const full = await listedLocations(directory, USER, listed).then(
      (locations) => ({ locations, reason: undefined }),
      (error: Error) => ({ locations: undefined, reason: error.message }),
    );
    if (refused === undefined) {
      expect(full.reason).toBeUndefined();
      expect(fast).toEqual(full.locations);
      expect(fast?.length).toBe(new Set(listed.map((l) => l.id)).size);
    } else {
      expect(full.reason).toMatch(refused);
      expect(fast).toBeUndefined();
    }
  });
});
