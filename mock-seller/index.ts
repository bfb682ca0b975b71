// The mock seller's entry point: what the gateway's tests, the CLI, the kit's tests and the benches
// may use. Everything else in this folder is its inside.
export { createMockSeller, type MockSeller } from './app';
export { startMockSeller, startPactReplay, type RunningMockSeller } from './start-mock-seller';
export { DEFAULT_SCENARIO_PATH, readDefaultScenario } from './default-scenario';
export { FAULT_HEADER } from './seller-endpoint';
export type { FaultRuleInput } from './fault-registry';
export { ScenarioError } from './errors';
