import type { AddressCheck, AddressProblem, AddressValidator, PostalAddress } from './address-validator';
import { isUsState, zipMatchesState } from './us-states';

// The default validator: no network, but a real check of the address's form. It cannot
// know whether "123 Main St" exists in that town; a provider (ADDRESS_VALIDATOR=http) can.

// A house number (123, 123A, Queens-style 12-34, an optional "1/2"), then a street name.
const STREET = /^([0-9]+[A-Za-z]?(?:-[0-9]+[A-Za-z]?)?(?: 1\/2)?) (.+)$/;
const PO_BOX = /^(?:P\.? ?O\.?|Post Office) Box [0-9]+[A-Za-z]?$/i;
const CITY = /^[A-Za-z][A-Za-z .'-]*$/;
const ZIP = /^([0-9]{5})(?:-([0-9]{4}))?$/;
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
const CONTROL = /[\u0000-\u001f\u007f]/;

const collapse = (value: string) => value.trim().replace(/\s+/g, ' ');

function checkStreet(raw: string): string | undefined {
  const street = collapse(raw);
  if (CONTROL.test(raw)) return 'address contains control characters';
  if (street.length > 100) return 'address is longer than 100 characters';
  if (PO_BOX.test(street)) return undefined;
  const m = STREET.exec(street);
  if (!m) return 'address must start with a street number followed by the street name';
  if (/^[0-]+$/.test(m[1].replace(/[A-Za-z]/g, ''))) return 'street number must not be zero';
  // The name needs a real word: "12 3" or "12 #" is not a street.
  if (!/[A-Za-z]{2,}/.test(m[2])) return 'address must name the street after the number';
  return undefined;
}

function checkAddress(input: PostalAddress): AddressProblem[] {
  const problems: AddressProblem[] = [];
  const streetProblem = checkStreet(input.address);
  if (streetProblem) problems.push({ field: 'address', message: streetProblem });

  const city = collapse(input.city);
  if (!CITY.test(city) || city.length > 50)
    problems.push({ field: 'city', message: `city '${input.city}' is not a town name` });

  const state = input.state.trim().toUpperCase();
  const stateExists = /^[A-Z]{2}$/.test(state) && isUsState(state);
  if (!stateExists)
    problems.push({ field: 'state', message: `state '${input.state}' is not a two-letter US state code` });

  const zip = ZIP.exec(input.zip.trim());
  if (!zip) problems.push({ field: 'zip', message: `zip '${input.zip}' must be 5 digits or ZIP+4 (12345-6789)` });
  else if (zip[1] === '00000') problems.push({ field: 'zip', message: 'zip 00000 does not exist' });
  else if (stateExists && !zipMatchesState(zip[1], state))
    problems.push({ field: 'zip', message: `zip ${zip[1]} is not in ${state}` });

  return problems;
}

export function createLocalAddressValidator(): AddressValidator {
  return {
    name: 'local',
    async validate(input: PostalAddress): Promise<AddressCheck> {
      const problems = checkAddress(input);
      if (problems.length > 0) return { valid: false, problems };
      return {
        valid: true,
        standardized: {
          address: collapse(input.address),
          city: collapse(input.city),
          state: input.state.trim().toUpperCase(),
          zip: input.zip.trim(),
        },
      };
    },
  };
}
