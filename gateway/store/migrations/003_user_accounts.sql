-- User accounts created through the internal API: the mail outbox that carries their
-- welcome message. A message row is written in the same transaction as the user, so it
-- exists exactly when the user does; the dispatcher (gateway/mail) delivers and retries.

CREATE TABLE mail_outbox (
  id               bigserial PRIMARY KEY,
  -- Which composer renders the body at delivery time ('welcome').
  kind             text NOT NULL CHECK (kind <> ''),
  recipient        text NOT NULL CHECK (recipient <> ''),
  subject          text NOT NULL,
  -- What the composer needs to render the body; never a password or other secret.
  payload          jsonb NOT NULL DEFAULT '{}'::jsonb,
  user_id          integer REFERENCES users (id) ON DELETE CASCADE,
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
  attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_error       text,
  next_attempt_at  timestamptz NOT NULL,
  -- A dispatcher holds a message while sending it; expired leases are taken over.
  claimed_until    timestamptz,
  created_at       timestamptz NOT NULL,
  sent_at          timestamptz,
  CONSTRAINT mail_outbox_sent_at CHECK ((state = 'sent') = (sent_at IS NOT NULL))
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE state = 'pending';
CREATE INDEX mail_outbox_user_id_idx ON mail_outbox (user_id);
