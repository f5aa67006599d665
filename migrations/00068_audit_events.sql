-- +goose Up
-- The audit log records what changed, not only which request: an event name
-- (turbinesim.AuditEvent), the kind and id of what it changed and a summary
-- for people (old and new values). Events are written in the transaction of
-- their change. user_id is NULL for a change made outside any request.
ALTER TABLE audit_log ADD COLUMN event text NOT NULL DEFAULT 'api_request';
ALTER TABLE audit_log ADD COLUMN target_type text NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN target_id text NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN summary text NOT NULL DEFAULT '';
ALTER TABLE audit_log ALTER COLUMN user_id DROP NOT NULL;
-- Entries written so far for an administrator's action on a member's key.
UPDATE audit_log SET target_type = 'api_key', event = CASE
        WHEN method = 'DELETE' OR path LIKE '%/revoke' THEN 'api_key.revoked'
        WHEN path LIKE '%/deactivate' THEN 'api_key.deactivated'
        ELSE 'api_key.reactivated' END
 WHERE target_client_id IS NOT NULL;
CREATE INDEX audit_log_org_event_idx ON audit_log (organization_id, event, id DESC);

-- +goose Down
DROP INDEX audit_log_org_event_idx;
DELETE FROM audit_log WHERE user_id IS NULL;
ALTER TABLE audit_log ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE audit_log DROP COLUMN summary;
ALTER TABLE audit_log DROP COLUMN target_id;
ALTER TABLE audit_log DROP COLUMN target_type;
ALTER TABLE audit_log DROP COLUMN event;
