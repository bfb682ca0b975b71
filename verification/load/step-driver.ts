import type { SellerTarget } from '../explore/exchange';
import type { ExploreCase } from '../explore/generators';
import type { LoadClient } from './load-exchange';
import type { PendingFailure } from './step-recorder';

// What every step of a run shares, whichever model sends: the client, the generated requests,
// the run's request budget, the stop.

export interface StepDriver {
  target: SellerTarget;
  client: LoadClient;
  nextCase: () => ExploreCase;
  /** The run's bound on requests: a step stops sending once `sent` reaches `max`. */
  budget: { sent: number; max: number };
  /** The run's time limit (performance.now() ms): a step stops sending once it passes. */
  deadline?: number;
  signal?: AbortSignal;
  /** The run's list of first failures, each step adding to it. */
  failures: PendingFailure[];
}

/** Why a step stopped before its time: the budget was spent, the time limit passed, or the run was stopped. */
export type StepCut = 'budget' | 'time-limit' | 'signal';

export const budgetSpent = (d: StepDriver) => d.budget.sent >= d.budget.max;
export const timeIsUp = (d: StepDriver) => d.deadline !== undefined && performance.now() >= d.deadline;

/** Why no more may be sent now, if anything stops it. */
export function stopReason(d: StepDriver): StepCut | undefined {
  if (d.signal?.aborted === true) return 'signal';
  if (budgetSpent(d)) return 'budget';
  if (timeIsUp(d)) return 'time-limit';
  return undefined;
}
