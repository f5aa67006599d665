package runner_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/infra/runner"
)

// queueEntry returns the job's current queue entry (River's job id).
func (e *env) queueEntry(t *testing.T, id string) int64 {
	t.Helper()
	var q int64
	if err := e.db.GetContext(context.Background(), &q, `SELECT queue_id FROM jobs WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	return q
}

// allowManyRuns moves the test organization to the Enterprise plan after
// its jobs were charged, so that its plan's limit of runs at once (32)
// does not hold back the claims of a rescue test.
func (e *env) allowManyRuns(t *testing.T) {
	t.Helper()
	if _, err := e.db.ExecContext(context.Background(), `UPDATE organizations SET plan = 'enterprise' WHERE id = $1`, e.org.ID); err != nil {
		t.Fatal(err)
	}
}

// claimStale claims a job for its current entry and makes its heartbeat an
// hour old, as if its worker had died then.
func (e *env) claimStale(t *testing.T, id string) *turbinesim.Job {
	t.Helper()
	ctx := context.Background()
	entry := e.queueEntry(t, id)
	// River marks the entry running when a worker fetches it.
	if _, err := e.db.ExecContext(ctx, `UPDATE river_job SET state = 'running', attempt = attempt + 1,
		attempted_at = now() WHERE id = $1`, entry); err != nil {
		t.Fatal(err)
	}
	j, err := e.jobs.ClaimJob(ctx, id, entry)
	if err != nil || j == nil {
		t.Fatalf("claim: %v %v", j, err)
	}
	if _, err := e.db.ExecContext(ctx, `UPDATE jobs SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	return j
}

// A job whose heartbeat went stale gets a new queue entry with the
// attempts it has left; the old entry is cancelled through River and can
// no longer claim the job; the charge is untouched. A job on its last
// attempt fails and is refunded once; a cancelling one ends cancelled; a
// job with a fresh heartbeat is left alone.
func TestRescueStaleJobs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, "", 0, runner.Limits{})
	stale, last, cancelling, live := e.submit(t, 1), e.submit(t, 1), e.submit(t, 1), e.submit(t, 1)
	e.allowManyRuns(t)
	oldEntry := e.queueEntry(t, stale.ID)
	e.claimStale(t, stale.ID)
	e.claimStale(t, cancelling.ID)
	if _, err := e.jobs.CancelJob(ctx, e.org.ID, cancelling.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.ExecContext(ctx, `UPDATE jobs SET attempt = max_attempts - 1 WHERE id = $1`, last.ID); err != nil {
		t.Fatal(err)
	}
	e.claimStale(t, last.ID) // its third attempt
	if j, err := e.jobs.ClaimJob(ctx, live.ID, e.queueEntry(t, live.ID)); err != nil || j == nil {
		t.Fatalf("claim: %v %v", j, err)
	}

	requeued, finished, err := e.jobs.RescueStaleJobs(ctx, time.Second)
	if err != nil || requeued != 1 || finished != 2 {
		t.Fatalf("rescue: %d requeued, %d finished, %v; want 1 and 2", requeued, finished, err)
	}
	if r, f, err := e.jobs.RescueStaleJobs(ctx, time.Second); err != nil || r+f != 0 {
		t.Fatalf("second rescue: %d requeued, %d finished, %v; want nothing", r, f, err)
	}

	newEntry := e.queueEntry(t, stale.ID)
	var entries []struct {
		ID          int64  `db:"id"`
		State       string `db:"state"`
		MaxAttempts int    `db:"max_attempts"`
		Cancelled   bool   `db:"cancelled"`
	}
	if err := e.db.SelectContext(ctx, &entries, `SELECT id, state, max_attempts,
		metadata ? 'cancel_attempted_at' AS cancelled FROM river_job WHERE args->>'job_id' = $1 ORDER BY id`, stale.ID); err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].ID != oldEntry || !entries[0].Cancelled ||
		entries[1].ID != newEntry || entries[1].State != "available" || entries[1].MaxAttempts != 2 {
		t.Fatalf("queue entries %+v; want the old one cancelled and a new available one with 2 attempts", entries)
	}
	if j, err := e.jobs.ClaimJob(ctx, stale.ID, oldEntry); err != nil || j != nil {
		t.Fatalf("the old entry claimed the job again: %v %v", j, err)
	}
	j, err := e.jobs.ClaimJob(ctx, stale.ID, newEntry)
	if err != nil || j == nil || j.Status != turbinesim.JobRunning || j.Attempt != 2 {
		t.Fatalf("claim on the new entry: %+v %v; want running attempt 2", j, err)
	}
	// The first attempt's late writes are refused.
	if st, err := e.jobs.ReportProgress(ctx, stale.ID, 1, 0.5, nil); err != nil || st != "" {
		t.Fatalf("progress of the dead attempt: %q %v", st, err)
	}

	for _, c := range []struct {
		id       string
		status   turbinesim.JobStatus
		refunded bool
	}{{last.ID, turbinesim.JobFailed, true}, {cancelling.ID, turbinesim.JobCancelled, false}, {live.ID, turbinesim.JobRunning, false}} {
		j, _ := e.jobs.FindJob(ctx, e.org.ID, c.id)
		if j.Status != c.status || (j.RefundedAt != nil) != c.refunded {
			t.Errorf("job %s refunded %v (%s); want %s refunded %v", j.Status, j.RefundedAt != nil, deref(j.Detail), c.status, c.refunded)
		}
	}
	// Four charges of 1 s (10 + 1 cents, 1 token): one refunded (lost on
	// its last attempt), one cancelled while running before any simulated
	// time (charged 0 % of it, pro rata).
	if u := e.usage(t); u.SpentCents != 2*11 || u.Tokens != 2 {
		t.Fatalf("usage %+v; want 2 charges of 11 cents", u)
	}
}

// Rescuers in several processes at once (here: goroutines with their own
// connections) hand each stale job on exactly once.
func TestRescueStaleJobsConcurrently(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, "", 0, runner.Limits{})
	const n = 30
	var ids []string
	for range n {
		ids = append(ids, e.submit(t, 1).ID)
	}
	e.allowManyRuns(t)
	for _, id := range ids {
		e.claimStale(t, id)
	}
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 3 {
				r, f, err := e.jobs.RescueStaleJobs(ctx, time.Second)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				total += r + f
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	var entries, cancelled int
	e.db.GetContext(ctx, &entries, `SELECT count(*) FROM river_job WHERE state = 'available'`)
	e.db.GetContext(ctx, &cancelled, `SELECT count(*) FROM river_job WHERE metadata ? 'cancel_attempted_at'`)
	if total != n || entries != n || cancelled != n {
		t.Fatalf("%d rescues, %d new entries, %d cancelled entries; want %d each", total, entries, cancelled, n)
	}
}
