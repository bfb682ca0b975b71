// The package entry point of @federated-gateway/contracts: the contract core for anyone who only wants the
// rules (schemas, code lists, validators, request and reply rules, the pact and its JSON
// Schemas). No HTTP server is reachable from here (packages/package-dependencies.test.ts).
export * from '../../contracts/index';
export { CONSUMER, PROVIDER, PACT_FILE, PACT_FILE_NAME, PACTS_DIR, SELLER_PATH } from '../../contracts/pact/pact-names';
export {
  readPact,
  readV4Pact,
  normalisePact,
  PactFileError,
  type PactDocument,
  type PactInteraction,
} from '../../contracts/pact/pact-file';
export {
  contractVersionOf,
  replyRulesOf,
  CONTRACT_METADATA_KEY,
  REPLY_RULES_METADATA_KEY,
} from '../../contracts/pact/contract-metadata';
export {
  PROVIDER_STATE_CATALOGUE,
  STATE_NAMES,
  type StateName,
  type StateParams,
  type CatalogueState,
} from '../../contracts/pact/provider-states';
export { DEFAULT_MAX_SELLER_REPLY_BYTES } from '../../contracts/seller-reply-size';
