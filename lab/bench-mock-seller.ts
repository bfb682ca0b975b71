// Mock seller throughput: item inquiry (3 items, 2 locations) against the mock seller and
// against a bare Hono handler returning a fixed reply of the same size, same run, loopback.
// The servers run in a child process so the load generator does not steal their CPU.
// A third run sends unique item ids on every request, so the mock's reply cache never hits;
// a fourth sends the same unique-id load to the bare handler, because building a fresh body
// per request slows the load generator itself (on a shared 2-core machine it then caps both).
// Usage: npm run -w lab bench:mock-seller [-- --seconds 8 --rounds 2 --connections 50]
// Ends with one line of JSON holding the figures. Target: mock ≥ 0.7 × bare.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import autocannon from 'autocannon';
import { checkSellerReply, type ItemInquirySellerRequest } from '../contracts/index';
import { startMockSeller, readDefaultScenario } from '../mock-seller/index';
import { listen } from '../shared/http/listen';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};

const request: ItemInquirySellerRequest = {
  service: 'item_inquiry',
  locations: [
    { id: 'L101', member: 'M100', account: 'A-1001' },
    { id: 'L150', member: 'M100', account: 'A-1001' },
  ],
  items: [
    { id: 'bench-1', mfr_code: 'WIX', part_number: '51515' },
    { id: 'bench-2', mfr_code: 'GAT', part_number: 'K060882' },
    { id: 'bench-3', mfr_code: 'BOS', part_number: 'AL8792X' },
  ],
};
const body = JSON.stringify(request);

interface Ports {
  mock: number;
  bare: number;
  replyBytes: number;
}

/** Child: the mock seller and the bare handler, each on its own port. */
async function serveBoth(): Promise<void> {
  const mock = await startMockSeller({ scenario: readDefaultScenario(), port: 0 });
  const res = await mock.seller.app.request('/seller', { method: 'POST', body });
  const replyText = await res.text();
  const check = checkSellerReply('item-inquiry', request, JSON.parse(replyText));
  if (!check.ok)
    throw new Error(`the mock seller's benchmark reply breaks the contract: ${JSON.stringify(check.violations)}`);
  mock.seller.journal.clear();
  // Same size, fixed: what a seller costs when it does nothing but answer.
  const bare = new Hono();
  bare.post('/seller', async (c) => {
    await c.req.text();
    return c.body(replyText, 200, { 'content-type': 'application/json' });
  });
  const { port: barePort } = await listen(bare.fetch);
  process.send!({ mock: mock.port, bare: barePort, replyBytes: Buffer.byteLength(replyText) } satisfies Ports);
  // CPU time used by this process, asked for around each load: robust where req/s is not
  // (the machine is shared, so throughput also measures the neighbours).
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send!({ cpuMicros: user + system });
  });
  process.on('disconnect', () => process.exit(0));
}

interface Figures {
  rps: number;
  /** Server CPU per answered request, in microseconds. */
  cpu_us: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non2xx: number;
}

function serverCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve((m as { cpuMicros: number }).cpuMicros));
    child.send('cpu');
  });
}

// Unique item ids on every request: the mock seller's reply cache never hits, so this
// measures parsing, validating and assembling each reply.
let sequence = 0;
const variedRequests: autocannon.Request[] = [
  {
    method: 'POST',
    setupRequest: (req) => {
      const n = ++sequence;
      return {
        ...req,
        body: JSON.stringify({ ...request, items: request.items.map((item, i) => ({ ...item, id: `r${n}-${i}` })) }),
      };
    },
  },
];

async function load(
  child: ChildProcess,
  port: number,
  seconds: number,
  connections: number,
  varied = false,
): Promise<Figures> {
  const cpuBefore = await serverCpu(child);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/seller`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections,
    duration: seconds,
    ...(varied ? { requests: variedRequests } : {}),
  });
  const cpu = (await serverCpu(child)) - cpuBefore;
  const answered = result['2xx'];
  return {
    rps: result.requests.average,
    cpu_us: answered > 0 ? cpu / answered : NaN,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const round1 = (x: number) => Math.round(x * 10) / 10;
const ratioOf = (x: number, y: number) => Math.round((x / y) * 1000) / 1000;

type Side = 'mock' | 'bare' | 'mock-varied' | 'bare-varied';
type Summary = ReturnType<typeof summary>;

const summary = (fs: Figures[]) => ({
  rps: Math.round(mean(fs.map((f) => f.rps))),
  cpu_us: round1(mean(fs.map((f) => f.cpu_us))),
  p50_ms: round1(mean(fs.map((f) => f.p50_ms))),
  p99_ms: round1(mean(fs.map((f) => f.p99_ms))),
  errors: fs.reduce((a, f) => a + f.errors + f.non2xx, 0),
});

/** The bench's server process (both handlers), once it says where it listens. */
async function forkServers(): Promise<{ child: ChildProcess; ports: Ports }> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ports = await new Promise<Ports>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ports));
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)));
  });
  return { child, ports };
}

/** Every side once a round, the order alternating so neither always runs on a warmer or quieter machine. */
async function measureRounds(
  child: ChildProcess,
  ports: Ports,
  options: { seconds: number; rounds: number; connections: number },
): Promise<Record<Side, Figures[]>> {
  const runs: Record<Side, Figures[]> = { mock: [], bare: [], 'mock-varied': [], 'bare-varied': [] };
  for (let r = 0; r < options.rounds; r++) {
    const order: readonly Side[] =
      r % 2 === 0 ? ['mock', 'bare', 'mock-varied', 'bare-varied'] : ['bare-varied', 'mock-varied', 'bare', 'mock'];
    for (const which of order) {
      const figures = await load(
        child,
        which.startsWith('bare') ? ports.bare : ports.mock,
        options.seconds,
        options.connections,
        which.endsWith('-varied'),
      );
      runs[which].push(figures);
      console.log(
        `  round ${r + 1} ${which.padEnd(11)} ${figures.rps.toFixed(0).padStart(7)} req/s   ${figures.cpu_us.toFixed(1).padStart(6)} ` +
          `µs CPU/req   p50 ${figures.p50_ms} ms   p99 ${figures.p99_ms} ms   errors ${figures.errors}   non-2xx ${figures.non2xx}`,
      );
    }
  }
  return runs;
}

function printSummary(m: Summary, b: Summary, v: Summary, bv: Summary) {
  const line = (name: string, f: Summary) =>
    `${name.padEnd(26)} ${String(f.rps).padStart(7)} req/s   ${f.cpu_us} µs CPU/req   p50 ${f.p50_ms} ms   p99 ${f.p99_ms} ms`;
  console.log(line('mock seller', m));
  console.log(line('bare handler', b));
  console.log(line('mock seller, unique ids', v));
  console.log(line('bare handler, unique ids', bv));
  // By CPU: what the ratio would be if the server had a core to itself (bare CPU over mock CPU per request).
  const ratios = {
    ratio: ratioOf(m.rps, b.rps),
    cpu_ratio: ratioOf(b.cpu_us, m.cpu_us),
    unique_ids_ratio: ratioOf(v.rps, b.rps),
    unique_ids_cpu_ratio: ratioOf(b.cpu_us, v.cpu_us),
    // Both under the same unique-id load generator.
    unique_ids_same_load_ratio: ratioOf(v.rps, bv.rps),
    unique_ids_same_load_cpu_ratio: ratioOf(bv.cpu_us, v.cpu_us),
  };
  console.log(
    `ratio ${ratios.ratio} by req/s, ${ratios.cpu_ratio} by server CPU per request (target ≥ 0.7)${ratios.ratio >= 0.7 ? '' : '  BELOW TARGET by req/s'}`,
  );
  console.log(
    `unique ids (no reply-cache hits) against the bare handler's repeated-body run: ratio ${ratios.unique_ids_ratio} by req/s, ${ratios.unique_ids_cpu_ratio} by server CPU per request`,
  );
  console.log(
    `unique ids against the bare handler under the same unique-id load: ratio ${ratios.unique_ids_same_load_ratio} by req/s, ${ratios.unique_ids_same_load_cpu_ratio} by server CPU per request`,
  );
  return ratios;
}

async function main(): Promise<void> {
  const seconds = arg('seconds', 8);
  const rounds = arg('rounds', 2);
  const connections = arg('connections', 50);
  const { child, ports } = await forkServers();
  try {
    console.log(
      `item inquiry, 3 items × 2 locations (reply ${ports.replyBytes} bytes), ${connections} connections, ${rounds} round(s) of ${seconds} s each`,
    );
    // Warm both up (JIT, connection setup) before measuring.
    await load(child, ports.mock, 2, connections);
    await load(child, ports.bare, 2, connections);
    const runs = await measureRounds(child, ports, { seconds, rounds, connections });
    const [m, b, v, bv] = [
      summary(runs.mock),
      summary(runs.bare),
      summary(runs['mock-varied']),
      summary(runs['bare-varied']),
    ];
    const ratios = printSummary(m, b, v, bv);
    console.log(
      JSON.stringify({
        bench: 'mock-seller',
        scenario: 'item inquiry 3 items x 2 locations',
        reply_bytes: ports.replyBytes,
        connections,
        seconds,
        rounds,
        mock: m,
        bare: b,
        mock_unique_ids: v,
        bare_unique_ids: bv,
        ...ratios,
        target: 0.7,
        meets_target: ratios.ratio >= 0.7,
      }),
    );
    if (m.errors > 0 || b.errors > 0 || v.errors > 0 || bv.errors > 0) process.exitCode = 1;
  } finally {
    child.disconnect();
    child.kill();
  }
}

if (process.argv.includes('--serve')) await serveBoth();
else await main();
