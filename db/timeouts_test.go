package db_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/decks"
)

// A table lock held for 20 s must not stall the pool: 30 concurrent job
// listings give up (EUNAVAILABLE, a 503 with Retry-After) after the lock
// timeout instead of waiting for the lock, and a listing of another table
// answers meanwhile. Without the session timeouts every listing waits the
// full 20 s and, with the pool exhausted, so does the unrelated one.
func TestHeldLockDoesNotStallThePool(t *testing.T) {
	url := dbtest.NewURL(t)
	ctx := context.Background()
	d, err := db.OpenWith(ctx, url, db.Timeouts{Statement: 5 * time.Second, Lock: 1 * time.Second, IdleInTransaction: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	org, _ := mustOrgUser(t, d, "lock@example.com")

	holder, err := db.OpenWith(ctx, url, db.Timeouts{})
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	tx, err := holder.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `LOCK TABLE jobs IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	released := time.AfterFunc(20*time.Second, func() { tx.Rollback() })
	defer released.Stop()

	jobs := db.NewJobService(d, nil, nil, nil)
	turbines := db.NewTurbineService(d, nil, decks.Editor{})
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 30)
	took := make([]time.Duration, 30)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			_, _, errs[i] = jobs.ListJobs(ctx, org.ID, turbinesim.JobFilter{Page: 1, PageSize: 10})
			took[i] = time.Since(t0)
		}()
	}
	time.Sleep(200 * time.Millisecond)
	t0 := time.Now()
	if _, _, err := turbines.ListTurbines(ctx, org.ID, turbinesim.TurbineFilter{Page: 1, PageSize: 10}); err != nil {
		t.Fatalf("listing turbines while jobs is locked: %v", err)
	}
	if d := time.Since(t0); d > 8*time.Second {
		t.Errorf("an unrelated listing took %v while the jobs table was locked", d)
	}
	wg.Wait()
	for i, err := range errs {
		if turbinesim.ErrorCode(err) != turbinesim.EUNAVAILABLE {
			t.Fatalf("listing %d: %v, want EUNAVAILABLE", i, err)
		}
		if took[i] > 12*time.Second {
			t.Errorf("listing %d waited %v for the lock", i, took[i])
		}
	}
	if total := time.Since(start); total > 15*time.Second {
		t.Errorf("30 listings took %v with the table locked", total)
	}

	// A statement running past the statement timeout is ended, as a 503.
	var one int
	err = d.QueryRowContext(ctx, `SELECT 1 FROM pg_sleep(7)`).Scan(&one)
	if err == nil {
		t.Fatal("a 7-s statement outlived the 5-s statement timeout")
	}
}
