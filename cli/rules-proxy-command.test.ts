import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../shared/testing/temporary-directory';
import { startMockSeller } from '../mock-seller/index';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { runOfficialVerifier } from '../verification/testing/official-pact-verifier';
import { startInProcess } from './testing/run-in-process';
import { rulesProxyCommand } from './rules-proxy-command';
import { useMockSeller } from '../mock-seller/testing/use-mock-seller';
import { startMisbehavingSeller } from '../verification/testing/misbehaving-seller';

// The rules proxy as a vendor uses it: their own Pact verifier (here the official Rust CLI)
// in front of the proxy, the proxy in front of their seller (here the mock seller).

const mock = useMockSeller();

/** Runs the command in-process until `stop()`; `url` resolves once it listens. */
function startCommand(argv: string[]) {
  const run = startInProcess(rulesProxyCommand, argv);
  const url = run.printed(/listening on (http:\/\/\S+?),/);
  return {
    url,
    exit: run.exit,
    stop: () => run.stop('SIGTERM'),
    output: () => ({ stdout: run.stdout(), stderr: run.stderr() }),
  };
}

const scratch = () => temporaryDirectory('rules-proxy');

describe('the official pact verifier through the rules proxy', () => {
  it('passes the honest mock seller; the proxy reports every exchange kept the rules', async () => {
    const dir = scratch();
    const proxy = startCommand(['--upstream', `${mock.url}/seller`, '--report', join(dir, 'report.txt')]);
    const run = await runOfficialVerifier(PACT_FILE, await proxy.url, [
      '--state-change-url',
      `${mock.url}/__admin/provider-state`,
    ]);
    expect(run.code, run.stdout).toBe(0);
    proxy.stop();
    expect(await proxy.exit).toBe(0);
    const report = readFileSync(join(dir, 'report.txt'), 'utf8');
    expect(report).toMatch(/: 15 exchanges, 0 not passing the reply rules/);
    expect(report).toContain('an item inquiry for a part with an alternate (item_inquiry [alternate-1]) — HTTP 200');
  });

  it('fails the mock seller that gives a wrong original_part: the verifier names alternate.original-part, so does the report', async () => {
    await fetch(`${mock.url}/__admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'item_inquiry', part_number: 'BRF1478', fault: { kind: 'wrong-original-part' } }),
    });
    const dir = scratch();
    const proxy = startCommand([
      '--upstream',
      `${mock.url}/seller`,
      '--report',
      join(dir, 'report.txt'),
      '--junit',
      join(dir, 'junit.xml'),
      '--json',
      join(dir, 'report.json'),
    ]);
    const run = await runOfficialVerifier(PACT_FILE, await proxy.url, [
      '--state-change-url',
      `${mock.url}/__admin/provider-state`,
    ]);
    expect(run.code).toBe(1);
    // The vendor's own verifier shows the rule, the item and the values.
    expect(run.stdout).toContain('alternate.original-part');
    expect(run.stdout).toMatch(
      /alternate\.original-part \[id alternate-1\] at \/items\/1\/original_part: .*expected: 'BRF1478'\s+found: 'BRF1478-WRONG'/,
    );
    expect(run.stdout).toContain('expected 200 but was 502');
    // The other interactions are untouched by the fault and still pass.
    expect(run.stdout).toMatch(/There were 1 pact failures/);
    // The inspector page on the proxy's port saw the same.
    const seen = (await (await fetch(`${await proxy.url}/__inspector/exchanges?verdict=broken`)).json()) as {
      exchanges: { service: string; rules: string[] }[];
    };
    expect(seen.exchanges).toEqual([
      expect.objectContaining({ service: 'item_inquiry', rules: ['alternate.original-part'] }),
    ]);
    proxy.stop();
    expect(await proxy.exit).toBe(1);
    const report = readFileSync(join(dir, 'report.txt'), 'utf8');
    expect(report).toContain(
      "alternate.original-part [id alternate-1] at /items/1/original_part: original_part 'BRF1478-WRONG' " +
        "differs from the requested part_number 'BRF1478'   expected: 'BRF1478'   found: 'BRF1478-WRONG'",
    );
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      broken: number;
      exchanges: { verdict: string; breaches: { rule: string }[] }[];
    };
    expect(json.broken).toBe(1);
    expect(
      json.exchanges
        .filter((e) => e.verdict === 'broken')
        .every((e) => e.breaches.some((b) => b.rule === 'alternate.original-part')),
    ).toBe(true);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(
      /<testsuite name="seller-system reply rules" tests="15" failures="1"/,
    );
  });

  it('names its own failure when the seller stops answering, instead of passing a 502 off as the seller', async () => {
    const own = await startMockSeller();
    const proxy = startCommand(['--upstream', `${own.url}/seller`]);
    const url = await proxy.url;
    await own.close();
    const reply = await fetch(`${url}/seller`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'item_inquiry', locations: [], items: [] }),
    });
    expect(reply.status).toBe(502);
    expect(((await reply.json()) as { rules_proxy: string }).rules_proxy).toMatch(
      /^rules proxy: the seller at .* could not be reached/,
    );
    proxy.stop();
    expect(await proxy.exit).toBe(1);
  });

  it('lists an exchange still waiting for the seller when stopped as unfinished, and exits 1 (never green)', async () => {
    // A seller that takes the request and never answers.
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const silent = createHttpServer(() => arrived());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const dir = scratch();
    try {
      const proxy = startCommand([
        '--upstream',
        `http://127.0.0.1:${(silent.address() as { port: number }).port}/seller`,
        '--json',
        join(dir, 'report.json'),
      ]);
      const url = await proxy.url;
      const waiting = fetch(`${url}/seller`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          service: 'item_inquiry',
          locations: ['L101'],
          items: [{ id: 'x-1', mfr_code: 'WIX', part_number: '51515' }],
        }),
      }).catch((error: unknown) => error);
      await reached;
      proxy.stop();
      expect(await proxy.exit).toBe(1);
      expect(proxy.output().stdout).toMatch(/: 1 exchanges, 1 not passing the reply rules/);
      expect(proxy.output().stdout).toMatch(
        /#1 item_inquiry \[x-1\] — .* — not checked: unfinished: the proxy was stopped after \d+ ms, before the seller answered/,
      );
      const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
        exchanges: { verdict: string; problem?: string }[];
      };
      expect(json.exchanges).toEqual([
        expect.objectContaining({ verdict: 'not-checked', problem: expect.stringMatching(/^unfinished: /) }),
      ]);
      await waiting;
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("fails the interaction against a seller answering HTML 500s, with the proxy's reply.not-json in the verifier's own output", async () => {
    const html = await startMisbehavingSeller();
    const dir = scratch();
    try {
      const proxy = startCommand(['--upstream', `${html.url}/html-500`, '--json', join(dir, 'report.json')]);
      const run = await runOfficialVerifier(PACT_FILE, await proxy.url, [
        '--state-change-url',
        `${mock.url}/__admin/provider-state`,
        '--filter-description',
        'an item inquiry for a part with an alternate',
      ]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('expected 200 but was 502');
      expect(run.stdout).toMatch(
        /reply\.not-json: the seller answered HTTP 500 with content-type 'text\/html; charset=utf-8', not application\/json/,
      );
      // The seller's page quoted as the text it was, inside the proxy's inert JSON answer.
      expect(run.stdout).toContain('<html><head><title>seller error</title>');
      proxy.stop();
      expect(await proxy.exit).toBe(1);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
        exchanges: { verdict: string; finding?: { rule: string } }[];
      };
      expect(report.exchanges).toEqual([
        expect.objectContaining({
          verdict: 'not-checked',
          finding: expect.objectContaining({ rule: 'reply.not-json' }),
        }),
      ]);
    } finally {
      await html.close();
    }
  });

  it('answers 502 reply.too-large past --max-reply-bytes, naming the limit, and reports it', async () => {
    const proxy = startCommand(['--upstream', `${mock.url}/seller`, '--max-reply-bytes', '100']);
    const reply = await fetch(`${await proxy.url}/seller`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        service: 'item_inquiry',
        locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
        items: [{ id: 'a', mfr_code: 'WIX', part_number: '51515' }],
      }),
    });
    expect(reply.status).toBe(502);
    expect(((await reply.json()) as { rules_proxy: string }).rules_proxy).toMatch(
      /reply\.too-large: .* passed the limit of 100 bytes \(--max-reply-bytes\)/,
    );
    proxy.stop();
    expect(await proxy.exit).toBe(1);
    expect(proxy.output().stdout).toMatch(/#1 item_inquiry \[a\] — HTTP 200, \d+ ms — not checked: reply\.too-large/);
  });
});

/** The script as a vendor starts it: a real process. */
function spawnProxy(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/rules-proxy.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, exit, output: () => ({ stdout, stderr }) };
}

describe('npm run rules-proxy, as a process', () => {
  it('prints where it listens, and on SIGTERM the report; exit 0 when nothing broke', async () => {
    const proxy = spawnProxy(['--upstream', `${mock.url}/seller`]);
    await expect
      .poll(() => proxy.output().stdout, { timeout: 20_000 })
      .toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    const url = /listening on (\S+),/.exec(proxy.output().stdout)![1];
    const reply = await fetch(`${url}/seller`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        service: 'item_inquiry',
        locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
        items: [{ id: 'a', mfr_code: 'WIX', part_number: '51515' }],
      }),
    });
    expect(reply.status).toBe(200);
    proxy.child.kill('SIGTERM');
    expect(await proxy.exit).toBe(0);
    expect(proxy.output().stdout).toContain('1 exchanges, 0 not passing the reply rules');
    expect(proxy.output().stderr).toMatch(/#1 item_inquiry \[a\] — HTTP 200, \d+ ms — reply rules ok/);
  });
});

// Refusals and usage run in-process through `(argv, io)`: the exit code and words are the
// command's own, and a spawned process per case would cost a tsx compile each.
describe('rules-proxy usage and refusals', () => {
  const usage: [string, string[], RegExp][] = [
    ['no upstream', [], /rules-proxy: --upstream is required/],
    ['an unknown flag', ['--upstream', 'http://127.0.0.1:1/seller', '--colour'], /unknown option '--colour'/],
    [
      'a bad port',
      ['--upstream', 'http://127.0.0.1:1/seller', '--port', '70000'],
      /--port must be a whole number from 0 to 65535, got '70000'/,
    ],
    [
      'a reply limit of zero',
      ['--upstream', 'http://127.0.0.1:1/seller', '--max-reply-bytes', '0'],
      /--max-reply-bytes must be a whole number from 1 to 268435456, got '0'/,
    ],
    [
      'an unreachable upstream',
      ['--upstream', 'http://127.0.0.1:1/seller'],
      /the upstream http:\/\/127\.0\.0\.1:1\/seller cannot be reached: 127\.0\.0\.1:1 cannot be reached \(ECONNREFUSED\)/,
    ],
  ];
  for (const [what, args, message] of usage) {
    it(`exits 2 with a clear message for ${what}`, async () => {
      const proxy = startCommand(args);
      expect(await proxy.exit).toBe(2);
      expect(proxy.output().stderr).toMatch(message);
      expect(proxy.output().stderr).not.toMatch(/\n\s+at /); // no stack trace
    });
  }

  it('exits 2 when the pact is not a V4 pact, and when the port is in use', async () => {
    const file = join(scratch(), 'v2.json');
    writeFileSync(
      file,
      JSON.stringify({
        consumer: { name: 'a' },
        provider: { name: 'b' },
        interactions: [],
        metadata: { pactSpecification: { version: '2.0.0' } },
      }),
    );
    const v2 = startCommand(['--upstream', `${mock.url}/seller`, '--pact', file]);
    expect(await v2.exit).toBe(2);
    expect(v2.output().stderr).toContain(
      `pact ${file} is not a Pact specification V4 file (metadata.pactSpecification.version is "2.0.0")`,
    );

    const taken = await new Promise<Server>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => resolve(server));
    });
    const port = (taken.address() as { port: number }).port;
    try {
      const busy = startCommand(['--upstream', `${mock.url}/seller`, '--port', String(port)]);
      expect(await busy.exit).toBe(2);
      expect(busy.output().stderr).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use`);
    } finally {
      taken.close();
    }
  });

  it('prints its usage on --help, exit 0', async () => {
    const help = startCommand(['--help']);
    expect(await help.exit).toBe(0);
    expect(help.output().stdout).toContain('Usage: rules-proxy --upstream <seller url>');
    expect(help.output().stdout).toMatch(
      /--max-reply-bytes <n> +the largest reply read from the seller \(default 8388608, 8 MiB\)/,
    );
  });
});
