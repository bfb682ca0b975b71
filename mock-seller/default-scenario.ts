import { readFileSync } from 'node:fs';
import { packagePath } from '../shared/package-root';
import type { Scenario } from '../contracts/schemas/scenario';

/** Path of the default scenario, whatever the working directory. */
export const DEFAULT_SCENARIO_PATH = packagePath('fixtures', 'scenarios', 'default.json');

/** A fresh parsed copy of fixtures/scenarios/default.json (not yet checked). */
export const readDefaultScenario = (): Scenario => JSON.parse(readFileSync(DEFAULT_SCENARIO_PATH, 'utf8'));
