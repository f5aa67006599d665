-- +goose Up
-- The outbox keeps recipients and subjects only: message bodies carry
-- one-time links (verification, invitation, password reset) that must
-- reach nobody but the recipient's mailbox. Bodies stored so far go too.
ALTER TABLE email_outbox DROP COLUMN body;

-- +goose Down
ALTER TABLE email_outbox ADD COLUMN body text NOT NULL DEFAULT '';
