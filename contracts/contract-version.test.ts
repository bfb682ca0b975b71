import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from './contract-version';
import { contractVersionComment } from './json-schema-documents';
import { PACT_FILE } from './pact/pact-names';
import { readPact } from './pact/pact-file';
import { contractVersionOf, replyRulesOf, stampContract } from './pact/contract-metadata';
import { RULES } from './reply-rules/violation';
import { packagePath } from '../shared/package-root';

// One version for the whole contract, stated wherever a reader of one of its parts looks. (The
// OpenAPI documents and `federated-gateway --version` pin it beside their own tests.)

describe('the contract version', () => {
  it('is a semantic version of its own, apart from the package version', () => {
    expect(CONTRACT_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
    expect(CONTRACT_VERSION).not.toBe(pkg.version);
  });

  it('is in the committed pact metadata, beside the reply-rule catalogue of this release', () => {
    const pact = readPact(PACT_FILE);
    expect(contractVersionOf(pact)).toBe(CONTRACT_VERSION);
    expect(replyRulesOf(pact)).toEqual(RULES);
  });

  it('is stamped over whatever a pact said before (a pact without one states none)', () => {
    const bare = {
      consumer: { name: 'c' },
      provider: { name: 'p' },
      interactions: [],
      metadata: { pactSpecification: { version: '4.0' } },
    };
    expect(contractVersionOf(bare)).toBeUndefined();
    expect(replyRulesOf(bare)).toBeUndefined();
    const stamped = stampContract(stampContract(bare, '1.0.0', { a: 'x' }), '2.0.0', { b: 'y' });
    expect(contractVersionOf(stamped)).toBe('2.0.0');
    expect(replyRulesOf(stamped)).toEqual({ b: 'y' });
    expect(stamped.metadata.pactSpecification).toEqual({ version: '4.0' });
  });

  it('is the $comment of every committed JSON Schema document', () => {
    const dir = packagePath('contracts', 'json-schema');
    const names = readdirSync(dir).filter((name) => name.endsWith('.schema.json'));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const document = JSON.parse(readFileSync(`${dir}/${name}`, 'utf8')) as { $comment?: string };
      expect(document.$comment, name).toBe(contractVersionComment(CONTRACT_VERSION));
    }
  });
});
