import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main';
import { runInProcess } from './testing/run-in-process';
import { packagePath } from '../shared/package-root';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';

// `check-openapi` through `main`, in-process: exit codes, both output forms, bad input on stderr only.

const SELLER_API = packagePath('contracts', 'openapi', 'seller.openapi.json');
const scratch = useTemporaryDirectory('check-openapi-command');
const run = (...argv: string[]) => runInProcess(main, ['check-openapi', ...argv]);

function file(name: string, text: string): string {
  const path = join(scratch.path, name);
  writeFileSync(path, text);
  return path;
}

describe('federated-gateway check-openapi', () => {
  it("passes the contract's own seller API document: exit 0, the note, the summary", async () => {
    const { code, stdout, stderr } = await run('--openapi', SELLER_API);
    expect(code).toBe(0);
    expect(stdout).toContain('proven only by `verify`');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe(
      'PASSED: your document accepts every request of the pact, allows its example replies, and requires every reply field the contract requires, no wider in type or enum (15 interactions; bounds, formats and extra fields not compared)',
    );
    expect(stderr).toContain('POST /');
  });

  it('exits 1 on a reply field dropped from required, naming it; --json says the same', async () => {
    const doc = JSON.parse(readFileSync(SELLER_API, 'utf8'));
    const reply = doc.components.schemas.StatementSellerReply;
    reply.required = reply.required.filter((name: string) => name !== 'status');
    const dropped = file('dropped.json', JSON.stringify(doc));
    const text = await run('--openapi', dropped);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/: reply-schema \$\.status: vendor: optional, contract: required$/m);
    expect(text.stdout).toMatch(/^FAILED: 1 finding in 1 of 15 interactions$/m);
    const json = await run('--openapi', dropped, '--json');
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.summary).toEqual({ passed: false, findings: 1, interactionsWithFindings: 1, interactions: 15 });
    expect(parsed.findings[0]).toMatchObject({ path: '$.status', vendor: 'optional', contract: 'required' });
  });

  it('exits 2 naming the file, writing nothing on stdout, for Swagger 2.0, non-JSON and a dangling $ref', async () => {
    const cases: [string, string][] = [
      [
        file('swagger.json', '{"swagger":"2.0","paths":{}}'),
        'Swagger 2.0 is not supported: convert it to OpenAPI 3 first',
      ],
      [file('seller.yaml', 'openapi: 3.1.0\n'), 'is not JSON'],
      [
        file('dangling.json', JSON.stringify({ openapi: '3.1.0', paths: { '/': { post: { $ref: '#/nowhere' } } } })),
        "$ref '#/nowhere'",
      ],
      [join(scratch.path, 'absent.json'), 'cannot read'],
    ];
    for (const [path, reason] of cases) {
      const { code, stdout, stderr } = await run('--openapi', path);
      expect(code, path).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(path);
      expect(stderr).toContain(reason);
    }
  });

  it('exits 2 on bad usage: no --openapi, a --path without /', async () => {
    expect((await run()).code).toBe(2);
    const { code, stderr } = await run('--openapi', SELLER_API, '--path', 'seller');
    expect(code).toBe(2);
    expect(stderr).toContain('--path must start with /');
  });
});
