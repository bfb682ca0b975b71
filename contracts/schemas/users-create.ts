import { Type, type Static } from '@sinclair/typebox';
import {
  Closed,
  Formatted,
  Id,
  Key,
  Int4,
  ListOf,
  MAX_ID_LENGTH,
  MAX_NAME_LENGTH,
  PLAIN_TEXT_PATTERN,
  ReplyText,
  Text,
} from './common';

// Internal user creation. Defaults are the specification's; the API applies them.

export const UserLocation = Closed({
  id: Id('Must be a valid location for the member'),
  can_order: Type.Boolean(),
  sort_order: Int4({ minimum: 1, description: 'Unique; 1 marks the primary location' }),
});
export type UserLocation = Static<typeof UserLocation>;

export const UsersCreateRequest = Closed(
  {
    username: Id('Unique; at most 150 characters', 150),
    first_name: Id(undefined, MAX_NAME_LENGTH),
    last_name: Id(undefined, MAX_NAME_LENGTH),
    email: Formatted('email', 'Unique, case-insensitive; at most 254 characters'),
    address: Id('Street address; validated by the address-validation service', MAX_NAME_LENGTH),
    city: Id(undefined, MAX_NAME_LENGTH),
    state: Id(undefined, 50),
    zip: Id(undefined, 20),
    employee_id: Id(),
    catalog_region_id: Id(),
    account_id: Id(),
    // The spec's pattern, anchored (so at most 12 characters); an empty string means "not given" (the default).
    phone_number: Type.Optional(Type.String({ pattern: '^(\\+?1?\\d{10})?$', default: '' })),
    company_name: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH, pattern: PLAIN_TEXT_PATTERN, default: '' })),
    terminal_pin: Type.Optional(Type.Union([Text(undefined, MAX_ID_LENGTH), Type.Null()], { default: null })),
    locations: ListOf(UserLocation, { minItems: 1 }),
  },
  { title: 'Create user — request' },
);
export type UsersCreateRequest = Static<typeof UsersCreateRequest>;

export const UsersCreateReply = Closed({ username: ReplyText(), user_id: Key() }, { title: 'Create user — reply' });
export type UsersCreateReply = Static<typeof UsersCreateReply>;
