import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { openApiDocument } from './openapi-document';

// The document lists every JSON endpoint the assembled gateway really serves, and nothing it
// does not: read from the app's own route table, so a route added without documentation fails.

const NOT_API = new Set(['GET /reference', 'GET /catalog-session/', 'GET /catalog-session']);

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
}, 60_000);
afterAll(() => gw?.close());

describe('the OpenAPI document and the gateway', () => {
  it('agree on every endpoint', () => {
    const served = new Set(
      gw.app.routes
        .filter((r) => r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path.replace(/:([a-z_]+)/g, '{$1}')}`)
        .filter((route) => !NOT_API.has(route)),
    );
    const paths = openApiDocument().paths as Record<string, Record<string, unknown>>;
    const documented = new Set(
      Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`)),
    );
    expect(served.size).toBeGreaterThan(20);
    expect([...served].sort()).toEqual([...documented].sort());
  });
});
