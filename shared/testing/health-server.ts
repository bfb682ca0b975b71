import { listen } from '../http/listen';

// A server that answers GET /health (how its connection cap stands) and POST /upload (reads the
// body, says its length), through listen() like every server of the toolkit, for tests that
// flood it from outside (shared/http/connection-flood.wall-clock.test.ts runs it under `ulimit -n`).
// Prints "listening on <url>".

const served = await listen(async (request) => {
  const path = new URL(request.url).pathname;
  if (path === '/upload' && request.method === 'POST')
    return Response.json({ bytes: (await request.arrayBuffer()).byteLength });
  if (path !== '/health') return new Response('not found', { status: 404 });
  const { open, cap, shed } = served.connections;
  return Response.json({ status: 'ok', open, cap, shed });
});
console.log(`health server: listening on ${served.url}`);
process.on('SIGTERM', () => void served.close().then(() => process.exit(0)));
