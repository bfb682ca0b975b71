import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';

/**
 * The mock seller's Hono environment: Node's bindings (socket, raw headers) when served, none in-process (app.request).
 */
export interface MockSellerEnv {
  Bindings: Partial<HttpBindings> | undefined;
}

/** One request to the mock seller as Hono hands it over. */
export type RequestContext = Context<MockSellerEnv>;
