import { Type } from '@sinclair/typebox';
import { EnvChoice, EnvInteger, EnvString, EnvUrl, Optional, readEnvironment } from '../../shared/environment';
import type { AddressValidator } from './address-validator';
import { createHttpAddressValidator } from './http-address-validator';
import { createLocalAddressValidator } from './local-address-validator';

// The configuration switch: the local checks (default) or an HTTP address provider.

export const ADDRESS_VALIDATOR_ENVIRONMENT = Type.Object({
  ADDRESS_VALIDATOR: EnvChoice(['local', 'http'], {
    default: 'local',
    description: 'who checks postal addresses of new users',
  }),
  ADDRESS_VALIDATOR_URL: Optional(
    EnvUrl({ description: "the provider's endpoint (needed with ADDRESS_VALIDATOR=http)" }),
  ),
  ADDRESS_VALIDATOR_TOKEN: Optional(EnvString({ description: "the provider's bearer token" })),
  ADDRESS_VALIDATOR_TIMEOUT_MS: Optional(
    EnvInteger({ minimum: 1, defaultText: '5000', description: 'how long the provider may take' }),
  ),
});

export function addressValidatorFromEnv(env: NodeJS.ProcessEnv = process.env): AddressValidator {
  const settings = readEnvironment(ADDRESS_VALIDATOR_ENVIRONMENT, env);
  if (settings.ADDRESS_VALIDATOR === 'local') return createLocalAddressValidator();
  if (settings.ADDRESS_VALIDATOR_URL === undefined)
    throw new Error('ADDRESS_VALIDATOR=http needs ADDRESS_VALIDATOR_URL');
  return createHttpAddressValidator({
    url: settings.ADDRESS_VALIDATOR_URL,
    token: settings.ADDRESS_VALIDATOR_TOKEN,
    timeoutMs: settings.ADDRESS_VALIDATOR_TIMEOUT_MS,
  });
}
