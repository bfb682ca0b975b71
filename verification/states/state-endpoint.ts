import { Hono } from 'hono';
import type { StateAction, StateEvent, StateSource } from './state-handlers';
import { refuseCrossSiteAndNonJson } from '../rules-proxy/json-request-guard';
import { inertReplies } from '../rules-proxy/proxy-reply-headers';

// The kit's own provider-state URL, handed to the Pact verifier: every state change passes
// through here to the vendor's source (their callback, their state map, or nothing), so the
// kit knows which values were injected into each interaction.

export function createStateEndpoint(source: StateSource, onEvent: (event: StateEvent) => void): Hono {
  const app = new Hono();
  // A loopback port that sets up states in the vendor's system: no browser page may call it.
  app.use('*', inertReplies());
  app.post('*', refuseCrossSiteAndNonJson('kit state endpoint'), async (c) => {
    let body: { state?: unknown; params?: unknown; action?: unknown };
    try {
      body = (await c.req.json()) as typeof body;
    } catch {
      return c.json({ error: 'the state change request is not JSON' }, 400);
    }
    const state = typeof body.state === 'string' ? body.state : '';
    const params =
      body.params !== null && typeof body.params === 'object' ? (body.params as Record<string, unknown>) : {};
    const action: StateAction = body.action === 'teardown' ? 'teardown' : 'setup';
    // An interaction without states still gets a call with an empty name: nothing to do.
    if (state === '') return c.json({});
    const call = { state, params, action };
    try {
      const injected = await source(call);
      onEvent({ ...call, ...(injected !== undefined ? { injected } : {}) });
      return c.json(injected ?? {});
    } catch (error) {
      onEvent({ ...call, error: (error as Error).message });
      // 4xx, not 5xx: the Rust verifier retries a 5xx eight times with back-off (about a minute).
      return c.json({ error: (error as Error).message }, 422);
    }
  });
  return app;
}
