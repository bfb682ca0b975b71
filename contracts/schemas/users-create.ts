import { Type, type Static } from '@sinclair/typebox';
import { Closed, Formatted, Id, ListOf, Text } from './common';

// Internal user creation. Defaults are the specification's; the API applies them.

export const UserLocation = Closed({
  id: Id('Must be a valid location for the member'),
  can_order: Type.Boolean(),
  sort_order: Type.Integer({ minimum: 1, description: 'Unique; 1 marks the primary location' }),
});
export type UserLocation = Static<typeof UserLocation>;

export const UsersCreateRequest = Closed(
  {
    username: Id('Unique'),
    first_name: Id(),
    last_name: Id(),
    email: Formatted('email', 'Unique, case-insensitive'),
    address: Id('Street address; validated by the address-validation service'),
    city: Id(),
    state: Id(),
    zip: Id(),
    employee_id: Id(),
    catalog_region_id: Id(),
    account_id: Id(),
    // The spec's pattern, anchored; an empty string means "not given" (the default).
    phone_number: Type.Optional(Type.String({ pattern: '^(\\+?1?\\d{10})?$', default: '' })),
    company_name: Type.Optional(Type.String({ default: '' })),
    terminal_pin: Type.Optional(Type.Union([Type.String(), Type.Null()], { default: null })),
    locations: ListOf(UserLocation, { minItems: 1 }),
  },
  { title: 'Create user — request' },
);
export type UsersCreateRequest = Static<typeof UsersCreateRequest>;

export const UsersCreateReply = Closed({ username: Text(), user_id: Type.Integer({ minimum: 1 }) }, { title: 'Create user — reply' });
export type UsersCreateReply = Static<typeof UsersCreateReply>;
