import { Scenario } from '../../contracts/schemas/scenario';
import { compileValidator } from '../../contracts/validator';
import { readStateMap, StateMapError } from '../state-map';
import { catalogueGaps, catalogueOfScenario, catalogueOfStateMap, type Catalogue } from './catalogue';

// Where an exploration's catalogue comes from: the vendor's state map, or our mock seller's
// scenario through its admin API (GET …/__admin/scenario, beside the provider-state URL).

export class CatalogueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogueError';
  }
}

const validScenario = compileValidator(Scenario);

/** A state map's file, or a mock seller's provider-state URL. */
export type CatalogueSource = { kind: 'map'; file: string } | { kind: 'url'; url: string };

export async function loadCatalogue(source: CatalogueSource, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Catalogue> {
  let catalogue: Catalogue;
  if (source.kind === 'map') {
    try {
      catalogue = catalogueOfStateMap(await readStateMap(source.file), source.file);
    } catch (error) {
      if (error instanceof StateMapError) throw new CatalogueError(error.message);
      throw error;
    }
  } else {
    const scenarioUrl = new URL('scenario', source.url).toString();
    const hint = `--states-url with --explore reads our mock seller's scenario from ${scenarioUrl}; for your own system give --state-map with your catalogue`;
    let data: unknown;
    try {
      const timeout = AbortSignal.timeout(10_000);
      const response = await fetch(scenarioUrl, { headers, signal: signal === undefined ? timeout : AbortSignal.any([timeout, signal]) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      data = await response.json();
    } catch (error) {
      throw new CatalogueError(`cannot read the catalogue: ${(error as Error).message}. ${hint}`);
    }
    if (!validScenario(data).valid) throw new CatalogueError(`${scenarioUrl} did not answer a mock-seller scenario. ${hint}`);
    catalogue = catalogueOfScenario(data as Scenario, `mock seller scenario ${scenarioUrl}`);
  }
  const gaps = catalogueGaps(catalogue);
  if (gaps.length > 0) throw new CatalogueError(`${catalogue.origin}: nothing to explore with: ${gaps.join('; ')}`);
  return catalogue;
}
