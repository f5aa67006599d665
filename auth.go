package turbinesim

import (
	"context"
	"time"
)

// AuthMethod names the credential kind that authenticated a request.
type AuthMethod string

// Credential kinds: a browser session, a Bearer JWT, or an API key.
const (
	AuthSession AuthMethod = "session" // browser: scs session cookie
	AuthBearer  AuthMethod = "bearer"  // script: Authorization: Bearer <access JWT>
	AuthAPIKey  AuthMethod = "api_key" // script: X-API-Key: ofk_...
)

// Auth is the authenticated caller of one request: the user and organization
// as reloaded from the database for this request, plus how they proved it.
type Auth struct {
	User         *User
	Organization *Organization
	Method       AuthMethod
	// ClientID is the API key's Client ID when Method is AuthAPIKey; it
	// names the key in the audit log.
	ClientID string
	// Scopes are the API key's scopes when Method is AuthAPIKey.
	Scopes Scopes
	// TokensValidAfter is set by "sign out everywhere": access tokens
	// issued and sessions started before it are refused.
	TokensValidAfter *time.Time
}

// AuthService checks credentials and loads the caller of a request.
type AuthService interface {
	// Authenticate checks an e-mail and password. Every failure (unknown
	// address, wrong password, inactive account) is the same EUNAUTHORIZED
	// so that callers cannot tell accounts apart; EUNAVAILABLE when the
	// database cannot be reached.
	Authenticate(ctx context.Context, email, password string) (*User, error)

	// LoadAuth reloads user userID and its organization. It returns
	// EUNAUTHORIZED when the user is absent, inactive or deleted, and
	// EUNAVAILABLE (never EUNAUTHORIZED) when the database is down.
	LoadAuth(ctx context.Context, userID string, method AuthMethod) (*Auth, error)
}

type authContextKey struct{}

// NewContextWithAuth returns ctx carrying the authenticated caller.
func NewContextWithAuth(ctx context.Context, a *Auth) context.Context {
	return context.WithValue(ctx, authContextKey{}, a)
}

// AuthFromContext returns the authenticated caller, or nil.
func AuthFromContext(ctx context.Context) *Auth {
	a, _ := ctx.Value(authContextKey{}).(*Auth)
	return a
}
