import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../shared/package-root';
import { useTemporaryDirectory } from '../../shared/testing/temporary-directory';
import { CONTRACT_PATHS } from './contract-source';
import { compareReleases, isRelease } from './release-compare';

// Two releases as directories of the contract's files: the pact and the three API documents
// compared at once, each finding for its side; a document one release lacks is a note, not an empty side.

const scratch = useTemporaryDirectory('release-compare');

interface SellerDocument {
  components: { schemas: Record<string, { required: string[] }> };
}

/** A release directory holding today's contract files, `edit` applied to the buyer document. */
function release(
  name: string,
  options: {
    withApis?: boolean;
    editBuyer?: (doc: { paths: Record<string, unknown> }) => void;
    editSeller?: (doc: SellerDocument) => void;
  } = {},
): string {
  const dir = join(scratch.path, name);
  const files =
    options.withApis === false
      ? [CONTRACT_PATHS.pact]
      : [CONTRACT_PATHS.pact, CONTRACT_PATHS.buyerApi, CONTRACT_PATHS.internalApi, CONTRACT_PATHS.sellerApi];
  for (const path of files) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    cpSync(packagePath(path), join(dir, path));
  }
  if (options.editBuyer !== undefined) {
    const file = join(dir, CONTRACT_PATHS.buyerApi);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { paths: Record<string, unknown> };
    options.editBuyer(doc);
    writeFileSync(file, JSON.stringify(doc));
  }
  if (options.editSeller !== undefined) {
    const file = join(dir, CONTRACT_PATHS.sellerApi);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as SellerDocument;
    options.editSeller(doc);
    writeFileSync(file, JSON.stringify(doc));
  }
  return dir;
}

describe('compareReleases', () => {
  it('reports nothing for two copies of the same release', () => {
    const report = compareReleases(release('a'), release('b'), scratch.path);
    expect(report.summary.verdict).toBe('unchanged');
    expect(report.notes).toEqual([]);
  });

  it('finds a buyer-breaking change in the buyer document when the pact is unchanged', () => {
    const path = '/json/federated/v3_1/item_inquiry';
    const head = release('head', { editBuyer: (doc) => delete doc.paths[path] });
    const report = compareReleases(release('base'), head, scratch.path);
    expect(report.summary.verdict).toBe('breaking');
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.findings.every((f) => f.side === 'buyer')).toBe(true);
    expect(report.findings.some((f) => f.where.includes(path) && f.class === 'breaking')).toBe(true);
  });

  it('names a document the base release does not carry instead of comparing it', () => {
    const report = compareReleases(release('old', { withApis: false }), release('new'), scratch.path);
    expect(report.summary.verdict).toBe('unchanged');
    expect(report.notes).toEqual([
      expect.stringMatching(
        /^the buyer API document \(contracts\/openapi\/buyer\.openapi\.json\) is not in base \(.*old\): not compared$/,
      ),
      expect.stringMatching(/^the internal API document .* is not in base/),
      expect.stringMatching(/^the seller API document \(contracts\/openapi\/seller\.openapi\.json\) is not in base/),
    ]);
  });

  it('finds a seller-breaking change in the seller document, for the seller side', () => {
    // The gateway newly requires a reply field: safe for a buyer reading it, breaking for a seller writing it.
    const head = release('seller-head', {
      editSeller: (doc) => doc.components.schemas.PlaceOrderSellerReply.required.push('comment'),
    });
    const report = compareReleases(release('seller-base'), head, scratch.path);
    expect(report.summary.verdict).toBe('breaking');
    expect(report.findings).toEqual([
      expect.objectContaining({
        side: 'seller',
        class: 'breaking',
        policy: 'reply-field-newly-required',
        where: 'POST /',
      }),
    ]);
  });

  it('tells a release (directory) from a file', () => {
    expect(isRelease(release('c'), scratch.path)).toBe(true);
    expect(isRelease(packagePath(CONTRACT_PATHS.pact), scratch.path)).toBe(false);
  });
});
