import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PACT_FILE_NAME } from '../../contracts/pact/pact-names';
import type { PactDocument } from '../../contracts/pact/pact-file';
import { sellerContractOf, type SellerContract } from './seller-contract';

// A release of the contract, wherever it is: a pact file, a directory of the contract's files (a
// clone, an unpacked release) or a git ref of this repository. Told apart by what exists: a file,
// a directory, else a ref (or `<ref>:<path>`). An OpenAPI document is recognised by its content.

export type ContractDocument =
  { kind: 'pact'; contract: SellerContract } | { kind: 'openapi'; source: string; document: unknown };

/** Input that cannot be compared; the message names the file or ref. The command exits 2. */
export class CompatInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CompatInputError';
  }
}

/** Where a release keeps its pact and the files a pre-3.2.0 pact leaves out. */
export const CONTRACT_PATHS = {
  pact: `contracts/pacts/${PACT_FILE_NAME}`,
  replyRules: 'contracts/reply-rules/violation.ts',
  version: 'contracts/contract-version.ts',
  /** Since 3.2.0 a release carries the API documents buyer programs call (npm run schemas). */
  buyerApi: 'contracts/openapi/buyer.openapi.json',
  internalApi: 'contracts/openapi/internal.openapi.json',
  /** Since 3.2.0 too: the API a seller system serves, as the gateway calls it. */
  sellerApi: 'contracts/openapi/seller.openapi.json',
} as const;

/** The rule catalogue of a release's violation.ts (the `RULES` object: one `'name': 'text',` a line). */
export function replyRulesFromSource(text: string): Record<string, string> | undefined {
  const block = text.match(/export const RULES = \{([\s\S]*?)\n\}/)?.[1];
  if (block === undefined) return undefined;
  const rules: Record<string, string> = {};
  for (const m of block.matchAll(/^\s*'([^']+)':\s*(['"])((?:\\.|(?!\2).)*)\2,?\s*$/gm))
    rules[m[1]] = m[3].replace(/\\(.)/g, '$1');
  return Object.keys(rules).length === 0 ? undefined : rules;
}

/** The version a release's contract-version.ts states. */
export const versionFromSource = (text: string): string | undefined =>
  text.match(/CONTRACT_VERSION\s*=\s*'([^']+)'/)?.[1];

/** A parsed document: an OpenAPI document, or a V4 pact; anything else is refused naming `source`. */
export function documentOf(
  text: string,
  source: string,
  fallback: () => { version?: string; replyRules?: Record<string, string> },
): ContractDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CompatInputError(`${source} is not JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new CompatInputError(`${source} is neither a pact nor an OpenAPI document`);
  if ('openapi' in value) return { kind: 'openapi', source, document: value };
  const pact = value as PactDocument;
  const spec = (pact.metadata?.pactSpecification as { version?: unknown } | undefined)?.version;
  if (
    !Array.isArray(pact.interactions) ||
    typeof pact.consumer?.name !== 'string' ||
    typeof pact.provider?.name !== 'string'
  )
    throw new CompatInputError(
      `${source} is neither a pact (consumer, provider, interactions) nor an OpenAPI document (an openapi key)`,
    );
  if (typeof spec !== 'string' || !spec.startsWith('4.'))
    throw new CompatInputError(
      `${source} is not a Pact specification V4 file (metadata.pactSpecification.version is ${JSON.stringify(spec ?? null)})`,
    );
  return { kind: 'pact', contract: sellerContractOf(pact, source, fallback()) };
}

const readText = (file: string): string | undefined => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

function fromDirectory(dir: string, label: string): ContractDocument {
  const candidates = [CONTRACT_PATHS.pact, `pacts/${PACT_FILE_NAME}`, PACT_FILE_NAME].map((path) => join(dir, path));
  let file = candidates.find((candidate) => existsSync(candidate));
  if (file === undefined) {
    // An unpacked release may hold its pact under another name: one pact-looking JSON file.
    const pacts = readdirSync(dir).filter(
      (name) => name.endsWith('.json') && /"interactions"\s*:/.test(readFileSync(join(dir, name), 'utf8')),
    );
    if (pacts.length === 1) file = join(dir, pacts[0]);
    else
      throw new CompatInputError(
        `directory ${label} holds no pact (looked for ${[CONTRACT_PATHS.pact, `pacts/${PACT_FILE_NAME}`, PACT_FILE_NAME].join(', ')}${pacts.length > 1 ? `; several pacts: ${pacts.join(', ')}` : ''})`,
      );
  }
  return documentOf(readFileSync(file, 'utf8'), file, () => {
    const rules = readText(join(dir, CONTRACT_PATHS.replyRules));
    const version = readText(join(dir, CONTRACT_PATHS.version));
    return {
      replyRules: rules === undefined ? undefined : replyRulesFromSource(rules),
      version: version === undefined ? undefined : versionFromSource(version),
    };
  });
}

/** `git show <ref>:<path>` in `repo`; undefined when that path is not in the ref. */
export function gitShow(repo: string, ref: string, path: string): string | undefined {
  try {
    return execFileSync('git', ['-C', repo, 'show', `${ref}:${path}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    return undefined;
  }
}

export function isCommit(repo: string, ref: string): boolean {
  try {
    execFileSync('git', ['-C', repo, 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function fromGitRef(repo: string, spec: string): ContractDocument {
  const colon = spec.indexOf(':');
  const [ref, path] =
    colon > 0 && !isCommit(repo, spec) ? [spec.slice(0, colon), spec.slice(colon + 1)] : [spec, CONTRACT_PATHS.pact];
  if (!isCommit(repo, ref))
    throw new CompatInputError(`${spec} is neither a file, a directory nor a git ref of ${repo}`);
  const text = gitShow(repo, ref, path);
  if (text === undefined) throw new CompatInputError(`git ref ${ref} has no ${path}`);
  return documentOf(text, `${ref}:${path}`, () => {
    const rules = gitShow(repo, ref, CONTRACT_PATHS.replyRules);
    const version = gitShow(repo, ref, CONTRACT_PATHS.version);
    return {
      replyRules: rules === undefined ? undefined : replyRulesFromSource(rules),
      version: version === undefined ? undefined : versionFromSource(version),
    };
  });
}

/** The contract named by `spec` (a file, a directory, or a git ref of `repo`). Throws CompatInputError. */
export function loadContract(spec: string, repo: string): ContractDocument {
  if (existsSync(spec)) {
    if (statSync(spec).isDirectory()) return fromDirectory(spec, spec);
    let text: string;
    try {
      text = readFileSync(spec, 'utf8');
    } catch (error) {
      throw new CompatInputError(
        `cannot read ${spec}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    // A lone pact file of before 3.2.0 states neither version nor rules: they stay unknown.
    return documentOf(text, spec, () => ({}));
  }
  return fromGitRef(repo, spec);
}
