-- Production conformance with its denominators: how many seller replies the gateway judged,
-- how many broke a rule (any, and each one), per member and operation, in minute buckets.
-- Every gateway instance counts in memory and adds its counts here (INSERT … ON CONFLICT DO
-- UPDATE SET n = n + excluded.n), so the figures of several instances add up. Buckets older
-- than eight days are folded into their hour: the rolling week stays exact to the minute,
-- "since the last certificate" further back is exact to the hour.
-- No foreign key to members: the figures are history and outlive a member's row.
CREATE TABLE conformance_replies (
  member_id      text NOT NULL CHECK (member_id <> ''),
  operation      text NOT NULL CHECK (operation IN ('item-inquiry', 'place-order', 'invoice', 'statement')),
  minute         timestamptz NOT NULL,
  judged         bigint NOT NULL CHECK (judged >= 0),
  -- Replies that broke at least one rule: a reply breaking two rules counts once here.
  nonconforming  bigint NOT NULL CHECK (nonconforming >= 0),
  PRIMARY KEY (member_id, operation, minute)
);
CREATE INDEX conformance_replies_minute ON conformance_replies (minute);

-- Replies that broke one rule (a reply breaking it at three items counts once).
CREATE TABLE conformance_broken (
  member_id  text NOT NULL CHECK (member_id <> ''),
  operation  text NOT NULL,
  rule       text NOT NULL CHECK (rule <> ''),
  minute     timestamptz NOT NULL,
  replies    bigint NOT NULL CHECK (replies >= 0),
  PRIMARY KEY (member_id, operation, rule, minute)
);
CREATE INDEX conformance_broken_minute ON conformance_broken (minute);

-- The last few exchanges that broke each rule, per member (the newest 20 of each
-- member × rule are kept): the forwarded request with the buyer's
-- identity removed, and the seller's reply as read. They become the member's replay file.
CREATE TABLE conformance_samples (
  id           bigserial PRIMARY KEY,
  member_id    text NOT NULL CHECK (member_id <> ''),
  operation    text NOT NULL,
  rule         text NOT NULL CHECK (rule <> ''),
  seen_at      timestamptz NOT NULL,
  request      text NOT NULL,
  -- NULL when the reply was larger than a sample keeps; reply_bytes says how large it was.
  reply        text,
  reply_bytes  integer NOT NULL CHECK (reply_bytes >= 0),
  -- What the gateway found: the rule's violations in this reply (path, message, id, expected, found).
  violations   text NOT NULL
);
CREATE INDEX conformance_samples_member_rule ON conformance_samples (member_id, rule, id DESC);
