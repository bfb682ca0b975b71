import { KitInputError } from '../kit-errors';
import { httpUrlOption } from '../option-checks';
import type { StateMapFile } from '../states/state-map';
import type { Catalogue } from './catalogue';
import { CatalogueError, loadCatalogue, type CatalogueSource } from './catalogue-source';

// The catalogue as exploreSeller and loadSeller take it: the vendor's state map (a file or
// an object), or our mock seller's provider-state URL. Any problem names the option given.

export interface CatalogueOptions {
  /** Your catalogue: a state map (its values and its "explore" section), as a file path or an object. */
  stateMap?: string | StateMapFile;
  /** Or: our mock seller's provider-state URL (…/__admin/provider-state); the catalogue is its scenario. */
  statesUrl?: string;
}

type CatalogueOption = { option: 'stateMap' | 'statesUrl'; source: CatalogueSource };

function catalogueOption(options: CatalogueOptions): CatalogueOption {
  const { stateMap, statesUrl } = options;
  if (stateMap !== undefined && statesUrl !== undefined)
    throw new KitInputError('stateMap', 'give stateMap or statesUrl, not both');
  if (typeof stateMap === 'string') return { option: 'stateMap', source: { kind: 'map', file: stateMap } };
  if (stateMap !== undefined) return { option: 'stateMap', source: { kind: 'map-object', map: stateMap } };
  if (statesUrl !== undefined)
    return { option: 'statesUrl', source: { kind: 'url', url: httpUrlOption('statesUrl', statesUrl) } };
  throw new KitInputError(
    'stateMap',
    'your catalogue is needed: stateMap (a state map), or statesUrl pointing at our mock seller',
  );
}

/** The options that name `source` (catalogueOption's inverse): the commands' flags, as the functions take them. */
export function catalogueOptionsOf(source: CatalogueSource): CatalogueOptions {
  switch (source.kind) {
    case 'map':
      return { stateMap: source.file };
    case 'map-object':
      // Checked as a state map when read, as any object given as stateMap is.
      return { stateMap: source.map as StateMapFile };
    case 'url':
      return { statesUrl: source.url };
  }
}

/** Checks the options (before anything is sent); `read` loads the catalogue, naming the option on failure. */
export function catalogueReader(options: CatalogueOptions): {
  option: CatalogueOption['option'];
  read: (headers: Record<string, string>, signal?: AbortSignal) => Promise<Catalogue>;
} {
  const { option, source } = catalogueOption(options);
  return {
    option,
    read: async (headers, signal) => {
      try {
        return await loadCatalogue(source, headers, signal);
      } catch (error) {
        // Stopped while reading it: the stop, not the catalogue, is what happened.
        signal?.throwIfAborted();
        if (error instanceof CatalogueError) throw new KitInputError(option, error.message, { cause: error });
        throw error;
      }
    },
  };
}
