package db_test

import (
	"context"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/decks"
)

// gatedTrees is a TreeStore whose Copy, once it has been called, waits
// until the test opens its gate, and which reports every Delete.
type gatedTrees struct {
	turbinesim.TreeStore
	copying chan string // the key a Copy was called with
	gate    chan struct{}
	deleted chan string
}

func (g *gatedTrees) Copy(ctx context.Context, key string) (string, error) {
	g.copying <- key
	<-g.gate
	return g.TreeStore.Copy(ctx, key)
}

func (g *gatedTrees) Delete(ctx context.Context, key string) error {
	err := g.TreeStore.Delete(ctx, key)
	g.deleted <- key
	return err
}

// waitingOnLock reports whether a session of the test's database waits
// for a lock (a row lock: the edit's SELECT ... FOR UPDATE).
func waitingOnLock(t *testing.T, d *db.DB) bool {
	t.Helper()
	var n int
	if err := d.GetContext(context.Background(), &n, `
		SELECT count(*) FROM pg_stat_activity
		 WHERE datname = current_database() AND wait_event_type = 'Lock'`); err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// TestTurbineCloneDuringEditCopiesACompleteTree: a clone that has read
// the turbine and is copying its tree, and an edit that rebuilds the deck
// (a new tree, the row switched to it, the old tree removed after the
// commit). The store holds the clone in Copy until either the edit has
// removed the old tree (the race) or the edit waits for a row lock (the
// clone's FOR SHARE); then the copy runs. Deterministic: before the fix
// the clone read the row without a lock, the edit committed and removed
// the tree, and the copy failed on the removed tree every time ("copying
// deck files: blobstore: reading ...: no such file or directory"); with
// the tree half removed it could instead have copied part of it. Now the
// edit waits, the clone gets the whole pre-edit tree, and the edit then
// completes. Repeated, as each round starts from the edited turbine.
func TestTurbineCloneDuringEditCopiesACompleteTree(t *testing.T) {
	t.Parallel()
	f := newTurbineFixture(t)
	ctx := context.Background()
	tb := f.builtTurbine(t, "Scratch")
	g := &gatedTrees{TreeStore: f.store, copying: make(chan string, 1), deleted: make(chan string, 4)}
	svc := db.NewTurbineService(f.db, g, decks.Editor{})

	for round := range 3 {
		before := f.treeFiles(t, tb.ID)
		cur, err := f.svc.FindTurbine(ctx, f.orgA, tb.ID)
		if err != nil {
			t.Fatal(err)
		}
		oldKey := *cur.SourceKey
		g.gate = make(chan struct{})

		type result struct {
			t   *turbinesim.Turbine
			err error
		}
		cloned, edited := make(chan result, 1), make(chan result, 1)
		go func() {
			c, err := svc.CloneTurbine(ctx, f.orgA, tb.ID, f.userA)
			cloned <- result{c, err}
		}()
		if key := <-g.copying; key != oldKey {
			t.Fatalf("round %d: clone copies %s, want the current tree %s", round, key, oldKey)
		}
		hub := 100.0 + float64(round)
		go func() {
			up, err := svc.UpdateTurbine(ctx, f.orgA, tb.ID, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{HubHeightM: &hub}})
			edited <- result{up, err}
		}()
		// Either the edit removes the tree being copied, or it waits for
		// the row; one of the two within the deadline.
		deadline := time.After(60 * time.Second)
	wait:
		for {
			select {
			case key := <-g.deleted:
				// The copy now runs on the removed tree; the clone's
				// error is reported below.
				t.Errorf("round %d: the edit removed tree %s while a clone was copying it (old tree %s)", round, key, oldKey)
				close(g.gate)
				t.Fatalf("round %d: clone: %v", round, (<-cloned).err)
			case <-deadline:
				t.Fatalf("round %d: the edit neither waited for the row nor removed the tree", round)
			case <-time.After(20 * time.Millisecond):
				if waitingOnLock(t, f.db) {
					break wait
				}
			}
		}
		close(g.gate)
		c, e := <-cloned, <-edited
		if c.err != nil {
			t.Fatalf("round %d: clone: %v", round, c.err)
		}
		if e.err != nil {
			t.Fatalf("round %d: edit: %v", round, e.err)
		}
		if got := f.treeFiles(t, c.t.ID); !maps.Equal(got, before) {
			t.Fatalf("round %d: the clone's tree has %d files, differing from the %d of the tree before the edit", round, len(got), len(before))
		}
		if *c.t.HubHeightM == hub || *e.t.HubHeightM != hub {
			t.Fatalf("round %d: clone hub %g, edit hub %g; want the clone before the edit (hub %g)", round, *c.t.HubHeightM, *e.t.HubHeightM, hub)
		}
		if key := <-g.deleted; key != oldKey {
			t.Fatalf("round %d: the edit removed %s, want the old tree %s", round, key, oldKey)
		}
		// Every row's tree exists, and no other tree is left.
		rows, _, err := f.svc.ListTurbines(ctx, f.orgA, turbinesim.TurbineFilter{PageSize: 100})
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, r := range rows {
			keys = append(keys, *r.SourceKey)
		}
		slices.Sort(keys)
		if trees := f.storedTrees(t); !slices.Equal(trees, keys) {
			t.Fatalf("round %d: stored trees %v, rows name %v", round, trees, keys)
		}
	}
}

// TestTurbineCloneAndEditConcurrently runs clones and deck-rebuilding
// edits of one turbine at the same time without any synchronisation, as
// clients would: each round starts an edit and, after a random delay of up
// to the previous edit's duration, a clone. Every clone must succeed with
// a complete tree (the files of the state whose row it copied) and no
// tree may be left behind. Probabilistic, so it complements the
// deterministic test above (the race window, from the edit's commit to the
// end of its tree removal, is a few milliseconds of an edit's ~100 ms).
func TestTurbineCloneAndEditConcurrently(t *testing.T) {
	t.Parallel()
	f := newTurbineFixture(t)
	ctx := context.Background()
	tb := f.builtTurbine(t, "Scratch")
	fileSets := map[float64]map[string]string{90: f.treeFiles(t, tb.ID)}
	editTime := 100 * time.Millisecond
	for round := range 40 {
		hub := 91.0 + float64(round)
		var wg sync.WaitGroup
		var cloneErr, editErr error
		var clone *turbinesim.Turbine
		var took time.Duration
		wg.Add(2)
		go func() {
			defer wg.Done()
			start := time.Now()
			_, editErr = f.svc.UpdateTurbine(ctx, f.orgA, tb.ID, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{HubHeightM: &hub}})
			took = time.Since(start)
		}()
		delay := time.Duration(rand.Int64N(int64(editTime) + 1))
		go func() {
			defer wg.Done()
			time.Sleep(delay)
			clone, cloneErr = f.svc.CloneTurbine(ctx, f.orgA, tb.ID, f.userA)
		}()
		wg.Wait()
		editTime = took
		if cloneErr != nil || editErr != nil {
			t.Fatalf("round %d (clone %v after the edit started): clone: %v; edit: %v", round, delay, cloneErr, editErr)
		}
		fileSets[hub] = f.treeFiles(t, tb.ID)
		want, ok := fileSets[*clone.HubHeightM]
		if !ok {
			t.Fatalf("round %d: clone has hub %g, not a state the turbine was in", round, *clone.HubHeightM)
		}
		if got := f.treeFiles(t, clone.ID); !maps.Equal(got, want) {
			t.Fatalf("round %d (clone %v after the edit started): clone (hub %g) has %d files, not the %d of that state",
				round, delay, *clone.HubHeightM, len(got), len(want))
		}
		if err := f.svc.DeleteTurbine(ctx, f.orgA, clone.ID); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(f.storedTrees(t)); n != 1 {
		t.Fatalf("%d stored trees left, want the turbine's only", n)
	}
}

// TestTurbineEditWaitsForOpenDeck: while a reader has the deck open
// (OpenTurbineDeck, directly or through dbtest.OpenDeck, which returns
// the main file's path), a deck-rebuilding edit
// waits for the row instead of removing the files being read; after
// release it completes and removes the old tree. Deterministic: the test
// watches pg_stat_activity for the edit's lock wait. Before, the edit
// committed and removed the open tree at once (with a reader that took
// no lock: "the edit finished while the deck was open", the tree gone).
func TestTurbineEditWaitsForOpenDeck(t *testing.T) {
	t.Parallel()
	f := newTurbineFixture(t)
	ctx := context.Background()
	tb := f.builtTurbine(t, "Scratch")
	openers := map[string]func() (string, func()){
		"OpenDeck": func() (string, func()) {
			main, release, err := dbtest.OpenDeck(ctx, f.svc, f.orgA, tb.ID)
			if err != nil {
				t.Fatal(err)
			}
			cur, _ := f.svc.FindTurbine(ctx, f.orgA, tb.ID)
			return strings.TrimSuffix(main, filepath.FromSlash(*cur.MainFile)), release
		},
		"OpenTurbineDeck": func() (string, func()) {
			_, dir, release, err := f.svc.OpenTurbineDeck(ctx, f.orgA, tb.ID)
			if err != nil {
				t.Fatal(err)
			}
			return dir, release
		},
	}
	hub := 100.0
	for _, name := range slices.Sorted(maps.Keys(openers)) {
		before := f.treeFiles(t, tb.ID)
		dir, release := openers[name]()
		hub++
		edited := make(chan error, 1)
		go func() {
			_, err := f.svc.UpdateTurbine(ctx, f.orgA, tb.ID, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{HubHeightM: &hub}})
			edited <- err
		}()
		deadline := time.After(60 * time.Second)
	wait:
		for {
			select {
			case err := <-edited:
				_, statErr := os.Stat(dir)
				release()
				t.Fatalf("%s: the edit finished (%v) while the deck was open; the open tree: %v", name, err, statErr)
			case <-deadline:
				t.Fatalf("%s: the edit neither waited for the row nor finished", name)
			case <-time.After(20 * time.Millisecond):
				if waitingOnLock(t, f.db) {
					break wait
				}
			}
		}
		if got := filesUnder(t, dir); !maps.Equal(got, before) {
			t.Fatalf("%s: the open tree has %d files, had %d", name, len(got), len(before))
		}
		release()
		if err := <-edited; err != nil {
			t.Fatalf("%s: edit after release: %v", name, err)
		}
		if n := len(f.storedTrees(t)); n != 1 {
			t.Fatalf("%s: %d stored trees after the edit, want the new one only", name, n)
		}
	}
}

// filesUnder reads every file under root, keyed by relative path.
func filesUnder(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
