package turbinesim

import (
	"context"
	"time"
)

// LoginSession kinds.
const (
	LoginBrowser = "browser" // a signed-in browser (session cookie)
	LoginToken   = "token"   // a login of a script or app: one refresh-token family
)

// LoginSession is one way the user is signed in: a browser session or a
// refresh-token family (the chain of rotations that started at one
// POST /auth/login). API keys are listed on their own page.
type LoginSession struct {
	ID        string    `json:"id" db:"id"`
	Kind      string    `json:"kind" db:"kind"`
	CreatedAt time.Time `json:"created_at" db:"created_at"`
	// LastUsedAt is the latest request of the browser session (updated at
	// most once a minute) or the latest refresh of the family.
	LastUsedAt time.Time `json:"last_used_at" db:"last_used_at"`
	// IP and UserAgent are those of the latest use (or of the sign-in).
	IP        string `json:"ip" db:"ip"`
	UserAgent string `json:"user_agent" db:"user_agent"`
	// ExpiresAt is the family's absolute end (token kind only).
	ExpiresAt *time.Time `json:"expires_at,omitempty" db:"expires_at"`
	// Current marks the browser session of the request that lists them.
	Current bool `json:"current" db:"-"`
}

// ClientInfo describes the client of a request, recorded with sessions and
// refresh tokens.
type ClientInfo struct {
	IP        string
	UserAgent string
}

type clientContextKey struct{}

// NewContextWithClient returns ctx carrying the request's client.
func NewContextWithClient(ctx context.Context, c ClientInfo) context.Context {
	return context.WithValue(ctx, clientContextKey{}, c)
}

// ClientFromContext returns the client set by NewContextWithClient (zero
// when none).
func ClientFromContext(ctx context.Context) ClientInfo {
	c, _ := ctx.Value(clientContextKey{}).(ClientInfo)
	return c
}

// LoginSessionService records browser sessions and lists and revokes a
// user's sessions and refresh-token families.
type LoginSessionService interface {
	// StartBrowserSession records a browser that just signed in and returns
	// the id the session cookie's server-side data keeps.
	StartBrowserSession(ctx context.Context, userID string, client ClientInfo, now time.Time) (string, error)
	// TouchBrowserSession checks that session id of userID is not revoked
	// (EUNAUTHORIZED otherwise) and records its use.
	TouchBrowserSession(ctx context.Context, id, userID string, client ClientInfo, now time.Time) error
	// EndBrowserSession marks a session ended (sign-out).
	EndBrowserSession(ctx context.Context, id string, now time.Time) error
	// ListLoginSessions returns the user's live browser sessions and
	// unrevoked, unexpired refresh-token families, latest use first.
	ListLoginSessions(ctx context.Context, userID string, now time.Time) ([]*LoginSession, error)
	// RevokeLoginSession ends one browser session or refresh-token family
	// of userID; ENOTFOUND for anything else (another user's included).
	RevokeLoginSession(ctx context.Context, userID, id string, now time.Time) error
}
