package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/turbinesim/turbinesim"
	turbineassets "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/jobs"
	"github.com/turbinesim/turbinesim/results"
)

// runServe: `turbined serve`. It runs until ctx ends (SIGINT/SIGTERM), then
// drains requests, closes the pool and stops the private cluster.
func runServe(ctx context.Context, env *Env, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("serve takes no arguments; configure it with environment variables")
	}
	cfg, err := loadConfig(env.Getenv)
	if err != nil {
		return err
	}
	d, err := openDatabase(ctx, env, cfg)
	if err != nil {
		return err
	}
	defer func() {
		if err := d.Close(); err != nil {
			env.Log.Error("closing the database", "err", err)
		} else {
			env.Log.Info("database closed")
		}
	}()

	res, err := d.Migrate(ctx)
	if err != nil {
		return err
	}
	for _, r := range res {
		env.Log.Info("migration applied", "file", r.Source.Path)
	}
	seed, err := db.Seed(ctx, d.DB, db.SeedOptions{
		OrganizationName: cfg.OrgName, AdminEmail: cfg.AdminEmail, AdminPassword: cfg.AdminPassword,
	})
	if err != nil {
		return err
	}
	secret, err := cfg.jwtSecret()
	if err != nil {
		return err
	}

	jc, err := loadJobConfig(env.Getenv, cfg.DataDir)
	if err != nil {
		return err
	}
	queue, err := startJobs(ctx, env, d.DB, jc) // cmd/turbined/worker.go
	if err != nil {
		return err
	}
	defer queue.stop(env)

	// Deck files of turbine configurations, one directory per tree.
	trees, err := openTreeStore(ctx, jc.S3, "turbines", filepath.Join(cfg.DataDir, "turbines"))
	if err != nil {
		return err
	}
	// Study artifacts, one single-file tree per artifact.
	artifacts, err := openTreeStore(ctx, jc.S3, "artifacts", filepath.Join(cfg.DataDir, "artifacts"))
	if err != nil {
		return err
	}
	cache, err := newResultCache(env.Getenv, cfg.DataDir) // cmd/turbined/results.go
	if err != nil {
		return err
	}
	// The folders whose paths never reach a user (handlers.Config).
	privateDirs := []string{cfg.DataDir, jc.BlobDir, jc.WorkDir}
	if dir, err := resultCacheDir(env.Getenv, cfg.DataDir); err == nil {
		privateDirs = append(privateDirs, dir)
	}
	demos, err := decks.NewBundledDemos(turbineassets.FS)
	if err != nil {
		return err
	}

	authSvc, err := db.NewAuthService(d.DB)
	if err != nil {
		return err
	}
	sessions := db.NewSessionStore(d.DB)
	keys := db.NewAPIKeyService(d.DB)
	mfa, err := db.NewMFAService(d.DB, "TurbineSim", secret)
	if err != nil {
		return err
	}
	accounts := db.NewAccountService(d.DB, db.AccountConfig{BaseURL: cfg.BaseURL,
		Mailer: turbinesim.MailerFromEnv(env.Getenv, env.Log)})
	loginThrottle := db.NewLoginThrottle(d.DB)
	turbines := db.NewTurbineService(d.DB, trees, decks.Editor{})
	batchStore := db.NewBatchService(queue.jobs)
	resultStore := db.NewResultService(d.DB, queue.jobs, queue.trees, cache)
	srv, err := handlers.New(handlers.Config{
		JWTSecret:      secret,
		BodyLimit:      cfg.BodyLimit,
		SecureCookies:  strings.HasPrefix(cfg.BaseURL, "https://"),
		TrustedProxies: cfg.TrustedProxies,
		Logger:         env.Log,
		SSO:            handlers.SSOProvidersFromEnv(env.Getenv, cfg.BaseURL),
		PrivateDirs:    privateDirs,
	}, handlers.Services{
		Auth:              authSvc,
		Users:             db.NewUserService(d.DB),
		Organizations:     db.NewOrganizationService(d.DB),
		Dashboard:         db.NewDashboardService(d.DB),
		Sessions:          sessions,
		Ready:             d.Ready,
		Turbines:          turbines,
		Demos:             demos,
		StoredDecks:       &decks.StoredDecks{Turbines: turbines},
		RefreshTokens:     db.NewRefreshTokenService(d.DB),
		APIKeys:           keys,
		Audit:             keys,
		RateLimiter:       db.NewRateLimiter(d.DB),
		Caps:              db.NewCapService(d.DB, nil),
		Accounts:          accounts,
		MFA:               mfa,
		LoginThrottle:     loginThrottle,
		SignUpThrottle:    db.NewSignUpThrottle(d.DB),
		SSO:               db.NewSSOService(d.DB),
		Jobs:              queue.jobs,
		JobSubmissions:    &jobs.Submissions{Jobs: queue.jobs, Turbines: turbines},
		Batches:           batchStore,
		DLCBatches:        &batches.DLCBatches{Turbines: turbines, Batches: batchStore},
		ParametricBatches: &batches.ParametricBatches{Turbines: turbines, Batches: batchStore},
		Studies:           db.NewStudyService(d.DB, artifacts),
		Notes:             db.NewNoteService(d.DB),
		Results:           resultStore,
		Analyses:          &results.ResultAnalysis{Results: resultStore, Batches: batchStore, Turbines: turbines, Jobs: queue.jobs},
		Reports:           &results.CertificationReports{Batches: batchStore, Results: resultStore, Turbines: turbines},

		// Sessions list on the account page; the timeouts match the
		// handlers' session manager (12 h absolute, 2 h idle).
		LoginSessions: db.NewLoginSessionService(d.DB, 12*time.Hour, 2*time.Hour),
		PasswordResets: &turbinesim.PasswordResets{Store: accounts, MFA: mfa,
			RequestThrottle: db.NewPasswordResetThrottle(d.DB), LoginThrottle: loginThrottle},
	})
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", ":"+strconv.Itoa(cfg.Port))
	if err != nil {
		return fmt.Errorf("listening on port %d: %w", cfg.Port, err)
	}
	ln = limitConnsPerClient(ln, cfg.MaxConnsPerClient, cfg.TrustedProxies)
	httpSrv := newHTTPServer(srv)

	bgCtx, stopBackground := context.WithCancel(context.Background())
	defer stopBackground()
	go sessions.CleanupLoop(bgCtx, 10*time.Minute, env.Log)
	// The private cluster is restarted if it dies; requests answer 503
	// with Retry-After until the pool reconnects.
	d.supervise(bgCtx, env.Log)

	serveErr := make(chan error, 1)
	go func() { serveErr <- httpSrv.Serve(ln) }()

	printBanner(env, cfg, seed)

	select {
	case <-ctx.Done():
		env.Log.Info("shutting down")
	case err := <-serveErr:
		return fmt.Errorf("serving: %w", err)
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := httpSrv.Shutdown(shutdownCtx); err != nil {
		env.Log.Warn("requests still running at shutdown were cut", "err", err)
	}
	return nil
}

func printBanner(env *Env, cfg *Config, seed *db.SeedResult) {
	w := env.Stdout
	fmt.Fprintf(w, "\nTurbine simulation service listening on %s\n", cfg.BaseURL)
	switch {
	case seed.Created:
		fmt.Fprintf(w, "  created the first account:  %s\n", seed.Email)
		fmt.Fprintf(w, "  password:                   %s\n", seed.Password)
	case seed.Reset:
		fmt.Fprintf(w, "  account:   %s\n  password:  %s (from ADMIN_PASSWORD)\n", seed.Email, seed.Password)
	default:
		fmt.Fprintf(w, "  accounts exist already (the first one was printed at first start;\n")
		fmt.Fprintf(w, "  set ADMIN_EMAIL and ADMIN_PASSWORD to set that account's password)\n")
	}
	fmt.Fprintf(w, "  log in at %s/login — press Ctrl-C to stop\n\n", cfg.BaseURL)
}

// maxHeaderBytes bounds a request's header block: session cookies and
// tokens fit many times over, while a 100 kB header is refused with
// net/http's own 431 before the application runs.
const maxHeaderBytes = 32 << 10

// newHTTPServer is the production HTTP server around h.
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           requireBodyProgress(h, bodyGrace, bodyMinRate),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       5 * time.Minute, // uploads of input decks
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}
