import { Hono } from 'hono';
import { openApiDocument } from './openapi-document';
import { internalApiDocument } from './internal-api-document';
import { referencePage } from './reference-page';
import type { Json } from '../../contracts/openapi-builder';

/**
 * GET /openapi.json and the interactive reference at GET /reference: public, like any API
 * description; built once, they only change with the code.
 */
export function apiReferenceRoutes(options: { serverUrl?: string } = {}): Hono {
  const document = openApiDocument(options);
  const page = referencePage(document);
  const app = new Hono();
  app.get('/openapi.json', (c) => c.json(document));
  app.get('/reference', (c) => c.html(page.html, 200, page.headers));
  return app;
}

/** The document with the server a caller reaches: the configured URL, else the request's origin. */
const servedFrom = (document: Json, serverUrl: string): Json => ({
  ...document,
  servers: [{ ...(document.servers as Json[])[0], url: serverUrl }],
});

/**
 * The internal API's GET /openapi.json (mounted by internal-api.ts, behind no credential: it
 * describes, it does not act). Built once; only the server URL follows the request.
 */
export function internalApiReferenceRoutes(options: { serverUrl?: string } = {}): Hono {
  const document = internalApiDocument();
  const app = new Hono();
  app.get('/openapi.json', (c) => c.json(servedFrom(document, options.serverUrl ?? new URL(c.req.url).origin)));
  return app;
}
