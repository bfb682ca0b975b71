import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../shared/package-root';
import { renderContractApiDocuments } from './contract-documents';

// The API documents a release of the contract carries are the ones the gateway serves: a stale
// file would let the contract policy compare the wrong buyer side.

describe('contracts/openapi/', () => {
  it('holds exactly the buyer and internal documents, up to date (run `npm run schemas` if this fails)', () => {
    const rendered = renderContractApiDocuments();
    expect(readdirSync(packagePath('contracts/openapi')).sort()).toEqual([...rendered.keys()].sort());
    for (const [name, text] of rendered) expect(readFileSync(packagePath(`contracts/openapi/${name}`), 'utf8'), name).toBe(text);
  });

  it('are the served documents, with their contract version', () => {
    const buyer = JSON.parse(renderContractApiDocuments().get('buyer.openapi.json')!) as { openapi: string; info: { version: string }; paths: object };
    expect(buyer.openapi).toMatch(/^3\.1/);
    expect(Object.keys(buyer.paths)).toContain('/json/federated/v3_2/item_inquiry');
  });
});
