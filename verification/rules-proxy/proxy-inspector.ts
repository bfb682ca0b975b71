import type { Hono } from 'hono';
import type { Exchange } from './proxied-exchange';
import { createExchangeLog } from '../../inspector/exchange-log';
import { createInspector } from '../../inspector/inspector-app';
import { memberOfRequest } from '../../inspector/member-of-request';

// The inspector page over what a rules proxy relays (the standalone proxy and the kit's run):
// mounted at /__inspector on the proxy's own port, before its catch-all relay.

export const INSPECTOR_PATH = '/__inspector';

export function createProxyInspector(title: string) {
  const log = createExchangeLog();
  const inspector = createInspector({ feed: log, title });
  return {
    routes: [{ path: INSPECTOR_PATH, app: inspector.app as Hono }],
    record(exchange: Exchange): void {
      // The seller's status stands when it answered, even with a reply the proxy did not relay.
      const replied =
        exchange.proxyAnswer !== 'unreachable' &&
        exchange.proxyAnswer !== 'closed' &&
        exchange.proxyAnswer !== 'timeout' &&
        exchange.proxyAnswer !== 'stopped';
      log.add({
        at: new Date(Date.now() - exchange.elapsedMs).toISOString(),
        service: exchange.service ?? null,
        member: memberOfRequest(exchange.request),
        request: exchange.request,
        http_status: replied ? exchange.status : null,
        reply: replied ? (exchange.reply ?? null) : null,
        duration_ms: exchange.elapsedMs,
        faults: [],
        ...(exchange.problem !== undefined ? { outcome: exchange.problem } : {}),
      });
    },
    close: () => inspector.close(),
  };
}
