package handlers_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/jobtest"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/infra/blobstore"
	"github.com/turbinesim/turbinesim/infra/resultcache"
)

// BenchmarkWorkbenchFirstPlot measures what the results workbench of a
// 600-s, 520-channel run (20 Hz, 12 001 rows, a 12.5 MB .outb) costs
// before its first plot: the page itself (GET /analysis/jobs/{id}, which
// reads the output's channels) and the envelope of RotSpeed and GenPwr
// the page asks for (about 2000 points each). cold: a job nobody has
// opened (the .outb is parsed into the result cache); warm: the same job
// again.
//
// Run it alone: go test ./handlers -run '^$' -bench WorkbenchFirstPlot -benchtime 5x
func BenchmarkWorkbenchFirstPlot(b *testing.B) {
	srv, auth, insert := newWorkbenchBenchServer(b)
	outb := wideOutb(b, 600, 2000)
	firstPlot := func(id string) {
		for _, r := range []struct{ method, path, body, accept string }{
			{"GET", "/analysis/jobs/" + id, "", "text/html"},
			{"POST", "/analysis/jobs/" + id + "/time-series", `{"channels":["RotSpeed","GenPwr"],"method":"envelope","downsample_factor":7}`, "application/json"},
		} {
			req, _ := http.NewRequest(r.method, srv.URL+r.path, strings.NewReader(r.body))
			req.Header.Set("Authorization", auth)
			req.Header.Set("Accept", r.accept)
			if r.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Fatalf("%s %s: %d %s", r.method, r.path, resp.StatusCode, body)
			}
		}
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			id := insert(outb)
			b.StartTimer()
			firstPlot(id)
		}
	})
	b.Run("warm", func(b *testing.B) {
		id := insert(outb)
		firstPlot(id)
		for b.Loop() {
			firstPlot(id)
		}
	})
}

// newWorkbenchBenchServer is a server with the job and result services
// over a fresh database; insert stores a succeeded job whose output is a
// copy of the given .outb.
func newWorkbenchBenchServer(tb testing.TB) (*httptest.Server, string, func(outb string) string) {
	tb.Helper()
	ctx := context.Background()
	d := jobtest.New(tb)
	org, users := newBenchOrg(tb, d)
	trees, err := blobstore.NewLocal(filepath.Join(tb.TempDir(), "blobs"))
	if err != nil {
		tb.Fatal(err)
	}
	cache, err := resultcache.New(filepath.Join(tb.TempDir(), "cache"), 0)
	if err != nil {
		tb.Fatal(err)
	}
	jobs := db.NewJobService(d, trees, nil, nil)
	srv, bearer := newBenchServer(tb, d, users, handlers.Services{Jobs: jobs, Batches: db.NewBatchService(jobs),
		Results: db.NewResultService(d, jobs, trees, cache)})
	insert := func(outb string) string {
		dir := tb.TempDir()
		data, err := os.ReadFile(outb)
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "run.outb"), data, 0o600); err != nil {
			tb.Fatal(err)
		}
		key, err := trees.Put(ctx, dir)
		if err != nil {
			tb.Fatal(err)
		}
		var id string
		if err := d.GetContext(ctx, &id, `INSERT INTO jobs (organization_id, status, entrypoint, input_key, output_key,
			output_files, t_max, price_cents, tokens, charge_month, finished_at)
			VALUES ($1, 'succeeded', 'Main.fst', 'input', $2, '["run.outb"]', 600, 0, 60, date_trunc('month', now())::date, now()) RETURNING id`,
			org.ID, key); err != nil {
			tb.Fatal(err)
		}
		return id
	}
	return srv, bearer, insert
}
