import { Hono } from 'hono';
import { openApiDocument } from './openapi-document';
import { referencePage } from './reference-page';

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
