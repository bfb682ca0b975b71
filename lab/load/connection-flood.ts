import { connect, type Socket } from 'node:net';
import { request } from 'node:http';

// A connection flood, small: `size` connections to one port that send a header byte
// a second and never finish (each one closed is replaced at once), and meanwhile a new client's
// GET /health on every URL given, timed. Against `npm start` under a low `ulimit -n`:
//   node --import tsx lab/load/connection-flood.ts 1500 http://127.0.0.1:8080 http://127.0.0.1:9090
// (flooding the first URL's port). docs/gateway/scaling.md has the figures.

const [size, target, ...others] = [Number(process.argv[2]), process.argv[3], ...process.argv.slice(4)];
if (!Number.isSafeInteger(size) || target === undefined) {
  console.error('usage: connection-flood.ts <connections> <flooded base url> [other base url…]');
  process.exit(2);
}
const url = new URL(target);
const open = new Set<Socket>();
let opened = 0;
let closedByServer = 0;
let stopped = false;

function openOne(): void {
  if (stopped) return;
  const socket = connect(Number(url.port), url.hostname);
  socket.on('connect', () => {
    opened++;
    open.add(socket);
    socket.write(`GET /health HTTP/1.1\r\nHost: ${url.host}\r\nX-Slow: `);
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    if (open.delete(socket)) closedByServer++;
    setImmediate(openOne);
  });
}

const timed = (health: URL) =>
  new Promise<string>((resolve) => {
    const started = performance.now();
    const ms = () => `${(performance.now() - started).toFixed(0)} ms`;
    const req = request(health, { agent: false, timeout: 20_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(`${res.statusCode} in ${ms()}`));
    });
    req.on('timeout', () => req.destroy(new Error('no answer')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(`${error.code ?? error.message} after ${ms()}`));
    req.end();
  });

for (let i = 0; i < size; i++) openOne();
const ticker = setInterval(() => {
  for (const socket of open) socket.write('x');
}, 1_000);
const deadline = performance.now() + 30_000;
while (opened < size && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
for (let round = 0; round < 3; round++) {
  const answers: string[] = [];
  for (const base of [target, ...others]) answers.push(`${base}/health ${await timed(new URL('/health', base))}`);
  console.log(
    `flood: ${open.size} open, ${opened} opened, ${closedByServer} closed by the server; ${answers.join('; ')}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 2_000));
}
stopped = true;
clearInterval(ticker);
for (const socket of open) socket.destroy();
