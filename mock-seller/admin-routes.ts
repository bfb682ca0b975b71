import { Hono, type Context } from 'hono';
import { BadRequestError } from './errors';
import { notJsonMessage, readJsonBody } from '../shared/http/json-body';
import { MOCK_SELLER_STATE_HANDLERS } from './provider-states';
import type { MockSellerControl } from './mock-seller-control';

// /__admin: the control API. Tests and the Pact verifier drive the mock seller through it.

const bodyNotJson = (reason: string) =>
  new BadRequestError(notJsonMessage(reason), [{ keyword: 'json', path: '', message: reason }]);
const readJson = (c: Context): Promise<unknown> => readJsonBody(c, bodyNotJson);

const object = (body: unknown): Record<string, unknown> => {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new BadRequestError('the body must be a JSON object', [
      { keyword: 'type', path: '', message: 'must be an object' },
    ]);
  return body as Record<string, unknown>;
};

/** A state change {state, params, action}, checked, then set up: a flat map of the values used. */
function providerStateAnswer(control: MockSellerControl, body: Record<string, unknown>): Record<string, unknown> {
  const { state, params, action } = body;
  if (typeof state !== 'string' || state === '')
    throw new BadRequestError('state is required', [{ keyword: 'required', path: '/state', message: 'is required' }]);
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    throw new BadRequestError('params must be an object', [
      { keyword: 'type', path: '/params', message: 'must be an object' },
    ]);
  }
  if (action !== undefined && action !== 'setup' && action !== 'teardown') {
    throw new BadRequestError("action must be 'setup' or 'teardown'", [
      { keyword: 'enum', path: '/action', message: "must be 'setup' or 'teardown'" },
    ]);
  }
  const result = control.providerState(state, (params ?? {}) as Record<string, unknown>, action ?? 'setup');
  // A flat map of the values used: what every Pact verifier injects (pact-jvm, pact-net, the Rust CLI).
  return result.params;
}

export function adminRoutes(control: MockSellerControl): Hono {
  const admin = new Hono();

  admin.get('/scenario', (c) => c.json(control.data.scenario));
  admin.put('/scenario', async (c) => {
    const scenario = control.loadScenario(await readJson(c));
    return c.json({
      loaded: scenario.name,
      parts: scenario.parts.length,
      locations: scenario.locations.length,
      accounts: scenario.accounts.length,
    });
  });
  admin.post('/reset', (c) => {
    control.reset();
    return c.json({ reset: true, scenario: control.data.scenario.name });
  });

  admin.get('/journal', (c) => {
    const limit = c.req.query('limit');
    if (limit !== undefined && !/^\d+$/.test(limit))
      throw new BadRequestError('limit must be a whole number', [
        { keyword: 'query', path: '/limit', message: 'must be a whole number' },
      ]);
    const entries = control.journal.entries({
      service: c.req.query('service'),
      limit: limit === undefined ? undefined : Number(limit),
    });
    return c.json({ count: entries.length, entries });
  });
  admin.delete('/journal', (c) => {
    control.journal.clear();
    return c.body(null, 204);
  });

  admin.get('/faults', (c) => c.json({ faults: control.faults.list() }));
  // One rule, or a list of them: a list is added whole or not at all.
  admin.post('/faults', async (c) => {
    const body = await readJson(c);
    return c.json(Array.isArray(body) ? control.faults.addAll(body) : control.faults.add(body), 201);
  });
  admin.delete('/faults', (c) => {
    control.faults.clear();
    return c.body(null, 204);
  });
  admin.delete('/faults/:id', (c) => {
    control.faults.remove(c.req.param('id'));
    return c.body(null, 204);
  });

  admin.get('/orders', (c) => c.json({ orders: control.orders }));

  admin.get('/provider-states', (c) =>
    c.json({
      states: Object.entries(MOCK_SELLER_STATE_HANDLERS).map(([state, d]) => ({
        state,
        description: d.description,
        required: d.required,
      })),
    }),
  );
  admin.post('/provider-state', async (c) => c.json(providerStateAnswer(control, object(await readJson(c)))));

  return admin;
}
