import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docBlock } from '../shared/testing/doc-blocks';
import { temporaryDirectory } from '../shared/testing/temporary-directory';
import { createMockSeller } from './app';
import { readDefaultScenario } from './default-scenario';
import { SELLER_API_DOCUMENT_PATH } from './document-routes';
import { startMockSeller, type RunningMockSeller } from './start-mock-seller';

// GET /openapi.json serves the committed seller API document, its server this mock seller:
// what a vendor's generator or validation proxy reads is what the package ships.

interface Served {
  servers: { variables: { seller_url: { default: string } } }[];
}
const committed = () => JSON.parse(readFileSync(SELLER_API_DOCUMENT_PATH, 'utf8')) as Served;
const withServer = (url: string) => {
  const document = committed();
  document.servers[0].variables.seller_url.default = url;
  return document;
};

describe('GET /openapi.json', () => {
  it('is the committed document, its seller_url the address asked', async () => {
    const response = await createMockSeller(readDefaultScenario()).app.request('http://127.0.0.1:9191/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(withServer('http://127.0.0.1:9191/seller'));
  });

  it('names the public URL when the mock seller has one', async () => {
    const seller = createMockSeller(readDefaultScenario(), { publicUrl: 'https://seller.example/' });
    const served = (await (await seller.app.request('http://127.0.0.1:9191/openapi.json')).json()) as Served;
    expect(served.servers[0].variables.seller_url.default).toBe('https://seller.example/seller');
  });
});

describe("the mock seller's guide", () => {
  let running: RunningMockSeller;
  beforeAll(async () => {
    running = await startMockSeller();
  });
  afterAll(() => running.close());

  it("id='openapi-document': downloads the document, its server the running mock seller", async () => {
    const dir = temporaryDirectory('openapi-document');
    const script = docBlock('mock-seller/README.md', 'openapi-document').text.replaceAll(
      'http://127.0.0.1:9090',
      running.url,
    );
    await promisify(execFile)('sh', ['-e', '-c', script], { cwd: dir });
    expect(JSON.parse(readFileSync(join(dir, 'seller.openapi.json'), 'utf8'))).toEqual(
      withServer(`${running.url}/seller`),
    );
  });
});
