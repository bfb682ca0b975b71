import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../gateway/api-reference/openapi-document';
import { internalApiDocument } from '../gateway/api-reference/internal-api-document';
import { sellerApiDocument } from '../contracts/seller-api-document';

// npm run lint:openapi (part of npm run lint): the gateway's, the internal API's and the seller
// API's OpenAPI documents, as served, linted by Redocly's recommended rules (redocly.yaml says which are off
// and why). Offline: no telemetry, no update check.

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
try {
  const files = [
    ['gateway.openapi.json', openApiDocument()],
    ['internal-api.openapi.json', internalApiDocument()],
    ['seller.openapi.json', sellerApiDocument()],
  ].map(([name, document]) => {
    const file = join(dir, name as string);
    writeFileSync(file, JSON.stringify(document, null, 2));
    return file;
  });
  const redocly = join(root, 'node_modules', '.bin', 'redocly');
  const result = spawnSync(
    redocly,
    ['lint', '--config', join(root, 'redocly.yaml'), '--max-problems', '1000', ...files],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
        NO_UPDATE_NOTIFIER: '1',
      },
    },
  );
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
