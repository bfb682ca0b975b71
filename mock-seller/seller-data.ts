import { ItemStatus } from '../contracts/index';
import type {
  RelationKind,
  Scenario,
  ScenarioAccount,
  ScenarioLocation,
  ScenarioPart,
  ScenarioStock,
} from '../contracts/schemas/scenario';
import { partKey } from './scenario-file';

// The live data of the mock seller: a private copy of the scenario (orders lower its
// stock) with indexes built once, so a request never scans the scenario.

export interface IndexedPart {
  part: ScenarioPart;
  stock: Map<string, ScenarioStock>;
  related: { status: number; part: IndexedPart }[];
}

export interface SellerData {
  /** The live copy; provider states and the control API read and change it. */
  readonly scenario: Scenario;
  findPart(mfrCode: string, partNumber: string): IndexedPart | undefined;
  findLocation(id: string): ScenarioLocation | undefined;
  findAccount(member: string, account: string): ScenarioAccount | undefined;
}

export const RELATION_STATUS: Record<RelationKind, number> = {
  alternate: ItemStatus.Alternate,
  superseded: ItemStatus.Superseded,
  equivalent: ItemStatus.Equivalent,
};

/** Indexes a copy of `scenario` (which must have passed checkScenario). */
export function indexScenario(source: Scenario): SellerData {
  const scenario = structuredClone(source);
  const parts = new Map<string, IndexedPart>();
  for (const part of scenario.parts) {
    parts.set(partKey(part.mfr_code, part.part_number), {
      part,
      stock: new Map(part.stock.map((s) => [s.location_id, s])),
      related: [],
    });
  }
  for (const indexed of parts.values()) {
    for (const relation of indexed.part.related ?? []) {
      const other = parts.get(partKey(relation.mfr_code, relation.part_number));
      if (other !== undefined) indexed.related.push({ status: RELATION_STATUS[relation.kind], part: other });
    }
  }
  const locations = new Map(scenario.locations.map((l) => [l.id, l]));
  const accounts = new Map(scenario.accounts.map((a) => [`${a.member}\u0000${a.id}`, a]));
  return {
    scenario,
    findPart: (mfrCode, partNumber) => parts.get(partKey(mfrCode, partNumber)),
    findLocation: (id) => locations.get(id),
    findAccount: (member, account) => accounts.get(`${member}\u0000${account}`),
  };
}
