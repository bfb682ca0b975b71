import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { stringify as stringifyYaml } from 'yaml';
import { hasXmllint, validateJunit } from '../verification/testing/junit-schema';
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
      'PASSED: your document accepts every request of the pact, allows its example replies, and requires every reply field the contract requires, none wider in type, enum, null, bounds, format or other properties (15 interactions; patterns compared on sample strings; properties your document does not declare taken as not sent)',
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
      [file('seller.yaml', 'openapi: 3.1.0\npaths: [\n'), 'is not YAML'],
      [file('seller.json', 'openapi: 3.1.0\n'), 'is not an OpenAPI document (it has no "paths")'],
      [
        file('dangling.json', JSON.stringify({ openapi: '3.1.0', paths: { '/': { post: { $ref: '#/nowhere' } } } })),
        "$ref '#/nowhere'",
      ],
      [join(scratch.path, 'absent.json'), 'cannot read'],
    ];
    const junit = join(scratch.path, 'bad-input.xml');
    for (const [path, reason] of cases) {
      const { code, stdout, stderr } = await run('--openapi', path, '--junit', junit);
      expect(code, path).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(path);
      expect(stderr).toContain(reason);
      expect(existsSync(junit)).toBe(false);
    }
  });

  it('writes JUnit XML CI parsers accept: a failed case per interaction with findings, the verify-only rules skipped', async () => {
    const doc = JSON.parse(readFileSync(SELLER_API, 'utf8'));
    doc.components.schemas.InvoiceSellerReply.properties.status.type = 'integer';
    const yaml = file('retyped.yaml', stringifyYaml(doc));
    const junit = join(scratch.path, 'check-openapi.xml');
    const { code } = await run('--openapi', yaml, '--junit', junit);
    expect(code).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="check-openapi" tests="15" failures="4" errors="0"');
    expect(xml).toMatch(
      /<testcase classname="check-openapi" name="invoices by PO number" time="0">\n {6}<failure type="reply" message="\d+ findings?: reply \$\.status: vendor: refuses it/,
    );
    expect(xml).toContain('reply-schema $.status: vendor: integer, contract: string');
    expect(xml).toMatch(
      /<testcase classname="proven-only-by-verify" name="item\.id-echo" time="0">\n {6}<skipped message=/,
    );
    if (hasXmllint) expect(validateJunit(xml)).toMatchObject({ ok: true });
  });

  it('exits 2 on a --junit whose folder does not exist, before reading anything', async () => {
    const { code, stderr } = await run('--openapi', SELLER_API, '--junit', join(scratch.path, 'no', 'such.xml'));
    expect(code).toBe(2);
    expect(stderr).toContain('does not exist');
  });

  it('exits 2 on bad usage: no --openapi, a --path without /', async () => {
    expect((await run()).code).toBe(2);
    const { code, stderr } = await run('--openapi', SELLER_API, '--path', 'seller');
    expect(code).toBe(2);
    expect(stderr).toContain('--path must start with /');
  });
});
