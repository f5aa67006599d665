package coupling

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/outfile"
	"gonum.org/v1/gonum/stat"
)

// The IEA 15 MW monopile in regular Airy waves (H 6 m, T 10 s) with its
// SubDyn substructure, SeaState and HydroDyn strip theory through the
// offshore seam, aerodynamics and ROSCO: over 60–80 s (two wave periods)
// the wave elevation, the HydroDyn loads, the mudline reactions, the
// tower-base moment and the tower-top displacement have OpenFAST v5.0.0's
// mean and standard deviation within 1 % (of the mean, or of the range where
// the mean is near zero). The 150-s figures are in docs/validation.md §10.
func TestMonopileRegularWavesMatchOpenFAST(t *testing.T) {
	if testing.Short() {
		t.Skip("an 80-s monopile run")
	}
	p := testshared.Path(t, "reference-outputs", "iea15_monopile_steady10_regular", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst")
	d, err := deck.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Wave1Elev", "HydroFxi", "HydroMyi", "ReactFXss", "ReactMYss", "TwrBsMyt", "TTDspFA"}
	res, err := Run(context.Background(), d, Options{OutPath: "-", KeepData: true, Channels: names, TMax: 80}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := outfile.ReadFile(strings.TrimSuffix(p, ".fst") + ".outb")
	if err != nil {
		t.Fatal(err)
	}
	window := func(tm, x []float64) []float64 {
		var out []float64
		for k, tk := range tm {
			if tk >= 60 && tk <= 80+1e-9 {
				out = append(out, x[k])
			}
		}
		return out
	}
	for _, n := range names {
		c := slices.IndexFunc(res.Channels, func(ch outfile.Channel) bool { return ch.Name == n })
		rc, ok := ref.Column(n)
		if c < 0 || !ok {
			t.Fatalf("%s missing", n)
		}
		ours, theirs := window(res.Time, res.Data[c]), window(ref.Time, rc)
		mo, mt := stat.Mean(ours, nil), stat.Mean(theirs, nil)
		so, st := stat.StdDev(ours, nil), stat.StdDev(theirs, nil)
		scale := math.Max(math.Abs(mt), slices.Max(theirs)-slices.Min(theirs))
		t.Logf("%-10s mean %.5g (OpenFAST %.5g), std %.5g (%.5g)", n, mo, mt, so, st)
		if math.Abs(mo-mt) > 0.01*scale || math.Abs(so-st) > 0.01*st {
			t.Errorf("%s: mean %.5g, std %.5g; OpenFAST %.5g, %.5g", n, mo, so, mt, st)
		}
	}
}
