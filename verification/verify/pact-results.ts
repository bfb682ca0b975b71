// Pact's own verdict, from the JSON its core returns (pactffi_verifier_json): which
// interactions failed and why. Interactions are named "Verifying a pact between C and P
// Given S - description"; we key on the description.

export interface PactMismatch {
  path?: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  /** Set when the kit rewrote `message`: the pact's value at `path` is only an example (a type or regex matcher). */
  exampleOnly?: true;
  /** Pact's own words, when the kit rewrote `message`. */
  pactMessage?: string;
}

export interface PactFailure {
  /** Pact's name of the interaction. */
  interaction: string;
  mismatches: PactMismatch[];
  /** Pact reported it under `pendingErrors`: the interaction (or its pact) is pending, so it did not fail the run. */
  pending?: true;
}

export interface PactResults {
  ok: boolean;
  failures: PactFailure[];
  /** Text when the core did not run at all (bad options, broker unreachable). */
  fatal?: string;
  /** Descriptions of the interactions verified, in the order they ran. */
  interactions?: string[];
}

interface RawMismatch {
  mismatch?: string;
  message?: string;
  path?: string;
  key?: string;
  expected?: unknown;
  actual?: unknown;
  type?: string;
}

interface RawError {
  interaction?: string;
  mismatch?: { type?: string; message?: string; mismatches?: RawMismatch[] };
}

function toMismatch(raw: RawMismatch): PactMismatch {
  const path = raw.path ?? raw.key;
  return {
    ...(path !== undefined ? { path } : {}),
    message: raw.mismatch ?? raw.message ?? raw.type ?? 'mismatch',
    ...(raw.expected !== undefined ? { expected: raw.expected } : {}),
    ...(raw.actual !== undefined ? { actual: raw.actual } : {}),
  };
}

/** `text` is what the verifier resolved or rejected with. */
export function parsePactResults(text: string, rejected: boolean): PactResults {
  let parsed: {
    result?: boolean;
    errors?: RawError[];
    pendingErrors?: RawError[];
    interactionResults?: { description?: string }[];
  };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    return rejected ? { ok: false, failures: [], fatal: text } : { ok: true, failures: [] };
  }
  const failureOfError = (error: RawError): PactFailure => ({
    interaction: error.interaction ?? 'unknown interaction',
    mismatches:
      error.mismatch?.mismatches !== undefined && error.mismatch.mismatches.length > 0
        ? error.mismatch.mismatches.map(toMismatch)
        : [{ message: error.mismatch?.message ?? error.mismatch?.type ?? 'failed' }],
  });
  // A V4 `pending: true` interaction that fails is listed under pendingErrors, not errors: still a failure to report.
  const pendingFailures = (parsed.pendingErrors ?? []).map((error): PactFailure => ({
    ...failureOfError(error),
    pending: true,
  }));
  const failures = [...(parsed.errors ?? []).map(failureOfError), ...pendingFailures];
  const interactions = parsed.interactionResults?.map((r) => r.description ?? '');
  return {
    ok: !rejected && (parsed.result ?? failures.length === pendingFailures.length),
    failures,
    ...(interactions !== undefined ? { interactions } : {}),
  };
}

/** The failure belonging to the interaction with this description, if any. */
export const failureOf = (results: PactResults, description: string): PactFailure | undefined =>
  results.failures.find((f) => f.interaction === description || f.interaction.endsWith(` - ${description}`));
