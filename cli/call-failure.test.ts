import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main';
import { runInProcess } from './testing/run-in-process';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { temporaryDirectory } from '../shared/testing/temporary-directory';
import { startMisbehavingSeller, type MisbehavingSeller } from '../verification/testing/misbehaving-seller';
import { exchange } from '../verification/explore/exchange';
import { createLoadClient } from '../verification/load/load-exchange';
import { shownStart } from '../verification/reply-findings';
import type { ExploreCase } from '../verification/explore/generators';

// How a call to the seller that brought no usable answer is named, as a vendor reads it: a
// seller that took the request and closed without answering was reached (look at its log),
// and a page it answered instead of JSON is quoted as the text it was.

let closing: Server;
let closingUrl: string;
let html: MisbehavingSeller;
beforeAll(async () => {
  // Reads the whole request, then drops the connection: what a seller crashing on the body does.
  closing = createServer((request) => {
    request.resume();
    request.once('end', () => request.socket.destroy());
  });
  await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
  closingUrl = `http://127.0.0.1:${(closing.address() as AddressInfo).port}/seller`;
  html = await startMisbehavingSeller();
});
afterAll(async () => {
  await new Promise((resolve) => closing.close(resolve));
  await html.close();
});

const ALTERNATE = 'an item inquiry for a part with an alternate';
const onePact = () => {
  const pact = JSON.parse(readFileSync(PACT_FILE, 'utf8')) as { interactions: { description: string }[] };
  pact.interactions = pact.interactions.filter((i) => i.description === ALTERNATE);
  const file = join(temporaryDirectory('one-pact'), 'one.json');
  writeFileSync(file, JSON.stringify(pact));
  return file;
};

const CLOSED =
  'your system closed the connection without answering — look at its log (other side closed, UND_ERR_SOCKET)';

const inquiry: ExploreCase = {
  operation: 'item_inquiry',
  request: {
    service: 'item_inquiry',
    locations: [{ id: 'L1', member: 'M1', account: 'A1' }],
    items: [{ id: '1', mfr_code: 'GAT', part_number: '22433' }],
  },
} as unknown as ExploreCase;

describe('a seller that closes the connection after taking the request', () => {
  it('verify: a finding on the interaction that says it was reached and closed, exit 1', async () => {
    const run = await runInProcess(main, ['verify', '--seller-url', closingUrl, '--pact', onePact()]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`problem: ${CLOSED}`);
    expect(run.stdout).not.toContain('could not be reached');
  });

  it('explore and load name it the same way', async () => {
    const target = { sellerUrl: closingUrl, timeoutMs: 5_000 };
    const explored = await exchange(target, inquiry);
    expect(explored.findings.map((f) => f.message)).toEqual([CLOSED]);
    const client = createLoadClient(target, 1);
    try {
      const loaded = await client.exchange(inquiry);
      expect(loaded.findings.map((f) => f.message)).toEqual([CLOSED]);
    } finally {
      await client.close();
    }
  });

  it('a seller not listening is still one that could not be reached', async () => {
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const { port } = gone.address() as AddressInfo;
    await new Promise((resolve) => gone.close(resolve));
    const explored = await exchange({ sellerUrl: `http://127.0.0.1:${port}/seller`, timeoutMs: 5_000 }, inquiry);
    expect(explored.findings[0].message).toMatch(/^the request failed: fetch failed \(connect ECONNREFUSED/);
  });
});

describe('a seller answering an HTML page', () => {
  it.each([
    ['/html-200', 200, "content-type 'text/html'"],
    ['/html-500', 500, "content-type 'text/html; charset=utf-8'"],
  ])('verify %s: quoted as the text it was, never JSON-escaped', async (path, status, type) => {
    const run = await runInProcess(main, ['verify', '--seller-url', `${html.url}${path}`, '--pact', onePact()]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `problem: reply.not-json: the seller answered HTTP ${status} with ${type}, not application/json; first bytes: "<html><head><title>seller error</title></head><body><script>`,
    );
    expect(run.stdout).not.toContain('\\u003c');
  });
});

describe('the start of a reply as shown', () => {
  it('keeps markup and text as written, on one line; escapes only what a terminal could act on', () => {
    expect(shownStart('<html>\n  <p class="x">café & 中</p>')).toBe('<html> <p class="x">café & 中</p>');
    expect(shownStart('a\u001b[31mred\u202eb')).toBe('a\\u001b[31mred\\u202eb');
    expect(shownStart('x'.repeat(250))).toBe(`${'x'.repeat(200)}…`);
  });
});
