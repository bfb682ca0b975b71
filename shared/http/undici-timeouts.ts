// undici's Pool, Client and Agent wait at most 300 s for a reply's headers and 300 s between
// its body's chunks unless told otherwise, whatever the caller's own deadline: a seller taking
// 350 s under a 400 s deadline (verify --load --timeout 400000, a member's timeout_ms) would end
// as a transport error (UND_ERR_HEADERS_TIMEOUT), not as the timeout the user asked for.

/** The two undici options that would otherwise default to 300 s. */
export interface UndiciTimeouts {
  headersTimeout: number;
  bodyTimeout: number;
}

/**
 * undici's timeouts for a dispatcher whose caller enforces `deadlineMs` itself, over the whole
 * exchange, and aborts it then: none of them may fire first.
 */
export function undiciTimeoutsFor(deadlineMs: number): UndiciTimeouts {
  // Switching undici's own clocks off is only safe for a caller that has a deadline of its own.
  if (!Number.isFinite(deadlineMs) || deadlineMs <= 0)
    throw new RangeError(`undiciTimeoutsFor: the deadline must be a positive number of ms, not ${deadlineMs}`);
  // 0 = off rather than deadline + a margin: the caller's timer is the one deadline, so a late sweep
  // or a busy event loop can never let undici's win the race, and no timer is armed per request.
  return { headersTimeout: 0, bodyTimeout: 0 };
}
