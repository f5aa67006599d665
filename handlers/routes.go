package handlers

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/assets"
)

// routes registers every route of the service in one place. JSON routes
// must be documented in openapi.go (TestOpenAPIMatchesRoutes enforces it);
// routes that serve browsers only are listed in htmlOnlyRoutes.
func (s *Server) routes() {
	e := s.echo
	e.Use(withRequestID, requestLogger(s.log), recoverPanics(s.log), securityHeaders, s.bodyLimit)
	e.Use(s.loadSession, s.crossOrigin(), clientInfo)

	// Public.
	e.GET("/", s.index)
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/openapi.json", s.openAPI)
	e.GET("/login", s.loginPage, s.optionalAuth)
	e.POST("/auth/login", s.login)
	e.POST("/logout", s.logout)
	e.GET("/assets/*", echo.StaticDirectoryHandler(assets.FS, !e.EnablePathUnescapingStaticFiles), cacheAssets)

	// Authenticated by session cookie or Bearer JWT.
	// (Per route rather than an Echo group: a group with middleware also
	// catches unknown paths under its prefix, which would turn every 404
	// into a 401.)
	authed := []echo.MiddlewareFunc{s.requireAuth, s.auditKeyWrites, s.limitRequests, noStore}
	// API keys reach each route only with its scope (turbinesim.Scope);
	// membership and settings changes refuse keys altogether.
	work := withMiddleware(authed, keyScope(turbinesim.ScopeSimulation))
	verified := append(append([]echo.MiddlewareFunc{}, work...), s.requireVerified)
	e.GET("/dashboard", s.dashboard, work...)
	e.GET("/account", s.account, authed...)

	// Turbines (handlers/turbines.go, turbines_upload.go, turbines_pages.go).
	// /turbines/demos and /turbines/from-upload are static segments, which
	// Echo's router always prefers to the :id parameter.
	e.GET("/turbines", s.listTurbines, work...)
	e.POST("/turbines", s.createTurbine, work...)
	e.GET("/turbines/demos", s.listDemos, work...)
	e.POST("/turbines/demos/:demo_id/load", s.loadDemo, work...)
	e.POST("/turbines/from-upload", s.uploadTurbine, work...)
	e.GET("/turbines/:id", s.getTurbine, work...)
	e.PUT("/turbines/:id", s.updateTurbine, work...)
	e.DELETE("/turbines/:id", s.deleteTurbine, work...)
	e.POST("/turbines/:id/clone", s.cloneTurbine, work...)
	e.GET("/turbines/:id/detailed-properties", s.detailedProperties, work...)
	e.GET("/turbines/:id/airfoil-polar/:airfoil_index", s.airfoilPolar, work...)
	e.GET("/turbines/:id/fst-defaults", s.fstDefaults, work...)
	// The stored deck as files (handlers/turbines_files.go).
	e.GET("/turbines/:id/files", s.deckFiles, work...)
	e.GET("/turbines/:id/files/*", s.deckFile, work...)
	e.GET("/turbines/:id/deck.zip", s.deckZip, work...)
	e.GET("/turbines/:id/diff", s.deckDiff, work...)

	// Jobs (handlers/jobs.go). The static /jobs/new (the submit page) wins
	// over /jobs/:id in Echo's router.
	e.POST("/jobs", s.submitJob, work...)
	e.GET("/jobs", s.listJobs, work...)
	e.GET("/jobs/new", s.newJobPage, work...)
	e.GET("/jobs/:id", s.getJob, work...)
	e.PATCH("/jobs/:id", s.updateJob, work...)
	e.POST("/jobs/:id/cancel", s.cancelJob, work...)
	e.GET("/jobs/:id/outputs/:name", s.jobOutput, work...)
	e.GET("/ws/jobs/:id", s.jobSocket, work...)

	// Studies, share links and their public face (handlers/studies.go,
	// public.go). /studies/{id}/share/rotate is a static segment after the
	// parameter, so it never collides with the {id} routes.
	e.GET("/studies", s.listStudies, work...)
	e.POST("/studies", s.createStudy, work...)
	e.GET("/studies/:id", s.getStudy, work...)
	e.PUT("/studies/:id", s.updateStudy, work...)
	e.DELETE("/studies/:id", s.deleteStudy, work...)
	e.GET("/studies/:id/artifacts", s.listArtifacts, work...)
	e.POST("/studies/:id/artifacts", s.uploadArtifact, work...)
	e.GET("/studies/:id/artifacts/:artifact_id/download", s.downloadArtifact, work...)
	e.DELETE("/studies/:id/artifacts/:artifact_id", s.deleteArtifact, work...)
	e.GET("/studies/:id/share", s.getShare, work...)
	e.POST("/studies/:id/share", s.enableShare, work...)
	e.DELETE("/studies/:id/share", s.disableShare, work...)
	e.POST("/studies/:id/share/rotate", s.rotateShare, work...)
	e.GET("/studies/editor.js", s.studyScript)

	public := []echo.MiddlewareFunc{publicHeaders, s.limitByAddress}
	e.GET("/api/public/studies/:token", s.publicStudy, public...)
	e.GET("/api/public/studies/:token/artifacts", s.publicArtifacts, public...)
	e.GET("/api/public/studies/:token/artifacts/:id/download", s.publicDownload, public...)
	e.GET("/s/:token", s.publicStudyPage, public...)

	// Notes (handlers/notes.go).
	e.GET("/notes", s.listNotes, work...)
	e.POST("/notes", s.createNote, work...)
	e.GET("/notes/:id", s.getNote, work...)
	e.PUT("/notes/:id", s.updateNote, work...)
	e.DELETE("/notes/:id", s.deleteNote, work...)

	// Results of jobs and batches (handlers/analysis.go, analysis_batch.go,
	// analysis_loads.go; the pages in analysis_pages.go).
	e.GET("/analysis/jobs/:id/channels", s.jobChannels, work...)
	e.POST("/analysis/jobs/:id/time-series", s.jobTimeSeries, work...)
	e.POST("/analysis/jobs/:id/statistics", s.jobStatistics, work...)
	e.GET("/analysis/jobs/:id/output/download", s.jobOutputDownload, work...)
	e.GET("/analysis/jobs/:id/export", s.jobExport, work...)
	e.POST("/analysis/jobs/:id/spectrum", s.jobSpectrum, work...)
	e.POST("/analysis/jobs/:id/markov", s.jobMarkov, work...)
	e.POST("/analysis/jobs/:id/load-duration", s.jobLoadDuration, work...)
	e.POST("/analysis/jobs/:id/fatigue", s.jobFatigue, work...)
	e.GET("/analysis/jobs/:id/markov", s.jobMarkov, work...) // query-parameter form, for links
	e.GET("/analysis/jobs/:id/load-duration", s.jobLoadDuration, work...)
	e.GET("/analysis/batches/:id/power-curve", s.batchCurves(false), work...)
	e.GET("/analysis/batches/:id/curves", s.batchCurves(true), work...)
	e.GET("/analysis/batches/:id/aep", s.batchAEP, work...)
	e.GET("/analysis/batches/:id/del", s.batchDEL, work...)
	e.GET("/analysis/batches/:id/extremes", s.batchExtremes, work...)
	e.GET("/analysis/batches/:id/markov", s.batchMarkov, work...)
	e.GET("/analysis/batches/:id/load-duration", s.batchLoadDuration, work...)
	e.GET("/analysis/jobs/:id", s.jobResultsPage, work...)
	e.GET("/analysis/compare", s.compareJobsPage, work...)
	e.GET("/analysis/batches/:id", s.batchResultsPage, work...)

	// Batches (handlers/batches.go, batches_ws.go) and the certification
	// report (handlers/report.go).
	e.POST("/dlcs/batch-submit", s.submitDLCBatch, work...)
	e.POST("/dlcs/preview", s.previewDLC, work...)
	e.GET("/dlcs/new", s.dlcWizard, work...)
	e.POST("/parametric/batch-submit", s.submitParametricBatch, verified...)
	e.GET("/parametric/new", s.parametricForm, work...)
	e.GET("/batches", s.listBatches, work...)
	e.GET("/batches/:id", s.getBatch, work...)
	e.GET("/ws/batches/:id", s.batchSocket, work...)
	e.GET("/reports/batches/:id", s.batchReport, verified...)

	// Identity, API keys, limits (handlers/identity.go).
	e.POST("/auth/token/refresh", s.refresh)
	e.POST("/auth/logout", s.logoutTokens)
	e.POST("/api-keys", s.createAPIKey, authed...)
	e.GET("/api-keys", s.listAPIKeys, authed...)
	e.DELETE("/api-keys/:id", s.revokeAPIKey, authed...)
	e.POST("/api-keys/:id/deactivate", s.setAPIKeyActive(false), authed...)
	e.POST("/api-keys/:id/reactivate", s.setAPIKeyActive(true), authed...)
	// Organization administration: administrators only (403 otherwise),
	// checked once here rather than in each handler.
	admin := withMiddleware(authed, s.requireAdmin)
	orgRead := withMiddleware(authed, keyScope(turbinesim.ScopeOrgRead))
	adminRead := withMiddleware(admin, keyScope(turbinesim.ScopeOrgRead))
	adminWrite := withMiddleware(admin, requireInteractive)
	e.GET("/org/audit-log", s.auditLog, adminRead...)
	e.GET("/org/settings", s.getOrgSettings, adminRead...)
	e.PUT("/org/settings", s.putOrgSettings, adminWrite...)
	e.GET("/org/usage", s.usage, work...)
	e.POST("/auth/signup", s.signUp)
	e.POST("/auth/verify-email", s.verifyEmail)
	e.POST("/auth/accept-invite", s.acceptInvite)
	e.GET("/org/members", s.listMembers, orgRead...)
	e.POST("/org/members", s.inviteMember, adminWrite...)
	e.PUT("/org/members/:id", s.updateMember, adminWrite...)
	e.DELETE("/org/members/:id", s.deleteMember, adminWrite...)
	e.GET("/org/outbox", s.outbox, adminRead...)
	e.POST("/account/mfa/enrol", s.mfaEnrol, authed...)
	e.POST("/account/mfa/confirm", s.mfaConfirm, authed...)
	e.POST("/account/mfa/disable", s.mfaDisable, authed...)
	e.POST("/account/mfa/recovery-codes", s.mfaRecoveryCodes, authed...)
	e.POST("/account/sign-out-everywhere", s.signOutEverywhere, authed...)
	e.GET("/auth/sso/:provider/login", s.ssoLogin)
	e.GET("/auth/sso/:provider/callback", s.ssoCallback)
	e.POST("/auth/password-reset", s.requestPasswordReset) // handlers/passwordreset.go
	e.POST("/auth/password-reset/confirm", s.confirmPasswordReset)
	e.GET("/account/sessions", s.getSessions, authed...) // handlers/loginsessions.go
	e.DELETE("/account/sessions/:id", s.deleteSession, authed...)

	// Identity pages (handlers/identity_pages.go).
	e.GET("/signup", s.signUpPage, s.optionalAuth)
	e.POST("/signup", s.signUpForm)
	e.GET("/verify-email", s.verifyEmailPage, s.optionalAuth)
	e.GET("/account/security", s.securityPage, authed...)
	e.POST("/account/security/enrol", s.securityEnrol, authed...)
	e.POST("/account/security/confirm", s.securityConfirm, authed...)
	e.POST("/account/security/disable", s.securityReauthAction(false), authed...)
	e.POST("/account/security/recovery-codes", s.securityReauthAction(true), authed...)
	e.GET("/account/api-keys", s.apiKeysPage, authed...)
	e.POST("/account/api-keys", s.apiKeyCreateForm, authed...)
	e.POST("/account/api-keys/:id/:action", s.apiKeyActionForm, authed...)
	e.GET("/org", s.orgPage, orgRead...)
	e.POST("/org/invite", s.orgInviteForm, adminWrite...)
	e.POST("/org/api-keys/:id/:action", s.orgKeyActionForm, adminWrite...)
	e.GET("/accept-invite", s.acceptInvitePage, s.optionalAuth) // the invitation e-mail's link
	e.POST("/accept-invite", s.acceptInviteForm)
	e.GET("/forgot-password", s.forgotPasswordPage, s.optionalAuth)
	e.POST("/forgot-password", s.forgotPasswordForm)
	e.GET("/reset-password", s.resetPasswordPage, s.optionalAuth)
	e.POST("/reset-password", s.resetPasswordForm)
	e.POST("/account/sessions/:id/revoke", s.revokeSessionForm, authed...)
}

// withMiddleware returns chain followed by more, in a new slice.
func withMiddleware(chain []echo.MiddlewareFunc, more ...echo.MiddlewareFunc) []echo.MiddlewareFunc {
	return append(append([]echo.MiddlewareFunc{}, chain...), more...)
}

// htmlOnlyRoutes are routes for browsers only, exempt from the OpenAPI
// document. The three section placeholders answer JSON callers with 501
// until their resources are built; the JSON of those paths is documented
// together with its implementation.
var htmlOnlyRoutes = map[string]bool{
	"GET /analysis/jobs/:id":    true, // handlers/analysis_pages.go
	"GET /analysis/compare":     true,
	"GET /analysis/batches/:id": true,
	// Social sign-in is a browser-only flow (redirects to the provider and back).
	"GET /auth/sso/:provider/login":         true,
	"GET /auth/sso/:provider/callback":      true,
	"GET /signup":                           true,
	"POST /signup":                          true,
	"GET /verify-email":                     true,
	"GET /account/security":                 true,
	"POST /account/security/enrol":          true,
	"POST /account/security/confirm":        true,
	"POST /account/security/disable":        true,
	"POST /account/security/recovery-codes": true,
	"GET /account/api-keys":                 true,
	"POST /account/api-keys":                true,
	"POST /account/api-keys/:id/:action":    true,
	"GET /org":                              true,
	"POST /org/invite":                      true,
	"POST /org/api-keys/:id/:action":        true,
	"GET /accept-invite":                    true,
	"POST /accept-invite":                   true,
	"GET /forgot-password":                  true,
	"POST /forgot-password":                 true,
	"GET /reset-password":                   true,
	"POST /reset-password":                  true,
	"POST /account/sessions/:id/revoke":     true,
	"GET /login":                            true,
	"POST /logout":                          true,
	"GET /assets/*":                         true,
	"GET /jobs/new":                         true,
	"GET /studies/editor.js":                true, // handlers/studies.go
	"GET /s/:token":                         true,
	"GET /dlcs/new":                         true, // handlers/batches.go
	"GET /parametric/new":                   true,
}

// bodyLimit refuses bodies over the configured size with 413: up front from
// Content-Length, and while reading for chunked bodies (MaxBytesReader; the
// error maps to 413 in statusAndDetail).
func (s *Server) bodyLimit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.ContentLength > s.cfg.BodyLimit {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge,
				"request body larger than "+strconv.FormatInt(s.cfg.BodyLimit, 10)+" bytes")
		}
		r.Body = http.MaxBytesReader(c.Response(), r.Body, s.cfg.BodyLimit)
		return next(c)
	}
}

// loadSession loads the browser session (scs) for requests that carry a
// session cookie; asset and probe requests skip it.
func (s *Server) loadSession(next echo.HandlerFunc) echo.HandlerFunc {
	withSession := echo.WrapMiddleware(s.sessions.LoadAndSave)(next)
	return func(c echo.Context) error {
		switch p := c.Request().URL.Path; {
		case p == "/healthz", p == "/readyz", len(p) >= 8 && p[:8] == "/assets/":
			return next(c)
		}
		return withSession(c)
	}
}
