// The address-validation service the internal API consults before creating a user. A local
// default checks the address's form (address-rules.ts); a real provider plugs in through
// the same interface (http-address-validator.ts), chosen by ADDRESS_VALIDATOR.

/** The postal fields of a user-creation request, as the caller sent them. */
export interface PostalAddress {
  address: string;
  city: string;
  state: string;
  zip: string;
}

/** One reason an address was refused; `field` names the request field at fault. */
export interface AddressProblem {
  field: keyof PostalAddress;
  message: string;
}

export type AddressCheck =
  | {
      valid: true;
      /** The provider's standardized form (e.g. state upper-cased), stored instead of the input. */
      standardized: PostalAddress;
    }
  | { valid: false; problems: AddressProblem[] };

export interface AddressValidator {
  /** Resolves with the verdict; rejects with AddressServiceUnavailable when no verdict could be had. */
  validate(address: PostalAddress): Promise<AddressCheck>;
  /** 'local' or the provider's name, for logs. */
  readonly name: string;
}

/** The provider could not be reached or answered nonsense: not the caller's fault, so not a 400. */
export class AddressServiceUnavailable extends Error {
  override readonly name = 'AddressServiceUnavailable';
}
