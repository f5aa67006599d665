package handlers

import (
	"crypto/rand"
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
)

// Authenticator checks one kind of credential.
//
// Authenticate returns (nil, nil) when the request carries no credential of
// its kind, so that the next kind is tried; an error when it carries one
// that is invalid (EUNAUTHORIZED) or cannot be checked (EUNAVAILABLE);
// otherwise the caller, reloaded from the database for this request.
type Authenticator interface {
	Authenticate(c echo.Context) (*turbinesim.Auth, error)
}

// authChain tries authenticators in order; the first credential present
// decides, so a bad bearer token is not rescued by a valid cookie.
type authChain []Authenticator

func (ch authChain) Authenticate(c echo.Context) (*turbinesim.Auth, error) {
	for _, a := range ch {
		auth, err := a.Authenticate(c)
		if err != nil || auth != nil {
			return auth, err
		}
	}
	return nil, nil
}

// bearerAuthenticator accepts "Authorization: Bearer <access JWT>".
type bearerAuthenticator struct {
	tokens *Tokens
	auth   turbinesim.AuthService
}

func (b bearerAuthenticator) Authenticate(c echo.Context) (*turbinesim.Auth, error) {
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	if h == "" {
		return nil, nil
	}
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return nil, turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "malformed Authorization header; expected Bearer token")
	}
	claims, err := b.tokens.ParseAccess(strings.TrimSpace(token))
	if err != nil {
		return nil, err
	}
	// The token proves identity only; the account and organization are
	// reloaded so that deactivation takes effect on the next request.
	auth, err := b.auth.LoadAuth(c.Request().Context(), claims.Subject, turbinesim.AuthBearer)
	if err != nil {
		return nil, err
	}
	if issuedBeforeRevocation(auth, claims.IssuedAt.Time) {
		return nil, turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "token was revoked; sign in again")
	}
	return auth, nil
}

// Session keys.
const (
	sessionUserID = "user_id"
	sessionCSRF   = "csrf"
	// sessionLoginAt is when the session signed in (Unix seconds), for
	// "sign out everywhere".
	sessionLoginAt = "login_at"
)

// sessionAuthenticator accepts the browser session cookie.
type sessionAuthenticator struct {
	sessions *scs.SessionManager
	auth     turbinesim.AuthService
	// logins, when set, must know the session's recorded id (a session
	// revoked from the account page, or one started before sessions were
	// recorded, is refused).
	logins turbinesim.LoginSessionService
	now    func() time.Time
}

func (s sessionAuthenticator) Authenticate(c echo.Context) (*turbinesim.Auth, error) {
	ctx := c.Request().Context()
	userID := s.sessions.GetString(ctx, sessionUserID)
	if userID == "" {
		return nil, nil
	}
	auth, err := s.auth.LoadAuth(ctx, userID, turbinesim.AuthSession)
	if err == nil && issuedBeforeRevocation(auth, time.Unix(s.sessions.GetInt64(ctx, sessionLoginAt), 0)) {
		auth, err = nil, turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "session was signed out; sign in again")
	}
	if err == nil && s.logins != nil {
		if terr := s.logins.TouchBrowserSession(ctx, s.sessions.GetString(ctx, sessionID), userID,
			turbinesim.ClientFromContext(ctx), s.now()); terr != nil {
			auth, err = nil, terr
		}
	}
	if turbinesim.ErrorCode(err) == turbinesim.EUNAUTHORIZED {
		// The account is gone or deactivated: end the session for good.
		_ = s.sessions.Destroy(ctx)
	}
	return auth, err
}

// requireAuth authenticates the request or refuses it with 401 (503 when the
// database cannot be reached). Cookie-authenticated requests that change
// state must also carry the session's CSRF token.
func (s *Server) requireAuth(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		auth, err := s.authn.Authenticate(c)
		if err != nil {
			return err
		}
		if auth == nil {
			return turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "authentication required")
		}
		if auth.Method == turbinesim.AuthSession && !safeMethod(c.Request().Method) {
			if err := s.checkCSRF(c); err != nil {
				return err
			}
		}
		r := c.Request()
		// The request line goes with the caller: the audit entries of the
		// changes this request makes name both.
		ctx := turbinesim.NewContextWithRequestLine(turbinesim.NewContextWithAuth(r.Context(), auth), r.Method, r.URL.Path)
		c.SetRequest(r.WithContext(ctx))
		return next(c)
	}
}

// optionalAuth is requireAuth for pages that also serve anonymous visitors
// (the login page): a present, valid credential sets the caller; absent or
// invalid credentials leave it unset. An unreachable database still fails.
func (s *Server) optionalAuth(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		auth, err := s.authn.Authenticate(c)
		if err != nil && turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
			return err
		}
		if auth != nil {
			r := c.Request()
			c.SetRequest(r.WithContext(turbinesim.NewContextWithAuth(r.Context(), auth)))
		}
		return next(c)
	}
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// csrfToken returns the session's anti-forgery token, creating it on first
// use. It lives in the server-side session, so it rotates with the session.
func (s *Server) csrfToken(c echo.Context) string {
	ctx := c.Request().Context()
	tok := s.sessions.GetString(ctx, sessionCSRF)
	if tok == "" {
		tok = rand.Text()
		s.sessions.Put(ctx, sessionCSRF, tok)
	}
	return tok
}

// checkCSRF compares the X-CSRF-Token header (htmx, via hx-headers) or the
// _csrf form field (plain forms) with the session's token. This backs up
// the Fetch-metadata check of http.CrossOriginProtection for browsers that
// send neither Sec-Fetch-Site nor Origin.
func (s *Server) checkCSRF(c echo.Context) error {
	want := s.sessions.GetString(c.Request().Context(), sessionCSRF)
	got := c.Request().Header.Get("X-CSRF-Token")
	if got == "" {
		got = c.FormValue("_csrf")
	}
	if want == "" || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		return turbinesim.Errorf(turbinesim.EFORBIDDEN, "missing or invalid CSRF token; reload the page")
	}
	return nil
}

// authFrom returns the caller set by requireAuth.
func authFrom(c echo.Context) *turbinesim.Auth {
	return turbinesim.AuthFromContext(c.Request().Context())
}
