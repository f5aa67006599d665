-- +goose Up
CREATE TABLE organizations (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    plan       text NOT NULL DEFAULT 'beta' CHECK (plan IN ('beta', 'pro', 'academic', 'enterprise')),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    email           text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 320),
    name            text NOT NULL DEFAULT '',
    password_hash   text,          -- NULL for accounts that can only sign in by SSO
    role            text NOT NULL DEFAULT 'org_member' CHECK (role IN ('org_member', 'org_admin')),
    verified        boolean NOT NULL DEFAULT false,
    active          boolean NOT NULL DEFAULT true,
    deleted_at      timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (email);
CREATE INDEX users_organization_id_idx ON users (organization_id);

-- Browser sessions of alexedwards/scs (the layout its postgresstore expects).
CREATE TABLE sessions (
    token  text PRIMARY KEY,
    data   bytea NOT NULL,
    expiry timestamptz NOT NULL
);
CREATE INDEX sessions_expiry_idx ON sessions (expiry);

-- +goose Down
DROP TABLE sessions;
DROP TABLE users;
DROP TABLE organizations;
