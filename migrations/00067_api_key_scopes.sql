-- +goose Up
-- What an API key may do, space-separated (turbinesim.Scope): every key
-- so far gets 'simulation' only. Member, role, invitation, cap, settings
-- and key changes need an interactive session whatever a key's scopes.
ALTER TABLE api_keys ADD COLUMN scopes text NOT NULL DEFAULT 'simulation'
    CHECK (scopes ~ '^(simulation|org:read)( (simulation|org:read))*$');

-- +goose Down
ALTER TABLE api_keys DROP COLUMN scopes;
