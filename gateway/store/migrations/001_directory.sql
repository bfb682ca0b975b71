-- The gateway's directory: members and their seller systems, locations, accounts,
-- catalog regions, buyer users and their locations, API clients and their public keys.
-- Runs unchanged on PGlite and PostgreSQL; the migration runner wraps it in a transaction.

CREATE TABLE members (
  id                    text PRIMARY KEY CHECK (id <> ''),
  name                  text NOT NULL,
  seller_url            text NOT NULL CHECK (seller_url ~ '^https?://'),
  seller_auth_kind      text NOT NULL DEFAULT 'none' CHECK (seller_auth_kind IN ('none', 'bearer', 'basic')),
  seller_auth_token     text,
  seller_auth_username  text,
  seller_auth_password  text,
  integration           text,
  timeout_ms            integer NOT NULL DEFAULT 5000 CHECK (timeout_ms > 0),
  -- strict: a reply that breaks a rule is refused (5500); lenient: passed on with a warning.
  reply_mode            text NOT NULL DEFAULT 'strict' CHECK (reply_mode IN ('strict', 'lenient')),
  -- Each auth kind carries exactly the secrets it needs, so a half-configured member cannot exist.
  CONSTRAINT members_seller_auth_fields CHECK (
    (seller_auth_kind = 'none'   AND seller_auth_token IS NULL AND seller_auth_username IS NULL AND seller_auth_password IS NULL) OR
    (seller_auth_kind = 'bearer' AND seller_auth_token IS NOT NULL AND seller_auth_username IS NULL AND seller_auth_password IS NULL) OR
    (seller_auth_kind = 'basic'  AND seller_auth_token IS NULL AND seller_auth_username IS NOT NULL AND seller_auth_password IS NOT NULL)
  )
);

CREATE TABLE locations (
  id           text PRIMARY KEY CHECK (id <> ''),
  member_id    text NOT NULL REFERENCES members (id),
  description  text NOT NULL,
  -- 1 store, 2 warehouse (contracts/codes.ts LocationType)
  type         smallint NOT NULL CHECK (type IN (1, 2)),
  -- Target of the composite foreign key that ties a user's location to the same member as its account.
  UNIQUE (id, member_id)
);

CREATE TABLE accounts (
  member_id    text NOT NULL REFERENCES members (id),
  account_id   text NOT NULL CHECK (account_id <> ''),
  description  text NOT NULL,
  standing     text NOT NULL DEFAULT 'good' CHECK (standing IN ('good', 'on_hold', 'credit_limit')),
  PRIMARY KEY (member_id, account_id)
);

CREATE TABLE catalog_regions (
  id    text PRIMARY KEY CHECK (id <> ''),
  name  text NOT NULL
);

CREATE TABLE users (
  id                 serial PRIMARY KEY,
  username           text NOT NULL UNIQUE CHECK (username <> ''),
  email              text NOT NULL CHECK (email <> ''),
  first_name         text NOT NULL,
  last_name          text NOT NULL,
  address            text NOT NULL,
  city               text NOT NULL,
  state              text NOT NULL,
  zip                text NOT NULL,
  employee_id        text NOT NULL,
  catalog_region_id  text NOT NULL REFERENCES catalog_regions (id),
  account_id         text NOT NULL,
  member_id          text NOT NULL,
  phone_number       text NOT NULL DEFAULT '',
  company_name       text NOT NULL DEFAULT '',
  terminal_pin       text,
  password_hash      text,
  created_at         timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (member_id, account_id) REFERENCES accounts (member_id, account_id)
);
-- E-mail addresses are unique regardless of case (Ann@x.com and ann@x.com are one person).
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));

CREATE TABLE user_locations (
  user_id      integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  location_id  text NOT NULL,
  -- The location's member, repeated so the database itself guarantees the account is held there.
  member_id    text NOT NULL,
  account_id   text NOT NULL,
  can_order    boolean NOT NULL,
  sort_order   integer NOT NULL CHECK (sort_order > 0),
  PRIMARY KEY (user_id, location_id),
  UNIQUE (user_id, sort_order),
  FOREIGN KEY (location_id, member_id) REFERENCES locations (id, member_id),
  FOREIGN KEY (member_id, account_id) REFERENCES accounts (member_id, account_id)
);

CREATE TABLE api_clients (
  id          text PRIMARY KEY CHECK (id <> ''),
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_client_users (
  client_id  text NOT NULL REFERENCES api_clients (id) ON DELETE CASCADE,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (client_id, user_id)
);
CREATE INDEX api_client_users_user_id_idx ON api_client_users (user_id);

CREATE TABLE api_keys (
  kid             text PRIMARY KEY CHECK (kid <> ''),
  client_id       text NOT NULL REFERENCES api_clients (id) ON DELETE CASCADE,
  algorithm       text NOT NULL CHECK (algorithm IN ('RS256', 'ES256')),
  public_key_pem  text NOT NULL CHECK (public_key_pem LIKE '-----BEGIN PUBLIC KEY-----%'),
  active          boolean NOT NULL DEFAULT true,
  created_at      timestamptz NOT NULL DEFAULT now(),
  revoked_at      timestamptz,
  -- A revoked key is never active again; an active key has no revocation time.
  CONSTRAINT api_keys_revocation CHECK (active = (revoked_at IS NULL))
);
CREATE INDEX api_keys_client_id_idx ON api_keys (client_id);
