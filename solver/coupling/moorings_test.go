package coupling

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/moorings"
	"github.com/turbinesim/turbinesim/solver/offshore"
)

// surgeDeck is the VolturnUS-S pitch-decay deck with only the platform
// surge DOF, started 2 m off, and CompMooring as given (no hydrodynamics).
// The platform mass is a quarter of the deck's, so that the surge period
// (about 65 s instead of 110 s) gives three cycles in 230 s.
func surgeDeck(t *testing.T, compMooring int) *deck.Deck {
	d := semiDeckWithoutModules(t)
	d.Main.CompMooring = compMooring
	ed := d.ElastoDyn
	ed.PtfmPDOF, ed.PtfmSgDOF = false, true
	ed.PtfmPitch, ed.PtfmSurge = 0, 2
	ed.PtfmMass /= 4
	return d
}

// Surge free decays through the offshore seam (mooring only, surge DOF
// only): on the quasi-static catenaries (the MAP++-equivalent module) the
// platform has the period of a linear spring of the catenary's surge
// stiffness K11 within 0.5 %; on the MoorDyn lines the period is 1-8 %
// longer, the inertia of the chain moving with the platform (1.9 Mkg of
// line and added mass in all, against 7 Mkg of turbine and lightened
// platform), and the lines' drag damps the motion (ζ between 0.5 % and 5 %).
func TestMooringSurgeDecayThroughTheSeam(t *testing.T) {
	if testing.Short() {
		t.Skip("three 230-s runs")
	}
	run := func(d *deck.Deck, mods ...offshore.Module) ([]float64, []float64) {
		res, err := Run(context.Background(), d, Options{OutPath: "-", TMax: 230, KeepData: true,
			Channels: []string{"PtfmSurge"}, Modules: mods}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.Time, res.Data[len(res.Data)-1]
	}
	d := surgeDeck(t, 3)
	md, err := d.Offshore.Mooring.MoorDyn()
	if err != nil {
		t.Fatal(err)
	}
	qs, err := moorings.QuasiStaticFromMoorDyn(md, moorings.EnvFromDeck(d), [3]float64{})
	if err != nil {
		t.Fatal(err)
	}
	K, err := qs.Stiffness(moorings.Motion{})
	if err != nil {
		t.Fatal(err)
	}
	// The catenary model's static surge force at zero offset (the lines
	// are not exactly balanced) is the linear spring's F0.
	l0, _, _ := qs.Loads(moorings.Motion{})
	lin := &offshore.Linear{Label: "spring"}
	lin.K[0][0], lin.F0[0] = K[0][0], l0.Force[0]
	tm, moor := run(d)
	_, spring := run(surgeDeck(t, 0), lin)
	dm, ds := measureDecay(tm, moor, 0), measureDecay(tm, spring, 0)
	t.Logf("surge period: MoorDyn %.3f s (ζ %.4f), linear spring K11 = %.4g N/m %.3f s", dm.period, dm.zeta, K[0][0], ds.period)
	if r := dm.period/ds.period - 1; dm.cycles < 1 || ds.cycles < 1 || r < 0.01 || r > 0.08 {
		t.Errorf("MoorDyn surge period %.3f s (%d cycles), linear spring %.3f s (%d cycles)", dm.period, dm.cycles, ds.period, ds.cycles)
	}
	if dm.zeta < 0.005 || dm.zeta > 0.05 {
		t.Errorf("MoorDyn surge decay damping ratio %.4f", dm.zeta)
	}
	// MAP++: the same lines as catenaries (the published semi deck has a
	// MAP++ file beside the MoorDyn one).
	dq := surgeDeck(t, 0)
	mapMod, err := moorings.NewQuasiStaticModuleFromMoorDyn(md, moorings.EnvFromDeck(dq), [3]float64{})
	if err != nil {
		t.Fatal(err)
	}
	_, cat := run(dq, mapMod)
	dc := measureDecay(tm, cat, 0)
	t.Logf("surge period: catenary %.3f s (ζ %.5f)", dc.period, dc.zeta)
	if dc.cycles < 1 || math.Abs(dc.period/ds.period-1) > 0.005 || dc.zeta > 1e-3 {
		t.Errorf("catenary surge period %.3f s, linear spring %.3f s", dc.period, ds.period)
	}
}

// The MoorDyn deck passes Supported; a rod in its MoorDyn file is refused
// with the file (relative to the deck), line and section.
func TestSupportedRefusesMooringOptions(t *testing.T) {
	d := surgeDeck(t, 3)
	if err := Supported(d); err != nil {
		t.Fatalf("MoorDyn deck refused: %v", err)
	}
	src, err := os.ReadFile(d.Offshore.Mooring.Meta.Path)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "moor.dat")
	if err := os.WriteFile(p, []byte(strings.Replace(string(src), "---------------------- POINTS", "---------------------- BODIES ---\n---------------------- POINTS", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	g, err := deck.ReadGeneric(p, "MoorDyn")
	if err != nil {
		t.Fatal(err)
	}
	d.Offshore.Mooring = g
	err = Supported(d)
	var u *Unsupported
	if !errors.As(err, &u) || u.Variable != "BODIES" || u.Line != 8 || u.File != "moor.dat" {
		t.Errorf("got %v, want moor.dat:8 BODIES", err)
	}
}
