import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compatCommand } from './compat-command';
import { runInProcess } from './testing/run-in-process';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { PACT_FILE, PACT_FILE_NAME } from '../contracts/pact/pact-names';
import { readPact } from '../contracts/pact/pact-file';
import { CONTRACT_VERSION } from '../contracts/contract-version';
import { openApiDocument } from '../gateway/api-reference/openapi-document';

// `compat` in-process: exit codes, every output form, and bad input refused before anything is written.

const scratch = useTemporaryDirectory('compat-command');
const today = readPact(PACT_FILE);

function pactFile(name: string, change: (pact: ReturnType<typeof readPact>) => void = () => {}): string {
  const pact = structuredClone(today);
  change(pact);
  const file = join(scratch.path, name);
  writeFileSync(file, JSON.stringify(pact));
  return file;
}
const withNewReplyField = (pact: ReturnType<typeof readPact>) => {
  ((pact.interactions[0].response.body!.content as Record<string, unknown>).currency as unknown) = 'USD';
};

describe('federated-gateway compat', () => {
  it('reports nothing for two identical contracts and exits 0, in under a second', async () => {
    const started = performance.now();
    const run = await runInProcess(compatCommand, ['--base', PACT_FILE, '--head', pactFile('same.json')]);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No change to the contract.');
    expect(run.stderr).toContain(`contract ${CONTRACT_VERSION}`);
  });

  it('exits 1 on a breaking change, with the findings and a summary as JSON', async () => {
    const run = await runInProcess(compatCommand, [
      '--base',
      PACT_FILE,
      '--head',
      pactFile('breaking.json', withNewReplyField),
      '--json',
    ]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      summary: Record<string, unknown>;
      findings: { policy: string; pointer: string; head: unknown }[];
    };
    expect(report.summary).toMatchObject({ breaking: 1, 'new-work': 0, safe: 0, verdict: 'breaking' });
    expect(report.findings).toEqual([
      expect.objectContaining({
        policy: 'reply-field-newly-required',
        pointer: '/response/body/content/currency',
        head: 'USD',
      }),
    ]);
  });

  it('exits 0 when every change is safe, and prints Markdown for a pull request', async () => {
    const head = pactFile('safe.json', (pact) => pact.interactions.splice(0, 1));
    const run = await runInProcess(compatCommand, ['--base', PACT_FILE, '--head', head, '--markdown']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('#### Safe (1)');
    expect(run.stdout).toContain('`interaction-removed`');
  });

  it('writes the HTML page in the kit style beside the text, uncoloured without a TTY', async () => {
    const html = join(scratch.path, 'compat.html');
    const run = await runInProcess(compatCommand, [
      '--base',
      PACT_FILE,
      '--head',
      pactFile('b2.json', withNewReplyField),
      '--html',
      html,
    ]);
    expect(run.code).toBe(1);
    expect(readFileSync(html, 'utf8')).toMatch(/data-report="compat"[\s\S]*reply-field-newly-required/);
    expect(run.stdout).not.toContain('\u001b[');
  });

  it('colours on a TTY, never with NO_COLOR', async () => {
    const args = ['--base', PACT_FILE, '--head', pactFile('b3.json', withNewReplyField)];
    expect((await runInProcess(compatCommand, args, { stdoutIsTTY: true })).stdout).toContain('\u001b[31m');
    expect(
      (await runInProcess(compatCommand, args, { stdoutIsTTY: true, env: { NO_COLOR: '1' } })).stdout,
    ).not.toContain('\u001b[');
  });

  it('prints the changelog entry for the head version', async () => {
    const run = await runInProcess(compatCommand, [
      '--base',
      PACT_FILE,
      '--head',
      pactFile('b4.json', withNewReplyField),
      '--changelog',
    ]);
    expect(run.stdout).toMatch(
      new RegExp(`^## ${CONTRACT_VERSION}\\n[\\s\\S]*### Breaking\\n\\n- \`reply-field-newly-required\``),
    );
  });

  it('takes a directory of the contract files and a git ref as a release', async () => {
    const dir = join(scratch.path, 'release');
    mkdirSync(join(dir, 'pacts'), { recursive: true });
    writeFileSync(join(dir, 'pacts', PACT_FILE_NAME), readFileSync(PACT_FILE));
    expect((await runInProcess(compatCommand, ['--base', dir, '--head', PACT_FILE])).code).toBe(0);
    const repo = join(scratch.path, 'repo');
    mkdirSync(join(repo, 'contracts', 'pacts'), { recursive: true });
    writeFileSync(join(repo, 'contracts', 'pacts', PACT_FILE_NAME), readFileSync(PACT_FILE));
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'ignore' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'release');
    git('tag', `contract-v${CONTRACT_VERSION}`);
    const byRef = await runInProcess(compatCommand, [
      '--base',
      `contract-v${CONTRACT_VERSION}`,
      '--repo',
      repo,
      '--head',
      PACT_FILE,
    ]);
    expect(byRef.code).toBe(0);
    expect(byRef.stderr).toContain(`contract-v${CONTRACT_VERSION}:contracts/pacts/${PACT_FILE_NAME}`);
    // No --base: the last contract tag.
    expect((await runInProcess(compatCommand, ['--repo', repo, '--head', PACT_FILE])).stderr).toContain(
      `contract-v${CONTRACT_VERSION}:`,
    );
  });

  describe('bad input: exit 2, a message naming the file or ref, nothing written', () => {
    const html = () => join(scratch.path, 'never.html');
    const cases: [string, () => string[], RegExp][] = [
      [
        'an unreadable pact',
        () => [
          '--base',
          PACT_FILE,
          '--head',
          (writeFileSync(join(scratch.path, 'broken.json'), '{nope'), join(scratch.path, 'broken.json')),
        ],
        /broken\.json is not JSON/,
      ],
      [
        'a git ref that does not exist',
        () => ['--base', 'contract-v0.0.0-nowhere', '--head', PACT_FILE],
        /contract-v0\.0\.0-nowhere is neither a file, a directory nor a git ref/,
      ],
      [
        'a directory without a pact',
        () => (
          mkdirSync(join(scratch.path, 'empty'), { recursive: true }),
          ['--base', join(scratch.path, 'empty'), '--head', PACT_FILE]
        ),
        /directory .*empty holds no pact/,
      ],
      [
        'pacts of different consumers',
        () => [
          '--base',
          PACT_FILE,
          '--head',
          pactFile('other.json', (p) => (p.consumer = { name: 'another-gateway' })),
        ],
        /between federated-gateway\/seller-system and .*other\.json between another-gateway\/seller-system/,
      ],
      [
        'a pact against an OpenAPI document',
        () => [
          '--base',
          PACT_FILE,
          '--head',
          (writeFileSync(join(scratch.path, 'api.json'), '{"openapi":"3.1.0","info":{"version":"1"}}'),
          join(scratch.path, 'api.json')),
        ],
        /is a pact and .*api\.json is an OpenAPI document/,
      ],
      [
        'two output forms',
        () => ['--base', PACT_FILE, '--json', '--markdown'],
        /choose one of --json, --markdown, --changelog/,
      ],
    ];
    it.each(cases)('%s', async (_what, args, message) => {
      const run = await runInProcess(compatCommand, [...args(), '--html', html()]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
      expect(existsSync(html())).toBe(false);
    });
  });

  it('two OpenAPI documents: classified for a buyer program (a path removed is breaking; the same document, nothing)', async () => {
    const buyer = JSON.parse(JSON.stringify(openApiDocument())) as { paths: Record<string, unknown> };
    const base = join(scratch.path, 'buyer-base.json');
    writeFileSync(base, JSON.stringify(buyer));
    const same = await runInProcess(compatCommand, ['--base', base, '--head', base]);
    expect(same.code, same.stderr).toBe(0);
    const removed = Object.keys(buyer.paths).find((p) => p.includes('/v3_1/'))!;
    delete buyer.paths[removed];
    const head = join(scratch.path, 'buyer-head.json');
    writeFileSync(head, JSON.stringify(buyer));
    const run = await runInProcess(compatCommand, ['--base', base, '--head', head, '--json']);
    expect(run.code).toBe(1);
    const findings = (
      JSON.parse(run.stdout) as { findings: { side: string; class: string; policy: string; where: string }[] }
    ).findings;
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.side === 'buyer' && f.class === 'breaking')).toBe(true);
    expect(findings.map((f) => f.where).join(' ')).toContain(removed);
  });

  it('--paths: a buyer program moving from v3.1 to v3.2 meets nothing breaking, operation by operation; the way back loses invoice and statement', async () => {
    const forward = await runInProcess(compatCommand, [
      '--paths',
      '/json/federated/v3_1/=/json/federated/v3_2/',
      '--json',
    ]);
    expect(forward.code, forward.stderr).toBe(0);
    const findings = (JSON.parse(forward.stdout) as { findings: { class: string; policy: string; where: string }[] })
      .findings;
    expect(findings.every((f) => f.class === 'safe')).toBe(true);
    expect(findings.filter((f) => f.policy === 'operation-added').map((f) => f.where)).toEqual([
      'POST /json/federated/v3_2/invoice',
      'POST /json/federated/v3_2/statement',
    ]);
    expect(findings.some((f) => f.where === 'POST /json/federated/v3_2/item_inquiry')).toBe(true);
    const back = await runInProcess(compatCommand, [
      '--paths',
      '/json/federated/v3_2/=/json/federated/v3_1/',
      '--json',
    ]);
    expect(back.code).toBe(1);
    const removed = (JSON.parse(back.stdout) as { findings: { class: string; policy: string }[] }).findings.filter(
      (f) => f.class === 'breaking',
    );
    expect(removed.map((f) => f.policy)).toEqual(['operation-removed', 'operation-removed']);
    for (const [args, message] of [
      [['--paths', 'v3_1=v3_2'], /--paths must be two different path prefixes/],
      [['--paths', '/a/=/b/', '--head', PACT_FILE], /give it as --base, not --head/],
      [['--paths', '/a/=/b/', '--base', PACT_FILE], /--paths compares within an OpenAPI document; .* is a pact/],
    ] as const) {
      const bad = await runInProcess(compatCommand, [...args]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(message);
    }
  });

  it('--help describes the classes and exits 0', async () => {
    const run = await runInProcess(compatCommand, ['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/breaking[\s\S]*new work[\s\S]*optional[\s\S]*safe/);
  });
});
