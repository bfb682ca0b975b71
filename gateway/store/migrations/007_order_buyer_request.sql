-- The buyer's order as parsed (place order's buyer request), so a repeat of its purchase
-- order number (or Idempotency-Key) can be told apart: the same order gets the first answer,
-- a different one is refused (409) naming the first field that differs. jsonb: key order and
-- whitespace do not count. NULL for orders recorded before this column: a repeat of one of
-- those is answered as before, from its first answer.
ALTER TABLE orders ADD COLUMN buyer_request jsonb;
