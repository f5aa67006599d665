package handlers_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
)

// openGate is a TreeStore whose next Open, once armed, waits until the
// test opens the gate, and which reports every Delete.
type openGate struct {
	turbinesim.TreeStore
	armed   atomic.Bool
	opening chan string
	gate    chan struct{}
	deleted chan string
}

func (g *openGate) Open(ctx context.Context, key string) (string, func(), error) {
	if g.armed.CompareAndSwap(true, false) {
		g.opening <- key
		<-g.gate
	}
	return g.TreeStore.Open(ctx, key)
}

func (g *openGate) Delete(ctx context.Context, key string) error {
	err := g.TreeStore.Delete(ctx, key)
	g.deleted <- key
	return err
}

// A job submitted for a stored turbine while an edit rebuilds that
// turbine's deck: the store holds the submission in Open (after it read
// the row) until either the edit removed the tree (the race) or the edit
// waits for the row lock. Deterministic. Before, the submission read the
// row with FindTurbine and opened the tree unguarded: the edit committed
// and removed the tree, and the submission failed (500 "opening turbine
// deck: ... no such file or directory") or could read a half-removed
// deck. Now the edit waits until the run deck is written; the job runs
// the pre-edit deck and the edit completes after it.
func TestJobSubmittedDuringTurbineEdit(t *testing.T) {
	t.Parallel()
	g := &openGate{opening: make(chan string, 1), gate: make(chan struct{}), deleted: make(chan string, 4)}
	je, tb, turbines := newTurbineRunEnvWith(t, func(s turbinesim.TreeStore) turbinesim.TreeStore {
		g.TreeStore = s
		return g
	})
	ctx := context.Background()
	type response struct {
		resp *http.Response
		body string
	}
	submitted := make(chan response, 1)
	g.armed.Store(true)
	go func() {
		resp, body := je.do(nil, request{method: "POST", path: "/jobs", body: `{"turbine_id":"` + tb.ID + `","settings":{"t_max":0.5,"wind":{"speed":8}}}`,
			header: je.keyed("Content-Type", "application/json")})
		submitted <- response{resp, body}
	}()
	oldKey := <-g.opening
	edited := make(chan error, 1)
	go func() {
		hub := 100.0
		_, err := turbines.UpdateTurbine(ctx, je.org.ID, tb.ID, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{HubHeightM: &hub}})
		edited <- err
	}()
	deadline := time.After(60 * time.Second)
wait:
	for {
		select {
		case key := <-g.deleted:
			close(g.gate)
			r := <-submitted
			t.Fatalf("the edit removed tree %s (the submission's %s) while a job submission read it; submission: %d %s", key, oldKey, r.resp.StatusCode, r.body)
		case <-deadline:
			t.Fatal("the edit neither waited for the row nor removed the tree")
		case <-time.After(20 * time.Millisecond):
			var n int
			if err := je.db.GetContext(ctx, &n, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`); err != nil {
				t.Fatal(err)
			}
			if n > 0 {
				break wait
			}
		}
	}
	close(g.gate)
	r := <-submitted
	if r.resp.StatusCode != http.StatusCreated {
		t.Fatalf("submission: %d %s", r.resp.StatusCode, r.body)
	}
	if err := <-edited; err != nil {
		t.Fatalf("edit after the submission: %v", err)
	}
	if key := <-g.deleted; key != oldKey {
		t.Fatalf("the edit removed %s, want the old tree %s", key, oldKey)
	}
	// Let the job finish before the environment is torn down.
	job := decodeInto[turbinesim.Job](t, r.body)
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		j, err := je.jobs.FindJob(ctx, je.org.ID, job.ID)
		if err != nil {
			t.Fatal(err)
		}
		if j.Status.Terminal() {
			if j.Status != turbinesim.JobSucceeded {
				t.Fatalf("job %s: %v", j.Status, j.Detail)
			}
			break
		}
		if time.Now().After(end) {
			t.Fatalf("job still %s", j.Status)
		}
	}
}
