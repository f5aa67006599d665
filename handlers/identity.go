package handlers

import (
	"context"
	"crypto/rand"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/views"
)

// Identity endpoints: refresh rotation, server-side logout, API keys, the
// audit log, organization settings and usage; plus the rate-limit and audit
// middleware of every authenticated route.

// issueTokens issues a token pair for u and records the refresh token as
// the first of a new family (when refresh tokens are tracked).
func (s *Server) issueTokens(ctx context.Context, u *turbinesim.User) (*TokenPair, error) {
	pair, err := s.tokens.IssuePair(u)
	if err != nil {
		return nil, err
	}
	if s.svc.RefreshTokens != nil {
		claims, err := s.tokens.ParseRefresh(pair.RefreshToken)
		if err != nil {
			return nil, err
		}
		if err := s.svc.RefreshTokens.StartFamily(ctx, u.ID, claims.ID, claims.ExpiresAt.Time); err != nil {
			return nil, err
		}
	}
	return pair, nil
}

// RefreshRequest is the body of POST /auth/token/refresh and POST /auth/logout.
type RefreshRequest struct {
	RefreshToken string `json:"refresh_token"`
}

func (s *Server) refreshService() (turbinesim.RefreshTokenService, error) {
	if s.svc.RefreshTokens == nil {
		return nil, notImplemented
	}
	return s.svc.RefreshTokens, nil
}

// refresh: POST /auth/token/refresh. The presented token is consumed and a
// new pair returned; the new refresh token keeps the family's absolute
// expiry (30 days from login). A token presented a second time revokes its
// family. The user is reloaded, so a deactivated account gets 401.
func (s *Server) refresh(c echo.Context) error {
	rs, err := s.refreshService()
	if err != nil {
		return err
	}
	var req RefreshRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	claims, err := s.tokens.ParseRefresh(strings.TrimSpace(req.RefreshToken))
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	auth, err := s.svc.Auth.LoadAuth(ctx, claims.Subject, turbinesim.AuthBearer)
	if err != nil {
		return err
	}
	now := s.cfg.Now()
	next := rand.Text()
	familyEnd, err := rs.Rotate(ctx, auth.User.ID, claims.ID, next, now)
	if err != nil {
		return err
	}
	access, err := s.tokens.sign(auth.User, audienceAccess, now, AccessTokenLifetime, "")
	if err != nil {
		return err
	}
	refresh, err := s.tokens.sign(auth.User, audienceRefresh, now, familyEnd.Sub(now), next)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, TokenPair{AccessToken: access, RefreshToken: refresh, TokenType: "bearer",
		ExpiresIn: int(AccessTokenLifetime / time.Second)})
}

// logoutTokens: POST /auth/logout revokes the refresh family of the
// presented refresh token, a server-side logout besides the client
// discarding its tokens: access tokens stay valid until they expire
// (at most 15 minutes), but no new ones can be obtained.
func (s *Server) logoutTokens(c echo.Context) error {
	rs, err := s.refreshService()
	if err != nil {
		return err
	}
	var req RefreshRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	claims, err := s.tokens.ParseRefresh(strings.TrimSpace(req.RefreshToken))
	if err != nil {
		return err
	}
	if err := rs.RevokeFamilyOf(c.Request().Context(), claims.ID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// apiKeyAuthenticator accepts "X-API-Key: ofk_...".
type apiKeyAuthenticator struct{ keys turbinesim.APIKeyService }

func (a apiKeyAuthenticator) Authenticate(c echo.Context) (*turbinesim.Auth, error) {
	key := c.Request().Header.Get("X-API-Key")
	if key == "" {
		return nil, nil
	}
	return a.keys.AuthenticateAPIKey(c.Request().Context(), key)
}

// interactiveOnly refuses API-key callers: keys manage neither keys nor
// the account (a key cannot create a key).
func interactiveOnly(c echo.Context) error {
	if authFrom(c).Method == turbinesim.AuthAPIKey {
		return turbinesim.Errorf(turbinesim.EFORBIDDEN, "API keys cannot manage API keys or the account; sign in with a password or SSO")
	}
	return nil
}

// keyScope lets an API-key caller through only when the key holds scope
// (403 naming the scope otherwise); sessions and tokens pass.
func keyScope(scope turbinesim.Scope) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if a := authFrom(c); a != nil && a.Method == turbinesim.AuthAPIKey && !a.Scopes.Has(scope) {
				return turbinesim.Errorf(turbinesim.EFORBIDDEN, "this API key lacks the %s scope; create a key with it on the API keys page", scope)
			}
			return next(c)
		}
	}
}

// requireInteractive refuses API keys on the routes that change members,
// roles, invitations, caps and organization settings: those need a
// browser session or a token from a password or social sign-in, so that a
// leaked key cannot mint an administrator that outlives its revocation.
func requireInteractive(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if a := authFrom(c); a != nil && a.Method == turbinesim.AuthAPIKey {
			return turbinesim.Errorf(turbinesim.EFORBIDDEN, "changing members, roles, invitations, caps or organization settings needs an interactive sign-in (browser, password or SSO), not an API key")
		}
		return next(c)
	}
}

// RequireAdmin refuses callers that are not organization administrators.
func RequireAdmin(a *turbinesim.Auth) error {
	if a == nil || a.User.Role != turbinesim.RoleAdmin {
		return turbinesim.Errorf(turbinesim.EFORBIDDEN, "organization administrators only")
	}
	return nil
}

// RequireVerified refuses unverified (demo) accounts.
func RequireVerified(a *turbinesim.Auth) error {
	if a == nil || !a.User.Verified {
		return turbinesim.Errorf(turbinesim.EFORBIDDEN, "verify your e-mail address to use this endpoint")
	}
	return nil
}

// requireVerified is RequireVerified as route middleware (after requireAuth).
func (s *Server) requireVerified(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := RequireVerified(authFrom(c)); err != nil {
			return err
		}
		return next(c)
	}
}

// requireAdmin is RequireAdmin as middleware, for the organization
// administration routes.
func (s *Server) requireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := RequireAdmin(authFrom(c)); err != nil {
			return err
		}
		return next(c)
	}
}

func (s *Server) apiKeyService() (turbinesim.APIKeyService, error) {
	if s.svc.APIKeys == nil {
		return nil, notImplemented
	}
	return s.svc.APIKeys, nil
}

// CreateAPIKeyRequest is the body of POST /api-keys.
type CreateAPIKeyRequest struct {
	Name string `json:"name"`
	// Scopes of the key (turbinesim.Scope); none means simulation only.
	Scopes []turbinesim.Scope `json:"scopes"`
}

// createAPIKey: POST /api-keys. The answer is the only one that carries
// the secret.
func (s *Server) createAPIKey(c echo.Context) error {
	ks, err := s.apiKeyService()
	if err != nil {
		return err
	}
	if err := interactiveOnly(c); err != nil {
		return err
	}
	var req CreateAPIKeyRequest
	if mediaType(c.Request()) == echo.MIMEApplicationForm {
		req.Name = c.FormValue("name")
		if req.Scopes, err = formScopes(c); err != nil {
			return err
		}
	} else if err := decodeJSON(c, &req); err != nil {
		return err
	}
	k, err := ks.CreateAPIKey(c.Request().Context(), authFrom(c).User, req.Name, req.Scopes...)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, k)
}

// formScopes reads the repeated "scopes" field of a key-creation form.
func formScopes(c echo.Context) ([]turbinesim.Scope, error) {
	if err := c.Request().ParseForm(); err != nil {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "form: %v", err)
	}
	var scopes []turbinesim.Scope
	for _, v := range c.Request().Form["scopes"] {
		scopes = append(scopes, turbinesim.Scope(v))
	}
	return scopes, nil
}

// listAPIKeys: GET /api-keys, the caller's keys (Client ID and metadata,
// never the secret); ?scope=org, the organization's keys (administrators).
func (s *Server) listAPIKeys(c echo.Context) error {
	ks, err := s.apiKeyService()
	if err != nil {
		return err
	}
	if err := interactiveOnly(c); err != nil {
		return err
	}
	if !wantsJSON(c) {
		// Browsers get the API keys page (the organization's keys are on
		// the organization page).
		return s.renderKeys(c, http.StatusOK, views.APIKeysView{})
	}
	page, size, err := pageParams(c, 100)
	if err != nil {
		return err
	}
	a := authFrom(c)
	switch c.QueryParam("scope") {
	case "":
	case "org":
		// Every member's keys with their owner, for the administrators
		// who revoke or deactivate them.
		if err := RequireAdmin(a); err != nil {
			return err
		}
		keys, err := ks.ListOrgAPIKeys(c.Request().Context(), a.Organization.ID)
		if err != nil {
			return err
		}
		from, to := min((page-1)*size, len(keys)), min(page*size, len(keys))
		return c.JSON(http.StatusOK, newPage(keys[from:to], len(keys), page, size))
	default:
		return turbinesim.Errorf(turbinesim.EINVALID, "scope must be org or absent")
	}
	keys, err := ks.ListAPIKeys(c.Request().Context(), a.User.ID)
	if err != nil {
		return err
	}
	from, to := min((page-1)*size, len(keys)), min(page*size, len(keys))
	return c.JSON(http.StatusOK, newPage(keys[from:to], len(keys), page, size))
}

// orgKeyAudit is the audit entry of an administrator's action on a
// member's key; the key service fills in who and which key.
func orgKeyAudit(c echo.Context, status int) *turbinesim.AuditEntry {
	return &turbinesim.AuditEntry{Method: c.Request().Method, Path: c.Request().URL.Path, Status: status}
}

// revokeAPIKey: DELETE /api-keys/{id}, the caller's key or, for an
// administrator, any key of a member of the organization.
func (s *Server) revokeAPIKey(c echo.Context) error {
	ks, err := s.apiKeyService()
	if err != nil {
		return err
	}
	if err := interactiveOnly(c); err != nil {
		return err
	}
	err = turbinesim.RevokeKeyAs(c.Request().Context(), ks, authFrom(c).User, c.Param("id"), orgKeyAudit(c, http.StatusNoContent))
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// setAPIKeyActive: POST /api-keys/{id}/deactivate and /reactivate, the
// caller's key or, for an administrator, any member's key.
func (s *Server) setAPIKeyActive(active bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		ks, err := s.apiKeyService()
		if err != nil {
			return err
		}
		if err := interactiveOnly(c); err != nil {
			return err
		}
		k, err := turbinesim.SetKeyActiveAs(c.Request().Context(), ks, authFrom(c).User, c.Param("id"), active, orgKeyAudit(c, http.StatusOK))
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, k)
	}
}

// auditLog: GET /org/audit-log, administrators only: the log filtered by
// event, user_id and a date range (from, to: YYYY-MM-DD or RFC 3339; a
// date as to includes its whole day), as JSON or, for browsers, the
// audit-log page.
func (s *Server) auditLog(c echo.Context) error {
	if s.svc.Audit == nil {
		return notImplemented
	}
	a := authFrom(c)
	page, size, err := pageParams(c, 200)
	if err != nil {
		return err
	}
	f, err := auditFilterParams(c)
	if err != nil {
		return err
	}
	entries, total, err := s.svc.Audit.ListAudit(c.Request().Context(), a.Organization.ID, f, page, size)
	if err != nil {
		return err
	}
	res := newPage(entries, total, page, size)
	if !wantsJSON(c) {
		return s.auditLogPage(c, f, res)
	}
	return c.JSON(http.StatusOK, res)
}

// auditFilterParams reads the audit log's filters from the query.
func auditFilterParams(c echo.Context) (turbinesim.AuditFilter, error) {
	f := turbinesim.AuditFilter{Event: turbinesim.AuditEvent(c.QueryParam("event")), UserID: c.QueryParam("user_id")}
	var err error
	if f.From, err = queryTime(c, "from", false); err != nil {
		return f, err
	}
	if f.To, err = queryTime(c, "to", true); err != nil {
		return f, err
	}
	return f, f.Validate()
}

// queryTime reads an RFC 3339 time or a date (midnight UTC; with
// endOfDay, the next midnight, so that the day is included) from the
// query; empty is nil.
func queryTime(c echo.Context, name string, endOfDay bool) (*time.Time, error) {
	v := c.QueryParam(name)
	if v == "" {
		return nil, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return &t, nil
	}
	t, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "%s: want a date (YYYY-MM-DD) or an RFC 3339 time, got %q", name, v)
	}
	if endOfDay {
		t = t.AddDate(0, 0, 1)
	}
	return &t, nil
}

// OrgSettings is the body of GET and PUT /org/settings.
type OrgSettings struct {
	Name  string                `json:"name"`
	Plan  turbinesim.Plan       `json:"plan"` // read-only
	Caps  turbinesim.Caps       `json:"caps"`
	Rates turbinesim.RateLimits `json:"rate_limits"` // read-only, from the plan
}

func (s *Server) orgSettingsOf(ctx context.Context, org *turbinesim.Organization) (*OrgSettings, error) {
	u, err := s.svc.Caps.CurrentUsage(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	return &OrgSettings{Name: org.Name, Plan: org.Plan, Caps: u.Caps, Rates: org.Plan.Limits()}, nil
}

// getOrgSettings: GET /org/settings, administrators only.
func (s *Server) getOrgSettings(c echo.Context) error {
	if s.svc.Caps == nil {
		return notImplemented
	}
	a := authFrom(c)
	st, err := s.orgSettingsOf(c.Request().Context(), a.Organization)
	if err != nil {
		return err
	}
	if !wantsJSON(c) {
		return s.settingsPage(c, st)
	}
	return c.JSON(http.StatusOK, st)
}

// putOrgSettings: PUT /org/settings, administrators only; sets the caps
// (name and plan are not changed here).
func (s *Server) putOrgSettings(c echo.Context) error {
	if s.svc.Caps == nil {
		return notImplemented
	}
	a := authFrom(c)
	var req OrgSettings
	if mediaType(c.Request()) == echo.MIMEApplicationForm {
		// The organization page's htmx form (hx-put).
		spend, err1 := strconv.ParseInt(c.FormValue("spend_cap_cents"), 10, 64)
		tokens, err2 := strconv.ParseInt(c.FormValue("token_cap"), 10, 64)
		if err1 != nil || err2 != nil {
			return turbinesim.Errorf(turbinesim.EINVALID, "caps must be whole numbers")
		}
		req.Caps = turbinesim.Caps{SpendCapCents: spend, TokenCap: tokens}
	} else if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := s.svc.Caps.SetCaps(ctx, a.Organization.ID, req.Caps); err != nil {
		return err
	}
	if negotiate(c.Request()) == formatFragment {
		// Back to the page the form was on (the settings page or /org).
		page := "/org"
		if strings.HasSuffix(c.Request().Header.Get("HX-Current-URL"), "/org/settings") {
			page = "/org/settings"
		}
		return htmxDone(c, page, http.StatusOK, nil)
	}
	st, err := s.orgSettingsOf(ctx, a.Organization)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

// UsageResponse is the body of GET /org/usage.
type UsageResponse struct {
	Plan       turbinesim.Plan       `json:"plan"`
	RateLimits turbinesim.RateLimits `json:"rate_limits"`
	Usage      *turbinesim.Usage     `json:"usage"`
	// ByClient is the month's billing breakdown by API key Client ID.
	ByClient []turbinesim.ClientUsage `json:"by_client"`
}

// usage: GET /org/usage, the organization's plan, limits and this month's
// spend and tokens against the caps; every member may read it.
func (s *Server) usage(c echo.Context) error {
	if s.svc.Caps == nil {
		return notImplemented
	}
	a := authFrom(c)
	u, err := s.svc.Caps.CurrentUsage(c.Request().Context(), a.Organization.ID)
	if err != nil {
		return err
	}
	byClient, err := s.svc.Caps.UsageByClient(c.Request().Context(), a.Organization.ID)
	if err != nil {
		return err
	}
	res := UsageResponse{Plan: a.Organization.Plan, RateLimits: a.Organization.Plan.Limits(), Usage: u, ByClient: byClient}
	if !wantsJSON(c) {
		return s.usagePage(c, res)
	}
	return c.JSON(http.StatusOK, res)
}

// limitRequests counts every authenticated request against the caller's
// user and organization (API keys count as their creator). Requests of a
// signed-in browser session count in separate buckets with the plan's
// browser allowance (Plan.BrowserLimits); bearer tokens and API keys share
// the plan's limits. Every authenticated response carries
// X-RateLimit-Limit (requests per minute of the bucket closest to
// exhaustion), X-RateLimit-Remaining and X-RateLimit-Reset (seconds until
// the window ends); a refused request gets 429 with Retry-After (seconds)
// and consumes no quota.
func (s *Server) limitRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.svc.RateLimiter == nil {
			return next(c)
		}
		a := authFrom(c)
		limits := a.Organization.Plan.Limits()
		userBucket, orgBucket, client := a.User.ID, a.Organization.ID, ""
		if a.Method == turbinesim.AuthSession {
			limits = a.Organization.Plan.BrowserLimits()
			userBucket, orgBucket, client = "browser:"+userBucket, "browser:"+orgBucket, " in the browser"
		}
		d, err := s.svc.RateLimiter.Allow(c.Request().Context(), userBucket, orgBucket, limits, s.cfg.Now())
		if err != nil {
			return err
		}
		reset := strconv.Itoa(max(1, int(math.Ceil(d.Reset.Seconds()))))
		h := c.Response().Header()
		h.Set("X-RateLimit-Limit", strconv.Itoa(d.Limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(d.Remaining))
		h.Set("X-RateLimit-Reset", reset)
		if !d.Allowed {
			h.Set("Retry-After", reset)
			return turbinesim.Errorf(turbinesim.ERATELIMIT, "rate limit exceeded: %d requests per minute per %s%s on the %s plan",
				d.Limit, d.Scope, client, a.Organization.Plan)
		}
		return next(c)
	}
}

// auditKeyWrites records every state-changing request made with an API
// key, whatever its outcome, with the key's Client ID.
func (s *Server) auditKeyWrites(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		a := authFrom(c)
		if s.svc.Audit == nil || a == nil || a.Method != turbinesim.AuthAPIKey || safeMethod(c.Request().Method) {
			return err
		}
		status := c.Response().Status
		if err != nil {
			status, _ = statusAndDetail(err)
		}
		entry := &turbinesim.AuditEntry{OrganizationID: a.Organization.ID, UserID: a.User.ID, ClientID: a.ClientID,
			Method: c.Request().Method, Path: c.Request().URL.Path, Status: status}
		// The write has happened (or failed) already; a lost audit row is
		// logged loudly rather than turned into a failed response.
		if aerr := s.svc.Audit.RecordAudit(context.WithoutCancel(c.Request().Context()), entry); aerr != nil {
			s.log.Error("audit log write failed", "err", aerr, "client_id", a.ClientID, "request_id", requestID(c))
		}
		return err
	}
}

// issuedBeforeRevocation reports whether a token or session that signed in
// at issued predates the user's last "sign out everywhere". Tokens carry
// whole seconds, so the comparison is at second precision: a token issued
// in the same second as the sign-out survives (a one-second edge).
func issuedBeforeRevocation(a *turbinesim.Auth, issued time.Time) bool {
	return a.TokensValidAfter != nil && issued.Before(a.TokensValidAfter.Truncate(time.Second))
}

// signOutEverywhere: POST /account/sign-out-everywhere ends every session
// and login of the caller: refresh tokens are revoked, and access tokens
// and browser sessions started before now get 401. API keys are not
// affected (they are revoked one by one).
func (s *Server) signOutEverywhere(c echo.Context) error {
	rs, err := s.refreshService()
	if err != nil {
		return err
	}
	if err := interactiveOnly(c); err != nil {
		return err
	}
	if err := rs.SignOutEverywhere(c.Request().Context(), authFrom(c).User.ID, s.cfg.Now()); err != nil {
		return err
	}
	if !wantsJSON(c) {
		_ = s.sessions.Destroy(c.Request().Context())
		return c.Redirect(http.StatusSeeOther, "/login")
	}
	return c.NoContent(http.StatusNoContent)
}
