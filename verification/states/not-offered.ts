import { optionalFieldOf } from '../../contracts/pact/optional-capabilities';
import type { PactInteraction } from '../../contracts/pact/pact-file';

// What a seller declares it does not offer: states of interactions the pact marks optional.
// Declaring a state leaves every interaction in that state out of the run, so a state may be
// declared only when each of its interactions is optional; anything else would hide a
// required behaviour, and is refused naming it.

export interface NotOffered {
  /** The declared state. */
  state: string;
  /** The optional field(s) its interactions exist for. */
  fields: string[];
}

export class NotOfferedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotOfferedError';
  }
}

const statesOf = (i: PactInteraction): string[] => (i.providerStates ?? []).map((s) => s.name);

/** Checks each declared state against the pact's interactions; throws naming every state that cannot be declared. */
export function checkNotOffered(declared: readonly string[], interactions: readonly PactInteraction[]): NotOffered[] {
  const problems: string[] = [];
  const accepted: NotOffered[] = [];
  for (const state of new Set(declared)) {
    const inState = interactions.filter((i) => statesOf(i).includes(state));
    if (inState.length === 0) {
      problems.push(`'${state}' is the state of no interaction of the pact`);
      continue;
    }
    const required = inState.filter((i) => optionalFieldOf(i) === undefined);
    if (required.length > 0) {
      problems.push(
        `'${state}' cannot be declared not offered: ${required.map((i) => `'${i.description}'`).join(', ')} ${required.length === 1 ? 'is' : 'are'} ` +
          `required by the specification (only interactions the pact marks optional may be left out)`,
      );
      continue;
    }
    accepted.push({ state, fields: [...new Set(inState.map((i) => optionalFieldOf(i)!))] });
  }
  if (problems.length > 0) throw new NotOfferedError(problems.join('; '));
  return accepted;
}

/** The declaration that leaves this interaction out, if any. */
export const notOfferedFor = (
  interaction: { states: readonly string[] },
  declared: readonly NotOffered[],
): NotOffered | undefined => declared.find((d) => interaction.states.includes(d.state));

/** The reason shown in every report. */
export const notOfferedReason = (d: NotOffered): string =>
  `NOT OFFERED (optional): the seller declared '${d.state}' not offered (${d.fields.map((f) => `'${f}'`).join(', ')} optional in the specification)`;
