import { readFileSync } from 'node:fs';

// The committed pact must be a pure function of the consumer tests: Pact's core merges
// interactions in the order tests ran and stamps its own versions into the metadata, so
// we sort what has no meaningful order and drop what says which tool wrote the file.

/** Metadata entries naming tool versions; the specification version stays. */
const TOOL_METADATA = ['pact-js', 'pactRust'];

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

export interface PactDocument {
  consumer: { name: string };
  provider: { name: string };
  interactions: PactInteraction[];
  metadata: Record<string, unknown>;
}

export interface PactInteraction {
  description: string;
  type: string;
  providerStates?: { name: string; params?: Record<string, unknown> }[];
  request: {
    method: string;
    path: string;
    headers?: Record<string, string[]>;
    body?: { content: unknown; contentType?: string };
  };
  response: { status: number; headers?: Record<string, string[]>; body?: { content: unknown; contentType?: string } };
  [key: string]: unknown;
}

/** The stable text of a pact: interactions by description, keys sorted, no tool versions. */
export function normalisePact(pact: PactDocument): string {
  const metadata = { ...pact.metadata };
  for (const key of TOOL_METADATA) delete metadata[key];
  const interactions = [...pact.interactions].sort((a, b) =>
    a.description < b.description ? -1 : a.description > b.description ? 1 : 0,
  );
  return `${JSON.stringify(sortKeys({ ...pact, metadata, interactions }), null, 2)}\n`;
}

export function readPact(file: string): PactDocument {
  return JSON.parse(readFileSync(file, 'utf8')) as PactDocument;
}

export class PactFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PactFileError';
  }
}

/**
 * Reads a pact for verification: readable JSON, Pact specification 4.x,
 * with interactions; else a message naming the file and what is wrong.
 */
export function readV4Pact(file: string): PactDocument {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new PactFileError(
      `cannot read pact ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let pact: PactDocument;
  try {
    pact = JSON.parse(text) as PactDocument;
  } catch (error) {
    throw new PactFileError(`pact ${file} is not JSON: ${(error as Error).message}`);
  }
  const version = (pact?.metadata?.pactSpecification as { version?: unknown } | undefined)?.version;
  if (typeof version !== 'string' || !version.startsWith('4.')) {
    throw new PactFileError(
      `pact ${file} is not a Pact specification V4 file (metadata.pactSpecification.version is ${JSON.stringify(version ?? null)}); the seller contract is V4`,
    );
  }
  if (!Array.isArray(pact.interactions)) throw new PactFileError(`pact ${file} has no interactions array`);
  return pact;
}

/** One pact from several single-interaction pacts of the same pair. */
export function joinPacts(pacts: PactDocument[]): PactDocument {
  if (pacts.length === 0) throw new Error('no pacts to join');
  const [first] = pacts;
  for (const pact of pacts) {
    if (pact.consumer.name !== first.consumer.name || pact.provider.name !== first.provider.name) {
      throw new Error(
        `cannot join pacts of ${first.consumer.name}/${first.provider.name} and ${pact.consumer.name}/${pact.provider.name}`,
      );
    }
  }
  const interactions = pacts.flatMap((pact) => pact.interactions);
  const descriptions = new Set(interactions.map((i) => i.description));
  if (descriptions.size !== interactions.length) throw new Error('two interactions share a description');
  return { ...first, interactions };
}
