import type { Scenario } from '../../contracts/schemas/scenario';
import { valuesFor, type StateMapFile } from '../states/state-map';

// What exploration draws its requests from: the vendor's own parts, locations and accounts.
// Built from a state map (the states' values plus its optional `explore` section) or from our
// mock seller's scenario (read through its admin API).

export interface CataloguePart {
  mfr_code: string;
  part_number: string;
  /** Where it came from, for messages: `/states/part exists`, `/explore/parts/3`, `scenario /parts/0`. */
  source: string;
}

export interface CatalogueLocation {
  id: string;
  member: string;
  account: string;
}

export interface CatalogueAccount {
  member: string;
  account: string;
  invoiceNumbers: string[];
  poNumbers: string[];
  partNumbers: string[];
  locationIds: string[];
  invoiceDates: { from: string; to: string };
  statementDates: { from: string; to: string };
}

export interface Catalogue {
  /** Where it came from, for the report's heading. */
  origin: string;
  locations: CatalogueLocation[];
  /** Parts the seller carries (those with related parts included). */
  parts: CataloguePart[];
  /** Parts with an alternate, superseded or equivalent part. */
  relatedParts: CataloguePart[];
  unknownParts: CataloguePart[];
  orderLocations: string[];
  accounts: CatalogueAccount[];
}

const key = (p: { mfr_code: string; part_number: string }) => `${p.mfr_code}\u0000${p.part_number}`;

function addPart(into: CataloguePart[], part: { mfr_code?: unknown; part_number?: unknown }, source: string) {
  if (
    typeof part.mfr_code !== 'string' ||
    (typeof part.part_number !== 'string' && typeof part.part_number !== 'number')
  )
    return;
  const p = { mfr_code: part.mfr_code, part_number: String(part.part_number), source };
  if (!into.some((q) => key(q) === key(p))) into.push(p);
}

const stringOrUndefined = (v: unknown) => (v === undefined ? undefined : String(v));
const uniq = <T>(xs: T[]) => [...new Set(xs)];
/** A year around a date: filters reach before and after what the vendor named. */
const around = (from: string | undefined, to: string | undefined, today: string) => ({
  from: from ?? `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`,
  to: to ?? today,
});

/** A catalogue being gathered from a state map, before unknown parts are taken out. */
type CatalogueDraft = Omit<Catalogue, 'origin'>;

function addLocation(draft: CatalogueDraft, id: unknown, member: unknown, account: unknown): void {
  if (id === undefined || member === undefined || account === undefined) return;
  if (!draft.locations.some((l) => l.id === String(id)))
    draft.locations.push({ id: String(id), member: String(member), account: String(account) });
}

/** The parts one state's values name, by what the state says of them. */
function addStateParts(draft: CatalogueDraft, state: string, v: Record<string, string | number>, at: string): void {
  if (state === 'part is unknown' || state === 'order will fail') addPart(draft.unknownParts, v, at);
  else if (state === 'two parts exist and a third is unknown') {
    addPart(draft.parts, v, at);
    addPart(draft.parts, { mfr_code: v.second_mfr_code, part_number: v.second_part_number }, at);
    addPart(draft.unknownParts, { mfr_code: v.unknown_mfr_code, part_number: v.unknown_part_number }, at);
  } else if (state.startsWith('part has ') && state !== 'part has route times') {
    addPart(draft.parts, v, at);
    addPart(draft.relatedParts, v, at);
    addPart(draft.parts, { mfr_code: v.related_mfr_code, part_number: v.related_part_number }, at);
  } else if (state.startsWith('part ') || state.startsWith('order ')) addPart(draft.parts, v, at);
}

/** Every state's values: parts, locations, and the one account the states name with its documents. */
function addStateValues(draft: CatalogueDraft, map: StateMapFile, file: string, today: string): void {
  const invoice = {
    numbers: [] as string[],
    pos: [] as string[],
    from: undefined as string | undefined,
    to: undefined as string | undefined,
  };
  const statement = { from: undefined as string | undefined, to: undefined as string | undefined };
  let member: string | undefined;
  let account: string | undefined;
  for (const state of Object.keys(map.states)) {
    const v = valuesFor(map, state);
    member ??= stringOrUndefined(v.member);
    account ??= stringOrUndefined(v.account);
    addLocation(draft, v.location_id, v.member, v.account);
    addLocation(draft, v.second_location_id, v.member, v.account);
    addStateParts(draft, state, v, `${file} /states/${state}`);
    if (state.startsWith('order ') && v.location_id !== undefined) draft.orderLocations.push(String(v.location_id));
    if (state === 'account has invoices' || state === 'invoice has a downloadable copy') {
      if (v.invoice_number !== undefined) invoice.numbers.push(String(v.invoice_number));
      if (v.po_number !== undefined) invoice.pos.push(String(v.po_number));
      invoice.from ??= stringOrUndefined(v.from_invoice_date);
      invoice.to ??= stringOrUndefined(v.to_invoice_date);
    }
    if (state === 'account has statements') {
      statement.from ??= stringOrUndefined(v.from_statement_date);
      statement.to ??= stringOrUndefined(v.to_statement_date);
    }
  }
  if (member === undefined || account === undefined) return;
  draft.accounts.push({
    member,
    account,
    invoiceNumbers: uniq(invoice.numbers),
    poNumbers: uniq(invoice.pos),
    partNumbers: [],
    locationIds: [],
    invoiceDates: around(invoice.from, invoice.to, today),
    statementDates: around(statement.from, statement.to, today),
  });
}

/** The state map's optional `explore` section: more locations, parts, unknown parts, order locations and accounts. */
function addExploreSection(draft: CatalogueDraft, extra: StateMapFile['explore'], file: string, today: string): void {
  extra?.locations?.forEach((l) => addLocation(draft, l.id, l.member, l.account));
  extra?.parts?.forEach((p, i) => {
    const at = `${file} /explore/parts/${i}`;
    addPart(draft.parts, p, at);
    if ((p.related ?? []).length > 0) addPart(draft.relatedParts, p, at);
    p.related?.forEach((r) => addPart(draft.parts, r, at));
  });
  extra?.unknown_parts?.forEach((p, i) => addPart(draft.unknownParts, p, `${file} /explore/unknown_parts/${i}`));
  draft.orderLocations.push(...(extra?.order_locations ?? []));
  for (const a of extra?.accounts ?? []) {
    draft.accounts.push({
      member: a.member,
      account: a.account,
      invoiceNumbers: a.invoice_numbers ?? [],
      poNumbers: a.po_numbers ?? [],
      partNumbers: a.part_numbers ?? [],
      locationIds: a.location_ids ?? [],
      invoiceDates: a.invoice_dates ?? around(undefined, undefined, today),
      statementDates: a.statement_dates ?? around(undefined, undefined, today),
    });
  }
}

/** The catalogue a state map describes: every state's values, then its `explore` section. */
export function catalogueOfStateMap(
  map: StateMapFile,
  file: string,
  today = new Date().toISOString().slice(0, 10),
): Catalogue {
  const draft: CatalogueDraft = {
    locations: [],
    parts: [],
    relatedParts: [],
    unknownParts: [],
    orderLocations: [],
    accounts: [],
  };
  addStateValues(draft, map, file, today);
  addExploreSection(draft, map.explore, file, today);
  // A part the vendor lists as unknown is one their seller does not have, wherever else it is named.
  const unknown = new Set(draft.unknownParts.map(key));
  return {
    origin: `state map ${file}`,
    locations: draft.locations,
    parts: draft.parts.filter((p) => !unknown.has(key(p))),
    relatedParts: draft.relatedParts.filter((p) => !unknown.has(key(p))),
    unknownParts: draft.unknownParts,
    orderLocations: uniq(draft.orderLocations.length > 0 ? draft.orderLocations : draft.locations.map((l) => l.id)),
    accounts: draft.accounts,
  };
}

/** The catalogue of our mock seller's scenario: every part, location and account it holds. */
export function catalogueOfScenario(scenario: Scenario, origin: string): Catalogue {
  const firstAccount = new Map<string, string>();
  for (const a of scenario.accounts) if (!firstAccount.has(a.member)) firstAccount.set(a.member, a.id);
  const locations = scenario.locations
    .filter((l) => firstAccount.has(l.member))
    .map((l) => ({ id: l.id, member: l.member, account: firstAccount.get(l.member)! }));
  const parts = scenario.parts.map((p, i) => ({
    mfr_code: p.mfr_code,
    part_number: p.part_number,
    source: `scenario /parts/${i}`,
  }));
  const relatedParts = parts.filter((_, i) => (scenario.parts[i].related ?? []).length > 0);
  // Unknown parts: the scenario's own manufacturer codes with part numbers it does not hold.
  const mfrs = uniq(scenario.parts.map((p) => p.mfr_code)).slice(0, 3);
  const unknownParts = (mfrs.length > 0 ? mfrs : ['ZZZ']).map((m, i) => ({
    mfr_code: m,
    part_number: `NO-SUCH-PART-${i + 1}`,
    source: 'generated',
  }));
  const today = new Date().toISOString().slice(0, 10);
  const accounts = scenario.accounts.map((a) => {
    const invoiceDates = a.invoices.map((i) => i.invoice_date).sort();
    const statementDates = a.statements.map((s) => s.statement_date).sort();
    return {
      member: a.member,
      account: a.id,
      invoiceNumbers: a.invoices.map((i) => i.invoice_number),
      poNumbers: uniq(a.invoices.map((i) => i.po_number).filter((p) => p !== '')),
      partNumbers: uniq(a.invoices.flatMap((i) => i.invoice_detail.map((d) => d.part_number)).filter((p) => p !== '')),
      locationIds: uniq(a.invoices.map((i) => i.location_id)),
      invoiceDates: around(invoiceDates[0], invoiceDates.at(-1), today),
      statementDates: around(statementDates[0], statementDates.at(-1), today),
    };
  });
  return { origin, locations, parts, relatedParts, unknownParts, orderLocations: locations.map((l) => l.id), accounts };
}

/** What a catalogue lacks for exploration; empty when requests can be generated. */
export function catalogueGaps(catalogue: Catalogue): string[] {
  const gaps: string[] = [];
  if (catalogue.locations.length === 0)
    gaps.push(
      'no location with member and account (give location_id, member and account in a state, or explore.locations)',
    );
  if (catalogue.parts.length === 0 && catalogue.unknownParts.length === 0)
    gaps.push('no part (give the part states, or explore.parts)');
  return gaps;
}
