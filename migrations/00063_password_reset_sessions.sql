-- +goose Up
-- Password reset links are one more kind of one-time e-mail token (only
-- their SHA-256 is stored, like verification and invitation tokens).
ALTER TABLE email_tokens DROP CONSTRAINT email_tokens_purpose_check;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_check CHECK (purpose IN ('verify', 'invite', 'reset'));
CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, purpose);

-- Signed-in browser sessions of a user, listed on the account page and
-- revocable one by one. The scs session carries the id; a revoked row
-- makes the next request with that cookie a 401.
CREATE TABLE user_sessions (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    ip           text NOT NULL DEFAULT '',
    user_agent   text NOT NULL DEFAULT '',
    revoked_at   timestamptz
);
CREATE INDEX user_sessions_user_idx ON user_sessions (user_id);

-- Where each refresh token was issued (login or rotation), so a login's
-- family can be shown with its first and latest use.
ALTER TABLE refresh_tokens ADD COLUMN ip text NOT NULL DEFAULT '';
ALTER TABLE refresh_tokens ADD COLUMN user_agent text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE refresh_tokens DROP COLUMN user_agent;
ALTER TABLE refresh_tokens DROP COLUMN ip;
DROP TABLE user_sessions;
DROP INDEX email_tokens_user_idx;
DELETE FROM email_tokens WHERE purpose = 'reset';
ALTER TABLE email_tokens DROP CONSTRAINT email_tokens_purpose_check;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_check CHECK (purpose IN ('verify', 'invite'));
