-- A catalog session acts for the buyer system that launched it: keep which API client and
-- key, so requests made in the session are attributed like the buyer system's own.
-- Nullable: sessions opened before this migration had none (they expire within minutes).
ALTER TABLE catalog_sessions ADD COLUMN client_id text;
ALTER TABLE catalog_sessions ADD COLUMN kid text;
