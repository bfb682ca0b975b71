import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_VERSION } from '../../contracts/contract-version';
import { CompatInputError } from './contract-source';
import { compareReleases } from './release-compare';
import { checkContractPolicy } from './contract-policy';
import { baseRelease } from './contract-releases';
import { compatAsText } from './compat-text';

// The CI step (npm run contract:policy): the working tree of `repo` against its last contract
// release — the seller pact and the buyer and internal API documents — then the release policy
// on the result. Never a silent pass: without a release to compare against it says so.

export interface PolicyRun {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

export function runContractPolicy(repo: string, headVersion: string = CONTRACT_VERSION): PolicyRun {
  const base = baseRelease(repo, headVersion);
  if (base.kind === 'none') return { code: 0, stdout: `contract policy: SKIPPED — ${base.why}\n`, stderr: '' };
  let report;
  try {
    report = compareReleases(base.ref, repo, repo);
  } catch (error) {
    if (error instanceof CompatInputError)
      return { code: 2, stdout: '', stderr: `contract policy: ${error.message}\n` };
    throw error;
  }
  let changelog = '';
  try {
    changelog = readFileSync(join(repo, 'contracts', 'CHANGELOG.md'), 'utf8');
  } catch {
    // No changelog: every rule that needs an entry fails and says which.
  }
  const verdict = checkContractPolicy(report, changelog);
  const lines = verdict.lines.map((line) => `  ${line}`).join('\n');
  return {
    code: verdict.ok ? 0 : 1,
    stdout: `${compatAsText(report)}contract policy: compared with ${base.why}\n${lines}\ncontract policy: ${verdict.ok ? 'PASSED' : 'FAILED'}\n`,
    stderr: '',
  };
}
