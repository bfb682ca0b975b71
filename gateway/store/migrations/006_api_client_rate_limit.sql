-- Requests per rate-limit window an API client may make (GATEWAY_RATE_LIMIT_WINDOW_MS);
-- NULL: the gateway's default (GATEWAY_RATE_LIMIT).
ALTER TABLE api_clients ADD COLUMN rate_limit integer CHECK (rate_limit > 0);
