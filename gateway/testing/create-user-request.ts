// A create-user request that passes every rule against the seeded directory (account
// A-1001 at member M100, locations L101 and L150 there); tests change one thing at a time.
export const validCreateUserRequest = (change: Record<string, unknown> = {}): Record<string, unknown> => ({
  username: 'nina',
  first_name: 'Nina',
  last_name: 'Newman',
  email: 'nina@new-garage.example',
  address: '12 Elm St',
  city: 'Northside',
  state: 'MI',
  zip: '49001',
  employee_id: 'E-0100',
  catalog_region_id: 'CR-NORTH',
  account_id: 'A-1001',
  locations: [
    { id: 'L101', can_order: true, sort_order: 1 },
    { id: 'L150', can_order: false, sort_order: 2 },
  ],
  ...change,
});
