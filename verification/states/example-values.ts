import type { PactInteraction } from '../../contracts/pact/pact-file';
import { valuesFor, type StateMapFile } from './state-map';

// Which of the pact's states will be sent with the contract's example values: a state map
// that names no value for a state's parameter (in the state's entry or the defaults), or no
// state source at all. Said at start, so a vendor's failure never reads as a bare
// "Expected 0 to be equal to 1" about a part their seller never had.

export interface StateLackingValues {
  state: string;
  /** Parameter → the contract's example that will be sent. */
  examples: Record<string, string>;
}

/** Every state of the interactions to run whose parameters the map (or, without one, nothing) gives no value for. */
export function statesLackingValues(
  map: StateMapFile | undefined,
  interactions: readonly PactInteraction[],
  skipped: readonly string[] = [],
): StateLackingValues[] {
  const byState = new Map<string, Record<string, string>>();
  for (const interaction of interactions) {
    for (const state of interaction.providerStates ?? []) {
      if (skipped.includes(state.name)) continue;
      const given = map === undefined ? {} : valuesFor(map, state.name);
      for (const [param, example] of Object.entries(state.params ?? {})) {
        if (param in given) continue;
        const examples = byState.get(state.name) ?? {};
        examples[param] = String(example);
        byState.set(state.name, examples);
      }
    }
  }
  return [...byState].map(([state, examples]) => ({ state, examples }));
}

export const lackingValuesText = (lacking: readonly StateLackingValues[]): string =>
  lacking
    .map(
      (l) =>
        `  - '${l.state}': ${Object.entries(l.examples)
          .map(([param, example]) => `${param} = ${JSON.stringify(example)}`)
          .join(', ')}\n`,
    )
    .join('');
