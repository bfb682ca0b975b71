import { listen } from '../http/listen';

// A server that only answers GET /health, through listen() like every server of the toolkit,
// for tests that flood it from outside (contracts/http/connection-flood.test.ts run it under
// `ulimit -n`). /health says how its connection cap stands. Prints "listening on <url>".

const served = await listen((request) => {
  if (new URL(request.url).pathname !== '/health') return new Response('not found', { status: 404 });
  const { open, cap, shed } = served.connections;
  return Response.json({ status: 'ok', open, cap, shed });
});
console.log(`health server: listening on ${served.url}`);
process.on('SIGTERM', () => void served.close().then(() => process.exit(0)));
