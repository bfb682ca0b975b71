// The mock seller's face: what the gateway's tests, the CLI, the kit's tests and the benches
// may use. Everything else in this folder is its inside.
export { createMockSeller, type MockSeller, type MockSellerOptions } from './app';
export {
  startMockSeller,
  startPactReplay,
  type RunningMockSeller,
  type RunningPactReplay,
  type PactReplayStartOptions,
  type StartOptions,
} from './start-mock-seller';
export { DEFAULT_SCENARIO_PATH, readDefaultScenario } from './default-scenario';
export { FAULT_HEADER } from './seller-endpoint';
export type { Fault } from './faults';
export type { FaultRuleInput } from './fault-registry';
export { ScenarioError } from './errors';
export { MOCK_SELLER_STATE_HANDLERS } from './provider-states';
