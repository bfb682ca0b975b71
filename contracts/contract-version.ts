// The contract's own semantic version: the pact, the JSON Schemas, the reply-rule catalogue and
// the buyer and internal OpenAPI documents move together under it, apart from the package's
// version (a toolkit release need not change the contract, nor the contract a toolkit release).
// Bump it by the policy in docs/contract-evolution.md; `npm run contract:policy` checks the bump.

export const CONTRACT_VERSION = '3.2.0';

/** The git tag a release of the contract is cut as (`contract-v3.2.0`). */
export const CONTRACT_TAG_PREFIX = 'contract-v';
