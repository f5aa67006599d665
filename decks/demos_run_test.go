package decks_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// The land-based bundled turbines run in the solver as loaded: the deck the
// demo catalog writes is complete and runnable. Each run is checked at its
// end against the operating point of its steady wind (the deck's own).
func TestBundledLandTurbinesRunInTheSolver(t *testing.T) {
	c, err := decks.NewBundledDemos(turbines.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id   string
		tMax float64
		// Expected rotor speed [rpm] and electrical power range [kW] at
		// the end of the run.
		rpm          float64
		rpmTol       float64
		minKW, maxKW float64
	}{
		// 8 m/s, region 2: the baseline torque law K·ω² holds the rotor
		// near optimal tip-speed ratio, about 9.2 rpm (Jonkman et al. 2009,
		// fig. 9-1); the run starts at 10 rpm and is still settling.
		{id: "nrel-5mw-land", tMax: 20, rpm: 9.2, rpmTol: 0.8, minKW: 1000, maxKW: 2500},
		// 10 m/s, region 2 under ROSCO: OpenFAST v5.0.0 settles at
		// 7.060 rpm and 12.47 MW (reference output
		// iea15_onshore_steady10_rosco).
		{id: "iea-15mw-onshore", tMax: 40, rpm: 7.06, rpmTol: 0.1, minKW: 11000, maxKW: 14000},
	} {
		t.Run(tc.id, func(t *testing.T) {
			dir := t.TempDir()
			tb, err := c.Build(tc.id, dir)
			if err != nil {
				t.Fatal(err)
			}
			res, err := runDeckFile(context.Background(), filepath.Join(dir, filepath.FromSlash(*tb.MainFile)),
				coupling.Options{OutPath: "-", TMax: tc.tMax, KeepData: true, Channels: []string{"RotSpeed", "GenPwr", "BldPitch1"}}, nil)
			if err != nil {
				t.Fatalf("running the bundled %s: %v", tc.id, err)
			}
			col := func(name string) []float64 {
				for i, ch := range res.Channels {
					if ch.Name == name {
						return res.Data[i]
					}
				}
				t.Fatalf("no %s among the output channels %v", name, res.Channels)
				return nil
			}
			last := len(res.Time) - 1
			if last < 0 || math.Abs(res.Time[last]-tc.tMax) > 1e-6 {
				t.Fatalf("run ended at %v, want %g s", res.Time, tc.tMax)
			}
			rpm, kw := col("RotSpeed")[last], col("GenPwr")[last]
			t.Logf("%s at %g s: %.3f rpm, %.0f kW, pitch %.2f°", tc.id, tc.tMax, rpm, kw, col("BldPitch1")[last])
			if math.Abs(rpm-tc.rpm) > tc.rpmTol {
				t.Errorf("rotor speed %.3f rpm, want %.2f ± %.2f", rpm, tc.rpm, tc.rpmTol)
			}
			if kw < tc.minKW || kw > tc.maxKW {
				t.Errorf("electrical power %.0f kW, want %g–%g kW", kw, tc.minKW, tc.maxKW)
			}
		})
	}
}

// runDeckFile loads the deck at path and runs it (coupling.Run).
func runDeckFile(ctx context.Context, path string, opts coupling.Options, progress func(simTime, tMax float64)) (*coupling.Result, error) {
	d, err := deck.Load(path)
	if err != nil {
		return nil, err
	}
	return coupling.Run(ctx, d, opts, progress)
}

// Every channel the bundled turbines' own OutLists ask for is computed:
// run for one time step with unsupported channels skipped, none is.
// (OpenFAST writes a gage channel beyond NBlGages as INVALID; so do we.)
func TestBundledTurbinesComputeTheirWholeOutList(t *testing.T) {
	c, err := decks.NewBundledDemos(turbines.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"nrel-5mw-land", "iea-15mw-onshore", "iea-15mw-monopile", "iea-15mw-volturnus", "iea-22mw-monopile"} {
		t.Run(id, func(t *testing.T) {
			dir := t.TempDir()
			tb, err := c.Build(id, dir)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, filepath.FromSlash(*tb.MainFile))
			d, err := deck.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := runDeckFile(context.Background(), path, coupling.Options{OutPath: "-", TMax: d.Main.DT, KeepData: true, SkipUnsupported: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Dropped) > 0 {
				t.Errorf("%d requested channels not computed: %v", len(res.Dropped), res.Dropped)
			}
			t.Logf("%s: %d channels", id, len(res.Channels))
		})
	}
}
