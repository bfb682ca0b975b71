import { Hono } from 'hono';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { listen } from '../shared/http/listen';

// The least any gateway must do for an item inquiry, as npm run -w lab bench's yardstick: parse the
// buyer's JSON, add the locations, forward to the seller over a keep-alive pool, parse the
// seller's reply and write it back. No authentication, directory, checks or log: the distance
// between this and the gateway is what the gateway's own work costs.
//   tsx lab/bare-proxy.ts --upstream <seller url> [--port <n>]

const { values } = parseArgs({ options: { upstream: { type: 'string' }, port: { type: 'string', default: '0' } } });
if (values.upstream === undefined) {
  console.error('bare-proxy: --upstream <seller url> is required');
  process.exit(2);
}
const upstream = new URL(values.upstream);
const pool = new Pool(upstream.origin, { connections: 64, keepAliveTimeout: 30_000 });
// What the gateway adds from the directory for the demo buyer (seeds/directory.json).
const LOCATIONS = [
  { id: 'L101', member: 'M100', account: 'A-1001' },
  { id: 'L150', member: 'M100', account: 'A-1001' },
];

const app = new Hono();
app.post('/json/federated/v3_2/item_inquiry', async (c) => {
  const request = (await c.req.json()) as { items: unknown[] };
  const forwarded = {
    service: 'item_inquiry',
    integration: 'northside-dev',
    terminal_id: 'T-DEMO-1',
    locations: LOCATIONS,
    items: request.items,
  };
  const answer = await pool.request({
    method: 'POST',
    path: upstream.pathname,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(forwarded),
  });
  const reply = (await answer.body.json()) as object;
  return c.json(reply, answer.statusCode as 200);
});

const server = await listen(app.fetch, { port: Number(values.port) });
console.error(`bare proxy: listening on ${server.url}`);
const stop = () =>
  void server
    .close()
    .then(() => pool.close())
    .then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
