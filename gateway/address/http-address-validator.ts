import { request } from 'undici';
import { Type } from '@sinclair/typebox';
import { compileValidator } from '../../contracts/index';
import { undiciTimeoutsFor } from '../../shared/http/undici-timeouts';
import {
  AddressServiceUnavailable,
  type AddressCheck,
  type AddressValidator,
  type PostalAddress,
} from './address-validator';

// Adapter for a real address-verification provider behind a small HTTP contract:
//   POST <url>  {address, city, state, zip}
//   200 {valid: true, standardized?: {address, city, state, zip}}
//   200 {valid: false, problems?: [{field, message}]}
// A vendor API with another shape gets a thin proxy (or a sibling adapter) speaking this.

const FIELD = Type.Union([Type.Literal('address'), Type.Literal('city'), Type.Literal('state'), Type.Literal('zip')]);
const Postal = Type.Object({ address: Type.String(), city: Type.String(), state: Type.String(), zip: Type.String() });
const ProviderReply = Type.Object({
  valid: Type.Boolean(),
  standardized: Type.Optional(Postal),
  problems: Type.Optional(Type.Array(Type.Object({ field: FIELD, message: Type.String() }))),
});
const checkReply = compileValidator(ProviderReply);

export interface HttpAddressValidatorOptions {
  url: string;
  /** Sent as `Authorization: Bearer …` when set. */
  token?: string;
  /** Whole-call deadline. */
  timeoutMs?: number;
}

export function createHttpAddressValidator(options: HttpAddressValidatorOptions): AddressValidator {
  const timeoutMs = options.timeoutMs ?? 5_000;
  // The signal is the deadline: undici's own 300 s timeouts must not end a longer ADDRESS_VALIDATOR_TIMEOUT_MS first.
  const { headersTimeout, bodyTimeout } = undiciTimeoutsFor(timeoutMs);
  return {
    name: `http ${new URL(options.url).host}`,
    async validate(address: PostalAddress): Promise<AddressCheck> {
      let status: number;
      let text: string;
      try {
        const response = await request(options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          },
          body: JSON.stringify(address),
          signal: AbortSignal.timeout(timeoutMs),
          headersTimeout,
          bodyTimeout,
        });
        status = response.statusCode;
        text = await response.body.text();
      } catch (error) {
        throw new AddressServiceUnavailable(`address provider unreachable: ${(error as Error).message}`);
      }
      if (status !== 200) throw new AddressServiceUnavailable(`address provider answered HTTP ${status}`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new AddressServiceUnavailable('address provider answered with a body that is not JSON');
      }
      const verdict = checkReply(body);
      if (!verdict.valid || !checkReply.is(body)) {
        const first = verdict.errors[0];
        throw new AddressServiceUnavailable(
          `address provider reply broke the contract: ${first?.path} ${first?.message}`,
        );
      }
      if (body.valid) return { valid: true, standardized: body.standardized ?? address };
      const problems = body.problems?.length
        ? body.problems
        : [{ field: 'address' as const, message: 'the provider could not verify this address' }];
      return { valid: false, problems };
    },
  };
}
