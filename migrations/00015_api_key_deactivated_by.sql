-- +goose Up
-- Who deactivated an inactive API key: its owner, or an organization
-- administrator acting on a member's key. An administrator's deactivation
-- sticks: the owner cannot reactivate the key (403), an administrator
-- can; reactivation clears the column. No foreign key: the deactivation
-- must keep sticking after the administrator's account is gone.
ALTER TABLE api_keys ADD COLUMN deactivated_by uuid;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_deactivated_by_inactive CHECK (deactivated_by IS NULL OR NOT active);

-- Keys an administrator deactivated before this column existed (audited
-- since 00014): an inactive, unrevoked key whose latest administrator
-- deactivate/reactivate entry is a deactivation by someone other than its
-- owner. Owner actions are not audited, so a key the owner reactivated and
-- deactivated again after that entry is also marked: it then needs an
-- administrator, the safe side for a key an administrator once stopped.
UPDATE api_keys k SET deactivated_by = a.user_id
  FROM (SELECT DISTINCT ON (target_client_id) target_client_id, user_id, path
          FROM audit_log
         WHERE target_client_id IS NOT NULL AND (path LIKE '%/deactivate' OR path LIKE '%/reactivate')
         ORDER BY target_client_id, id DESC) a
 WHERE a.target_client_id = k.client_id AND a.path LIKE '%/deactivate'
   AND NOT k.active AND k.revoked_at IS NULL AND a.user_id <> k.user_id;

-- +goose Down
ALTER TABLE api_keys DROP CONSTRAINT api_keys_deactivated_by_inactive;
ALTER TABLE api_keys DROP COLUMN deactivated_by;
