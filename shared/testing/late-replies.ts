import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { listen, type Listening } from '../http/listen';

// For tests that undici's own timeouts (300 s for a reply's headers and between its body's
// chunks) never end an exchange its caller's deadline still allows. Waiting 300 s is no test:
// the stand-in defaults are 300 ms (undici's coarse timers fire them after about 1 to 1.5 s),
// and a server answers LATE_MS late, so a dispatcher left to those defaults fails where one
// built from the caller's deadline answers.

/** How late the server's reply comes: longer than the stand-in timeouts ever take to fire. */
export const LATE_MS = 2_000;
/** A deadline the late replies are well within. */
export const DEADLINE_MS = 2_600;
/** undici's headers and body timeouts, scaled down from 300 s. */
export const STAND_IN_DEFAULTS = { headersTimeout: 300, bodyTimeout: 300 } as const;
/** The two ways a reply can be late: its headers, or the rest of its body after the first half. */
export const LATE_PATHS = ['/late-headers', '/late-body'] as const;

/** Answers any POST with `replyText` (JSON) LATE_MS late: /late-headers, or /late-body. */
export function listenLate(replyText: string): Promise<Listening> {
  const half = Math.floor(replyText.length / 2);
  const headers = { 'content-type': 'application/json' };
  const pause = () => new Promise((resolve) => setTimeout(resolve, LATE_MS));
  return listen(async (req) => {
    if (new URL(req.url).pathname === '/late-headers') {
      await pause();
      return new Response(replyText, { headers });
    }
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(replyText.slice(0, half)));
        await pause();
        controller.enqueue(new TextEncoder().encode(replyText.slice(half)));
        controller.close();
      },
    });
    return new Response(body, { headers });
  });
}

/** Runs `run` with the global dispatcher (the one fetch() uses unless told) standing in with STAND_IN_DEFAULTS. */
export async function withStandInGlobalDispatcher<T>(run: () => Promise<T>): Promise<T> {
  const original = getGlobalDispatcher();
  const standIn = new Agent(STAND_IN_DEFAULTS);
  setGlobalDispatcher(standIn);
  try {
    return await run();
  } finally {
    setGlobalDispatcher(original);
    await standIn.destroy();
  }
}

/** What fetch() left to the stand-in defaults makes of both late replies: undici's error codes, or 'answered'. */
export async function bothLeftToStandIn(url: string): Promise<string[]> {
  const settled = await withStandInGlobalDispatcher(() =>
    Promise.allSettled(
      LATE_PATHS.map(async (path) => (await fetch(`${url}${path}`, { method: 'POST', body: '{}' })).text()),
    ),
  );
  return settled.map((s) =>
    s.status === 'fulfilled' ? 'answered' : String((s.reason as { cause?: { code?: string } }).cause?.code),
  );
}

/** bothLeftToStandIn's answer when the stand-in works: each late reply ended by its own undici timeout. */
export const STAND_IN_FAILURES = ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'];
