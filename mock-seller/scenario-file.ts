import { readFile } from 'node:fs/promises';
import { compileValidator, type ValidationIssue } from '../contracts/index';
import { Scenario } from '../contracts/schemas/scenario';
import { ScenarioError } from './errors';
import { jsonSyntaxErrorAt } from '../shared/json-syntax-error';

// Reading and checking a scenario: the schema first, then the references a schema cannot
// express (stock at a known location, relations to parts the scenario defines, ...).

const validateScenario = compileValidator(Scenario);

export const partKey = (mfrCode: string, partNumber: string) => `${mfrCode}\u0000${partNumber}`;

function referenceIssues(scenario: Scenario): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const issue = (path: string, message: string) => issues.push({ keyword: 'reference', path, message });
  const members = new Set<string>();
  scenario.members.forEach((m, i) => {
    if (members.has(m.id)) issue(`/members/${i}/id`, `duplicate member '${m.id}'`);
    members.add(m.id);
  });
  const locations = new Set<string>();
  scenario.locations.forEach((l, i) => {
    if (locations.has(l.id)) issue(`/locations/${i}/id`, `duplicate location '${l.id}'`);
    if (!members.has(l.member)) issue(`/locations/${i}/member`, `unknown member '${l.member}'`);
    locations.add(l.id);
  });
  const parts = new Set<string>();
  scenario.parts.forEach((p, i) => {
    const key = partKey(p.mfr_code, p.part_number);
    if (parts.has(key)) issue(`/parts/${i}`, `duplicate part ${p.mfr_code} ${p.part_number}`);
    parts.add(key);
    const stocked = new Set<string>();
    p.stock.forEach((s, j) => {
      if (!locations.has(s.location_id))
        issue(`/parts/${i}/stock/${j}/location_id`, `unknown location '${s.location_id}'`);
      if (stocked.has(s.location_id))
        issue(`/parts/${i}/stock/${j}/location_id`, `location '${s.location_id}' listed twice`);
      stocked.add(s.location_id);
    });
  });
  scenario.parts.forEach((p, i) =>
    p.related?.forEach((r, j) => {
      if (!parts.has(partKey(r.mfr_code, r.part_number)))
        issue(`/parts/${i}/related/${j}`, `related part ${r.mfr_code} ${r.part_number} is not in the scenario`);
      if (r.mfr_code === p.mfr_code && r.part_number === p.part_number)
        issue(`/parts/${i}/related/${j}`, 'a part cannot be related to itself');
    }),
  );
  const accounts = new Set<string>();
  scenario.accounts.forEach((a, i) => {
    const key = `${a.member}\u0000${a.id}`;
    if (accounts.has(key)) issue(`/accounts/${i}`, `duplicate account '${a.id}' at member '${a.member}'`);
    accounts.add(key);
    if (!members.has(a.member)) issue(`/accounts/${i}/member`, `unknown member '${a.member}'`);
    a.invoices.forEach((inv, j) => {
      if (!locations.has(inv.location_id))
        issue(`/accounts/${i}/invoices/${j}/location_id`, `unknown location '${inv.location_id}'`);
    });
    a.statements.forEach((st, j) => {
      if (st.location_id !== undefined && !locations.has(st.location_id))
        issue(`/accounts/${i}/statements/${j}/location_id`, `unknown location '${st.location_id}'`);
    });
  });
  issues.push(...loadIssues(scenario));
  return issues;
}

/** The load section's parameters that belong together (a schema cannot say which go with which distribution). */
function loadIssues(scenario: Scenario): ValidationIssue[] {
  const stall = scenario.load?.stall;
  const stallIssues: ValidationIssue[] =
    stall !== undefined && stall.for_ms >= stall.every_ms
      ? [
          {
            keyword: 'load',
            path: '/load/stall/for_ms',
            message: 'for_ms must be below every_ms (else it never answers)',
          },
        ]
      : [];
  return [...stallIssues, ...serviceTimeIssues(scenario)];
}

function serviceTimeIssues(scenario: Scenario): ValidationIssue[] {
  const time = scenario.load?.service_time;
  if (time === undefined) return [];
  const at = (path: string, message: string): ValidationIssue[] => [
    { keyword: 'load', path: `/load/service_time${path}`, message },
  ];
  switch (time.distribution ?? 'fixed') {
    case 'fixed':
      return time.ms === undefined ? at('/ms', 'a fixed service time needs ms') : [];
    case 'uniform':
      if (time.min_ms === undefined || time.max_ms === undefined)
        return at('', 'a uniform service time needs min_ms and max_ms');
      return time.min_ms > time.max_ms ? at('/min_ms', 'min_ms is above max_ms') : [];
    case 'log-normal':
      return time.median_ms === undefined
        ? at('/median_ms', 'a log-normal service time needs median_ms (and sigma, default 0.5)')
        : [];
  }
}

/** Checks a parsed scenario; throws ScenarioError listing every problem. */
export function checkScenario(data: unknown, source = 'scenario'): Scenario {
  const shape = validateScenario(data);
  if (!shape.valid) throw new ScenarioError(`${source} does not match the scenario schema`, shape.errors);
  const issues = referenceIssues(data as Scenario);
  if (issues.length > 0) throw new ScenarioError(`${source} refers to things it does not define`, issues);
  return data as Scenario;
}

export async function readScenarioFile(path: string): Promise<Scenario> {
  let text = await readFile(path, 'utf8');
  if (text.startsWith('\uFEFF')) text = text.slice(1); // a byte order mark some editors write
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const at = jsonSyntaxErrorAt(text);
    throw new ScenarioError(`${path} is not JSON: ${at === undefined ? '' : `${at}: `}${(error as Error).message}`, []);
  }
  return checkScenario(data, path);
}
