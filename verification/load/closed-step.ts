import { StepRecorder } from './step-recorder';
import { stopReason, type StepCut, type StepDriver } from './step-driver';

// A step of the closed model: `concurrency` workers, each sending its next request as soon as
// the last one answered, for `seconds`. Its latencies run from send to reply.

export interface ClosedStepResult {
  recorder: StepRecorder;
  seconds: number;
  cut?: StepCut;
}

export async function runClosedStep(d: StepDriver, concurrency: number, seconds: number): Promise<ClosedStepResult> {
  const recorder = new StepRecorder(d.target, 4 * concurrency, d.failures);
  const started = performance.now();
  const until = started + seconds * 1000;
  const stopped = () => d.signal?.aborted === true;
  let cut: StepCut | undefined;
  const worker = async () => {
    while (performance.now() < until) {
      cut ??= stopReason(d);
      if (cut !== undefined) return;
      d.budget.sent++;
      const flight = recorder.begin(d.nextCase());
      const outcome = await d.client.exchange(flight.c);
      if (stopped()) return; // cut short by the stop: not a finding
      recorder.end(flight, outcome, outcome.waitMs);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  if (stopped()) cut = 'signal';
  return { recorder, seconds: elapsed, ...(cut !== undefined ? { cut } : {}) };
}
