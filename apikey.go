package turbinesim

import (
	"context"
	"database/sql/driver"
	"fmt"
	"slices"
	"strings"
	"time"
)

// APIKeyPrefix starts every API key secret; ClientIDLength characters of the
// key (prefix included) form its public Client ID, which audit logs and
// billing show.
const (
	APIKeyPrefix   = "ofk_"
	ClientIDLength = 12
)

// Scope names a kind of work an API key may do. A key holds one or more
// (stored space-separated, like OAuth 2.0's scope parameter, RFC 6749
// §3.3). Whatever its scopes, a key never changes members, roles,
// invitations, caps, organization settings, API keys or the account: those
// need an interactive session (a browser, or a token from a password or
// social sign-in), so a leaked key cannot mint a lasting administrator.
type Scope string

// Known scopes.
const (
	// ScopeSimulation is simulation work: turbines, jobs, batches, analyses
	// and results, studies and notes, the dashboard, and reading the
	// caller's account and the organization's usage. The default.
	ScopeSimulation Scope = "simulation"
	// ScopeOrgRead reads the organization: its members and, for an
	// administrator's key, its settings, audit log and outbox.
	ScopeOrgRead Scope = "org:read"
)

// KnownScopes lists every scope, in documentation order.
var KnownScopes = []Scope{ScopeSimulation, ScopeOrgRead}

// DefaultScopes are the scopes of a key created without any.
var DefaultScopes = Scopes{ScopeSimulation}

// Scopes is the set of scopes of a key.
type Scopes []Scope

// ParseScopes checks requested scopes: unknown ones are EINVALID, none
// means DefaultScopes; the result is sorted in KnownScopes order without
// duplicates.
func ParseScopes(in []Scope) (Scopes, error) {
	if len(in) == 0 {
		return slices.Clone(DefaultScopes), nil
	}
	var out Scopes
	for _, k := range KnownScopes {
		if slices.Contains(in, k) {
			out = append(out, k)
		}
	}
	for _, s := range in {
		if !slices.Contains(KnownScopes, s) {
			return nil, Errorf(EINVALID, "scopes: unknown scope %q (known: simulation, org:read)", s)
		}
	}
	return out, nil
}

// Has reports whether s holds x.
func (s Scopes) Has(x Scope) bool { return slices.Contains(s, x) }

// Scan reads the space-separated text column.
func (s *Scopes) Scan(src any) error {
	var text string
	switch v := src.(type) {
	case string:
		text = v
	case []byte:
		text = string(v)
	default:
		return fmt.Errorf("scopes: cannot scan %T", src)
	}
	*s = nil
	for _, f := range strings.Fields(text) {
		*s = append(*s, Scope(f))
	}
	return nil
}

// String is the scopes space-separated, as stored.
func (s Scopes) String() string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = string(x)
	}
	return strings.Join(parts, " ")
}

// Value writes the space-separated text column.
func (s Scopes) Value() (driver.Value, error) { return s.String(), nil }

// APIKey is the stored, non-secret part of an API key. The secret itself is
// shown once, in NewAPIKey, and kept only as a SHA-256 hash.
type APIKey struct {
	ID             string     `json:"id" db:"id"`
	ClientID       string     `json:"client_id" db:"client_id"`
	Name           string     `json:"name" db:"name"`
	UserID         string     `json:"user_id" db:"user_id"`
	OrganizationID string     `json:"org_id" db:"organization_id"`
	Active         bool       `json:"active" db:"active"`
	RevokedAt      *time.Time `json:"revoked_at" db:"revoked_at"`
	CreatedAt      time.Time  `json:"created_at" db:"created_at"`
	LastUsedAt     *time.Time `json:"last_used_at" db:"last_used_at"`
	// DeactivatedBy is the user who deactivated an inactive key (its owner
	// or an organization administrator); nil for an active key.
	DeactivatedBy *string `json:"deactivated_by" db:"deactivated_by"`
	// DeactivatedByAdmin: an administrator deactivated this member's key,
	// so only an administrator can reactivate it (the owner gets
	// EFORBIDDEN), and a leaked key stays stopped.
	DeactivatedByAdmin bool `json:"deactivated_by_admin" db:"deactivated_by_admin"`
	// Scopes is what the key may do (Scope).
	Scopes Scopes `json:"scopes" db:"scopes"`
}

// NewAPIKey is the answer to a key creation: the key's metadata plus the
// full secret, which no later response repeats.
type NewAPIKey struct {
	APIKey
	Key string `json:"key"`
}

// APIKeyService creates, lists and checks API keys. Keys belong to their
// creating user; every method that takes an owner returns ENOTFOUND for a
// key of another user, so that keys of others are indistinguishable from
// absent ones.
type APIKeyService interface {
	// CreateAPIKey makes a key for user u with scopes (none: the
	// DefaultScopes); EINVALID for a bad name or an unknown scope.
	CreateAPIKey(ctx context.Context, u *User, name string, scopes ...Scope) (*NewAPIKey, error)
	// ListAPIKeys lists the keys of userID, newest first (revoked ones too).
	ListAPIKeys(ctx context.Context, userID string) ([]*APIKey, error)
	// RevokeAPIKey revokes a key for good.
	RevokeAPIKey(ctx context.Context, userID, keyID string) error
	// SetAPIKeyActive deactivates or reactivates a key of userID, its
	// owner; a revoked key cannot be reactivated (ECONFLICT), nor can a
	// key an administrator deactivated (EFORBIDDEN: an administrator's
	// deactivation sticks until an administrator reactivates the key). An
	// owner's deactivation of a key an administrator already deactivated
	// keeps the administrator's mark.
	SetAPIKeyActive(ctx context.Context, userID, keyID string, active bool) (*APIKey, error)
	// ListOrgAPIKeys lists the keys of every member of orgID with their
	// owner, newest first (revoked ones too), for the organization's
	// administrators.
	ListOrgAPIKeys(ctx context.Context, orgID string) ([]*OrgAPIKey, error)
	// RevokeOrgAPIKey revokes any key of a member of admin's organization
	// and records audit (Method, Path and Status filled by the caller; the
	// rest from admin and the key) in the same transaction. A key of
	// another organization is ENOTFOUND.
	RevokeOrgAPIKey(ctx context.Context, admin *User, keyID string, audit *AuditEntry) (*APIKey, error)
	// SetOrgAPIKeyActive is SetAPIKeyActive on any key of a member of
	// admin's organization, audited like RevokeOrgAPIKey; it reactivates
	// any unrevoked key, and its deactivation of another member's key is
	// recorded as the administrator's (DeactivatedByAdmin).
	SetOrgAPIKeyActive(ctx context.Context, admin *User, keyID string, active bool, audit *AuditEntry) (*APIKey, error)
	// AuthenticateAPIKey checks a presented secret and returns the caller
	// it acts as (the creator, in the creator's organization), reloaded
	// for this request: EUNAUTHORIZED for an unknown, wrong, revoked or
	// inactive key or an inactive user; EUNAVAILABLE when the database is
	// down.
	AuthenticateAPIKey(ctx context.Context, secret string) (*Auth, error)
}

// RevokeKeyAs revokes keyID for caller: one of the caller's own keys or,
// when the caller administers the organization, any key of a member, the
// latter recorded with audit (APIKeyService.RevokeOrgAPIKey). Any other
// key is ENOTFOUND, so a member cannot tell another member's key from an
// absent one.
func RevokeKeyAs(ctx context.Context, ks APIKeyService, caller *User, keyID string, audit *AuditEntry) error {
	err := ks.RevokeAPIKey(ctx, caller.ID, keyID)
	if ErrorCode(err) == ENOTFOUND && caller.Role == RoleAdmin {
		_, err = ks.RevokeOrgAPIKey(ctx, caller, keyID, audit)
	}
	return err
}

// SetKeyActiveAs deactivates or reactivates keyID for caller, with the
// same reach as RevokeKeyAs. An administrator's deactivation of a member's
// key sticks: the owner's reactivation is EFORBIDDEN, an administrator's
// (also of an own key another administrator deactivated) goes through the
// audited organization path.
func SetKeyActiveAs(ctx context.Context, ks APIKeyService, caller *User, keyID string, active bool, audit *AuditEntry) (*APIKey, error) {
	k, err := ks.SetAPIKeyActive(ctx, caller.ID, keyID, active)
	if code := ErrorCode(err); (code == ENOTFOUND || code == EFORBIDDEN) && caller.Role == RoleAdmin {
		k, err = ks.SetOrgAPIKeyActive(ctx, caller, keyID, active, audit)
	}
	return k, err
}

// OrgAPIKey is a key as the organization's administrators see it: its
// metadata and its owner (never the secret).
type OrgAPIKey struct {
	APIKey
	OwnerEmail string `json:"owner_email" db:"owner_email"`
	OwnerName  string `json:"owner_name" db:"owner_name"`
	// DeactivatedByEmail is the e-mail of DeactivatedBy ("" when unset or
	// when that account is gone).
	DeactivatedByEmail string `json:"deactivated_by_email,omitempty" db:"deactivated_by_email"`
}
