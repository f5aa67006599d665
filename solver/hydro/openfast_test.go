package hydro

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/outfile"
	"github.com/turbinesim/turbinesim/solver/waves"
	"gonum.org/v1/gonum/stat"
)

func loadCase(t *testing.T, name, folder, fst string) (*deck.Deck, *outfile.File, string) {
	t.Helper()
	dir := testshared.Path(t, "reference-outputs", name)
	d, err := deck.Load(filepath.Join(dir, folder, fst+".fst"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := outfile.ReadFile(filepath.Join(dir, folder, fst+".outb"))
	if err != nil {
		t.Fatal(err)
	}
	return d, f, dir
}

func col(t *testing.T, f *outfile.File, name string) []float64 {
	t.Helper()
	c, ok := f.Column(name)
	if !ok {
		t.Fatalf("channel %s missing", name)
	}
	return c
}

// TestDecayHydroLoadsAgainstOpenFAST drives the semi's hydrostatics and
// radiation memory with the platform motion OpenFAST recorded in the pitch
// free decay (velocities by central differences of the recorded
// displacements, accelerations as ElastoDyn output them) and compares the
// hydrostatic, radiation and total channels sample by sample (within 0.5 %
// of each channel's range).
func TestDecayHydroLoadsAgainstOpenFAST(t *testing.T) {
	d, f, dir := loadCase(t, "iea15_semi_decay_pitch", "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi")
	sea, _, err := waves.FromDeck(d, dir)
	if err != nil {
		t.Fatal(err)
	}
	dt := f.Time[1] - f.Time[0]
	m, err := FromDeck(d, dir, sea, dt)
	if err != nil {
		t.Fatal(err)
	}
	deg := math.Pi / 180
	chans := []string{"PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw"}
	var q [6][]float64
	for i, c := range chans {
		q[i] = col(t, f, c)
		if i >= 3 {
			for k := range q[i] {
				q[i][k] *= deg
			}
		}
	}
	n := f.NumRows()
	ax, az, ary := col(t, f, "PtfmTAxt"), col(t, f, "PtfmTAzt"), col(t, f, "PtfmRAyt")
	ref := map[string][]float64{}
	got := map[string][]float64{}
	names := []string{"B1HdSFzi", "B1HdSMyi", "B1RdtFxi", "B1RdtFzi", "B1RdtMyi", "HydroFxi", "HydroFzi", "HydroMyi"}
	out, _ := m.Outputs()
	row := make([]float64, len(out.Names))
	for _, c := range names {
		ref[c] = col(t, f, c)
	}
	for k := 0; k < n; k++ {
		var mo Motion
		for i := 0; i < 6; i++ {
			mo.Q[i] = q[i][k]
			switch {
			case k == 0:
				mo.QD[i] = (q[i][1] - q[i][0]) / dt
			case k == n-1:
				mo.QD[i] = (q[i][k] - q[i][k-1]) / dt
			default:
				mo.QD[i] = (q[i][k+1] - q[i][k-1]) / (2 * dt)
			}
		}
		l := m.Platform.Loads(f.Time[k], mo)
		m.Platform.Advance(f.Time[k], mo)
		// accelerations as ElastoDyn recorded them (second differences of
		// the 16-bit displacements are too noisy for A∞ q̈)
		// PtfmTAxt/PtfmTAzt are along the tilted tower-base axes: rotate
		// them back by the pitch angle
		c, s := math.Cos(mo.Q[4]), math.Sin(mo.Q[4])
		mo.QDD[0], mo.QDD[2], mo.QDD[4] = c*ax[k]+s*az[k], -s*ax[k]+c*az[k], ary[k]*deg
		st := &Step{Platform: l, Motion: mo}
		out.Eval(st, row)
		for j, c := range out.Names {
			got[c] = append(got[c], row[j])
		}
	}
	for _, c := range names {
		r, g := ref[c], got[c]
		lo, hi := r[0], r[0]
		var worst, at float64
		for k := range r {
			lo, hi = math.Min(lo, r[k]), math.Max(hi, r[k])
		}
		for k := range r {
			if f.Time[k] < 1 { // the differenced velocity of the first rows
				continue
			}
			if e := math.Abs(g[k] - r[k]); e > worst {
				worst, at = e, f.Time[k]
			}
		}
		rng := hi - lo
		t.Logf("%s: range %.4g, worst sample difference %.3g %% of range at t=%g s; std %.5g vs %.5g", c, rng, 100*worst/rng, at, stat.StdDev(g, nil), stat.StdDev(r, nil))
		if worst > 0.005*rng {
			t.Errorf("%s: worst difference %.3g (%.2f %% of the range %.4g)", c, worst, 100*worst/rng, rng)
		}
	}
}

// TestMonopileHydroLoadsAgainstOpenFAST: the strip-theory load on the
// IEA 15 MW monopile in the regular-wave reference case (H 6 m, T 10 s),
// computed on the pile held still, has OpenFAST's HydroFxi and HydroMyi
// amplitude (the pile's own motion is small at the wave period).
func TestMonopileHydroLoadsAgainstOpenFAST(t *testing.T) {
	d, f, dir := loadCase(t, "iea15_monopile_steady10_regular", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile")
	sea, _, err := waves.FromDeck(d, dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := FromDeck(d, dir, sea, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if m.Platform != nil || m.Morison == nil {
		t.Fatal("monopile: want strip theory only")
	}
	mot := make([]NodeMotion, len(m.Morison.Nodes))
	loads := make([]NodeLoad, len(m.Morison.Nodes))
	var fx, my []float64
	for _, tm := range f.Time {
		if tm < 60 {
			continue
		}
		m.Morison.Loads(tm, mot, loads)
		r := m.Morison.Resultant(loads, [3]float64{})
		fx = append(fx, r[0])
		my = append(my, r[4])
	}
	for _, c := range []struct {
		name string
		ours []float64
	}{{"HydroFxi", fx}, {"HydroMyi", my}} {
		ref := col(t, f, c.name)
		var r []float64
		for k, tm := range f.Time {
			if tm >= 60 {
				r = append(r, ref[k])
			}
		}
		so, sr := stat.StdDev(c.ours, nil), stat.StdDev(r, nil)
		t.Logf("%s std: ours %.5g, OpenFAST %.5g (%.2f %%); mean ours %.4g, OpenFAST %.4g", c.name, so, sr, 100*(so/sr-1), stat.Mean(c.ours, nil), stat.Mean(r, nil))
		if math.Abs(so/sr-1) > 0.01 {
			t.Errorf("%s std %.5g, OpenFAST %.5g", c.name, so, sr)
		}
	}
}

// TestExcitationFromOpenFASTWaves rebuilds the irregular sea of the semi
// reference case from the Wave1Elev OpenFAST recorded at the reference
// point (a WaveMod 5 elevation series, its 300 s taken as one period) and
// compares the first-order excitation B1WvsF1xi, B1WvsF1zi, B1WvsM1yi over
// the middle of the record (the ends suffer from the record not being
// periodic). This checks the .3 data's phase convention and heading
// interpolation, which OpenFAST's random phases otherwise hide.
func TestExcitationFromOpenFASTWaves(t *testing.T) {
	d, f, dir := loadCase(t, "iea15_semi_steady10_irregular", "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi")
	dt := f.Time[1] - f.Time[0]
	n := f.NumRows() - 1
	elev := col(t, f, "Wave1Elev")[:n]
	sea0, _, err := waves.FromDeck(d, dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sea0.Config()
	cfg.WaveMod, cfg.Elev, cfg.WaveDT, cfg.WaveTMax = waves.UserElev, elev, dt, float64(n)*dt
	sea, err := waves.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := FromDeck(d, dir, sea, dt)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		dof  int
	}{{"B1WvsF1xi", 0}, {"B1WvsF1zi", 2}, {"B1WvsM1yi", 4}} {
		ref := col(t, f, c.name)
		var r, g []float64
		for k, tm := range f.Time {
			if tm < 60 || tm > 240 {
				continue
			}
			r = append(r, ref[k])
			g = append(g, m.Platform.Loads(tm, Motion{}).Excitation[c.dof])
		}
		corr := stat.Correlation(r, g, nil)
		so, sr := stat.StdDev(g, nil), stat.StdDev(r, nil)
		t.Logf("%s: std ours %.5g, OpenFAST %.5g (%.2f %%), correlation %.4f", c.name, so, sr, 100*(so/sr-1), corr)
		if corr < 0.995 || math.Abs(so/sr-1) > 0.01 {
			t.Errorf("%s: correlation %.4f, std %.5g vs %.5g", c.name, corr, so, sr)
		}
	}
}
