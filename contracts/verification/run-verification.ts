import { Verifier } from '@pact-foundation/pact';
import { readPact } from '../pact/pact-file';
import { STATE_NAMES } from '../pact/provider-states';
import { parsePactResults, type PactResults } from './pact-results';
import { buildReport, type ObservedExchange, type PlannedInteraction, type VerificationReport } from './report';
import { startRulesProxy, type Exchange } from './rules-proxy';
import { createStateHandlers, noStateSource, remoteStateSource, stateMapSource, type StateEvent } from './state-handlers';
import type { StateMapFile } from './state-map';
import { baseOptions, pactSourceOptions, publishOptions, stateHandlerOptions, type PactSource, type Publication } from './verifier-options';

// The vendor kit's run: the rules proxy in front of the seller, Pact's verifier through the
// proxy with the chosen state source, and one report from both verdicts.

export type StateSetup = { kind: 'url'; url: string } | { kind: 'map'; map: StateMapFile } | { kind: 'none' };

export interface KitRun {
  sellerUrl: string;
  pacts: PactSource;
  states: StateSetup;
  /** Added to every request to the seller (e.g. authorization). */
  headers?: Record<string, string>;
  publish?: Publication;
  /** One line per exchange while the run goes on. */
  progress?: (line: string) => void;
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
}

function plannedInteractions(pacts: PactSource): PlannedInteraction[] {
  if (pacts.kind !== 'file') return [];
  return pacts.files.flatMap((file) =>
    readPact(file).interactions.map((i) => ({ description: i.description, states: (i.providerStates ?? []).map((s) => ({ name: s.name, params: s.params ?? {} })) })),
  );
}

export async function runVerification(run: KitRun): Promise<VerificationReport> {
  // No internet on CI runners or here; Pact's usage ping would only wait for a timeout.
  process.env.PACT_DO_NOT_TRACK ??= 'true';
  const planned = plannedInteractions(run.pacts);
  const observed: ObservedExchange[] = [];
  let states: ObservedExchange['states'] = [];
  let stateErrors: string[] = [];
  let tornDown = true;

  const onState = (event: StateEvent) => {
    if (event.action === 'setup') {
      if (tornDown) {
        states = [];
        stateErrors = [];
        tornDown = false;
      }
      states.push({ name: event.state, params: event.params });
    } else tornDown = true;
    if (event.error !== undefined) stateErrors.push(`${event.action} of state '${event.state}' failed: ${event.error}`);
  };

  const onExchange = (exchange: Exchange) => {
    const entry: ObservedExchange = { exchange, states: [...states], stateErrors: [...stateErrors] };
    observed.push(entry);
    const plan = planned.find((p) => p.states.length === entry.states.length && p.states.every((s, i) => s.name === entry.states[i].name && JSON.stringify(s.params) === JSON.stringify(entry.states[i].params ?? {})));
    const name = plan?.description ?? `${exchange.service ?? 'request'} given ${entry.states.map((s) => s.name).join(', ') || 'no state'}`;
    const verdict = exchange.check === undefined ? `not checked: ${exchange.problem}` : exchange.check.ok ? 'reply rules ok' : `BROKEN: ${[...new Set([...exchange.check.errors.map(() => 'reply.schema'), ...exchange.check.violations.map((v) => v.rule)])].join(', ')}`;
    run.progress?.(`[${observed.length}/${planned.length || '?'}] ${name} — ${verdict}`);
  };

  const proxy = await startRulesProxy({ sellerUrl: run.sellerUrl, headers: run.headers, onExchange });
  const source = run.states.kind === 'url' ? remoteStateSource(run.states.url, run.headers) : run.states.kind === 'map' ? stateMapSource(run.states.map) : noStateSource;
  const stateNames = [...new Set([...STATE_NAMES, ...planned.flatMap((p) => p.states.map((s) => s.name))])];

  let results: PactResults;
  try {
    const verifier = new Verifier({
      ...baseOptions(proxy.url),
      ...pactSourceOptions(run.pacts),
      ...stateHandlerOptions(createStateHandlers(stateNames, source, onState)),
      ...publishOptions(run.publish),
      ...(run.logLevel !== undefined ? { logLevel: run.logLevel } : {}),
    });
    try {
      results = parsePactResults(String(await verifier.verifyProvider()), false);
    } catch (error) {
      results = parsePactResults(error instanceof Error ? error.message : String(error), true);
    }
  } finally {
    await proxy.close();
  }
  return buildReport(run.sellerUrl, planned, observed, results);
}
