import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, packagePath } from '../shared/package-root';
import { docBlock } from '../shared/testing/doc-blocks';
import { temporaryDirectory } from '../shared/testing/temporary-directory';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { publishedPackage } from '../packages/published-packages';

// docs/vendor/seller-api.md: the blocks marked to run do, as shown, with the installed
// package's paths read as the repository's (the package keeps them), the mock seller's address
// as the one started here, and npx's commands from the workspace's own node_modules.

const PAGE = 'docs/vendor/seller-api.md';
const INSTALLED = 'node_modules/@federated-gateway/toolkit/';
const sh = (script: string, cwd: string) =>
  promisify(execFile)('sh', ['-e', '-c', script], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${packagePath('node_modules', '.bin')}:${process.env.PATH ?? ''}` },
  });
const local = (text: string) => text.replaceAll(INSTALLED, `${PACKAGE_ROOT}/`).replaceAll('npx ', '');

describe('the seller API page', () => {
  let running: RunningMockSeller;
  beforeAll(async () => {
    running = await startMockSeller();
  });
  afterAll(() => running.close());

  it("id='seller-api-installed': the document is where the page says, in both packages", async () => {
    const { stdout } = await sh(local(docBlock(PAGE, 'seller-api-installed').text), PACKAGE_ROOT);
    expect(stdout.trim()).toBe(packagePath('contracts/openapi/seller.openapi.json'));
    const shipped = (folder: 'toolkit' | 'contracts') => publishedPackage(folder).manifest.files ?? [];
    expect(shipped('toolkit')).toContain('contracts/openapi/');
    expect(shipped('contracts')).toContain('contracts/openapi/seller.openapi.json');
  });

  it("id='seller-api-served': the mock seller serves it", async () => {
    const dir = temporaryDirectory('seller-api-page');
    await sh(docBlock(PAGE, 'seller-api-served').text.replaceAll('http://127.0.0.1:9090', running.url), dir);
    const served = JSON.parse(readFileSync(join(dir, 'seller.openapi.json'), 'utf8')) as { openapi: string };
    expect(served.openapi).toBe('3.1.0');
  });

  it("id='seller-api-typescript': openapi-typescript writes the types the page names", async () => {
    const dir = temporaryDirectory('seller-api-page');
    await sh(local(docBlock(PAGE, 'seller-api-typescript').text), dir);
    expect(existsSync(join(dir, 'seller-api.d.ts'))).toBe(true);
    const types = readFileSync(join(dir, 'seller-api.d.ts'), 'utf8');
    for (const name of ['ItemInquirySellerRequest', 'SellerRequest', 'SellerReply'])
      expect(types).toContain(`${name}:`);
  });
});
