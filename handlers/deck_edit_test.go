package handlers_test

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	turbineassets "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
)

// A hub-height edit of a clone of the NREL 5 MW says, before saving
// (dry_run) and in the answer of the save, which file and values it
// rewrites (TowerHt 87.6 → 117.6) and the first tower fore-aft frequency
// before and after from the structural model; the preview stores nothing,
// and afterwards the decks of the demo and the clone differ by exactly
// the rewritten values (GET /turbines/{id}/diff).
func TestDeckEditSaysWhatItRewrites(t *testing.T) {
	t.Parallel()
	catalog, err := decks.NewBundledDemos(turbineassets.FS)
	if err != nil {
		t.Fatal(err)
	}
	te := newTurbineEnv(t, catalog)
	resp, body := te.call(te.verified, "POST", "/turbines/demos/nrel-5mw-land/load", "")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("load demo: %d %s", resp.StatusCode, body)
	}
	demo := decodeInto[handlers.DemoLoadResult](t, body)
	resp, body = te.call(te.verified, "POST", "/turbines/"+demo.ID+"/clone", "")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("clone: %d %s", resp.StatusCode, body)
	}
	clone := decodeInto[turbinesim.Turbine](t, body)

	check := func(what string, tb turbinesim.Turbine) *turbinesim.DeckEditReport {
		t.Helper()
		r := tb.DeckChanges
		if r == nil || len(r.Files) == 0 {
			t.Fatalf("%s: no deck_changes: %+v", what, r)
		}
		var tower *turbinesim.DeckParamDiff
		for i, c := range r.Changes {
			if c.Parameter == "TowerHt" {
				tower = &r.Changes[i]
			}
		}
		// The tower that puts the hub at 120 m with the shaft tilted.
		if tower == nil || tower.A == nil || tower.B == nil || *tower.A != "87.6" || !near(*tower.B, 117.6, 1e-3) {
			t.Fatalf("%s: TowerHt change %s → %s in %d changes", what, diffSide(tower, true), diffSide(tower, false), len(r.Changes))
		}
		if f := r.TowerFAFrequencyHz; f == nil || !(f[1] < f[0]) || f[0] < 0.25 || f[0] > 0.4 {
			t.Fatalf("%s: tower frequency before/after %v; want about 0.32 Hz falling with a taller tower", what, f)
		}
		notes := strings.Join(r.Notes, "\n")
		if !strings.Contains(notes, "first tower fore-aft frequency") || !strings.Contains(notes, "TowerHt 87.6 → 117.6") {
			t.Fatalf("%s: notes %q", what, notes)
		}
		return r
	}
	const edit = `{"hub_height_m": 120}`
	resp, body = te.call(te.verified, "PUT", "/turbines/"+clone.ID+"?dry_run=true", edit)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("preview: %d %s", resp.StatusCode, body)
	}
	preview := check("preview", decodeInto[turbinesim.Turbine](t, body))
	resp, body = te.call(te.verified, "GET", "/turbines/"+clone.ID+"/diff?with="+demo.ID, "")
	if d := decodeInto[handlers.DeckDiffResponse](t, body); resp.StatusCode != http.StatusOK || !d.Equal {
		t.Fatalf("after the preview the clone's deck changed: %d %s", resp.StatusCode, body)
	}

	resp, body = te.call(te.verified, "PUT", "/turbines/"+clone.ID, edit)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("save: %d %s", resp.StatusCode, body)
	}
	saved := check("save", decodeInto[turbinesim.Turbine](t, body))
	if len(saved.Changes) != len(preview.Changes) || saved.TowerFAFrequencyHz[1] != preview.TowerFAFrequencyHz[1] {
		t.Fatalf("saved %+v, previewed %+v", saved, preview)
	}
	resp, body = te.call(te.verified, "GET", "/turbines/"+demo.ID+"/diff?with="+clone.ID, "")
	d := decodeInto[handlers.DeckDiffResponse](t, body)
	if resp.StatusCode != http.StatusOK || d.Equal || len(d.Differences) != len(saved.Changes) {
		t.Fatalf("demo vs edited clone: %d differences, the edit reported %d: %s", len(d.Differences), len(saved.Changes), body)
	}
	t.Logf("edit report: files %v, notes %q", saved.Files, saved.Notes)
}

func diffSide(d *turbinesim.DeckParamDiff, a bool) string {
	switch {
	case d == nil:
		return "(no row)"
	case a && d.A != nil:
		return *d.A
	case !a && d.B != nil:
		return *d.B
	}
	return "(absent)"
}

func near(s string, want, tol float64) bool {
	v, err := strconv.ParseFloat(s, 64)
	return err == nil && math.Abs(v-want) <= tol
}
