import { readFileSync } from 'node:fs';
import { packagePath } from '../shared/package-root';
import { PAYLOADS, type Operation } from './schemas/index';

// The example payloads under fixtures/payloads/<operation>.<payload>.json (the examples of the
// OpenAPI documents, and what the tests start from), read fresh on
// every call so a test may change its copy freely.

export const FIXTURES_DIR = packagePath('fixtures', 'payloads') + '/';

export type PayloadName<Op extends Operation> = keyof (typeof PAYLOADS)[Op] & string;

// `any`: a test takes its own copy and breaks it on purpose (a price as a string, a field gone).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function loadFixture<Op extends Operation>(operation: Op, payload: PayloadName<Op>): any {
  return JSON.parse(readFileSync(`${FIXTURES_DIR}${operation}.${payload}.json`, 'utf8'));
}

/** Every (operation, payload) pair the contract defines, for tests that cover them all. */
export const ALL_PAYLOADS = Object.entries(PAYLOADS).flatMap(([operation, roles]) =>
  Object.keys(roles).map((payload) => ({ operation: operation as Operation, payload })),
);
