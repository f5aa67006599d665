package handlers

import (
	"crypto/rand"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
)

// Signed-in sessions: every browser sign-in (password form, sign-up, SSO)
// is recorded so that the account page can list it with the
// refresh-token families of script logins, and revoke either.

// sessionID is the session key holding the user_sessions row id.
const sessionID = "sid"

// clientInfo records the caller's address (as the IP extractor trusts it)
// and user agent in the request context, for sessions and refresh tokens.
func clientInfo(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		ci := turbinesim.ClientInfo{IP: c.RealIP(), UserAgent: r.UserAgent()}
		c.SetRequest(r.WithContext(turbinesim.NewContextWithClient(r.Context(), ci)))
		return next(c)
	}
}

// startBrowserSession signs the browser in as u: a new session token (no
// fixation, ASVS 5.0 7.2.4), a new CSRF token and a recorded session.
func (s *Server) startBrowserSession(c echo.Context, u *turbinesim.User) error {
	ctx := c.Request().Context()
	if err := s.sessions.RenewToken(ctx); err != nil {
		return err
	}
	now := s.cfg.Now()
	if s.svc.LoginSessions != nil {
		id, err := s.svc.LoginSessions.StartBrowserSession(ctx, u.ID, turbinesim.ClientFromContext(ctx), now)
		if err != nil {
			return err
		}
		s.sessions.Put(ctx, sessionID, id)
	}
	s.sessions.Put(ctx, sessionUserID, u.ID)
	s.sessions.Put(ctx, sessionLoginAt, now.Unix())
	s.sessions.Put(ctx, sessionCSRF, rand.Text())
	return nil
}

func (s *Server) loginSessionService() (turbinesim.LoginSessionService, error) {
	if s.svc.LoginSessions == nil {
		return nil, notImplemented
	}
	return s.svc.LoginSessions, nil
}

// SessionList is the answer of GET /account/sessions, paginated like
// every list.
type SessionList = Page[*turbinesim.LoginSession]

// listSessions returns the caller's live sessions with the current browser
// session marked.
func (s *Server) listSessions(c echo.Context) ([]*turbinesim.LoginSession, error) {
	ls, err := s.loginSessionService()
	if err != nil {
		return nil, err
	}
	ctx := c.Request().Context()
	items, err := ls.ListLoginSessions(ctx, authFrom(c).User.ID, s.cfg.Now())
	if err != nil {
		return nil, err
	}
	current := ""
	if authFrom(c).Method == turbinesim.AuthSession {
		current = s.sessions.GetString(ctx, sessionID)
	}
	for _, it := range items {
		it.Current = it.Kind == turbinesim.LoginBrowser && it.ID == current
	}
	if items == nil {
		items = []*turbinesim.LoginSession{}
	}
	return items, nil
}

// getSessions: GET /account/sessions lists browser sessions and
// refresh-token families (not API keys: see /api-keys). Not for API keys
// (403): sessions are account-level.
func (s *Server) getSessions(c echo.Context) error {
	if err := interactiveOnly(c); err != nil {
		return err
	}
	items, err := s.listSessions(c)
	if err != nil {
		return err
	}
	page, err := pageOf(c, items)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, page)
}

// revokeSession ends one session or family of the caller; ENOTFOUND for
// ids that are not the caller's.
func (s *Server) revokeSession(c echo.Context) error {
	if err := interactiveOnly(c); err != nil {
		return err
	}
	ls, err := s.loginSessionService()
	if err != nil {
		return err
	}
	return ls.RevokeLoginSession(c.Request().Context(), authFrom(c).User.ID, c.Param("id"), s.cfg.Now())
}

// deleteSession: DELETE /account/sessions/{id}.
func (s *Server) deleteSession(c echo.Context) error {
	if err := s.revokeSession(c); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// revokeSessionForm: POST /account/sessions/{id}/revoke, the account
// page's button. Revoking the current browser session signs it out.
func (s *Server) revokeSessionForm(c echo.Context) error {
	if err := s.revokeSession(c); err != nil {
		return err
	}
	target := "/account"
	if c.Param("id") == s.sessions.GetString(c.Request().Context(), sessionID) {
		if err := s.sessions.Destroy(c.Request().Context()); err != nil {
			return err
		}
		target = "/login"
	}
	if negotiate(c.Request()) == formatFragment {
		c.Response().Header().Set("HX-Redirect", target)
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, target)
}
