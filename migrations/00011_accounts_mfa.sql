-- +goose Up
-- Every outgoing message; SMTP delivery (when configured) sets sent_at.
CREATE TABLE email_outbox (
    id              bigserial PRIMARY KEY,
    organization_id uuid REFERENCES organizations (id) ON DELETE CASCADE,
    to_address      text NOT NULL,
    subject         text NOT NULL,
    body            text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz
);
CREATE INDEX email_outbox_org_idx ON email_outbox (organization_id, id DESC);

-- One-time e-mail tokens (verification, invitation): only SHA-256 stored.
CREATE TABLE email_tokens (
    token_hash bytea PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    text NOT NULL CHECK (purpose IN ('verify', 'invite')),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);

-- Failed sign-in attempts in 15-minute windows, per account and per client
-- address.
CREATE TABLE login_failures (
    bucket       text NOT NULL,
    window_start timestamptz NOT NULL,
    count        integer NOT NULL,
    PRIMARY KEY (bucket, window_start)
);

-- TOTP second factor. last_step is the last accepted RFC 6238 time step:
-- a code is accepted only for a later step (no replay within the window).
CREATE TABLE user_mfa (
    user_id    uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret     text NOT NULL,
    enabled    boolean NOT NULL DEFAULT false,
    last_step  bigint NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE recovery_codes (
    user_id   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash bytea NOT NULL,
    used_at   timestamptz,
    PRIMARY KEY (user_id, code_hash)
);

-- +goose Down
DROP TABLE recovery_codes;
DROP TABLE user_mfa;
DROP TABLE login_failures;
DROP TABLE email_tokens;
DROP TABLE email_outbox;
