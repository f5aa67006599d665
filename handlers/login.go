package handlers

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/views"
)

// LoginRequest is the body of POST /auth/login.
type LoginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
	// OTPCode is the 6-digit TOTP or a recovery code, required when the
	// account has MFA enabled (checkCredentials).
	OTPCode string `json:"otp_code,omitempty"`
}

// loginPage: GET /login.
func (s *Server) loginPage(c echo.Context) error {
	if refusesHTML(c.Request()) {
		return htmlOnly(c, "scripts use POST /auth/login")
	}
	next := safeNext(c.QueryParam("next"))
	if authFrom(c) != nil {
		return c.Redirect(http.StatusSeeOther, next)
	}
	p := s.page(c, "Sign in", "")
	f := views.LoginForm{Next: c.QueryParam("next"), Providers: s.ssoNames()}
	if c.QueryParam("reset") == "1" {
		f.Notice = "Your password was changed. Sign in with the new one."
	}
	if c.QueryParam("invited") == "1" {
		f.Notice = "Your password is set. Sign in to join your organization."
	}
	return render(c, http.StatusOK, views.LoginPage(p, f))
}

// login: POST /auth/login. Scripts send JSON and get a token pair; browsers
// post the login form and get a session cookie.
func (s *Server) login(c echo.Context) error {
	var req LoginRequest
	form := false
	switch mediaType(c.Request()) {
	case echo.MIMEApplicationJSON:
		if err := decodeJSON(c, &req); err != nil {
			return err
		}
	case echo.MIMEApplicationForm, echo.MIMEMultipartForm:
		form = true
		// The login form is CSRF-protected too (login CSRF: an attacker
		// must not sign a victim into the attacker's account).
		if err := s.checkCSRF(c); err != nil {
			return err
		}
		req.Email, req.Password, req.OTPCode = c.FormValue("email"), c.FormValue("password"), c.FormValue("otp_code")
	default:
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "send application/json (or a login form)")
	}
	if strings.TrimSpace(req.Email) == "" || req.Password == "" {
		if form {
			return s.loginFailed(c, req.Email, "Enter your e-mail and password.", http.StatusUnprocessableEntity, false)
		}
		return turbinesim.Errorf(turbinesim.EINVALID, "email and password are required")
	}

	ctx := c.Request().Context()
	user, err := s.checkCredentials(c, req.Email, req.Password, req.OTPCode)
	if errors.Is(err, errMFARequired) {
		// Second step: the password was right; ask for the code.
		if form {
			return s.loginFailed(c, req.Email, "Enter the 6-digit code from your authenticator app, or a recovery code, with your password.", http.StatusOK, true)
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, MFARequiredResponse{MFARequired: true})
	}
	if err != nil {
		if form && turbinesim.ErrorCode(err) == turbinesim.EUNAUTHORIZED {
			msg := "Invalid e-mail or password."
			if req.OTPCode != "" {
				msg = "Invalid e-mail, password or code."
			}
			return s.loginFailed(c, req.Email, msg, http.StatusUnauthorized, req.OTPCode != "")
		}
		return err
	}

	if !form {
		pair, err := s.issueTokens(ctx, user)
		if err != nil {
			return err
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, pair)
	}

	// New session token on authentication (ASVS 5.0 7.2.4: no fixation),
	// and a new CSRF token with it.
	if err := s.startBrowserSession(c, user); err != nil {
		return err
	}
	next := safeNext(c.FormValue("next"))
	if negotiate(c.Request()) == formatFragment {
		c.Response().Header().Set("HX-Redirect", next)
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, next)
}

func (s *Server) loginFailed(c echo.Context, email, msg string, status int, mfa bool) error {
	f := views.LoginForm{Email: email, Next: c.FormValue("next"), Error: msg, MFA: mfa, Providers: s.ssoNames()}
	if negotiate(c.Request()) == formatFragment {
		return render(c, status, views.LoginFormFragment(s.csrfToken(c), f))
	}
	return render(c, status, views.LoginPage(s.page(c, "Sign in", ""), f))
}

// logout: POST /logout ends the browser session. (Bearer tokens are
// discarded by the client, or revoked with POST /auth/logout.)
func (s *Server) logout(c echo.Context) error {
	ctx := c.Request().Context()
	if s.sessions.GetString(ctx, sessionUserID) != "" {
		if err := s.checkCSRF(c); err != nil {
			return err
		}
	}
	if s.svc.LoginSessions != nil {
		if err := s.svc.LoginSessions.EndBrowserSession(ctx, s.sessions.GetString(ctx, sessionID), s.cfg.Now()); err != nil {
			return err
		}
	}
	if err := s.sessions.Destroy(ctx); err != nil {
		return err
	}
	if negotiate(c.Request()) == formatFragment {
		c.Response().Header().Set("HX-Redirect", "/login")
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, "/login")
}
