import type { ProductionReplayExchange, ProductionReplayFile } from '../contracts/production-replay';
import { exchange, type Finding, type SellerTarget } from './explore/exchange';
import type { ExploreCase } from './explore/generators';

// A production replay file (the gateway's, contracts/production-replay.ts) run against the
// vendor's own system: each exchange's request sent again, its reply judged by the same check
// the gateway makes, and a verdict on the rule the production reply broke — it fails again
// here, or it no longer does. One exchange at a time, in the file's order: these failures
// happened in production's ordinary traffic, not only under concurrency.

export interface ProductionReplayVerdict {
  exchange: ProductionReplayExchange;
  /** `fails`: the same rule broke again; `no-longer-fails`: it did not. */
  verdict: 'fails' | 'no-longer-fails';
  /** The finding of the same rule, when it failed again. */
  finding?: Finding;
  /** What else the reply broke (another rule, the answer itself). */
  others: Finding[];
  httpStatus: number | null;
}

export async function replayProductionFile(
  target: SellerTarget,
  file: ProductionReplayFile,
  signal?: AbortSignal,
  onVerdict?: (verdict: ProductionReplayVerdict, index: number) => void,
): Promise<ProductionReplayVerdict[]> {
  const verdicts: ProductionReplayVerdict[] = [];
  for (const [index, recorded] of file.exchanges.entries()) {
    if (signal?.aborted) break;
    const c = { operation: recorded.operation, request: recorded.request } as ExploreCase;
    const outcome = await exchange(target, c, signal);
    const finding = outcome.findings.find((f) => f.rule === recorded.rule);
    const verdict: ProductionReplayVerdict = {
      exchange: recorded,
      verdict: finding === undefined ? 'no-longer-fails' : 'fails',
      ...(finding === undefined ? {} : { finding }),
      others: outcome.findings.filter((f) => f.rule !== recorded.rule),
      httpStatus: outcome.httpStatus,
    };
    verdicts.push(verdict);
    onVerdict?.(verdict, index);
  }
  return verdicts;
}
