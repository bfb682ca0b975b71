import { Agent } from 'undici';
import { undiciTimeoutsFor } from './undici-timeouts';

// For fetch() calls that enforce a deadline of their own (an AbortSignal.timeout): the global
// dispatcher's 300 s headers and body timeouts would end a longer deadline first, as "fetch
// failed" rather than as the timeout the user chose. One keep-alive Agent per deadline (a run
// has one), kept for the process like the global one: its idle sockets do not hold it open.

/** The global fetch's dispatcher type (from undici-types, Node's bundled undici). */
type FetchDispatcher = NonNullable<RequestInit['dispatcher']>;

const agents = new Map<number, FetchDispatcher>();

/** The dispatcher to give fetch() (`dispatcher`) when the caller's own deadline is `deadlineMs`. */
export function agentForDeadline(deadlineMs: number): FetchDispatcher {
  let agent = agents.get(deadlineMs);
  // Our undici's Agent drives Node's fetch (tested in deadline-agent.test.ts);
  // only the two type packages differ (FormData's typing).
  if (agent === undefined)
    agents.set(deadlineMs, (agent = new Agent(undiciTimeoutsFor(deadlineMs)) as unknown as FetchDispatcher));
  return agent;
}
