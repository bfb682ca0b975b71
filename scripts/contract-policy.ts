import { PACKAGE_ROOT } from '../shared/package-root';
import { runContractPolicy } from '../verification/compat/policy-run';

// npm run contract:policy — what .ci/run checks: the working tree against the last contract
// release under docs/contract-evolution.md's policy. Exit 0 passed (or nothing to compare,
// said so), 1 the policy is not met, 2 the contract could not be read.

const run = runContractPolicy(PACKAGE_ROOT);
process.stdout.write(run.stdout);
process.stderr.write(run.stderr);
process.exitCode = run.code;
