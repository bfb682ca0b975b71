-- The catalog (vehicles, taxonomy, products, fitment, assets) and catalog sessions with
-- their carts. Runs unchanged on PGlite and PostgreSQL; the runner wraps it in a transaction.

-- Typo tolerance uses pg_trgm where the database has it (PostgreSQL contrib; PGlite when
-- opened with the pg_trgm extension). Without it search still works on full-text and
-- prefixes, so a missing extension must not fail the migration.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm unavailable (%): catalog search runs without typo tolerance', SQLERRM;
END
$$;

CREATE TABLE catalog_vehicle_group_types (
  id    integer PRIMARY KEY CHECK (id > 0),
  name  text NOT NULL
);

CREATE TABLE catalog_makes (
  id    integer PRIMARY KEY CHECK (id > 0),
  name  text NOT NULL
);

CREATE TABLE catalog_models (
  id                     integer PRIMARY KEY CHECK (id > 0),
  make_id                integer NOT NULL REFERENCES catalog_makes (id),
  vehicle_group_type_id  integer NOT NULL REFERENCES catalog_vehicle_group_types (id),
  name                   text NOT NULL
);

CREATE TABLE catalog_engines (
  key   text PRIMARY KEY CHECK (key <> ''),
  name  text NOT NULL
);

CREATE TABLE catalog_base_vehicles (
  id        integer PRIMARY KEY CHECK (id > 0),
  year_id   integer NOT NULL CHECK (year_id BETWEEN 1896 AND 2100),
  make_id   integer NOT NULL REFERENCES catalog_makes (id),
  model_id  integer NOT NULL REFERENCES catalog_models (id),
  -- "2015 Honda Civic", kept by the seed; what vehicle search matches against.
  name      text NOT NULL DEFAULT '',
  search_text text NOT NULL DEFAULT '',
  -- Punctuation becomes a space first: PostgreSQL's parser reads "F-150" as "f" and "-150".
  search_tsv tsvector GENERATED ALWAYS AS (
    to_tsvector('simple'::regconfig, regexp_replace(search_text, '[^[:alnum:]]+', ' ', 'g'))
  ) STORED,
  UNIQUE (year_id, make_id, model_id)
);
CREATE INDEX catalog_base_vehicles_search ON catalog_base_vehicles USING gin (search_tsv);

CREATE TABLE catalog_base_vehicle_engines (
  base_vehicle_id  integer NOT NULL REFERENCES catalog_base_vehicles (id) ON DELETE CASCADE,
  engine_key       text NOT NULL REFERENCES catalog_engines (key),
  PRIMARY KEY (base_vehicle_id, engine_key)
);

CREATE TABLE catalog_categories (
  id         integer PRIMARY KEY CHECK (id > 0),
  taxonomy   text NOT NULL CHECK (taxonomy <> ''),
  parent_id  integer REFERENCES catalog_categories (id),
  name       text NOT NULL
);
CREATE INDEX catalog_categories_taxonomy ON catalog_categories (taxonomy, parent_id);

CREATE TABLE catalog_part_types (
  id           integer PRIMARY KEY CHECK (id > 0),
  category_id  integer NOT NULL REFERENCES catalog_categories (id),
  name         text NOT NULL
);

CREATE TABLE catalog_products (
  sku           integer PRIMARY KEY CHECK (sku > 0),
  mfr_code      text NOT NULL CHECK (mfr_code <> ''),
  brand         text NOT NULL,
  part_number   text NOT NULL CHECK (part_number <> ''),
  description   text NOT NULL,
  part_type_id  integer NOT NULL REFERENCES catalog_part_types (id),
  list_price    numeric(12, 2) NOT NULL CHECK (list_price >= 0),
  pack_code     text NOT NULL DEFAULT 'EA',
  -- Part type, category and fitted vehicles in words, kept by the seed, so "brake pads civic" matches.
  search_names     text NOT NULL DEFAULT '',
  search_vehicles  text NOT NULL DEFAULT '',
  -- Weighted: identifiers first, then what the part is, then what it fits.
  search_tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple'::regconfig, regexp_replace(mfr_code || ' ' || part_number || ' ' || brand, '[^[:alnum:]]+', ' ', 'g')), 'A') ||
    setweight(to_tsvector('english'::regconfig, regexp_replace(description || ' ' || search_names, '[^[:alnum:]]+', ' ', 'g')), 'B') ||
    setweight(to_tsvector('english'::regconfig, regexp_replace(search_vehicles, '[^[:alnum:]]+', ' ', 'g')), 'C')
  ) STORED,
  UNIQUE (mfr_code, part_number)
);
CREATE INDEX catalog_products_search ON catalog_products USING gin (search_tsv);
CREATE INDEX catalog_products_part_type ON catalog_products (part_type_id);

CREATE TABLE catalog_product_attributes (
  sku         integer NOT NULL REFERENCES catalog_products (sku) ON DELETE CASCADE,
  sort_order  integer NOT NULL,
  name        text NOT NULL,
  value       text NOT NULL,
  PRIMARY KEY (sku, sort_order)
);

-- An application: one product fitted to one base vehicle (and engine, when it matters).
CREATE TABLE catalog_applications (
  id               integer PRIMARY KEY CHECK (id > 0),
  sku              integer NOT NULL REFERENCES catalog_products (sku) ON DELETE CASCADE,
  base_vehicle_id  integer NOT NULL REFERENCES catalog_base_vehicles (id),
  engine_key       text REFERENCES catalog_engines (key),
  position         text,
  note             text
);
CREATE INDEX catalog_applications_sku ON catalog_applications (sku);
CREATE INDEX catalog_applications_vehicle ON catalog_applications (base_vehicle_id, engine_key);

-- An asset belongs to a product or to one application of it, never both.
CREATE TABLE catalog_assets (
  id              integer PRIMARY KEY CHECK (id > 0),
  sku             integer REFERENCES catalog_products (sku) ON DELETE CASCADE,
  application_id  integer REFERENCES catalog_applications (id) ON DELETE CASCADE,
  kind            text NOT NULL CHECK (kind IN ('image', 'spec_sheet', 'installation', 'video', 'diagram')),
  url             text NOT NULL CHECK (url ~ '^https?://'),
  description     text NOT NULL DEFAULT '',
  is_primary      boolean NOT NULL DEFAULT false,
  CHECK ((sku IS NULL) <> (application_id IS NULL))
);
CREATE INDEX catalog_assets_sku ON catalog_assets (sku);
CREATE INDEX catalog_assets_application ON catalog_assets (application_id);

-- Every word search can match, per kind ('product', 'vehicle'), kept by the seed: a
-- misspelt query word is replaced by its closest word here before the full-text query runs
-- (pg_trgm's spelling-suggestion technique; the trigram index finds the candidates).
CREATE TABLE catalog_search_words (
  kind  text NOT NULL CHECK (kind IN ('product', 'vehicle')),
  word  text NOT NULL CHECK (word <> ''),
  PRIMARY KEY (kind, word)
);

-- The trigram index only where pg_trgm exists (see above).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX catalog_search_words_trgm ON catalog_search_words USING gist (word gist_trgm_ops)';
  END IF;
END
$$;

-- Carts built in catalog sessions (v3.1 catalog launch). Owned by one buyer user.
CREATE TABLE carts (
  cart_id     uuid PRIMARY KEY,
  username    text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX carts_username ON carts (username);

CREATE TABLE cart_items (
  id                    bigserial PRIMARY KEY,
  cart_id               uuid NOT NULL REFERENCES carts (cart_id) ON DELETE CASCADE,
  sku                   integer,
  mfr_code              text NOT NULL,
  part_number           text NOT NULL,
  description           text NOT NULL,
  quantity              numeric(12, 3) NOT NULL CHECK (quantity > 0),
  location_id           text NOT NULL,
  location_description  text NOT NULL,
  price                 numeric(12, 2) NOT NULL CHECK (price >= 0),
  added_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cart_items_cart ON cart_items (cart_id, id);

-- Catalog session tokens: only a SHA-256 of the token is kept, so a database read does not
-- hand out live sessions. Short-lived; expired rows are ignored and may be deleted.
CREATE TABLE catalog_sessions (
  token_sha256  text PRIMARY KEY,
  cart_id       uuid NOT NULL REFERENCES carts (cart_id) ON DELETE CASCADE,
  username      text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL
);
CREATE INDEX catalog_sessions_expiry ON catalog_sessions (expires_at);
