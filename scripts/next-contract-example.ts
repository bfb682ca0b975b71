import { readFileSync, writeFileSync } from 'node:fs';
import { readPact } from '../contracts/pact/pact-file';
import { packagePath } from '../shared/package-root';
import {
  NEXT_CONTRACT_PACT,
  NEXT_CONTRACT_SCENARIO,
  TODAYS_PACT,
  nextContractPactText,
  nextContractScenarioText,
} from '../fixtures/pacts/next-contract-example';

// npx tsx scripts/next-contract-example.ts — rewrites the vendor guide's worked example of a
// contract change from today's pact and default scenario (fixtures/pacts/next-contract-example.ts).

writeFileSync(NEXT_CONTRACT_PACT, nextContractPactText(readPact(TODAYS_PACT)));
writeFileSync(
  NEXT_CONTRACT_SCENARIO,
  nextContractScenarioText(JSON.parse(readFileSync(packagePath('fixtures', 'scenarios', 'default.json'), 'utf8'))),
);
process.stderr.write(`next-contract-example: wrote ${NEXT_CONTRACT_PACT} and ${NEXT_CONTRACT_SCENARIO}\n`);
