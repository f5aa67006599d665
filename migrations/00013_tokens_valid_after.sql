-- +goose Up
-- "Sign out everywhere": access tokens issued and browser sessions started
-- before this instant are refused (ASVS 5.0 7.4.1).
ALTER TABLE users ADD COLUMN tokens_valid_after timestamptz;

-- +goose Down
ALTER TABLE users DROP COLUMN tokens_valid_after;
