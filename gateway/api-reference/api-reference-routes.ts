import { Hono } from 'hono';
import { openApiDocument } from './openapi-document';

/** GET /openapi.json: public, like any API description; built once, it only changes with the code. */
export function apiReferenceRoutes(options: { serverUrl?: string } = {}): Hono {
  const document = openApiDocument(options);
  const app = new Hono();
  app.get('/openapi.json', (c) => c.json(document));
  return app;
}
