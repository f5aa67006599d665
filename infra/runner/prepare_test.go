package runner_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bundled "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/infra/runner"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// A run recipe applied to the bundled NREL 5 MW base deck makes the run
// beside the staged inputs: a TurbSim box (turbulent DLC) or a uniform
// wind file (event DLC) under Wind/ and a deck pointing at it; applying
// the same recipe again (a retried attempt) makes byte-identical files.
func TestPrepareRecipeMakesTheSameRunEveryAttempt(t *testing.T) {
	catalog, err := decks.NewBundledDemos(bundled.FS)
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	tb, err := catalog.Build("nrel-5mw-land", base)
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := decks.LoadRunnableDeck(base, *tb.MainFile)
	if err != nil {
		t.Fatal(err)
	}
	key, err := batches.DLCTurbine(tb, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := dlc.Expand(dlc.Request{Turbine: key, DLCs: []string{"1.2", "1.4"}, Class: "I", Category: "B", BatchSeed: 7,
		Overrides: map[string]dlc.Override{"1.2": {Speeds: []float64{12}, Seeds: new(1), Yaw: []float64{8}, Duration: new(20.0), Transient: new(0.0)}},
		Grid:      dlc.GridOptions{Points: 7, Dt: 0.25}})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) < 2 || runs[0].Turbulence == nil || runs[len(runs)-1].Event == nil {
		t.Fatalf("runs %v: want a turbulent 1.2 run first and 1.4 event runs", runs)
	}
	for _, run := range []dlc.Run{runs[0], runs[len(runs)-1]} {
		_, noTable := dlc.SteadyStateFromDeck(d)
		recipe := &batches.RunRecipe{Run: run, SteadyState: noTable == nil}
		var trees [2]map[string][]byte
		var entry string
		for attempt := range 2 {
			// The staged input of an attempt: a copy of the base deck.
			work := t.TempDir()
			in := filepath.Join(work, "in")
			if err := os.CopyFS(in, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			prepared := filepath.Join(work, "prepared")
			e, note, err := runner.PrepareRecipe(context.Background(), recipe, in, *tb.MainFile, prepared, nil)
			if err != nil {
				t.Fatalf("%s attempt %d: %v", run.ID, attempt, err)
			}
			entry = e
			if !strings.Contains(note, run.ID) {
				t.Errorf("note %q does not name the run", note)
			}
			trees[attempt] = readTree(t, prepared)
			// The run deck loads and names the generated wind file.
			rd, err := deck.Load(filepath.Join(prepared, filepath.FromSlash(e)))
			if err != nil {
				t.Fatal(err)
			}
			if rd.Main.TMax != run.TMax || rd.InflowWind.PropagationDir != run.Yaw {
				t.Errorf("%s: TMax %g, PropagationDir %g; want %g, %g", run.ID, rd.Main.TMax, rd.InflowWind.PropagationDir, run.TMax, run.Yaw)
			}
			wantType, ext := 2, ".hh"
			if run.Turbulence != nil {
				wantType, ext = 3, ".bts"
			}
			if rd.InflowWind.WindType != wantType {
				t.Errorf("%s: WindType %d, want %d", run.ID, rd.InflowWind.WindType, wantType)
			}
			winds, _ := filepath.Glob(filepath.Join(prepared, filepath.Dir(filepath.FromSlash(e)), dlc.WindDir, "*"+ext))
			if len(winds) != 1 {
				t.Errorf("%s: wind files %v, want one %s", run.ID, winds, ext)
			}
		}
		if len(trees[0]) != len(trees[1]) {
			t.Fatalf("%s: attempts made %d and %d files", run.ID, len(trees[0]), len(trees[1]))
		}
		for name, b := range trees[0] {
			if !bytes.Equal(b, trees[1][name]) {
				t.Errorf("%s: %s differs between attempts", run.ID, name)
			}
		}
		t.Logf("%s: %s, %d files", run.ID, entry, len(trees[0]))
	}
}

func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
