import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { ExchangeFeed, ExchangeSummary } from './exchange';

// The inspector's Server-Sent Events: `history` (the retained exchanges) first, then one
// `exchange` event each as they come, a comment line when idle so proxies keep the stream open.

/** The open streams of one inspector, so its owner can end them all (a server's close() waits for them otherwise). */
export interface OpenStreams {
  add(end: () => void): void;
  delete(end: () => void): void;
  endAll(): void;
}

export function openStreams(): OpenStreams {
  const ends = new Set<() => void>();
  return {
    add: (end) => void ends.add(end),
    delete: (end) => void ends.delete(end),
    endAll: () => {
      for (const end of [...ends]) end();
    },
  };
}

/** GET <path>/events: the feed as a stream of events until the reader goes or the inspector closes. */
export function exchangeEvents(c: Context, feed: ExchangeFeed, heartbeatMs: number, streams: OpenStreams): Response {
  const response = streamSSE(c, async (stream) => {
    const events = followFeed(feed);
    streams.add(events.end);
    stream.onAbort(events.end);
    try {
      await sendHistory(stream, feed);
      while (!events.ended() && !stream.aborted) await sendNext(stream, events, feed, heartbeatMs);
    } finally {
      events.unsubscribe();
      streams.delete(events.end);
    }
  });
  // The socket goes with the stream: a server closing would otherwise wait out keep-alive.
  response.headers.set('connection', 'close');
  return response;
}

/** Sends what came since the last turn, or waits for something (up to a heartbeat) and keeps the stream alive. */
async function sendNext(
  stream: SSEStreamingApi,
  events: FollowedFeed,
  feed: ExchangeFeed,
  heartbeatMs: number,
): Promise<void> {
  if (!events.pending()) {
    await events.idle(heartbeatMs);
    if (!events.pending() && !events.ended()) await stream.write(': keep-alive\n\n');
    return;
  }
  if (events.takeResync()) await sendHistory(stream, feed);
  for (const summary of events.takeSummaries())
    await stream.writeSSE({ event: 'exchange', id: String(summary.id), data: JSON.stringify(summary) });
}

type FollowedFeed = ReturnType<typeof followFeed>;

/** One reader's place in the feed: the summaries it has yet to get, or a resync when it fell too far behind. */
function followFeed(feed: ExchangeFeed) {
  const queue: ExchangeSummary[] = [];
  let resync = false;
  let wake: (() => void) | undefined;
  let ended = false;
  const unsubscribe = feed.subscribe((summary) => {
    // A reader too slow to keep up gets the history afresh rather than an unbounded queue.
    if (queue.length >= feed.limit) {
      queue.length = 0;
      resync = true;
    } else {
      queue.push(summary);
    }
    wake?.();
  });
  return {
    unsubscribe,
    ended: () => ended,
    end: () => {
      ended = true;
      wake?.();
    },
    pending: () => queue.length > 0 || resync,
    takeResync: () => {
      const was = resync;
      resync = false;
      return was;
    },
    takeSummaries: () => queue.splice(0),
    /** Until something comes, the stream ends, or `ms` pass. */
    idle: async (ms: number) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    },
  };
}

async function sendHistory(stream: SSEStreamingApi, feed: ExchangeFeed): Promise<void> {
  await stream.writeSSE({ event: 'history', data: JSON.stringify({ limit: feed.limit, exchanges: feed.recent() }) });
}
