-- +goose Up
-- Refresh tokens, one row per issued token (only the SHA-256 of its jti).
-- A family is the chain of rotations that started at one login; a reused
-- token revokes every token of its family.
CREATE TABLE refresh_tokens (
    jti_hash    bytea PRIMARY KEY,
    family_id   uuid NOT NULL,
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at  timestamptz NOT NULL, -- absolute end of the family (30 days from login)
    used_at     timestamptz,
    revoked_at  timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);

-- API keys: the Client ID (first 12 characters of the key) is public and
-- unique; the secret is kept only as SHA-256 (high-entropy secret, so a
-- fast hash is enough).
CREATE TABLE api_keys (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    client_id       text NOT NULL UNIQUE CHECK (length(client_id) = 12),
    secret_hash     bytea NOT NULL CHECK (length(secret_hash) = 32),
    name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    active          boolean NOT NULL DEFAULT true,
    revoked_at      timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_used_at    timestamptz
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id);

-- Every key-authenticated write.
CREATE TABLE audit_log (
    id              bigserial PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id         uuid NOT NULL,
    client_id       text NOT NULL,
    method          text NOT NULL,
    path            text NOT NULL,
    status          integer NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_org_idx ON audit_log (organization_id, id DESC);

-- Fixed one-minute request windows, shared by every server process.
CREATE TABLE rate_limit_windows (
    bucket       text NOT NULL,        -- 'u:<user id>' or 'o:<org id>'
    window_start timestamptz NOT NULL,
    count        integer NOT NULL,
    PRIMARY KEY (bucket, window_start)
);

-- Monthly caps and consumption per organization.
CREATE TABLE org_caps (
    organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    spend_cap_cents bigint NOT NULL CHECK (spend_cap_cents >= 0),
    token_cap       bigint NOT NULL CHECK (token_cap >= 0)
);
CREATE TABLE org_usage (
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    month           date NOT NULL,
    spent_cents     bigint NOT NULL DEFAULT 0 CHECK (spent_cents >= 0),
    tokens          bigint NOT NULL DEFAULT 0 CHECK (tokens >= 0),
    PRIMARY KEY (organization_id, month)
);

-- An organization can be switched off as a whole: its users get 401.
ALTER TABLE organizations ADD COLUMN active boolean NOT NULL DEFAULT true;

-- +goose Down
ALTER TABLE organizations DROP COLUMN active;
DROP TABLE org_usage;
DROP TABLE org_caps;
DROP TABLE rate_limit_windows;
DROP TABLE audit_log;
DROP TABLE api_keys;
DROP TABLE refresh_tokens;
