import { parseArgs } from 'node:util';
import { mintDevToken } from '../gateway/auth/dev-keys';
import { DEV_INTERNAL_API_TOKEN } from '../gateway/internal-api/internal-api-config';
import { httpTarget } from '../gateway/api-reference/fuzz/fuzz-request';
import { runFuzz, type Finding } from '../gateway/api-reference/fuzz/run-fuzz';
import type { Json } from '../contracts/openapi-builder';

// npm run fuzz -- [--runs 200] [--seed 1] [--operation <operationId>] [--gateway-url …]
//                 [--internal-url …] [--json]
// The generator of gateway/api-reference/openapi-fuzz.test.ts, longer, against a running
// stack (npm start): every operation of the served OpenAPI documents, its example and seeded
// mutations. Progress on stderr, results on stdout. Exit 0 clean, 1 findings, 2 bad usage or
// a stack that cannot be reached.

const USAGE = `npm run fuzz -- [options]
  --runs <n>              mutations per operation (default 200)
  --seed <n>              fast-check seed (default: random, printed)
  --operation <id>        only this operationId (e.g. postJsonFederatedV32PlaceOrder)
  --gateway-url <url>     default http://127.0.0.1:8080; "none" skips the gateway
  --internal-url <url>    default http://127.0.0.1:8081; "none" skips the internal API
  --user <demo|other>     seeded buyer whose development key signs the token (default demo)
  --internal-token <t>    default INTERNAL_API_TOKEN or the development token
  --max-body <bytes>      the gateway's GATEWAY_MAX_BODY_BYTES (default 1048576)
  --time-limit <s>        stop drawing new requests after this long
  --seller-faults         the mock seller was told to fail: documented 502/503/504 are answers
  --json                  the whole report as JSON on stdout
exit 0 clean, 1 findings, 2 bad usage or a stack that cannot be reached`;

function usage(message: string): never {
  console.error(`fuzz: ${message}\n\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      runs: { type: 'string', default: '200' },
      seed: { type: 'string' },
      operation: { type: 'string' },
      'gateway-url': { type: 'string', default: 'http://127.0.0.1:8080' },
      'internal-url': { type: 'string', default: 'http://127.0.0.1:8081' },
      user: { type: 'string', default: 'demo' },
      'internal-token': { type: 'string', default: process.env.INTERNAL_API_TOKEN || DEV_INTERNAL_API_TOKEN },
      'max-body': { type: 'string', default: '1048576' },
      'time-limit': { type: 'string' },
      'seller-faults': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  usage((error as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const whole = (name: string, text: string | undefined, min: number): number | undefined => {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min) usage(`--${name} must be a whole number ≥ ${min}, got '${text}'`);
  return Number(text);
};
const runs = whole('runs', values.runs, 1)!;
const seed = whole('seed', values.seed, 0) ?? Math.floor(Math.random() * 2 ** 31);
const maxBody = whole('max-body', values['max-body'], 1)!;
const timeLimit = whole('time-limit', values['time-limit'], 1);
const kid = ({ demo: 'dev-key-1', other: 'dev-key-2' } as const)[values.user as 'demo' | 'other'];
if (kid === undefined) usage(`--user must be demo or other, got '${values.user}'`);
const urls = { gateway: values['gateway-url'], internal: values['internal-url'] };
for (const [name, url] of Object.entries(urls)) {
  if (url !== 'none' && !/^https?:\/\/[^/]+/.test(url))
    usage(`--${name}-url must be an http(s) URL or none, got '${url}'`);
}
if (urls.gateway === 'none' && urls.internal === 'none') usage('nothing to fuzz: both URLs are none');

async function documentAt(url: string): Promise<Json> {
  try {
    const response = await fetch(`${url.replace(/\/+$/, '')}/openapi.json`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return (await response.json()) as Json;
  } catch (error) {
    console.error(
      `fuzz: cannot read the OpenAPI document at ${url}/openapi.json (${(error as Error).message}); is the stack running (npm start)?`,
    );
    process.exit(2);
  }
}

const documents: { gateway?: Json; internal?: Json } = {};
if (urls.gateway !== 'none') documents.gateway = await documentAt(urls.gateway);
if (urls.internal !== 'none') documents.internal = await documentAt(urls.internal);
console.error(`fuzz: seed ${seed}, ${runs} mutations per operation`);

const report = await runFuzz({
  documents,
  target: httpTarget(urls),
  credentials: { buyerJwt: () => mintDevToken(kid), internalApi: values['internal-token'] },
  baseUrls: urls,
  maxBodyBytes: { gateway: maxBody, internal: 65_536 },
  runs,
  seed,
  operation: values.operation,
  timeLimitMs: timeLimit === undefined ? undefined : timeLimit * 1000,
  sellerFaults: values['seller-faults'],
  progress: (line) => console.error(line),
});

if (values.operation !== undefined && report.operations.length === 0)
  usage(`no operation '${values.operation}' in the documents`);

const shown = (f: Finding) =>
  [
    `✗ ${f.operationId}: ${f.check}${f.status === undefined ? '' : ` (HTTP ${f.status})`}: ${f.message}`,
    `  changed: ${f.change}`,
    `  ${f.curl}`,
  ].join('\n');

if (values.json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  for (const f of report.findings) console.log(shown(f));
  console.log(
    `${report.findings.length} finding(s); ${report.requests} requests to ${report.operations.length} operations in ${(report.durationMs / 1000).toFixed(1)} s; seed ${seed}`,
  );
}
process.exitCode = report.findings.length > 0 ? 1 : 0;
