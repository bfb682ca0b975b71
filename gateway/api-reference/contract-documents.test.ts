import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../shared/package-root';
import { renderContractApiDocuments } from './contract-documents';

// The API documents a release of the contract carries are the ones the gateway serves: a stale
// file would let the contract policy compare the wrong buyer side.

describe('contracts/openapi/', () => {
  it('holds exactly the buyer, internal and seller documents, up to date (run `npm run schemas` if this fails)', () => {
    const rendered = renderContractApiDocuments();
    expect(readdirSync(packagePath('contracts/openapi')).sort()).toEqual([...rendered.keys()].sort());
    for (const [name, text] of rendered)
      expect(readFileSync(packagePath(`contracts/openapi/${name}`), 'utf8'), name).toBe(text);
  });

  it('are the served documents, under the licence the package states', () => {
    const packageLicence = (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { license: string })
      .license;
    expect(packageLicence).toBe('Apache-2.0');
    expect(readFileSync(packagePath('LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    for (const text of renderContractApiDocuments().values()) {
      const doc = JSON.parse(text) as { openapi: string; info: { license: { identifier: string } }; paths: object };
      expect(doc.openapi).toMatch(/^3\.1/);
      expect(doc.info.license.identifier).toBe(packageLicence);
    }
    const buyer = JSON.parse(renderContractApiDocuments().get('buyer.openapi.json')!) as { paths: object };
    expect(Object.keys(buyer.paths)).toContain('/json/federated/v3_2/item_inquiry');
  });
});
