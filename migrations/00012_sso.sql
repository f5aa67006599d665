-- +goose Up
-- Accounts at social identity providers, linked by (provider, subject):
-- the provider's stable user id, never the e-mail address alone.
CREATE TABLE sso_identities (
    provider   text NOT NULL,
    subject    text NOT NULL,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email      text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (provider, subject)
);
CREATE INDEX sso_identities_user_idx ON sso_identities (user_id);

-- +goose Down
DROP TABLE sso_identities;
