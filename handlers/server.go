// Package handlers is the HTTP face of the service: one set of Echo handlers
// serves browsers (full pages, htmx fragments) and scripts (JSON) at the same
// paths, by content negotiation. Handlers only parse and render; the work is
// done by the service interfaces of package turbinesim.
package handlers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/jobs"
	"github.com/turbinesim/turbinesim/outputs"
	"github.com/turbinesim/turbinesim/results"
)

// Services are the domain services the handlers call.
type Services struct {
	Auth          turbinesim.AuthService
	Users         turbinesim.UserService
	Organizations turbinesim.OrganizationService
	Dashboard     turbinesim.DashboardService
	// Sessions stores browser sessions (db.SessionStore in production).
	Sessions scs.Store
	// Ready reports whether the database answers; /readyz calls it.
	Ready func(context.Context) error

	// Turbine inventory (handlers/turbines.go); nil turns its JSON routes
	// into 501.
	Turbines turbinesim.TurbineService
	Demos    turbinesim.DemoCatalog
	// StoredDecks reads the turbines' stored decks (warnings, detailed
	// properties, .fst defaults, the turbine page); nil makes those 501.
	StoredDecks *decks.StoredDecks

	// Jobs (handlers/jobs.go); nil turns the job routes into 501.
	// JobSubmissions builds and submits POST /jobs (a run of a stored
	// turbine reads its deck through its Turbines); nil makes POST /jobs
	// 501.
	Jobs           turbinesim.JobService
	JobSubmissions *jobs.Submissions

	// Batches of jobs (handlers/batches.go); nil turns the batch routes
	// into 501. They also need Turbines. DLCBatches and ParametricBatches
	// preview and submit the two kinds of batch; nil makes their routes
	// 501.
	Batches           turbinesim.BatchService
	DLCBatches        *batches.DLCBatches
	ParametricBatches *batches.ParametricBatches

	// Studies, share links and notes (handlers/studies.go, notes.go); nil
	// turns their JSON routes into 501.
	Studies turbinesim.StudyService
	Notes   turbinesim.NoteService

	// Results (handlers/analysis.go); nil turns the result routes into 501.
	// Analyses answers the job and batch analyses and Reports builds the
	// certification report (handlers/report.go); nil makes their routes
	// 501.
	Results  outputs.ResultService
	Analyses *results.ResultAnalysis
	Reports  *results.CertificationReports

	// Identity and limits (handlers/identity.go). Each is optional: a nil
	// service turns its routes into 501 and, for RateLimiter, disables
	// rate limiting.
	RefreshTokens turbinesim.RefreshTokenService
	APIKeys       turbinesim.APIKeyService
	Audit         turbinesim.AuditService
	RateLimiter   turbinesim.RateLimiter
	Caps          turbinesim.CapService
	Accounts      turbinesim.AccountService
	MFA           turbinesim.MFAService
	LoginThrottle turbinesim.LoginThrottle
	// SignUpThrottle counts sign-ups per submitted address and per client
	// address, apart from sign-in failures; nil disables it.
	SignUpThrottle turbinesim.RequestThrottle
	SSO            turbinesim.SSOService
	// LoginSessions records browser sessions and lists and revokes them
	// with refresh-token families (handlers/loginsessions.go);
	// PasswordResets is the e-mailed password-reset flow
	// (handlers/passwordreset.go).
	LoginSessions  turbinesim.LoginSessionService
	PasswordResets *turbinesim.PasswordResets
}

// Config is the HTTP-level configuration.
type Config struct {
	// JWTSecret signs access and refresh tokens (HS256); at least 32 bytes.
	JWTSecret []byte
	// BodyLimit caps request bodies in bytes; larger bodies get 413.
	BodyLimit int64
	// SecureCookies marks the session cookie Secure and names it with the
	// __Host- prefix; set it whenever the service is reached over HTTPS.
	SecureCookies bool
	// TrustedProxies lists the CIDR ranges of reverse proxies whose
	// X-Forwarded-For may name the client; empty means the socket peer is
	// the client.
	TrustedProxies []string
	// SessionLifetime is the absolute lifetime of a browser session.
	SessionLifetime time.Duration
	Logger          *slog.Logger
	// Now is the clock for token issue and expiry; nil means time.Now.
	Now func() time.Time
	// SSO lists the configured identity providers by name (google, github,
	// microsoft); others answer 404. SSOLanding is where the browser goes
	// after a social sign-in, with the access token in the URL fragment
	// (default /account).
	SSO        map[string]SSOProvider
	SSOLanding string
	// ScratchDir holds the short-lived folders of request handling
	// (extracted uploads, job inputs before they are stored, batch run
	// preparation), each removed when its request ends; empty means the
	// system's temporary directory.
	ScratchDir string
	// PrivateDirs are the server's folders (DATA_DIR, BLOB_DIR, WORK_DIR,
	// RESULT_CACHE_DIR): no path under them, nor under ScratchDir or the
	// system's temporary directory, reaches a user (serverPaths).
	PrivateDirs []string
}

// Server is the HTTP application.
type Server struct {
	echo     *echo.Echo
	svc      Services
	cfg      Config
	log      *slog.Logger
	sessions *scs.SessionManager
	tokens   *Tokens
	authn    authChain
	// idTokens verify the ID tokens of the OpenID Connect providers, by
	// provider name (each caches its provider's keys).
	idTokens map[string]*turbinesim.IDTokenVerifier
	// paths hides the server's folders in what users read.
	paths *serverPaths
}

// New builds the application with its middleware and routes.
func New(cfg Config, svc Services) (*Server, error) {
	if len(cfg.JWTSecret) < 32 {
		return nil, errors.New("handlers: JWT secret shorter than 32 bytes")
	}
	if svc.Auth == nil || svc.Users == nil || svc.Organizations == nil || svc.Dashboard == nil || svc.Sessions == nil || svc.Ready == nil {
		return nil, errors.New("handlers: every service must be set")
	}
	if cfg.BodyLimit <= 0 {
		cfg.BodyLimit = DefaultBodyLimit
	}
	if cfg.SessionLifetime <= 0 {
		cfg.SessionLifetime = 12 * time.Hour
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{svc: svc, cfg: cfg, log: cfg.Logger,
		paths: newServerPaths(append([]string{cfg.ScratchDir, os.TempDir()}, cfg.PrivateDirs...))}
	s.tokens = NewTokens(cfg.JWTSecret, cfg.Now)
	s.idTokens = map[string]*turbinesim.IDTokenVerifier{}
	for name, p := range cfg.SSO {
		if p.Kind != "oidc" {
			continue
		}
		if p.JWKSURL == "" || len(p.Issuers) == 0 {
			return nil, fmt.Errorf("handlers: SSO provider %s: ID-token verification needs Issuers and JWKSURL", name)
		}
		s.idTokens[name] = &turbinesim.IDTokenVerifier{ClientID: p.ClientID, Issuers: p.Issuers, JWKSURL: p.JWKSURL, Now: cfg.Now}
	}

	s.sessions = scs.New()
	s.sessions.Store = svc.Sessions
	s.sessions.Lifetime = cfg.SessionLifetime
	s.sessions.IdleTimeout = 2 * time.Hour
	s.sessions.Cookie.Name = "turbinesim_session"
	if cfg.SecureCookies {
		s.sessions.Cookie.Name = "__Host-turbinesim_session"
	}
	s.sessions.Cookie.Secure = cfg.SecureCookies
	s.sessions.Cookie.HttpOnly = true
	s.sessions.Cookie.SameSite = http.SameSiteLaxMode
	s.sessions.Cookie.Path = "/"
	// A session store failure (database down) must answer with the error
	// shape, like every other error.
	s.sessions.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) {
		s.writeError(w, r, err)
	}

	// Credential kinds tried in order; the first one present decides. The
	// API-key authenticator slots in here (before the session) later.
	s.authn = authChain{
		bearerAuthenticator{tokens: s.tokens, auth: svc.Auth},
		sessionAuthenticator{sessions: s.sessions, auth: svc.Auth, logins: svc.LoginSessions, now: cfg.Now},
	}
	if svc.APIKeys != nil {
		s.authn = append(authChain{apiKeyAuthenticator{keys: svc.APIKeys}}, s.authn...)
	}

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.handleError
	ipx, err := ipExtractor(cfg.TrustedProxies)
	if err != nil {
		return nil, err
	}
	e.IPExtractor = ipx
	s.echo = e
	s.routes()
	return s, nil
}

// DefaultBodyLimit caps request bodies when Config.BodyLimit is zero.
const DefaultBodyLimit = 32 << 20

// ServeHTTP makes the Server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// Echo exposes the router, for route listings and tests.
func (s *Server) Echo() *echo.Echo { return s.echo }

// Tokens exposes the JWT issuer, for the identity endpoints and tests.
func (s *Server) Tokens() *Tokens { return s.tokens }

// Sessions exposes the browser session manager.
func (s *Server) Sessions() *scs.SessionManager { return s.sessions }
