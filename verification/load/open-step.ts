import { StepRecorder } from './step-recorder';
import { stopReason, type StepCut, type StepDriver } from './step-driver';
import type { LoadOutcome } from './load-exchange';

// A step of the open model: requests sent on a schedule — the i-th at start + i/rate — whatever
// the replies do, as k6's constant-arrival-rate executor and wrk2 send. A seller that stalls
// cannot slow the sender, so the stall shows: each latency runs from the request's intended
// send time, and the driver's own lag behind the schedule is counted in it, not hidden. A
// request whose time comes while `maxInFlight` are still waiting is dropped (never sent), as the
// gateway refuses a call past its per-member cap; the step says how many. The schedule is
// worked off by a timer and, when a reply frees a place, at once (as a k6 VU picks up the next
// iteration): a place freed between two timer ticks (~1 ms) would otherwise sit idle.

export interface OpenStepResult {
  recorder: StepRecorder;
  seconds: number;
  cut?: StepCut;
  /** Requests sent, and never sent (dropped). */
  sent: number;
  dropped: number;
  peakInFlight: number;
  /** Each sent request's delay behind its intended time, ms. */
  lags: Float64Array;
  /** From the step's start to the last send, plus one interval (the schedule's span when kept). */
  sendSpanMs: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runOpenStep(
  d: StepDriver,
  rate: number,
  seconds: number,
  maxInFlight: number,
): Promise<OpenStepResult> {
  const recorder = new StepRecorder(d.target, Math.max(4, 4 * Math.min(maxInFlight, Math.ceil(rate))), d.failures);
  const interval = 1000 / rate;
  const scheduled = Math.max(1, Math.round(rate * seconds));
  const lags = new Float64Array(scheduled);
  const pending = new Set<Promise<void>>();
  let sent = 0;
  let dropped = 0;
  let peakInFlight = 0;
  let lastSend = 0;
  let cut: StepCut | undefined;
  const started = performance.now();

  const send = (intended: number) => {
    const flight = recorder.begin(d.nextCase());
    const lag = flight.start - intended;
    lags[sent++] = lag;
    lastSend = flight.start;
    d.budget.sent++;
    peakInFlight = Math.max(peakInFlight, recorder.inFlightCount);
    const done = d.client.exchange(flight.c).then((outcome: LoadOutcome) => {
      pending.delete(done);
      if (d.signal?.aborted === true) return; // cut short by the stop: not a finding
      recorder.end(flight, outcome, outcome.waitMs + lag);
      pump();
    });
    pending.add(done);
  };

  let next = 0;
  /**
   * Everything whose time has come goes now (a late tick sends a burst, each counted late), or is dropped at the cap.
   */
  const pump = () => {
    const now = performance.now();
    while (cut === undefined && next < scheduled && started + next * interval <= now) {
      cut = stopReason(d);
      if (cut === undefined) {
        const intended = started + next * interval;
        next++;
        if (recorder.inFlightCount >= maxInFlight) dropped++;
        else send(intended);
      }
    }
  };
  while (cut === undefined && next < scheduled) {
    pump();
    if (cut === undefined && next < scheduled) await sleep(Math.max(0, started + next * interval - performance.now()));
  }
  await Promise.all(pending);
  // Replies that came in while the last sends were awaited may have pumped more: wait for those too.
  while (pending.size > 0) await Promise.all(pending);
  if (d.signal?.aborted === true) cut = 'signal';
  return {
    recorder,
    seconds: (performance.now() - started) / 1000,
    ...(cut !== undefined ? { cut } : {}),
    sent,
    dropped,
    peakInFlight,
    lags: lags.subarray(0, sent),
    sendSpanMs: sent === 0 ? 0 : lastSend - started + interval,
  };
}
