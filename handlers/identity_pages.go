package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/views"
)

// Browser pages of the identity part: sign-up, e-mail verification,
// account security (MFA, recovery codes), API keys, organization. They
// post plain forms carrying the session's CSRF token (checked by
// requireAuth, or here for the anonymous sign-up form).

// signUpPage: GET /signup.
func (s *Server) signUpPage(c echo.Context) error {
	if refusesHTML(c.Request()) {
		return htmlOnly(c, "scripts use POST /auth/signup")
	}
	return render(c, http.StatusOK, views.SignUpPage(s.page(c, "Create an account", ""), views.SignUpForm{}))
}

// signUpForm: POST /signup creates the demo account and signs the browser in.
func (s *Server) signUpForm(c echo.Context) error {
	acc, err := s.accountService()
	if err != nil {
		return err
	}
	if err := s.checkCSRF(c); err != nil {
		return err
	}
	req := turbinesim.SignUpRequest{OrganizationName: c.FormValue("org_name"), Name: c.FormValue("name"),
		Email: c.FormValue("email"), Password: c.FormValue("password")}
	ctx := c.Request().Context()
	if err := s.throttleSignUp(c, req.Email); err != nil {
		return err
	}
	if _, err := acc.SignUp(ctx, req); err != nil {
		if turbinesim.ErrorCode(err) == turbinesim.EINVALID {
			f := views.SignUpForm{OrgName: req.OrganizationName, Name: req.Name, Email: req.Email, Error: turbinesim.ErrorMessage(err)}
			return render(c, http.StatusUnprocessableEntity, views.SignUpPage(s.page(c, "Create an account", ""), f))
		}
		return err
	}
	// The same page whether the address was new or taken (not revealed).
	return render(c, http.StatusOK, views.SignUpPage(s.page(c, "Create an account", ""), views.SignUpForm{Sent: turbinesim.NormalizeEmail(req.Email)}))
}

// verifyEmailPage: GET /verify-email?token=..., the target of the e-mailed
// link: a button that posts the token.
func (s *Server) verifyEmailPage(c echo.Context) error {
	if refusesHTML(c.Request()) {
		return htmlOnly(c, "scripts use POST /auth/verify-email")
	}
	return render(c, http.StatusOK, views.VerifyEmailPage(s.page(c, "Verify your e-mail", ""), c.QueryParam("token")))
}

func (s *Server) renderSecurity(c echo.Context, status int, v views.SecurityView) error {
	if s.svc.MFA == nil {
		return notImplemented
	}
	on, err := s.svc.MFA.Enabled(c.Request().Context(), authFrom(c).User.ID)
	if err != nil {
		return err
	}
	v.MFAEnabled = on
	return render(c, status, views.SecurityPage(s.page(c, "Security", "account"), v))
}

// securityPage: GET /account/security.
func (s *Server) securityPage(c echo.Context) error {
	if refusesHTML(c.Request()) {
		return htmlOnly(c, "scripts use /account/mfa/...")
	}
	if err := interactiveOnly(c); err != nil {
		return err
	}
	return s.renderSecurity(c, http.StatusOK, views.SecurityView{})
}

// securityEnrol: POST /account/security/enrol shows the new secret and QR.
func (s *Server) securityEnrol(c echo.Context) error {
	mfa, err := s.mfaService(c)
	if err != nil {
		return err
	}
	enr, err := mfa.BeginEnrolment(c.Request().Context(), authFrom(c).User)
	if err != nil {
		return s.renderSecurity(c, http.StatusConflict, views.SecurityView{Error: turbinesim.ErrorMessage(err)})
	}
	qr, err := qrDataURI(enr.URI)
	if err != nil {
		return err
	}
	return s.renderSecurity(c, http.StatusOK, views.SecurityView{Secret: enr.Secret, URI: enr.URI, QRCode: qr})
}

// securityConfirm: POST /account/security/confirm turns MFA on and shows
// the recovery codes.
func (s *Server) securityConfirm(c echo.Context) error {
	mfa, err := s.mfaService(c)
	if err != nil {
		return err
	}
	ctx, u := c.Request().Context(), authFrom(c).User
	codes, err := mfa.ConfirmEnrolment(ctx, u.ID, c.FormValue("code"), s.cfg.Now())
	switch turbinesim.ErrorCode(err) {
	case "":
	case turbinesim.EUNAUTHORIZED:
		// A mistyped code: the same secret stays valid, so the page shows
		// it again (the authenticator app already holds it) with the
		// error next to the code field.
		enr, perr := mfa.PendingEnrolment(ctx, u)
		if perr != nil {
			return s.renderSecurity(c, http.StatusConflict, views.SecurityView{Error: turbinesim.ErrorMessage(perr)})
		}
		qr, qerr := qrDataURI(enr.URI)
		if qerr != nil {
			return qerr
		}
		return s.renderSecurity(c, http.StatusUnprocessableEntity, views.SecurityView{Secret: enr.Secret, URI: enr.URI, QRCode: qr,
			CodeError: "That code did not match. Enter the code your app shows now; the key above stays the same."})
	case turbinesim.ECONFLICT:
		return s.renderSecurity(c, http.StatusConflict, views.SecurityView{Error: "No set-up is in progress; start it again."})
	default:
		return err
	}
	// Enabling MFA ended every session, this one too: start a new one.
	if err := s.startBrowserSession(c, authFrom(c).User); err != nil {
		return err
	}
	return s.renderSecurity(c, http.StatusOK, views.SecurityView{RecoveryCodes: codes})
}

// securityDisable: POST /account/security/disable (password + code).
// securityRecovery: POST /account/security/recovery-codes (same form).
func (s *Server) securityReauthAction(regenerate bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		mfa, err := s.mfaService(c)
		if err != nil {
			return err
		}
		req := MFACodeRequest{Password: c.FormValue("password"), Code: c.FormValue("code")}
		if err := s.reauthenticate(c, req); err != nil {
			if code := turbinesim.ErrorCode(err); code == turbinesim.EUNAUTHORIZED || code == turbinesim.ERATELIMIT {
				return s.renderSecurity(c, http.StatusUnauthorized, views.SecurityView{Error: turbinesim.ErrorMessage(err)})
			}
			return err
		}
		ctx, id := c.Request().Context(), authFrom(c).User.ID
		if regenerate {
			codes, err := mfa.RegenerateRecoveryCodes(ctx, id)
			if err != nil {
				return err
			}
			return s.renderSecurity(c, http.StatusOK, views.SecurityView{RecoveryCodes: codes})
		}
		if err := mfa.Disable(ctx, id); err != nil {
			return err
		}
		return s.renderSecurity(c, http.StatusOK, views.SecurityView{})
	}
}

func (s *Server) renderKeys(c echo.Context, status int, v views.APIKeysView) error {
	ks, err := s.apiKeyService()
	if err != nil {
		return err
	}
	u := authFrom(c).User
	if v.Keys, err = ks.ListAPIKeys(c.Request().Context(), u.ID); err != nil {
		return err
	}
	v.IsAdmin = u.Role == turbinesim.RoleAdmin
	return render(c, status, views.APIKeysPage(s.page(c, "API keys", "account"), v))
}

// apiKeysPage: GET /account/api-keys.
func (s *Server) apiKeysPage(c echo.Context) error {
	if refusesHTML(c.Request()) {
		return htmlOnly(c, "scripts use GET /api-keys")
	}
	if err := interactiveOnly(c); err != nil {
		return err
	}
	return s.renderKeys(c, http.StatusOK, views.APIKeysView{})
}

// apiKeyCreateForm: POST /account/api-keys shows the new secret once.
func (s *Server) apiKeyCreateForm(c echo.Context) error {
	ks, err := s.apiKeyService()
	if err != nil {
		return err
	}
	if err := interactiveOnly(c); err != nil {
		return err
	}
	scopes, err := formScopes(c)
	if err != nil {
		return err
	}
	k, err := ks.CreateAPIKey(c.Request().Context(), authFrom(c).User, c.FormValue("name"), scopes...)
	if err != nil {
		if turbinesim.ErrorCode(err) == turbinesim.EINVALID {
			return s.renderKeys(c, http.StatusUnprocessableEntity, views.APIKeysView{Error: turbinesim.ErrorMessage(err)})
		}
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.renderKeys(c, http.StatusCreated, views.APIKeysView{New: k})
}

// apiKeyActionForm: POST /account/api-keys/{id}/{revoke|deactivate|reactivate}.
func (s *Server) apiKeyActionForm(c echo.Context) error {
	ks, err := s.apiKeyService()
	if err != nil {
		return err
	}
	if err := interactiveOnly(c); err != nil {
		return err
	}
	ctx, u, id := c.Request().Context(), authFrom(c).User, c.Param("id")
	switch c.Param("action") {
	case "revoke":
		err = ks.RevokeAPIKey(ctx, u.ID, id)
	case "deactivate", "reactivate":
		// As POST /api-keys/{id}/reactivate: a key an administrator
		// deactivated needs an administrator (audited).
		_, err = turbinesim.SetKeyActiveAs(ctx, ks, u, id, c.Param("action") == "reactivate", orgKeyAudit(c, http.StatusSeeOther))
	default:
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "unknown action")
	}
	if turbinesim.ErrorCode(err) == turbinesim.EFORBIDDEN {
		return s.renderKeys(c, http.StatusForbidden, views.APIKeysView{Error: turbinesim.ErrorMessage(err)})
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/account/api-keys")
}

// orgPage: GET /org.
func (s *Server) orgPage(c echo.Context) error {
	if refusesHTML(c.Request()) {
		return htmlOnly(c, "scripts use /org/members, /org/usage, /org/settings")
	}
	return s.renderOrg(c, http.StatusOK, "")
}

func (s *Server) renderOrg(c echo.Context, status int, msg string) error {
	acc, err := s.accountService()
	if err != nil {
		return err
	}
	a, ctx := authFrom(c), c.Request().Context()
	v := views.OrgView{IsAdmin: a.User.Role == turbinesim.RoleAdmin, Limits: a.Organization.Plan.Limits(), Error: msg}
	if v.Members, err = acc.ListMembers(ctx, a.Organization.ID); err != nil {
		return err
	}
	if s.svc.Caps != nil {
		if v.Usage, err = s.svc.Caps.CurrentUsage(ctx, a.Organization.ID); err != nil {
			return err
		}
	}
	if v.IsAdmin {
		if v.Outbox, err = acc.Outbox(ctx, a.Organization.ID); err != nil {
			return err
		}
		if s.svc.APIKeys != nil && a.Method != turbinesim.AuthAPIKey {
			if v.Keys, err = s.svc.APIKeys.ListOrgAPIKeys(ctx, a.Organization.ID); err != nil {
				return err
			}
		}
	}
	return render(c, status, views.OrgPage(s.page(c, "Organization", "account"), v))
}

// orgKeyActionForm: POST /org/api-keys/{id}/{revoke|deactivate|reactivate},
// administrators only: the organization page's buttons on any member's key,
// audited like DELETE /api-keys/{id} by an administrator.
func (s *Server) orgKeyActionForm(c echo.Context) error {
	ks, err := s.apiKeyService()
	if err != nil {
		return err
	}
	if err := interactiveOnly(c); err != nil {
		return err
	}
	a, ctx, id := authFrom(c), c.Request().Context(), c.Param("id")
	audit := orgKeyAudit(c, http.StatusSeeOther)
	switch c.Param("action") {
	case "revoke":
		_, err = ks.RevokeOrgAPIKey(ctx, a.User, id, audit)
	case "deactivate", "reactivate":
		_, err = ks.SetOrgAPIKeyActive(ctx, a.User, id, c.Param("action") == "reactivate", audit)
	default:
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "unknown action")
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/org")
}

// orgInviteForm: POST /org/invite, administrators only.
func (s *Server) orgInviteForm(c echo.Context) error {
	acc, err := s.accountService()
	if err != nil {
		return err
	}
	a := authFrom(c)
	if _, err := acc.Invite(c.Request().Context(), a.Organization.ID, c.FormValue("email"), turbinesim.Role(c.FormValue("role"))); err != nil {
		if code := turbinesim.ErrorCode(err); code == turbinesim.EINVALID || code == turbinesim.ECONFLICT {
			return s.renderOrg(c, http.StatusUnprocessableEntity, turbinesim.ErrorMessage(err))
		}
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/org")
}

// acceptInvitePage: GET /accept-invite?token=..., the link of the
// invitation e-mail: a form that posts the token with the chosen password.
// It only reads; the token is consumed by the POST.
func (s *Server) acceptInvitePage(c echo.Context) error {
	if refusesHTML(c.Request()) {
		return htmlOnly(c, "scripts use POST /auth/accept-invite")
	}
	f := views.AcceptInviteForm{Token: c.QueryParam("token")}
	return render(c, http.StatusOK, views.AcceptInvitePage(s.page(c, "Join your organization", ""), f))
}

// acceptInviteForm: POST /accept-invite sets the invited user's password
// and sends the browser to the login page.
func (s *Server) acceptInviteForm(c echo.Context) error {
	acc, err := s.accountService()
	if err != nil {
		return err
	}
	if err := s.checkCSRF(c); err != nil {
		return err
	}
	f := views.AcceptInviteForm{Token: strings.TrimSpace(c.FormValue("token"))}
	_, err = acc.AcceptInvite(c.Request().Context(), f.Token, c.FormValue("password"))
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/login?invited=1")
	}
	switch turbinesim.ErrorCode(err) {
	case turbinesim.EINVALID, turbinesim.EUNAUTHORIZED:
		f.Error = turbinesim.ErrorMessage(err)
		return render(c, http.StatusUnprocessableEntity, views.AcceptInvitePage(s.page(c, "Join your organization", ""), f))
	}
	return err
}
