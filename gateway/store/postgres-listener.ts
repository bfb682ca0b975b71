// A dedicated connection (outside the pool: LISTEN is per session, and pooled clients come
// and go) that LISTENs for one channel and calls `onSignal` for each notification. If the
// connection drops it reconnects with exponential backoff; notifications sent meanwhile are
// lost, so `onSignal` is also called after every (re)connection, once LISTEN is in place:
// the subscriber then drops whatever it cached (the very first connection included, which
// closes the gap between subscribing and listening).
import pg from 'pg';

export interface PostgresListenerOptions {
  databaseUrl: string;
  channel: string;
  onSignal: () => void;
  /** First retry delay, doubled per failure up to maxBackoffMs. Default 100. */
  minBackoffMs?: number;
  /** Default 5 000. */
  maxBackoffMs?: number;
}

export interface PostgresListener {
  /** Settles once LISTEN is first in place and its catch-up onSignal has run (or on stop). */
  listening: Promise<void>;
  stop(): Promise<void>;
}

export function startPostgresListener(options: PostgresListenerOptions): PostgresListener {
  const minBackoff = options.minBackoffMs ?? 100;
  const maxBackoff = options.maxBackoffMs ?? 5_000;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let backoff = minBackoff;
  let markListening!: () => void;
  const listening = new Promise<void>((resolve) => (markListening = resolve));

  const scheduleReconnect = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, backoff);
    // A process with nothing else to do must not be kept alive by the retry timer.
    retry.unref();
    backoff = Math.min(backoff * 2, maxBackoff);
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString: options.databaseUrl });
    client = next;
    let failed = false;
    const lost = () => {
      if (failed) return;
      failed = true;
      if (client === next) client = undefined;
      next.end().catch(() => {});
      scheduleReconnect();
    };
    // Without an 'error' handler a dropped connection would crash the process.
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => {
      if (message.channel === options.channel) options.onSignal();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(options.channel)}`);
    } catch {
      lost();
      return;
    }
    if (stopped) {
      failed = true;
      await next.end().catch(() => {});
      return;
    }
    backoff = minBackoff;
    options.onSignal();
    markListening();
  };

  void connect();
  return {
    listening,
    async stop() {
      stopped = true;
      markListening();
      if (retry) clearTimeout(retry);
      retry = undefined;
      const current = client;
      client = undefined;
      if (current) {
        current.removeAllListeners('end');
        current.removeAllListeners('error');
        current.on('error', () => {});
        await current.end().catch(() => {});
      }
    },
  };
}
