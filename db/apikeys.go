package db

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/turbinesim/turbinesim"
)

// APIKeyService implements turbinesim.APIKeyService and
// turbinesim.AuditService.
type APIKeyService struct{ db *DB }

var (
	_ turbinesim.APIKeyService = (*APIKeyService)(nil)
	_ turbinesim.AuditService  = (*APIKeyService)(nil)
)

// NewAPIKeyService returns the PostgreSQL API-key store.
func NewAPIKeyService(db *DB) *APIKeyService { return &APIKeyService{db: db} }

const apiKeyColumns = `id, client_id, name, user_id, organization_id, active, revoked_at, created_at, last_used_at,
	deactivated_by, ` + deactivatedByAdmin + ` AS deactivated_by_admin, scopes`

// deactivatedByAdmin is true for a key deactivated by someone other than
// its owner: an organization administrator (migration 00015).
const deactivatedByAdmin = `(deactivated_by IS NOT NULL AND deactivated_by <> user_id)`

var errKeyAdminDeactivated = turbinesim.Errorf(turbinesim.EFORBIDDEN,
	"an organization administrator deactivated this API key; only an administrator can reactivate it")

// maxAPIKeyLength bounds what is hashed and looked up; our keys are 56.
const maxAPIKeyLength = 128

// newAPIKeySecret returns "ofk_" and two rand.Text values: 52 base32
// characters, 260 bits from crypto/rand. The Client ID is its first 12
// characters (40 random bits), unique by constraint.
func newAPIKeySecret() string { return turbinesim.APIKeyPrefix + rand.Text() + rand.Text() }

func secretHash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// CreateAPIKey implements turbinesim.APIKeyService.
func (s *APIKeyService) CreateAPIKey(ctx context.Context, u *turbinesim.User, name string, scopes ...turbinesim.Scope) (*turbinesim.NewAPIKey, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > 100 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "key name must be 1 to 100 characters")
	}
	set, err := turbinesim.ParseScopes(scopes)
	if err != nil {
		return nil, err
	}
	// A Client ID collision (40 random bits) is retried with a new key.
	for attempt := 0; ; attempt++ {
		secret := newAPIKeySecret()
		k := &turbinesim.NewAPIKey{Key: secret}
		err := inTx(ctx, s.db, "creating API key", func(tx *sqlx.Tx) error {
			err := tx.GetContext(ctx, &k.APIKey, `
				INSERT INTO api_keys (client_id, secret_hash, name, user_id, organization_id, scopes)
				VALUES ($1, $2, $3, $4, $5, $6)
				RETURNING `+apiKeyColumns,
				secret[:turbinesim.ClientIDLength], secretHash(secret), name, u.ID, u.OrganizationID, set)
			if err = translate(err, "creating API key"); err != nil {
				return err
			}
			return recordEvent(ctx, tx, u.OrganizationID, keyChange(turbinesim.AuditAPIKeyCreated, &k.APIKey, u.Email,
				fmt.Sprintf("API key %q (%s) created for %s", k.Name, k.Scopes, u.Email)))
		})
		if turbinesim.ErrorCode(err) == turbinesim.ECONFLICT && attempt < 3 {
			continue
		}
		if err != nil {
			return nil, err
		}
		return k, nil
	}
}

// keyChange is the audit record of event on key k of the account owner.
func keyChange(event turbinesim.AuditEvent, k *turbinesim.APIKey, owner, summary string) auditChange {
	if summary == "" {
		verb := strings.TrimPrefix(string(event), "api_key.")
		summary = fmt.Sprintf("API key %q (%s) of %s %s", k.Name, k.ClientID, owner, verb)
	}
	return auditChange{Event: event, TargetType: "api_key", TargetID: k.ID,
		TargetUserID: k.UserID, TargetClientID: k.ClientID, Summary: summary}
}

// ownerEmail is the e-mail of the key's owner, for audit summaries.
func ownerEmail(ctx context.Context, tx *sqlx.Tx, userID string) (string, error) {
	var email string
	err := tx.GetContext(ctx, &email, `SELECT email FROM users WHERE id = $1`, userID)
	return email, translate(err, "finding the key's owner")
}

// ListAPIKeys implements turbinesim.APIKeyService.
func (s *APIKeyService) ListAPIKeys(ctx context.Context, userID string) ([]*turbinesim.APIKey, error) {
	keys := []*turbinesim.APIKey{}
	if !isUUID(userID) {
		return keys, nil
	}
	err := s.db.SelectContext(ctx, &keys, `
		SELECT `+apiKeyColumns+` FROM api_keys WHERE user_id = $1 ORDER BY created_at DESC, id`, userID)
	return keys, translate(err, "listing API keys")
}

var errKeyNotFound = turbinesim.Errorf(turbinesim.ENOTFOUND, "API key not found")

// RevokeAPIKey implements turbinesim.APIKeyService.
func (s *APIKeyService) RevokeAPIKey(ctx context.Context, userID, keyID string) error {
	if !isUUID(userID) || !isUUID(keyID) {
		return errKeyNotFound
	}
	return inTx(ctx, s.db, "revoking API key", func(tx *sqlx.Tx) error {
		var k turbinesim.APIKey
		err := tx.GetContext(ctx, &k, `
			UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()), active = false
			 WHERE id = $1 AND user_id = $2 RETURNING `+apiKeyColumns, keyID, userID)
		if err = translate(err, "revoking API key"); isNotFound(err) {
			return errKeyNotFound
		} else if err != nil {
			return err
		}
		return s.recordOwnKeyChange(ctx, tx, turbinesim.AuditAPIKeyRevoked, &k)
	})
}

// recordOwnKeyChange audits a change of a key by its owner.
func (s *APIKeyService) recordOwnKeyChange(ctx context.Context, tx *sqlx.Tx, event turbinesim.AuditEvent, k *turbinesim.APIKey) error {
	owner, err := ownerEmail(ctx, tx, k.UserID)
	if err != nil {
		return err
	}
	return recordEvent(ctx, tx, k.OrganizationID, keyChange(event, k, owner, ""))
}

// SetAPIKeyActive implements turbinesim.APIKeyService. The owner's
// reactivation is refused in the same statement when an administrator
// deactivated the key, so an administrator's deactivation racing with it
// cannot be undone by it.
func (s *APIKeyService) SetAPIKeyActive(ctx context.Context, userID, keyID string, active bool) (*turbinesim.APIKey, error) {
	if !isUUID(userID) || !isUUID(keyID) {
		return nil, errKeyNotFound
	}
	var k turbinesim.APIKey
	err := inTx(ctx, s.db, "changing API key", func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &k, `
			UPDATE api_keys SET active = $3,
			       deactivated_by = CASE WHEN $3 THEN NULL ELSE coalesce(deactivated_by, user_id) END
			 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND NOT ($3 AND `+deactivatedByAdmin+`)
			RETURNING `+apiKeyColumns, keyID, userID, active)
		if err = translate(err, "changing API key"); err != nil {
			return err
		}
		event := turbinesim.AuditAPIKeyDeactivated
		if active {
			event = turbinesim.AuditAPIKeyReactivated
		}
		return s.recordOwnKeyChange(ctx, tx, event, &k)
	})
	if err == nil {
		return &k, nil
	} else if turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		return nil, err
	}
	// Absent, someone else's, revoked or stopped by an administrator.
	var state struct {
		Revoked bool `db:"revoked"`
		ByAdmin bool `db:"by_admin"`
	}
	err = s.db.GetContext(ctx, &state, `
		SELECT revoked_at IS NOT NULL AS revoked, `+deactivatedByAdmin+` AS by_admin
		  FROM api_keys WHERE id = $1 AND user_id = $2`, keyID, userID)
	switch err = translate(err, "finding API key"); {
	case err == nil && state.Revoked:
		return nil, turbinesim.Errorf(turbinesim.ECONFLICT, "API key is revoked; create a new one")
	case err == nil && state.ByAdmin:
		return nil, errKeyAdminDeactivated
	case err != nil && turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND:
		return nil, err
	}
	return nil, errKeyNotFound
}

// ListOrgAPIKeys implements turbinesim.APIKeyService. Membership is the
// owner's current organization, as for AuthenticateAPIKey.
func (s *APIKeyService) ListOrgAPIKeys(ctx context.Context, orgID string) ([]*turbinesim.OrgAPIKey, error) {
	keys := []*turbinesim.OrgAPIKey{}
	if !isUUID(orgID) {
		return keys, nil
	}
	err := s.db.SelectContext(ctx, &keys, `
		SELECT k.id, k.client_id, k.name, k.user_id, k.organization_id, k.active, k.revoked_at,
		       k.created_at, k.last_used_at, k.deactivated_by,
		       (k.deactivated_by IS NOT NULL AND k.deactivated_by <> k.user_id) AS deactivated_by_admin, k.scopes,
		       u.email AS owner_email, u.name AS owner_name, coalesce(d.email, '') AS deactivated_by_email
		  FROM api_keys k JOIN users u ON u.id = k.user_id
		  LEFT JOIN users d ON d.id = k.deactivated_by
		 WHERE u.organization_id = $1
		 ORDER BY k.created_at DESC, k.id`, orgID)
	return keys, translate(err, "listing the organization's API keys")
}

// RevokeOrgAPIKey implements turbinesim.APIKeyService.
func (s *APIKeyService) RevokeOrgAPIKey(ctx context.Context, admin *turbinesim.User, keyID string, audit *turbinesim.AuditEntry) (*turbinesim.APIKey, error) {
	return s.changeOrgKey(ctx, admin, keyID, turbinesim.AuditAPIKeyRevoked, audit, func(tx *sqlx.Tx, k *turbinesim.APIKey) error {
		return translate(tx.GetContext(ctx, k, `
			UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()), active = false
			 WHERE id = $1 RETURNING `+apiKeyColumns, k.ID), "revoking API key")
	})
}

// SetOrgAPIKeyActive implements turbinesim.APIKeyService. The deactivation
// names the administrator (deactivated_by), which makes it stick when the
// key is another member's; reactivation clears it.
func (s *APIKeyService) SetOrgAPIKeyActive(ctx context.Context, admin *turbinesim.User, keyID string, active bool, audit *turbinesim.AuditEntry) (*turbinesim.APIKey, error) {
	event := turbinesim.AuditAPIKeyDeactivated
	if active {
		event = turbinesim.AuditAPIKeyReactivated
	}
	return s.changeOrgKey(ctx, admin, keyID, event, audit, func(tx *sqlx.Tx, k *turbinesim.APIKey) error {
		if k.RevokedAt != nil {
			return turbinesim.Errorf(turbinesim.ECONFLICT, "API key is revoked; create a new one")
		}
		return translate(tx.GetContext(ctx, k, `
			UPDATE api_keys SET active = $2, deactivated_by = CASE WHEN $2 THEN NULL ELSE $3::uuid END
			 WHERE id = $1 RETURNING `+apiKeyColumns, k.ID, active, admin.ID), "changing API key")
	})
}

// changeOrgKey locks a key of a member of admin's organization, applies
// change to it and records audit, naming the administrator and the key's
// owner, in one transaction: no change without its audit row.
func (s *APIKeyService) changeOrgKey(ctx context.Context, admin *turbinesim.User, keyID string, event turbinesim.AuditEvent, audit *turbinesim.AuditEntry,
	change func(*sqlx.Tx, *turbinesim.APIKey) error) (*turbinesim.APIKey, error) {
	if admin == nil || !isUUID(admin.OrganizationID) || !isUUID(keyID) {
		return nil, errKeyNotFound
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, translate(err, "starting transaction")
	}
	defer tx.Rollback()
	var k turbinesim.APIKey
	err = tx.GetContext(ctx, &k, `
		SELECT `+apiKeyColumns+` FROM api_keys
		 WHERE id = $1 AND user_id IN (SELECT id FROM users WHERE organization_id = $2)
		   FOR UPDATE`, keyID, admin.OrganizationID)
	if err = translate(err, "finding API key"); err != nil {
		if turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
			return nil, errKeyNotFound
		}
		return nil, err
	}
	if err := change(tx, &k); err != nil {
		return nil, err
	}
	owner, err := ownerEmail(ctx, tx, k.UserID)
	if err != nil {
		return nil, err
	}
	ch := keyChange(event, &k, owner, "")
	audit.OrganizationID, audit.UserID, audit.ClientID = admin.OrganizationID, admin.ID, ""
	audit.Event, audit.TargetType, audit.TargetID, audit.Summary = ch.Event, ch.TargetType, ch.TargetID, ch.Summary
	audit.TargetUserID, audit.TargetClientID = &k.UserID, &k.ClientID
	if err := insertAudit(ctx, tx, audit); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, translate(err, "committing API key change")
	}
	return &k, nil
}

var errBadKey = turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "invalid, revoked or inactive API key")

// AuthenticateAPIKey implements turbinesim.APIKeyService: lookup by the
// Client ID, constant-time comparison of the SHA-256 of the whole key, and
// the creator and organization reloaded in the same query.
func (s *APIKeyService) AuthenticateAPIKey(ctx context.Context, secret string) (*turbinesim.Auth, error) {
	if len(secret) <= turbinesim.ClientIDLength || len(secret) > maxAPIKeyLength ||
		!strings.HasPrefix(secret, turbinesim.APIKeyPrefix) {
		return nil, errBadKey
	}
	var row struct {
		turbinesim.User
		KeyID        string            `db:"key_id"`
		SecretHash   []byte            `db:"secret_hash"`
		KeyUsable    bool              `db:"key_usable"`
		Scopes       turbinesim.Scopes `db:"scopes"`
		OrgName      string            `db:"org_name"`
		OrgPlan      turbinesim.Plan   `db:"org_plan"`
		OrgActive    bool              `db:"org_active"`
		OrgCreatedAt sqlTime           `db:"org_created_at"`
		OrgUpdatedAt sqlTime           `db:"org_updated_at"`
	}
	err := s.db.GetContext(ctx, &row, `
		SELECT k.id AS key_id, k.secret_hash, k.active AND k.revoked_at IS NULL AS key_usable, k.scopes,
		       u.id, u.organization_id, u.email, u.name, u.role, u.verified, u.active, u.deleted_at,
		       u.created_at, u.updated_at,
		       o.name AS org_name, o.plan AS org_plan, o.active AS org_active,
		       o.created_at AS org_created_at, o.updated_at AS org_updated_at
		  FROM api_keys k
		  JOIN users u ON u.id = k.user_id
		  JOIN organizations o ON o.id = u.organization_id
		 WHERE k.client_id = $1`, secret[:turbinesim.ClientIDLength])
	if err = translate(err, "finding API key"); err != nil {
		if turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
			return nil, errBadKey
		}
		return nil, err
	}
	if subtle.ConstantTimeCompare(secretHash(secret), row.SecretHash) != 1 || !row.KeyUsable ||
		!row.User.CanSignIn() || !row.OrgActive || row.User.OrganizationID == "" {
		return nil, errBadKey
	}
	// last_used_at at most once a minute per key: a busy key does not turn
	// every read into a write.
	if _, err := s.db.ExecContext(ctx, `
		UPDATE api_keys SET last_used_at = now()
		 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`, row.KeyID); err != nil {
		return nil, translate(err, "recording API key use")
	}
	u := row.User
	return &turbinesim.Auth{
		User: &u,
		Organization: &turbinesim.Organization{
			ID: u.OrganizationID, Name: row.OrgName, Plan: row.OrgPlan,
			CreatedAt: row.OrgCreatedAt.Time, UpdatedAt: row.OrgUpdatedAt.Time,
		},
		Method:   turbinesim.AuthAPIKey,
		ClientID: secret[:turbinesim.ClientIDLength],
		Scopes:   row.Scopes,
	}, nil
}
