import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CompatFinding } from './compat-finding';
import { compatReport, type CompatReport } from './compat-report';
import { compareDocuments } from './compare-documents';
import { CompatInputError, CONTRACT_PATHS, gitShow, isCommit, loadContract } from './contract-source';
import { compareOpenApiDocuments } from './openapi-compat';
import { compareSellerApiDocuments } from './seller-api-compat';

// Two releases of the whole contract — a clone's working tree, a directory of its files, a git
// ref — compared for both sides of the gateway at once: the seller pact and the seller API
// document for seller systems, the buyer and internal API documents for buyer programs. A
// document one release does not carry (a release from before they were committed) is named in a
// note, never compared as empty.

const API_DOCUMENTS = [
  { path: CONTRACT_PATHS.buyerApi, name: 'the buyer API document', compare: compareOpenApiDocuments },
  { path: CONTRACT_PATHS.internalApi, name: 'the internal API document', compare: compareOpenApiDocuments },
  { path: CONTRACT_PATHS.sellerApi, name: 'the seller API document', compare: compareSellerApiDocuments },
] as const;

/** A directory, or a git ref of `repo`: a whole release rather than one file. */
export const isRelease = (spec: string, repo: string): boolean =>
  existsSync(spec) ? statSync(spec).isDirectory() : !spec.includes(':') && isCommit(repo, spec);

/** The text of `path` in a release: a directory's file or a ref's blob; undefined when it holds none. */
function releaseFile(spec: string, repo: string, path: string): { text: string; source: string } | undefined {
  if (existsSync(spec)) {
    const file = join(spec, path);
    return existsSync(file) ? { text: readFileSync(file, 'utf8'), source: file } : undefined;
  }
  const text = gitShow(repo, spec, path);
  return text === undefined ? undefined : { text, source: `${spec}:${path}` };
}

/** Base against head, pact and API documents together; CompatInputError when they cannot be compared. */
export function compareReleases(baseSpec: string, headSpec: string, repo: string): CompatReport {
  const pacts = compareDocuments(loadContract(baseSpec, repo), loadContract(headSpec, repo));
  const findings: CompatFinding[] = [...pacts.findings];
  const notes = [...pacts.notes];
  for (const { path, name, compare } of API_DOCUMENTS) {
    const base = releaseFile(baseSpec, repo, path);
    const head = releaseFile(headSpec, repo, path);
    if (base === undefined || head === undefined) {
      const missing = [
        base === undefined ? `base (${baseSpec})` : undefined,
        head === undefined ? `head (${headSpec})` : undefined,
      ].filter((m) => m !== undefined);
      notes.push(`${name} (${path}) is not in ${missing.join(' nor ')}: not compared`);
      continue;
    }
    const parse = (f: { text: string; source: string }) => {
      try {
        return JSON.parse(f.text) as unknown;
      } catch (error) {
        throw new CompatInputError(`${f.source} is not JSON: ${(error as Error).message}`);
      }
    };
    const [baseDocument, headDocument] = [parse(base), parse(head)];
    // Each document as compareDocuments would refuse one: it must be OpenAPI.
    for (const [document, f] of [
      [baseDocument, base],
      [headDocument, head],
    ] as const)
      if (document === null || typeof document !== 'object' || !('openapi' in document))
        throw new CompatInputError(`${f.source} is not an OpenAPI document (it has no "openapi" field)`);
    findings.push(...compare(baseDocument, headDocument));
  }
  return compatReport(pacts.base, pacts.head, findings, notes);
}
