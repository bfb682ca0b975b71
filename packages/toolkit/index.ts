// The face of @federated-gateway/toolkit: what a seller vendor's tests and a gateway
// developer's tests call. The programmatic verification API (verifySeller, exploreSeller,
// loadSeller, startStateServer) joins it from verification/.
export { startMockSeller, type StartOptions as MockSellerStartOptions, type RunningMockSeller } from '../../mock-seller/index';
export { startRulesProxy, type RulesProxyOptions, type RunningRulesProxy } from '../../verification/rules-proxy';
export type { Exchange } from '../../verification/proxied-exchange';
export type { VerificationReport, InteractionReport, RuleBreach, RuleSummary } from '../../verification/verification-report';
export { CONTRACT_VERSION } from '../../contracts/contract-version';
export { PACT_FILE } from '../../contracts/pact/pact-names';
