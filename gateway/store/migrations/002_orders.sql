-- Orders placed through the gateway. An order is recorded before it is forwarded
-- (received → forwarded → confirmed / failed / unknown), with what was sent and what came back.
-- No duplicate orders: the unique constraints make the INSERT itself the claim, so two
-- gateway instances (or two concurrent retries) cannot both forward the same order.

CREATE TABLE orders (
  id                     bigserial PRIMARY KEY,
  user_id                integer NOT NULL REFERENCES users (id),
  username               text NOT NULL,
  purchase_order_number  text NOT NULL CHECK (purchase_order_number <> ''),
  -- The buyer's Idempotency-Key header, when sent.
  idempotency_key        text CHECK (idempotency_key <> ''),
  member_id              text NOT NULL REFERENCES members (id),
  -- received: claimed, not yet sent; forwarded: sent, awaiting the seller; confirmed: the
  -- seller accepted it; failed: it was certainly not placed (a retry may place it);
  -- unknown: it may have been placed (deadline passed, or an answer we could not trust).
  status                 text NOT NULL CHECK (status IN ('received', 'forwarded', 'confirmed', 'failed', 'unknown')),
  attempts               integer NOT NULL DEFAULT 1 CHECK (attempts > 0),
  request_id             text,
  forwarded_request      jsonb NOT NULL,
  -- The seller's reply as received, when there was one.
  seller_reply           jsonb,
  -- What the buyer was answered ({http_status, body}); a repeat is answered the same.
  answer                 jsonb,
  error                  text,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL,
  UNIQUE (user_id, purchase_order_number)
);
CREATE UNIQUE INDEX orders_idempotency_key ON orders (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX orders_member_created ON orders (member_id, created_at);
