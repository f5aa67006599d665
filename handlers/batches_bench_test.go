package handlers_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	bundled "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/jobtest"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/infra/blobstore"
)

// BenchmarkDLCBatchSubmit measures the latency of POST /dlcs/batch-submit
// (no worker runs: only the request is timed). Cases:
//   - reduced: the reduced DLC 1.2 batch of TestDLC12BatchRunsEndToEnd
//     (3 speeds × 2 seeds, 60 s, 7 × 7 grid at 0.25 s);
//   - reduced-default-grid: the same 6 runs with the default 25 × 25 grid
//     at 0.05 s (what a user gets without grid options);
//   - runs=54: DLC 1.2 at 9 speeds × 2 seeds × 3 yaw angles, default grid.
//
// Run it alone: go test ./handlers -run '^$' -bench DLCBatchSubmit -benchtime 1x
func BenchmarkDLCBatchSubmit(b *testing.B) {
	srv, auth, turbineID := newBatchBenchServer(b)
	full := func(speeds []float64, seeds int, yaw []float64) string {
		body, _ := json.Marshal(map[string]any{
			"turbine_id": turbineID, "dlcs": []string{"1.2"}, "class": "I", "category": "B", "batch_seed": 11,
			"overrides": map[string]any{"1.2": map[string]any{"speeds": speeds, "seeds": seeds, "yaw": yaw, "duration": 60, "transient": 0}},
		})
		return string(body)
	}
	cases := []struct {
		name string
		body string
		runs int
	}{
		{"reduced", reducedDLC12(turbineID, 60), 6},
		{"reduced-default-grid", full([]float64{8, 12, 16}, 2, []float64{0}), 6},
		{"runs=54", full([]float64{4, 6, 8, 10, 12, 14, 16, 18, 20}, 2, []float64{-8, 0, 8}), 54},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				req, _ := http.NewRequest("POST", srv.URL+"/dlcs/batch-submit", strings.NewReader(c.body))
				req.Header.Set("Authorization", auth)
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				var batch turbinesim.Batch
				if resp.StatusCode != http.StatusCreated || json.Unmarshal(body, &batch) != nil || batch.RunCount != c.runs {
					b.Fatalf("submit: %d %s", resp.StatusCode, body)
				}
			}
		})
	}
}

// newBatchBenchServer is the application with turbines and batches (no
// worker), the bundled NREL 5 MW as a turbine and caps high enough for
// every benchmark iteration; it returns the server, a Bearer header of a
// verified administrator and the turbine id.
func newBatchBenchServer(tb testing.TB) (*httptest.Server, string, string) {
	tb.Helper()
	ctx := context.Background()
	d := jobtest.New(tb)
	org, users := newBenchOrg(tb, d)
	caps := db.NewCapService(d, nil)
	if err := caps.SetCaps(ctx, org.ID, turbinesim.Caps{SpendCapCents: 1 << 40, TokenCap: 1 << 40}); err != nil {
		tb.Fatal(err)
	}
	trees, err := blobstore.NewLocal(filepath.Join(tb.TempDir(), "blobs"))
	if err != nil {
		tb.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	inserter, err := db.NewQueue(d, db.QueueConfig{Logger: quiet})
	if err != nil {
		tb.Fatal(err)
	}
	jobs := db.NewJobService(d, trees, caps, inserter)
	turbines := db.NewTurbineService(d, trees, decks.Editor{})
	catalog, err := decks.NewBundledDemos(bundled.FS)
	if err != nil {
		tb.Fatal(err)
	}
	deckDir := tb.TempDir()
	t, err := catalog.Build("nrel-5mw-land", deckDir)
	if err != nil {
		tb.Fatal(err)
	}
	t.OrganizationID = org.ID
	if err := turbines.CreateTurbine(ctx, t, deckDir); err != nil {
		tb.Fatal(err)
	}
	srv, bearer := newBenchServer(tb, d, users, handlers.Services{Caps: caps, Turbines: turbines, Jobs: jobs, Batches: db.NewBatchService(jobs)})
	return srv, bearer, t.ID
}

// benchPassword is the password of the benchmarks' administrator.
const benchPassword = "correct horse battery"

// newBenchOrg creates an organization and its verified administrator
// ada@example.com (benchPassword) in d.
func newBenchOrg(tb testing.TB, d *db.DB) (*turbinesim.Organization, *db.UserService) {
	tb.Helper()
	ctx := context.Background()
	org := &turbinesim.Organization{Name: "Bench Wind"}
	if err := db.NewOrganizationService(d).CreateOrganization(ctx, org); err != nil {
		tb.Fatal(err)
	}
	users := db.NewUserService(d)
	if err := users.CreateUser(ctx, &turbinesim.User{OrganizationID: org.ID, Email: "ada@example.com", Role: turbinesim.RoleAdmin, Verified: true}, benchPassword); err != nil {
		tb.Fatal(err)
	}
	return org, users
}

// newBenchServer serves the application with the identity services over d
// plus those of svc, signs the administrator in and returns the server
// and a Bearer header.
func newBenchServer(tb testing.TB, d *db.DB, users *db.UserService, svc handlers.Services) (*httptest.Server, string) {
	tb.Helper()
	auth, err := db.NewAuthService(d)
	if err != nil {
		tb.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := handlers.Config{JWTSecret: []byte(testSecret), BodyLimit: 1 << 20, Now: time.Now, Logger: quiet}
	svc.Auth, svc.Users, svc.Organizations = auth, users, db.NewOrganizationService(d)
	svc.Dashboard, svc.Sessions, svc.Ready = db.NewDashboardService(d), db.NewSessionStore(d), d.Ready
	h, err := newServer(cfg, svc)
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	resp, err := http.Post(srv.URL+"/auth/login", "application/json",
		strings.NewReader(`{"email":"ada@example.com","password":"`+benchPassword+`"}`))
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var pair handlers.TokenPair
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&pair) != nil {
		tb.Fatalf("login: %d", resp.StatusCode)
	}
	return srv, "Bearer " + pair.AccessToken
}
