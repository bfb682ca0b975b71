import type { AddressValidator } from './address-validator';
import { createHttpAddressValidator } from './http-address-validator';
import { createLocalAddressValidator } from './local-address-validator';

// The configuration switch. ADDRESS_VALIDATOR=local (default) or http, with
// ADDRESS_VALIDATOR_URL, optional ADDRESS_VALIDATOR_TOKEN and ADDRESS_VALIDATOR_TIMEOUT_MS.

export function addressValidatorFromEnv(env: NodeJS.ProcessEnv = process.env): AddressValidator {
  const kind = (env.ADDRESS_VALIDATOR ?? 'local').trim().toLowerCase();
  if (kind === 'local' || kind === '') return createLocalAddressValidator();
  if (kind === 'http') {
    const url = env.ADDRESS_VALIDATOR_URL;
    if (!url) throw new Error('ADDRESS_VALIDATOR=http needs ADDRESS_VALIDATOR_URL');
    const timeoutMs = env.ADDRESS_VALIDATOR_TIMEOUT_MS ? Number(env.ADDRESS_VALIDATOR_TIMEOUT_MS) : undefined;
    if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new Error('ADDRESS_VALIDATOR_TIMEOUT_MS must be a positive number');
    return createHttpAddressValidator({ url, token: env.ADDRESS_VALIDATOR_TOKEN, timeoutMs });
  }
  throw new Error(`ADDRESS_VALIDATOR must be 'local' or 'http', not '${env.ADDRESS_VALIDATOR}'`);
}
