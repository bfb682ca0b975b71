import type { Scenario } from '../contracts/schemas/scenario';
import type { FaultRegistry } from './fault-registry';
import type { Journal } from './journal';
import type { PlacedOrder } from './place-order';
import type { SellerData } from './seller-data';

/** In-process handles of a mock seller; the control API is a thin HTTP layer over these. */
export interface MockSellerControl {
  readonly data: SellerData;
  readonly journal: Journal;
  readonly faults: FaultRegistry;
  readonly orders: readonly PlacedOrder[];
  /** Validates and makes `scenario` the base; then resets. Throws ScenarioError. */
  loadScenario(scenario: unknown): Scenario;
  /** Back to the base scenario: stock, orders, faults and journal; hanging requests let go. */
  reset(): void;
  /** setup: change the live data as the state needs; teardown: back to the base data. */
  providerState(
    state: string,
    params: Record<string, unknown>,
    action: 'setup' | 'teardown',
  ): { params: Record<string, unknown> };
  /** Lets every request held by a `hang` fault go (their connections are dropped). */
  releaseHanging(): void;
  /** Requests currently held by a `hang` fault. */
  readonly hangingCount: number;
}
