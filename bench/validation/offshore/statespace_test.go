package offshore

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/bench/validation"
	"github.com/turbinesim/turbinesim/internal/testshared"
)

// dampingBound holds the decay damping ratios of the state-space radiation
// run: the published fit's error (see
// TestIEA15SemiPitchDecayStateSpaceRadiation) plus a margin.
const dampingBound = 0.04

// copyCase copies a reference case's deck (not OpenFAST's outputs) into a
// temporary folder and returns the copy's case, whose reference output is
// still the original's.
func copyCase(t *testing.T, c validation.Case) validation.Case {
	t.Helper()
	dst := testshared.CopyDeck(t, c.Dir)
	rel, _ := filepath.Rel(c.Dir, c.FST)
	c.Dir, c.FST = dst, filepath.Join(dst, rel)
	return c
}

// editFile sets variable to value in a deck file of the copy.
func editFile(t *testing.T, path, variable, value string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, ok := testshared.SetValue(b, variable, value)
	if !ok {
		t.Fatalf("%s: no %s line", filepath.Base(path), variable)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestIEA15SemiPitchDecayStateSpaceRadiation runs the free pitch decay of
// the IEA 15 MW semi twice, with the convolution (RdtnMod 1, as OpenFAST's
// reference ran) and with the published SS_Fitting state-space fit
// (RdtnMod 2, the deck edited in a copy, the .ss placed next to the case's
// WAMIT files), and holds the pitch and surge decay periods of the
// state-space run within 2 % of OpenFAST's and of our own convolution run.
// The damping ratios miss the 2 % by the published fit's own error, not the
// integration's: measured −3.2 % (pitch) and −2.3 % (surge) against
// OpenFAST, −3.2 % and −1.6 % against our convolution, because below the
// wave band the fit's damping is off (at the pitch frequency,
// 0.217 rad/s, −Re H(iω) of the .ss is −1.8e7 N·m·s/rad against the .1
// file's +2.7e4; TestStateSpaceImpulseResponseMatchesKernel). They are
// held to dampingBound so that a change in the integration shows.
func TestIEA15SemiPitchDecayStateSpaceRadiation(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two 200-s floating simulations")
	}
	ss := testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-UMaineSemi", "HydroData", "IEA-15-240-RWT-UMaineSemi.ss")
	conv := referenceCase(t, "iea15_semi_decay_pitch")
	sscase := copyCase(t, conv)
	deckDir := filepath.Dir(sscase.FST)
	editFile(t, filepath.Join(deckDir, "IEA-15-240-RWT-UMaineSemi_HydroDyn.dat"), "RdtnMod", "2")
	b, err := os.ReadFile(ss)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(deckDir, "HydroData", "IEA-15-240-RWT-UMaineSemi.ss"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	chans := []string{"PtfmSurge", "PtfmPitch"}
	var res [2]validation.CaseResult
	for k, c := range []validation.Case{conv, sscase} {
		res[k] = validation.RunCase(context.Background(), c, chans)
		if res[k].Err != nil {
			t.Fatal(res[k].Err)
		}
	}
	for j, d := range res[1].Decays {
		c := res[0].Decays[j]
		if d.Missing != "" || c.Missing != "" {
			t.Fatalf("%s: %s%s", d.Name, d.Missing, c.Missing)
		}
		pc, zc := d.Period/c.Period-1, d.Zeta/c.Zeta-1
		t.Logf("%-9s RdtnMod 2: period %.3f s, ζ %.5f; OpenFAST (RdtnMod 1) %.3f s, %.5f (%+.2f%%, %+.2f%%); ours RdtnMod 1 %.3f s, %.5f (%+.2f%%, %+.2f%%)",
			d.Name, d.Period, d.Zeta, d.RefPeriod, d.RefZeta, 100*d.PeriodErr, 100*d.ZetaErr, c.Period, c.Zeta, 100*pc, 100*zc)
		for _, e := range []struct {
			what     string
			v, bound float64
		}{{"period vs OpenFAST", d.PeriodErr, validation.DecayTolerance}, {"damping ratio vs OpenFAST", d.ZetaErr, dampingBound},
			{"period vs RdtnMod 1", pc, validation.DecayTolerance}, {"damping ratio vs RdtnMod 1", zc, dampingBound}} {
			if math.Abs(e.v) > e.bound {
				t.Errorf("%s: %s %+.2f%% (bound %.1f%%)", d.Name, e.what, 100*e.v, 100*e.bound)
			}
		}
	}
	if !strings.Contains(sscase.Name, "decay") {
		t.Fatal("the copy lost the decay case's name")
	}
}

// TestIEA15SemiIrregularStateSpaceExcitation runs the irregular case
// (300 s, wind, JONSWAP waves) with the published state-space excitation
// (ExctnMod 2, the deck edited in a copy, the .ssexctn placed next to the
// case's WAMIT files). OpenFAST v5.0.0 runs ExctnMod 2 only without
// second-order loads and kinematics (it stops at initialisation on this
// deck's DiffQTF 12 and WvDiffQTF/WvSumQTF True), and so does the solver,
// so the copy has them off. The first-order excitation channels are
// compared with OpenFAST's run of the .3 excitation (ExctnMod 1), which
// the QTF does not touch; the fit's own error shows (solver/hydro
// TestSSExcitationAgainstWAMIT3: 15-20° of phase, surge and pitch of the
// opposite sign): std −2.9 % (surge), +3.5 % (heave), −1.0 % (pitch). The
// platform's motions, which the QTF's slow drift changes, are compared
// with our own ExctnMod 1 run of the same copy. Both are held to 6 %, so
// that excitation that does not reach the coupled run, or a broken
// integration, fails. docs/validation.md §10.3 has the comparison with
// OpenFAST's own ExctnMod 2 run of a parked semi.
func TestIEA15SemiIrregularStateSpaceExcitation(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a 300-s floating simulation")
	}
	ssx := testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-UMaineSemi", "HydroData", "IEA-15-240-RWT-UMaineSemi.ssexctn")
	b, err := os.ReadFile(ssx)
	if err != nil {
		t.Fatal(err)
	}
	ref := referenceCase(t, "iea15_semi_steady10_irregular")
	excitation := []string{"B1WvsF1xi", "B1WvsF1zi", "B1WvsM1yi"}
	motions := []string{"PtfmSurge", "PtfmHeave", "PtfmPitch"}
	run := func(exctnMod string) *validation.CaseResult {
		c := copyCase(t, ref)
		deckDir := filepath.Dir(c.FST)
		hd := filepath.Join(deckDir, "IEA-15-240-RWT-UMaineSemi_HydroDyn.dat")
		editFile(t, hd, "ExctnMod", exctnMod)
		editFile(t, hd, "DiffQTF", "0")
		sea := filepath.Join(deckDir, "IEA-15-240-RWT-UMaineSemi_SeaState.dat")
		editFile(t, sea, "WvDiffQTF", "False")
		editFile(t, sea, "WvSumQTF", "False")
		if err := os.WriteFile(filepath.Join(deckDir, "HydroData", "IEA-15-240-RWT-UMaineSemi.ssexctn"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		r := validation.RunCase(context.Background(), c, append(append(excitation, motions...), "TwrBsMyt", "FAIRTEN1"))
		if r.Err != nil {
			t.Fatalf("ExctnMod %s: %v", exctnMod, r.Err)
		}
		return &r
	}
	ss, dft := run("2"), run("1")
	for _, ch := range ss.Channels {
		if ch.Missing != "" {
			continue
		}
		o, _ := dft.Channel(ch.Name)
		t.Logf("%-10s ExctnMod 2 std %.4g: %+7.2f%% vs OpenFAST's ExctnMod 1 with the QTF, %+7.2f%% vs our ExctnMod 1 without it", ch.Name, ch.Std, 100*ch.StdErr, 100*(ch.Std/o.Std-1))
	}
	for _, name := range excitation {
		ch, ok := ss.Channel(name)
		if !ok || ch.Missing != "" {
			t.Errorf("%s: not compared", name)
			continue
		}
		if math.Abs(ch.StdErr) > 0.06 {
			t.Errorf("%s: std %+.2f%% off OpenFAST's ExctnMod 1 run (bound 6%%)", name, 100*ch.StdErr)
		}
	}
	for _, name := range motions {
		ch, ok := ss.Channel(name)
		o, ok1 := dft.Channel(name)
		if !ok || !ok1 || ch.Missing != "" {
			t.Errorf("%s: not compared", name)
			continue
		}
		if e := ch.Std/o.Std - 1; math.Abs(e) > 0.06 {
			t.Errorf("%s: std %+.2f%% off our ExctnMod 1 run (bound 6%%)", name, 100*e)
		}
	}
}
