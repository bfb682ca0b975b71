import type { Clock } from '../clock';

// One circuit breaker per member's seller. Closed: calls go through, consecutive failures
// are counted. After `failures` in a row it opens: calls are refused at once for
// `cooldownMs`. Then half-open: exactly one call (the probe) goes through; its success
// closes the breaker, its failure opens it for another cool-down.

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  failures: number;
  cooldownMs: number;
  clock: Clock;
  /** Told of every change of state (metrics, log). */
  onChange?: (key: string, state: BreakerState) => void;
}

/** May the call go ahead? If not, how long until the breaker lets a probe through. */
export type Admission =
  { admitted: true; probe: boolean } | { admitted: false; retryAfterMs: number; state: 'open' | 'half-open' };

interface Circuit {
  state: BreakerState;
  consecutiveFailures: number;
  openedAt: number;
  probeInFlight: boolean;
}

export interface CircuitBreakers {
  admit(key: string): Admission;
  /** The outcome of an admitted call; `probe` as admit() said. */
  record(key: string, ok: boolean, probe: boolean): void;
  state(key: string): BreakerState;
  /** Every circuit known so far and its state. */
  states(): Map<string, BreakerState>;
}

export function createCircuitBreakers(options: BreakerOptions): CircuitBreakers {
  const circuits = new Map<string, Circuit>();
  const circuitOf = (key: string): Circuit => {
    let circuit = circuits.get(key);
    if (circuit === undefined)
      circuits.set(key, (circuit = { state: 'closed', consecutiveFailures: 0, openedAt: 0, probeInFlight: false }));
    return circuit;
  };
  const change = (key: string, circuit: Circuit, state: BreakerState) => {
    if (circuit.state === state) return;
    circuit.state = state;
    options.onChange?.(key, state);
  };

  return {
    admit(key) {
      const circuit = circuits.get(key);
      if (circuit === undefined || circuit.state === 'closed') return { admitted: true, probe: false };
      const now = options.clock();
      if (circuit.state === 'open') {
        const reopensAt = circuit.openedAt + options.cooldownMs;
        if (now < reopensAt) return { admitted: false, retryAfterMs: reopensAt - now, state: 'open' };
        change(key, circuit, 'half-open');
      }
      // Half-open: one probe at a time; the others wait for its verdict.
      if (circuit.probeInFlight) return { admitted: false, retryAfterMs: 1_000, state: 'half-open' };
      circuit.probeInFlight = true;
      return { admitted: true, probe: true };
    },
    record(key, ok, probe) {
      const circuit = circuitOf(key);
      if (probe) circuit.probeInFlight = false;
      if (ok) {
        circuit.consecutiveFailures = 0;
        change(key, circuit, 'closed');
        return;
      }
      circuit.consecutiveFailures += 1;
      // A failed probe reopens at once; a late failure of a call admitted before the breaker
      // opened does not restart the cool-down.
      if (probe || (circuit.state === 'closed' && circuit.consecutiveFailures >= options.failures)) {
        circuit.openedAt = options.clock();
        change(key, circuit, 'open');
      }
    },
    state: (key) => circuits.get(key)?.state ?? 'closed',
    states: () => new Map([...circuits].map(([key, circuit]) => [key, circuit.state])),
  };
}
