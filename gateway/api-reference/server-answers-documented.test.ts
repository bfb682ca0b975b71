import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../../mock-seller/index';
import { startGatewayServer, type RunningGateway } from '../server';
import { startInternalApi, type RunningInternalApi } from '../internal-api/server';
import { DEV_INTERNAL_API_TOKEN } from '../internal-api/internal-api-config';
import { createTestStore } from '../testing/test-store';
import type { Store } from '../store/store';
import { mintDevToken } from '../auth/dev-keys';
import { rawExchange } from '../../shared/testing/raw-exchange';
import { serverAnswerProbes, type ProbeTarget } from '../../shared/testing/server-answer-probes';
import { SERVER_ANSWER_STATUSES } from '../../shared/http/server-answers';
import { operationsOf } from './document-schemas';
import type { Json } from '../../contracts/openapi-builder';

// The three servers as they are started (gateway, internal API, mock seller), each asked over
// a raw loopback socket for every answer Node's HTTP server gives before the API sees the
// request: the statuses are the ones shared/http/server-answers.ts lists, and the gateway's
// and the internal API's served documents list each on the operation the probe was aimed at.
// Short timeouts (HTTP_*_TIMEOUT_MS): the gateway and the internal API through the environment
// they are started with, the mock seller (which reads process.env) through process.env while it starts.

const TIMEOUTS = { HTTP_HEADERS_TIMEOUT_MS: '200', HTTP_REQUEST_TIMEOUT_MS: '400' };
const saved = Object.fromEntries(Object.keys(TIMEOUTS).map((k) => [k, process.env[k]]));

let store: Store;
let seller: RunningMockSeller;
let gateway: RunningGateway;
let internal: RunningInternalApi;
beforeAll(async () => {
  Object.assign(process.env, TIMEOUTS);
  try {
    seller = await startMockSeller();
  } finally {
    restoreProcessEnv();
  }
  store = await createTestStore({ sellerUrl: `${seller.url}/seller` });
  gateway = await startGatewayServer(
    { GATEWAY_DATA_DIR: 'memory', GATEWAY_HOST: '127.0.0.1', GATEWAY_LOG: 'off', ...TIMEOUTS },
    { port: 0, store },
  );
  internal = await startInternalApi({
    store,
    port: 0,
    hostname: '127.0.0.1',
    env: { ...TIMEOUTS },
    log: () => {},
    outboxPollMs: 60_000,
  });
});
function restoreProcessEnv() {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
}
afterAll(async () => {
  await gateway?.close();
  await internal?.close();
  await seller?.close();
  await store?.close();
});

async function served(url: string): Promise<Json> {
  const response = await fetch(`${url}/openapi.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

async function probe(port: number, target: Omit<ProbeTarget, 'host'>) {
  const answers: { name: string; status: number | undefined; expected: number; path: string; method: string }[] = [];
  for (const p of serverAnswerProbes({ host: `127.0.0.1:${port}`, ...target })) {
    const answer = await rawExchange(port, p.parts, { deadlineMs: 3_000 });
    const post = p.parts[0].startsWith('POST');
    answers.push({
      name: p.name,
      status: answer.status,
      expected: p.status,
      method: post ? 'post' : 'get',
      path: post ? target.postPath : target.getPath,
    });
  }
  for (const a of answers) expect(a.status, a.name).toBe(a.expected);
  expect([...new Set(answers.map((a) => a.status))].sort()).toEqual([...SERVER_ANSWER_STATUSES].sort());
  return answers;
}

function expectDocumented(document: Json, answers: Awaited<ReturnType<typeof probe>>) {
  const operations = operationsOf(document);
  for (const a of answers) {
    const op = operations.find((o) => o.path === a.path && o.method === a.method);
    expect(op, `${a.method} ${a.path}`).toBeDefined();
    expect(op!.responses[String(a.status)], `${op!.operationId} ${a.status} (${a.name})`).toBeDefined();
  }
}

describe("Node's own answers, from each server as started", () => {
  it('the gateway answers them, and its document lists each on the operation asked', async () => {
    const answers = await probe(gateway.port, {
      getPath: '/health',
      postPath: '/json/federated/v3_2/item_inquiry',
      postHeaders: { Authorization: `Bearer ${await mintDevToken()}` },
    });
    expectDocumented(await served(gateway.url), answers);
  });

  it('the internal API answers them, and its document lists each on the operation asked', async () => {
    const answers = await probe(internal.port, {
      getPath: '/metrics',
      postPath: '/internal/users/create',
      postHeaders: { Authorization: `Bearer ${DEV_INTERNAL_API_TOKEN}` },
    });
    expectDocumented(await served(internal.url), answers);
  });

  it('the mock seller answers them (mock-seller/README.md lists them), and takes a body cut off for no error of its own', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await probe(seller.port, { getPath: '/health', postPath: '/seller' });
      // Its reader fails just after Node's 408, when the socket closes: a moment to log it, if it would.
      await new Promise((resolve) => setImmediate(resolve));
      expect(errors.mock.calls.map((call) => String(call[0]))).not.toContainEqual(
        expect.stringContaining('unexpected error'),
      );
    } finally {
      errors.mockRestore();
    }
  });
});
