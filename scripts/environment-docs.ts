import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { TObject } from '@sinclair/typebox';
import { environmentTable } from '../shared/environment';
import { packagePath } from '../shared/package-root';
import { GATEWAY_ENVIRONMENT } from '../gateway/server-settings';
import { STORE_ENVIRONMENT } from '../gateway/store/store-config';
import { INTERNAL_API_ENVIRONMENT } from '../gateway/internal-api/internal-api-config';
import { ADDRESS_VALIDATOR_ENVIRONMENT } from '../gateway/address/address-validator-from-env';
import { MAIL_ENVIRONMENT } from '../gateway/mail/mailer-from-env';
import { MOCK_SELLER_ENVIRONMENT } from '../cli/mock-seller-command';
import { INTERNAL_API_CLIENT_ENVIRONMENT } from './internal-api-client';
import { PACT_BROKER_ENVIRONMENT } from '../contracts/pact/broker-cli';
import { CONNECTION_ENVIRONMENT } from '../shared/http/connection-environment';

// The configuration tables of docs/reference/environment.md, rendered from the environment
// schemas the processes read (so the two cannot drift: scripts/environment-docs.test.ts
// compares them). `npm run docs:environment` rewrites them in place.

export const ENVIRONMENT_PAGE_PATH = 'docs/reference/environment.md';
export const ENVIRONMENT_PAGE = packagePath(ENVIRONMENT_PAGE_PATH);

export const ENVIRONMENT_SECTIONS: Record<string, TObject> = {
  store: STORE_ENVIRONMENT,
  gateway: GATEWAY_ENVIRONMENT,
  connections: CONNECTION_ENVIRONMENT,
  'internal-api': INTERNAL_API_ENVIRONMENT,
  'address-validator': ADDRESS_VALIDATOR_ENVIRONMENT,
  mail: MAIL_ENVIRONMENT,
  'operator-scripts': INTERNAL_API_CLIENT_ENVIRONMENT,
  'mock-seller': MOCK_SELLER_ENVIRONMENT,
  'pact-broker': PACT_BROKER_ENVIRONMENT,
};

const marker = (name: string) => new RegExp(`(<!-- environment:${name} -->)[\\s\\S]*?(<!-- /environment:${name} -->)`);

/** The page with every marked table replaced by the one its schema renders. */
export function renderEnvironmentPage(page: string): string {
  let text = page;
  for (const [name, schema] of Object.entries(ENVIRONMENT_SECTIONS)) {
    if (!marker(name).test(text))
      throw new Error(
        `${ENVIRONMENT_PAGE_PATH} has no <!-- environment:${name} --> … <!-- /environment:${name} --> block`,
      );
    text = text.replace(
      marker(name),
      (_all, open: string, close: string) => `${open}\n${environmentTable(schema)}\n${close}`,
    );
  }
  return text;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const before = readFileSync(ENVIRONMENT_PAGE, 'utf8');
  const after = renderEnvironmentPage(before);
  if (after === before) console.error(`${ENVIRONMENT_PAGE_PATH}: configuration tables already up to date`);
  else {
    writeFileSync(ENVIRONMENT_PAGE, after);
    console.error(`${ENVIRONMENT_PAGE_PATH}: configuration tables rewritten from the environment schemas`);
  }
}
