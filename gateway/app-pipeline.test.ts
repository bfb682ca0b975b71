import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from './app';
import { createDirectory } from './directory/create-directory';
import type { PipelineStep } from './http/pipeline';
import { createGatewayMetrics } from './metrics/gateway-metrics';
import { createSellerClient } from './seller-client/seller-client';
import type { Store } from './store/store';
import { createTestStore } from './testing/test-store';
import { ALL_SPEEDUPS, NO_SPEEDUPS } from './speedups/speedups';

// One pipeline (http/gateway-pipeline.ts) for every route: the buyer operations run it in their
// own handler, every other route as middleware. Each step of the app's own list is traced as it
// enters and leaves, with a marker step added at the end of the list: every route of the app
// (app.routes, and a path no route matches) must enter all of them in list order and leave them
// in reverse, the marker included. Both ways of running it for the buyer operations are walked:
// their own handler (the 'own-runner' speed-up) and Hono middleware (its plain version).

// By a header of each request: a step may replace the request object (the body limit counts its body).
const trace = new Map<string, string[]>();
const traceOf = (c: { req: { header(name: string): string | undefined } }) => trace.get(c.req.header('x-trace') ?? '');

function traced(step: PipelineStep): PipelineStep {
  return {
    name: step.name,
    enter(c) {
      traceOf(c)?.push(`> ${step.name}`);
      return step.enter?.(c);
    },
    leave(c, response, route) {
      traceOf(c)?.push(`< ${step.name}`);
      return step.leave === undefined ? response : step.leave(c, response, route);
    },
  };
}

const marker: PipelineStep = { name: 'marker', enter: () => undefined };

describe.each([
  { runner: 'own-runner', speedups: ALL_SPEEDUPS },
  { runner: 'middleware', speedups: NO_SPEEDUPS },
])('the one request pipeline ($runner)', ({ runner, speedups }) => {
  let store: Store;
  let app: Gateway;
  let listed: string[] = [];
  beforeAll(async () => {
    store = await createTestStore();
    app = createGateway({
      store,
      directory: createDirectory(store),
      sellerClient: createSellerClient(),
      logger: () => {},
      metrics: createGatewayMetrics({ processMetrics: false }),
      speedups,
      pipeline: (steps) => {
        listed = steps.map((step) => step.name);
        return [...steps, marker].map(traced);
      },
    });
  });
  afterAll(() => store.close());

  /** Every route of the app, once per method and path (middleware entries left out), as a request reaching it. */
  function everyRoute(): { method: string; path: string }[] {
    const seen = new Map<string, { method: string; path: string }>();
    for (const route of app.routes) {
      if (route.method === 'ALL') continue;
      const path = route.path.replace(/:[a-z_]+/g, 'x');
      seen.set(`${route.method} ${path}`, { method: route.method, path });
    }
    return [...seen.values()];
  }

  async function stepsRunFor(
    method: string,
    path: string,
    contentType = 'application/json',
  ): Promise<{ steps: string[]; status: number; body: string }> {
    const id = String(trace.size);
    const steps: string[] = [];
    trace.set(id, steps);
    const response = await app.request(path, {
      method,
      headers: { 'content-type': contentType, 'x-trace': id },
      body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
    });
    return { steps, status: response.status, body: await response.text() };
  }

  it('is the list the gateway declares: request log, metrics, body limit, content type', () => {
    expect(listed).toEqual(['request-log', 'metrics', 'body-limit', 'json-content-type']);
  });

  it('runs on every route of the app, each step in list order and back in reverse, a step added to the list included', async () => {
    const names = [...listed, 'marker'];
    const expected = [...names.map((name) => `> ${name}`), ...names.toReversed().map((name) => `< ${name}`)];
    const routes = everyRoute();
    // The buyer operations (their own handlers) and the routes Hono composes are both walked.
    expect(routes).toContainEqual({ method: 'POST', path: '/json/federated/v3_2/item_inquiry' });
    expect(routes).toContainEqual({ method: 'POST', path: '/json/federated/v3_1/place_order' });
    expect(routes).toContainEqual({ method: 'GET', path: '/health' });
    expect(routes.length).toBeGreaterThan(20);
    for (const { method, path } of [...routes, { method: 'GET', path: '/no/such/path' }]) {
      const run = await stepsRunFor(method, path);
      expect({ route: `${method} ${path}`, steps: run.steps }).toEqual({ route: `${method} ${path}`, steps: expected });
      // The route itself answered (not the catch-all), except for the path no route matches.
      if (path !== '/no/such/path') expect(run.body, `${method} ${path}`).not.toContain('no such endpoint');
    }
  });

  it.runIf(runner === 'own-runner')(
    'leaves every buyer operation alone on its path, Hono composing no chain for it',
    () => {
      // A step for every request belongs in http/gateway-pipeline.ts; a developer's own middleware
      // goes on an app that mounts the gateway, and reaches these routes too (speedups/speedups.test.ts).
      const buyerPaths = app.routes.filter((route) => route.path.startsWith('/json/federated/'));
      expect(buyerPaths).toHaveLength(6);
      for (const { method, path } of buyerPaths)
        expect(app.router.match(method, path)[0], `${method} ${path}`).toHaveLength(1);
    },
  );

  it('leaves the steps that entered when one refuses, in reverse, and skips the rest', async () => {
    const run = await stepsRunFor('POST', '/json/federated/v3_2/item_inquiry', 'text/plain');
    expect(run.status).toBe(415);
    expect(run.steps).toEqual([
      '> request-log',
      '> metrics',
      '> body-limit',
      '> json-content-type',
      '< body-limit',
      '< metrics',
      '< request-log',
    ]);
  });
});
