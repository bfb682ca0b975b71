// The package entry point of @federated-gateway/toolkit for a vendor's own code: the kit's runs as functions
// (each returns the report its command prints, never prints, never ends the process), the
// servers a test starts, their options and reports, and the errors they throw. Everything
// else in the repository is the toolkit's inside.

// Verify, explore, load: the three runs against a seller system.
export {
  verifySeller,
  ExampleValuesError,
  type VerifySellerOptions,
  type VerifyProgress,
  type BrokerPacts,
} from '../../verification/verify/verify-seller';
export {
  exploreSeller,
  type ExploreSellerOptions,
  type ExploreSellerProgress,
} from '../../verification/explore/explore-seller';
export { loadSeller, type LoadSellerOptions, type LoadSellerProgress } from '../../verification/load/load-seller';

// The servers: a mock seller, the rules proxy for any Pact verifier, the provider-state server.
export {
  startMockSeller,
  type StartOptions as StartMockSellerOptions,
  type RunningMockSeller,
} from '../../mock-seller/start-mock-seller';
export {
  startRulesProxy,
  type StartRulesProxyOptions,
  type RunningRulesProxy,
} from '../../verification/rules-proxy/rules-proxy';
export {
  startStateServer,
  type StateServerOptions,
  type RunningStateServer,
} from '../../verification/states/start-state-server';

// What they throw.
export { KitInputError, SellerProtocolError, SellerUnreachableError } from '../../verification/kit-errors';
export { ScenarioError } from '../../mock-seller/errors';

// What they take and return.
export type { StateMapFile } from '../../verification/states/state-map';
export type { StateEvent } from '../../verification/states/state-handlers';
export type { FaultRuleInput } from '../../mock-seller/fault-registry';
export type { Publication } from '../../verification/verify/verifier-options';
export type { Exchange } from '../../verification/rules-proxy/proxied-exchange';
export type {
  VerificationReport,
  InteractionReport,
  RuleSummary,
  RuleBreach,
} from '../../verification/reports/verification-report';
export type { ConformanceReport, ConformanceRow } from '../../verification/explore/conformance';
export type { LoadReport, LoadStep, LoadVerdict } from '../../verification/load/load-report';
export type { LoadMix } from '../../verification/load/load-mix';
