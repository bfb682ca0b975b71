import type { PactInteraction } from './pact-file';

// Interactions that exist only for a field the specification makes optional (route times, a
// downloadable invoice copy). The pact marks them in the V4 interaction `comments`, where every
// verifier's user can read it: a text for people and a key for tools. A seller that does not
// offer the field declares the interaction's state not offered; nothing else may be declared.

export interface OptionalCapability {
  /** The optional field of the specification the interaction exists for. */
  field: string;
  /** What carries it, in the specification's words. */
  of: string;
}

/** The comment key a tool reads; its value is the optional field. */
export const OPTIONAL_COMMENT_KEY = 'optional_field';

/** The comment text a person reads in the pact. */
export const optionalCommentText = (o: OptionalCapability): string =>
  `OPTIONAL: '${o.field}' of ${o.of} is optional in the specification. A seller that does not offer it leaves this interaction out ` +
  `(verify --not-offered '<state>', or "not_offered" in the state map; another verifier: filter it out, see docs/vendor/state-maps.md).`;

/** The optional field an interaction of a pact file exists for, if the pact marks it so. */
export function optionalFieldOf(interaction: PactInteraction): string | undefined {
  const comments = interaction.comments as Record<string, unknown> | undefined;
  const value = comments?.[OPTIONAL_COMMENT_KEY];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
