import { Scenario } from '../../contracts/schemas/scenario';
import { compileValidator } from '../../contracts/validator';
import { checkStateMap, readStateMap, StateMapError } from '../states/state-map';
import { catalogueGaps, catalogueOfScenario, catalogueOfStateMap, type Catalogue } from './catalogue';

// Where an exploration's catalogue comes from: the vendor's state map, or our mock seller's
// scenario through its admin API (GET …/__admin/scenario, beside the provider-state URL).
// A state map given as an object (the kit's functions take one) is checked as a file is.

export class CatalogueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogueError';
  }
}

const validScenario = compileValidator(Scenario);

/** A state map's file, a state map given as an object, or a mock seller's provider-state URL. */
export type CatalogueSource =
  { kind: 'map'; file: string } | { kind: 'map-object'; map: unknown } | { kind: 'url'; url: string };

async function catalogueOfMapFile(file: string): Promise<Catalogue> {
  try {
    return catalogueOfStateMap(await readStateMap(file), file);
  } catch (error) {
    if (error instanceof StateMapError) throw new CatalogueError(error.message);
    throw error;
  }
}

function catalogueOfMapObject(map: unknown): Catalogue {
  try {
    return catalogueOfStateMap(checkStateMap(map), '(given as an object)');
  } catch (error) {
    if (error instanceof StateMapError) throw new CatalogueError(error.message);
    throw error;
  }
}

/** Our mock seller's scenario, read through its admin API beside the provider-state URL. */
async function catalogueOfMockSeller(
  url: string,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<Catalogue> {
  const scenarioUrl = new URL('scenario', url).toString();
  const hint = `--states-url with --explore reads our mock seller's scenario from ${scenarioUrl}; for your own system give --state-map with your catalogue`;
  let data: unknown;
  try {
    const timeout = AbortSignal.timeout(10_000);
    const response = await fetch(scenarioUrl, {
      headers,
      signal: signal === undefined ? timeout : AbortSignal.any([timeout, signal]),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    data = await response.json();
  } catch (error) {
    throw new CatalogueError(`cannot read the catalogue: ${(error as Error).message}. ${hint}`);
  }
  if (!validScenario(data).valid)
    throw new CatalogueError(`${scenarioUrl} did not answer a mock-seller scenario. ${hint}`);
  return catalogueOfScenario(data as Scenario, `mock seller scenario ${scenarioUrl}`);
}

export async function loadCatalogue(
  source: CatalogueSource,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Catalogue> {
  const catalogue =
    source.kind === 'map'
      ? await catalogueOfMapFile(source.file)
      : source.kind === 'map-object'
        ? catalogueOfMapObject(source.map)
        : await catalogueOfMockSeller(source.url, headers, signal);
  const gaps = catalogueGaps(catalogue);
  if (gaps.length > 0) throw new CatalogueError(`${catalogue.origin}: nothing to explore with: ${gaps.join('; ')}`);
  return catalogue;
}
