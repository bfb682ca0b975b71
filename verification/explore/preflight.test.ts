import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partsTheSellerLacks } from './preflight';
import { catalogueOfStateMap } from './catalogue';
import { checkStateMap, type StateMapFile } from '../states/state-map';
import {
  SPEC_FAITHFUL_STATE_MAP,
  startSpecFaithfulSeller,
  type RunningPythonSeller,
} from '../../fixtures/sellers/spec-faithful-seller';

// The pre-flight against a seller written from the specification (Python, its own catalogue):
// it agrees with the guide (a superseded part's own entry may answer 0), and each fix its
// message suggests makes the message go away.

let seller: RunningPythonSeller;
beforeAll(async () => {
  seller = await startSpecFaithfulSeller();
});
afterAll(() => seller?.close());

const vendorMap = (): StateMapFile => checkStateMap(JSON.parse(readFileSync(SPEC_FAITHFUL_STATE_MAP, 'utf8')));
const lacks = (map: StateMapFile) =>
  partsTheSellerLacks({ sellerUrl: seller.url, timeoutMs: 10_000 }, catalogueOfStateMap(map, 'vendor.json'));

/** The vendor's map with a typo in the part of 'part exists'. */
function withTypo(): StateMapFile {
  const map = vendorMap();
  map.states['part exists'] = { ...map.states['part exists'], part_number: 'PH3641' };
  return map;
}

describe('explore pre-flight', () => {
  it('passes a superseded part whose own entry answers 0 (discontinued), as the guide allows', async () => {
    const map = vendorMap();
    expect(map.states['part has superseded'].part_number).toBe('K0100');
    expect(await lacks(map)).toEqual([]);
  });

  it('names a part the seller answers 0 for, with where the catalogue names it', async () => {
    expect(await lacks(withTypo())).toEqual([
      'FRA PH3641 (named in vendor.json /states/part exists) — your system answered status 0, not found',
    ]);
  });

  it("suggested fix 'correct the catalogue' makes the message go away", async () => {
    const map = withTypo();
    map.states['part exists'].part_number = 'PH3614';
    expect(await lacks(map)).toEqual([]);
  });

  it("suggested fix 'list such parts under explore.unknown_parts' makes the message go away", async () => {
    const map = withTypo();
    map.explore = { unknown_parts: [{ mfr_code: 'FRA', part_number: 'PH3641' }] };
    expect(await lacks(map)).toEqual([]);
    // The part is then explored as one the seller does not have, never as one it carries.
    const catalogue = catalogueOfStateMap(map, 'vendor.json');
    expect(catalogue.parts.some((p) => p.part_number === 'PH3641')).toBe(false);
    expect(catalogue.unknownParts.some((p) => p.part_number === 'PH3641')).toBe(true);
  });
});
