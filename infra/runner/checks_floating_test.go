package runner_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	bundled "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/infra/runner"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/dlc"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// bundledDeck builds the bundled turbine id into a temporary folder and
// loads its deck.
func bundledDeck(t *testing.T, id string) *deck.Deck {
	t.Helper()
	catalog, err := decks.NewBundledDemos(bundled.FS)
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	tb, err := catalog.Build(id, base)
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := decks.LoadRunnableDeck(base, *tb.MainFile)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// overspeedAt writes a 400-s, 20 Hz output whose RotSpeed is 7 rpm but
// for 30 rpm (beyond any bundled turbine's overspeed limit) from t = at to
// at+2 s, and returns its path.
func overspeedAt(t *testing.T, at float64) string {
	t.Helper()
	const rows = 8001
	f := &outfile.File{TimeChannel: outfile.Channel{Name: "Time", Unit: "(s)"}, Time: make([]float64, rows)}
	speed := make([]float64, rows)
	for k := range f.Time {
		tk := 0.05 * float64(k)
		f.Time[k], speed[k] = tk, 7
		if tk >= at && tk <= at+2 {
			speed[k] = 30
		}
	}
	f.Channels, f.Data = []outfile.Channel{{Name: "RotSpeed", Unit: "(rpm)"}}, [][]float64{speed}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("overspeed%g.outb", at))
	if err := outfile.WriteOutbFile(path, f, outfile.OutbOptions{FileID: outfile.FileIDNoCompressWithoutTime}); err != nil {
		t.Fatal(err)
	}
	return path
}

// The plausibility checks of a finished run on a floating platform start
// after its start-up transient (decks.FloatingStartupTransient, as its analyses),
// not after 30 s: an overspeed half-way through that transient, while the
// platform still drifts and swings from rest, does not flag the run; the
// same overspeed after it does, and on land, where the transient is
// 30 s, the early one does too. Before, the floating run was flagged for
// the early one.
func TestFloatingRunIsCheckedAfterItsStartupTransient(t *testing.T) {
	floating := bundledDeck(t, "iea-15mw-volturnus")
	if !dlc.FloatingPlatform(floating) {
		t.Fatal("the bundled VolturnUS-S deck does not stand on a floating platform")
	}
	land := bundledDeck(t, "iea-15mw-onshore")
	tr := float64(decks.FloatingStartupTransient)
	early, late := overspeedAt(t, tr/2), overspeedAt(t, tr+50)
	overspeed := func(d *deck.Deck, path string, dlcTransient ...float64) (bool, []string) {
		t.Helper()
		var dlcTr *float64
		if len(dlcTransient) > 0 {
			dlcTr = &dlcTransient[0]
		}
		checks, basis, err := runner.RunChecks(d, &coupling.Result{OutPath: path}, dlcTr)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range checks {
			if c.Kind == "overspeed" {
				return true, basis
			}
		}
		return false, basis
	}
	flagged, basis := overspeed(floating, early)
	if flagged {
		t.Errorf("floating run flagged for an overspeed at t = %g s, inside its start-up transient", tr/2)
	}
	if want := fmt.Sprintf("checked from t = %g s (after the start-up transient of a floating platform", tr); !strings.Contains(strings.Join(basis, "; "), want) {
		t.Errorf("floating run's bounds %q do not say %q", basis, want)
	}
	if flagged, _ := overspeed(floating, late); !flagged {
		t.Errorf("floating run not flagged for an overspeed at t = %g s, after its start-up transient", tr+50)
	}
	// A DLC run started at the platform's equilibrium is analysed after
	// its DLC's shorter transient (dlc.FloatingTransient, e.g. 100 s), and
	// checked from there.
	if flagged, basis := overspeed(floating, early, tr/4); !flagged || !strings.Contains(strings.Join(basis, "; "), fmt.Sprintf("checked from t = %g s (after its DLC's start-up transient", tr/4)) {
		t.Errorf("floating DLC run with a %g-s transient: overspeed at %g s flagged %v, bounds %q", tr/4, tr/2, flagged, basis)
	}
	if flagged, _ := overspeed(floating, early, tr); flagged {
		t.Errorf("floating DLC run with a %g-s transient flagged for an overspeed at %g s", tr, tr/2)
	}
	// A DLC whose override keeps the whole run (transient 0) is still
	// checked after the rotor's 30 s, as a land run.
	if _, basis := overspeed(floating, early, 0); !strings.Contains(strings.Join(basis, "; "), "checked from t = 30 s (after its DLC's start-up transient;") {
		t.Errorf("floating DLC run with a 0-s transient: bounds %q, want checked from 30 s", basis)
	}
	flagged, basis = overspeed(land, early)
	if !flagged {
		t.Errorf("land run not flagged for an overspeed at t = %g s", tr/2)
	}
	if !strings.Contains(strings.Join(basis, "; "), "checked from t = 30 s (after the start-up transient;") {
		t.Errorf("land run's bounds %q do not start at 30 s", basis)
	}
}
