-- +goose Up
-- Failed sign-ins per (account, client address) pair with an exponential
-- back-off: failures at one address never hold back the account at
-- another, so nobody can lock an owner out by failing on purpose.
-- login_failures keeps the fixed-window counts of password-reset requests
-- and sign-ups.
CREATE TABLE login_backoff (
    account      text NOT NULL,
    client       text NOT NULL,
    failures     integer NOT NULL CHECK (failures >= 1),
    last_failure timestamptz NOT NULL,
    locked_until timestamptz NOT NULL,
    PRIMARY KEY (account, client)
);
CREATE INDEX login_backoff_last_failure_idx ON login_backoff (last_failure);
DELETE FROM login_failures WHERE bucket LIKE 'a:%' OR bucket LIKE 'i:%';

-- +goose Down
DROP TABLE login_backoff;
