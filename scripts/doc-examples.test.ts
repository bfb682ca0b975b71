import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../shared/http/listen';
import { PACKAGE_ROOT, packagePath } from '../shared/package-root';
import { docBlock } from '../shared/testing/doc-blocks';
import { startTestGateway, type TestGateway } from '../gateway/testing/test-gateway';

// The shell examples of README.md and docs/gateway.md, run as the pages show them: the token
// minted by the page's `npm run token` line, then curl against an in-process gateway listening on a free port
// (its address and the mock seller's put in place of 127.0.0.1:8080 and :9090), each reply
// checked for what the page says it shows. The configuration docs/gateway/scaling.md prints is
// the file HAProxy runs.

const run = promisify(execFile);

let gw: TestGateway;
let server: Listening;

beforeAll(async () => {
  // As npm start does: the mock seller's fault header passes through to the seller.
  gw = await startTestGateway({ config: { forwardHeaders: ['x-mock-fault'] } });
  server = await listen(gw.app.fetch);
});

afterAll(async () => {
  await server?.close();
  await gw?.close();
});

/** A block's text with the demo's fixed addresses replaced by the test's. */
const localised = (text: string) =>
  text.replaceAll('http://127.0.0.1:8080', server.url).replaceAll('http://127.0.0.1:9090', gw.seller.url);

/** Runs shell text in the repository root, as a reader would paste it; returns stdout. */
async function shell(text: string, env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', text], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return stdout;
}

/** The JSON documents curl printed one after another (curl -s adds no newline between them). */
function jsonDocuments(text: string): unknown[] {
  const docs: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' && --depth === 0) docs.push(JSON.parse(text.slice(start, i + 1)));
  }
  return docs;
}

let pageToken: Promise<string> | undefined;
/** What docs/gateway.md's token block sets `$TOKEN` to (minted once for the file's calls). */
const gatewayPageToken = () =>
  (pageToken ??= shell(`${docBlock('docs/gateway.md', 'token').text}printf '%s' "$TOKEN"`));

/** A docs/gateway.md block, run with `$TOKEN` set as the page's token block sets it. */
async function runWithToken(id: string): Promise<unknown[]> {
  return jsonDocuments(
    await shell(localised(docBlock('docs/gateway.md', id).text), { TOKEN: await gatewayPageToken() }),
  );
}

describe("README.md's first call", () => {
  it('mints a token with npm run token and gets an item inquiry answered 2000', async () => {
    const [reply] = jsonDocuments(await shell(localised(docBlock('README.md', 'first-call').text)));
    expect(reply).toMatchObject({
      status_code: 2000,
      items: expect.arrayContaining([expect.objectContaining({ id: '1' })]),
    });
  });
});

describe("docs/gateway.md's calls", () => {
  it('token: prints nothing but sets TOKEN to a JWT', async () => {
    expect(await gatewayPageToken()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('inquiry: both inquiries answered 2000', async () => {
    const replies = await runWithToken('inquiry');
    expect(replies).toHaveLength(2);
    for (const reply of replies) expect(reply).toMatchObject({ status_code: 2000 });
  });

  it('place-order: the order placed, and the same again replays it', async () => {
    const [first] = await runWithToken('place-order');
    expect(first).toMatchObject({ status_code: 2000 });
    const [again] = await runWithToken('place-order');
    expect(again).toEqual(first);
  });

  it('invoice and statement: answered with their documents', async () => {
    const [invoice] = await runWithToken('invoice');
    expect(invoice).toMatchObject({ status: 'success', invoices: expect.any(Array) });
    const [statement] = await runWithToken('statement');
    expect(statement).toMatchObject({ status: 'success', statements: expect.any(Array) });
  });

  it('fault-header: the seller drops an id and the gateway refuses its reply, naming the rule', async () => {
    const [reply] = await runWithToken('fault-header');
    expect(reply).toMatchObject({
      status_code: 5500,
      errors: expect.arrayContaining([expect.objectContaining({ rule: 'item.id-echo' })]),
    });
  });

  it("fault-admin: the mock seller's control API takes the fault", async () => {
    const out = await shell(localised(docBlock('docs/gateway.md', 'fault-admin').text));
    expect(jsonDocuments(out)).toHaveLength(1);
    // The fault (6 s of latency, once) is the mock seller's; it is dropped with the seller after this file.
  });
});

describe("docs/gateway/scaling.md's HAProxy configuration", () => {
  it('is gateway/cluster/haproxy.cfg as shipped', () => {
    expect(docBlock('docs/gateway/scaling.md', 'haproxy-cfg').text).toBe(
      readFileSync(packagePath('gateway', 'cluster', 'haproxy.cfg'), 'utf8'),
    );
  });
});
