-- +goose Up
-- An administrator's revocation, deactivation or reactivation of a
-- member's API key is audited with the key it acted on and that key's
-- owner; user_id is the acting administrator and client_id is empty (the
-- action is interactive-only). Both stay NULL for key-authenticated writes.
ALTER TABLE audit_log ADD COLUMN target_user_id uuid;
ALTER TABLE audit_log ADD COLUMN target_client_id text;

-- +goose Down
ALTER TABLE audit_log DROP COLUMN target_client_id;
ALTER TABLE audit_log DROP COLUMN target_user_id;
