package handlers

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
)

// Social sign-in: the OAuth 2.0 authorization-code flow with PKCE (RFC 7636,
// S256) and state bound to the browser's server-side session (RFC 9700
// §2.1, §4.7). For the OpenID Connect providers (Google, Microsoft) the
// identity is the ID token of the token response, verified against the
// provider's JWKS with iss, aud, exp and this browser's nonce
// (turbinesim.IDTokenVerifier); GitHub (plain OAuth 2.0) is read from its
// API.

// SSOProvider configures one identity provider.
type SSOProvider struct {
	ClientID, ClientSecret string
	AuthURL, TokenURL      string
	// UserInfoURL answers OpenID Connect user info (sub, email,
	// email_verified, name) for Kind "oidc"; for Kind "github" it is the
	// API's /user and EmailsURL its /user/emails.
	UserInfoURL, EmailsURL string
	Kind                   string
	Scopes                 []string
	// Issuers and JWKSURL verify the ID tokens of Kind "oidc" (required
	// for it): the accepted iss values ("{tenantid}" stands for the
	// token's tid claim) and the provider's signing keys.
	Issuers []string
	JWKSURL string
	// RedirectURL is this service's callback, registered at the provider.
	RedirectURL string
}

// SSOProvidersFromEnv configures the providers whose client id is set:
// SSO_GOOGLE_CLIENT_ID/SECRET, SSO_GITHUB_CLIENT_ID/SECRET,
// SSO_MICROSOFT_CLIENT_ID/SECRET (and SSO_MICROSOFT_TENANT, default
// "common"). baseURL is where users reach the service.
func SSOProvidersFromEnv(getenv func(string) string, baseURL string) map[string]SSOProvider {
	base := strings.TrimRight(baseURL, "/")
	tenant := getenv("SSO_MICROSOFT_TENANT")
	if tenant == "" {
		tenant = "common"
	}
	all := map[string]SSOProvider{
		"google": {AuthURL: "https://accounts.google.com/o/oauth2/v2/auth", TokenURL: "https://oauth2.googleapis.com/token",
			UserInfoURL: "https://openidconnect.googleapis.com/v1/userinfo", Kind: "oidc", Scopes: []string{"openid", "email", "profile"},
			// Google's discovery document; both issuer spellings occur.
			Issuers: []string{"https://accounts.google.com", "accounts.google.com"},
			JWKSURL: "https://www.googleapis.com/oauth2/v3/certs"},
		"github": {AuthURL: "https://github.com/login/oauth/authorize", TokenURL: "https://github.com/login/oauth/access_token",
			UserInfoURL: "https://api.github.com/user", EmailsURL: "https://api.github.com/user/emails", Kind: "github",
			Scopes: []string{"read:user", "user:email"}},
		"microsoft": {AuthURL: "https://login.microsoftonline.com/" + tenant + "/oauth2/v2.0/authorize",
			TokenURL:    "https://login.microsoftonline.com/" + tenant + "/oauth2/v2.0/token",
			UserInfoURL: "https://graph.microsoft.com/oidc/userinfo", Kind: "oidc", Scopes: []string{"openid", "email", "profile"},
			// Microsoft identity platform v2.0: the issuer names the
			// user's tenant (tid), also behind the common endpoints.
			Issuers: []string{"https://login.microsoftonline.com/{tenantid}/v2.0"},
			JWKSURL: "https://login.microsoftonline.com/" + tenant + "/discovery/v2.0/keys"},
	}
	out := map[string]SSOProvider{}
	for name, p := range all {
		env := "SSO_" + strings.ToUpper(name) + "_CLIENT_"
		if id := getenv(env + "ID"); id != "" {
			p.ClientID, p.ClientSecret = id, getenv(env+"SECRET")
			p.RedirectURL = base + "/auth/sso/" + name + "/callback"
			out[name] = p
		}
	}
	return out
}

// Session keys of a flow in progress.
const (
	sessionSSOState    = "sso_state"
	sessionSSOVerifier = "sso_verifier"
	sessionSSOProvider = "sso_provider"
	sessionSSOStarted  = "sso_started"
	sessionSSONonce    = "sso_nonce"
)

// ssoStateLifetime bounds how long a started flow may take.
const ssoStateLifetime = 10 * time.Minute

func (s *Server) ssoProvider(c echo.Context) (string, SSOProvider, error) {
	name := c.Param("provider")
	p, ok := s.cfg.SSO[name]
	if !ok || s.svc.SSO == nil {
		return "", p, turbinesim.Errorf(turbinesim.ENOTFOUND, "unknown or unconfigured identity provider")
	}
	return name, p, nil
}

// ssoNames lists the configured providers in a fixed order, for the
// login page's buttons.
func (s *Server) ssoNames() []string {
	if s.svc.SSO == nil {
		return nil
	}
	var names []string
	for _, n := range []string{"google", "microsoft", "github"} {
		if _, ok := s.cfg.SSO[n]; ok {
			names = append(names, n)
		}
	}
	return names
}

func pkceChallenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// ssoLogin: GET /auth/sso/{provider}/login redirects to the provider.
func (s *Server) ssoLogin(c echo.Context) error {
	name, p, err := s.ssoProvider(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	state, verifier := rand.Text(), rand.Text()+rand.Text() // 52 characters, RFC 7636 §4.1 wants 43..128
	s.sessions.Put(ctx, sessionSSOState, state)
	s.sessions.Put(ctx, sessionSSOVerifier, verifier)
	s.sessions.Put(ctx, sessionSSOProvider, name)
	s.sessions.Put(ctx, sessionSSOStarted, s.cfg.Now().Unix())
	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {p.ClientID},
		"redirect_uri":          {p.RedirectURL},
		"scope":                 {strings.Join(p.Scopes, " ")},
		"state":                 {state},
		"code_challenge":        {pkceChallenge(verifier)},
		"code_challenge_method": {"S256"},
	}
	if p.Kind == "oidc" {
		// OIDC Core §3.1.2.1: the nonce binds the ID token to this
		// browser's sign-in (replayed or injected ID tokens fail).
		nonce := rand.Text()
		s.sessions.Put(ctx, sessionSSONonce, nonce)
		q.Set("nonce", nonce)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, p.AuthURL+"?"+q.Encode())
}

var errSSOState = turbinesim.Errorf(turbinesim.EFORBIDDEN, "sign-in link is invalid, expired or already used; start the sign-in again")

// ssoCallback: GET /auth/sso/{provider}/callback. The state must match the
// one stored in this browser's session (which is then forgotten: one use),
// the code is exchanged with the PKCE verifier, and the identity is
// linked or created. The browser gets a session and is sent to the web
// application with the access token in the URL fragment (never the query,
// so it reaches neither server logs nor Referer headers).
func (s *Server) ssoCallback(c echo.Context) error {
	name, p, err := s.ssoProvider(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	wantState := s.sessions.PopString(ctx, sessionSSOState)
	verifier := s.sessions.PopString(ctx, sessionSSOVerifier)
	provider := s.sessions.PopString(ctx, sessionSSOProvider)
	nonce := s.sessions.PopString(ctx, sessionSSONonce)
	started := s.sessions.GetInt64(ctx, sessionSSOStarted)
	s.sessions.Remove(ctx, sessionSSOStarted)
	if e := c.QueryParam("error"); e != "" {
		return turbinesim.Errorf(turbinesim.EINVALID, "the identity provider refused the sign-in (%s)", truncate(e, 64))
	}
	code, state := c.QueryParam("code"), c.QueryParam("state")
	if code == "" {
		return turbinesim.Errorf(turbinesim.EINVALID, "the identity provider sent no authorization code")
	}
	if wantState == "" || provider != name || subtle.ConstantTimeCompare([]byte(state), []byte(wantState)) != 1 ||
		s.cfg.Now().Sub(time.Unix(started, 0)) > ssoStateLifetime {
		return errSSOState
	}
	id, err := s.fetchSSOIdentity(ctx, name, p, code, verifier, nonce)
	if err != nil {
		return err
	}
	user, err := s.svc.SSO.SignInSSO(ctx, *id)
	if err != nil {
		return err
	}
	if err := s.startBrowserSession(c, user); err != nil {
		return err
	}
	pair, err := s.issueTokens(ctx, user)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	frag := url.Values{"access_token": {pair.AccessToken}, "token_type": {"bearer"},
		"expires_in": {strconv.Itoa(pair.ExpiresIn)}}
	return c.Redirect(http.StatusFound, s.ssoLanding()+"#"+frag.Encode())
}

func (s *Server) ssoLanding() string {
	if s.cfg.SSOLanding != "" {
		return s.cfg.SSOLanding
	}
	return "/account"
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// ssoTimeout bounds every call to a provider.
const ssoTimeout = 10 * time.Second

func (s *Server) fetchSSOIdentity(ctx context.Context, name string, p SSOProvider, code, verifier, nonce string) (*turbinesim.SSOIdentity, error) {
	ctx, cancel := context.WithTimeout(ctx, ssoTimeout)
	defer cancel()
	form := url.Values{
		"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {p.RedirectURL},
		"client_id": {p.ClientID}, "client_secret": {p.ClientSecret}, "code_verifier": {verifier},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	var tok struct {
		AccessToken string `json:"access_token"`
		IDToken     string `json:"id_token"`
		Error       string `json:"error"`
	}
	if err := ssoJSON(req, &tok); err != nil || tok.AccessToken == "" {
		return nil, turbinesim.WrapError(turbinesim.EUNAUTHORIZED, "the identity provider did not accept the authorization code",
			fmt.Errorf("token exchange with %s: %v %s", name, err, tok.Error))
	}
	get := func(u string, dst any) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		req.Header.Set("Accept", "application/json")
		return ssoJSON(req, dst)
	}
	id := &turbinesim.SSOIdentity{Provider: name}
	failed := func(err error) (*turbinesim.SSOIdentity, error) {
		return nil, turbinesim.WrapError(turbinesim.EUNAUTHORIZED, "could not read the user from the identity provider",
			fmt.Errorf("user info from %s: %w", name, err))
	}
	switch p.Kind {
	case "github":
		var gu struct {
			ID    int64  `json:"id"`
			Name  string `json:"name"`
			Login string `json:"login"`
		}
		if err := get(p.UserInfoURL, &gu); err != nil || gu.ID == 0 {
			return failed(fmt.Errorf("user: %v", err))
		}
		var emails []struct {
			Email    string `json:"email"`
			Primary  bool   `json:"primary"`
			Verified bool   `json:"verified"`
		}
		if err := get(p.EmailsURL, &emails); err != nil {
			return failed(err)
		}
		id.Subject, id.Name = strconv.FormatInt(gu.ID, 10), gu.Name
		if id.Name == "" {
			id.Name = gu.Login
		}
		for _, e := range emails {
			if e.Primary {
				id.Email, id.EmailVerified = e.Email, e.Verified
			}
		}
	default:
		claims, err := s.idTokens[name].Verify(ctx, tok.IDToken, nonce)
		if err != nil {
			return nil, err
		}
		id.Subject, id.Email, id.Name, id.EmailVerified = claims.Subject, claims.Email, claims.Name, claims.EmailVerified
		if p.UserInfoURL == "" {
			break
		}
		// The provider's user info: it counts only for the subject of the
		// verified ID token (OIDC Core §5.3.2), and fills in what the ID
		// token leaves out (the ID token's e-mail claims win).
		var info struct {
			Sub           string `json:"sub"`
			Email         string `json:"email"`
			EmailVerified any    `json:"email_verified"` // bool, or "true" from some providers
			Name          string `json:"name"`
		}
		if err := get(p.UserInfoURL, &info); err != nil || info.Sub != claims.Subject {
			return failed(fmt.Errorf("userinfo: %v (subject match: %v)", err, info.Sub == claims.Subject))
		}
		if id.Email == "" {
			id.Email = info.Email
			id.EmailVerified = info.EmailVerified == true || info.EmailVerified == "true"
		}
		if id.Name == "" {
			id.Name = info.Name
		}
	}
	return id, nil
}

// ssoJSON performs req and decodes a 2xx JSON answer of at most 1 MiB.
func ssoJSON(req *http.Request, dst any) error {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		_ = json.Unmarshal(body, dst)
		return fmt.Errorf("%s %s: status %d", req.Method, req.URL.Host, resp.StatusCode)
	}
	return json.Unmarshal(body, dst)
}
