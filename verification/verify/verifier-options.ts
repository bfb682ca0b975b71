import type { VerifierOptions } from '@pact-foundation/pact';
import { PROVIDER } from '../../contracts/pact/pact-names';
import type { StateHandlers } from '../states/state-handlers';

// pact-js Verifier options from small named parts (the pactflow example style): what to
// verify against, where the pacts come from, how states are set up, whether results are
// published. The vendor kit runs the official CLI instead (pact-cli.ts); these serve a JS
// provider test such as mock-seller/pact-verification.test.ts, and name the kit's
// PactSource and Publication.

export type VerifierConfig = VerifierOptions & { providerBaseUrl: string };

export const baseOptions = (providerBaseUrl: string): VerifierConfig => ({
  provider: PROVIDER,
  providerBaseUrl,
  logLevel: 'warn',
  // Teardown callbacks let a seller (and our mock) reset data between interactions.
  providerStatesSetupTeardown: true,
  providerStatesSetupBody: true,
  timeout: 30_000,
});

export type PactSource =
  | { kind: 'file'; files: string[] }
  | {
      kind: 'broker';
      brokerUrl: string;
      token?: string;
      username?: string;
      password?: string;
      /** Default: the consumer's main branch and whatever is deployed or released. */
      selectors?: NonNullable<VerifierOptions['consumerVersionSelectors']>;
      enablePending?: boolean;
    };

export function pactSourceOptions(source: PactSource): Partial<VerifierConfig> {
  if (source.kind === 'file') return { pactUrls: source.files };
  return {
    pactBrokerUrl: source.brokerUrl,
    ...(source.token !== undefined ? { pactBrokerToken: source.token } : {}),
    ...(source.username !== undefined
      ? { pactBrokerUsername: source.username, pactBrokerPassword: source.password }
      : {}),
    consumerVersionSelectors: source.selectors ?? [{ mainBranch: true }, { deployedOrReleased: true }],
    enablePending: source.enablePending ?? false,
  };
}

export const stateHandlerOptions = (stateHandlers: StateHandlers): Partial<VerifierConfig> => ({
  stateHandlers: stateHandlers as VerifierConfig['stateHandlers'],
});

export interface Publication {
  providerVersion: string;
  branch?: string;
  buildUrl?: string;
}

export const publishOptions = (publication: Publication | undefined): Partial<VerifierConfig> =>
  publication === undefined
    ? {} // pact-core rejects publishVerificationResult: false without a provider version
    : {
        publishVerificationResult: true,
        providerVersion: publication.providerVersion,
        ...(publication.branch !== undefined ? { providerVersionBranch: publication.branch } : {}),
        ...(publication.buildUrl !== undefined ? { buildUrl: publication.buildUrl } : {}),
      };
