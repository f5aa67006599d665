package coupling

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/offshore"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// copyCase copies a reference case into a temporary folder, applies the
// edits (file name → variable → value) and loads its .fst.
func copyCase(t *testing.T, name, folder, fst string, edits map[string]map[string]string) *deck.Deck {
	t.Helper()
	src := testshared.Path(t, "reference-outputs", name)
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	for file, vars := range edits {
		p := filepath.Join(dst, folder, file)
		os.Chmod(p, 0o644)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for v, val := range vars {
			var ok bool
			if b, ok = testshared.SetValue(b, v, val); !ok {
				t.Fatalf("%s: no %s line", file, v)
			}
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := deck.LoadIn(dst, filepath.Join(folder, fst))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Supported accepts the semi's SeaState and HydroDyn inputs and names the
// file, line and option of one it cannot run.
func TestSupportedSeaStateAndHydroDyn(t *testing.T) {
	const folder, fst = "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"
	noMoor := map[string]string{"CompMooring": "0"}
	d := copyCase(t, "iea15_semi_steady10_irregular", folder, fst, map[string]map[string]string{fst: noMoor})
	if err := Supported(d); err != nil {
		t.Fatalf("the semi's SeaState and HydroDyn are refused: %v", err)
	}
	cases := []struct {
		file, variable, value string
	}{
		{"IEA-15-240-RWT-UMaineSemi_SeaState.dat", "WaveMod", "3"},
		{"IEA-15-240-RWT-UMaineSemi_SeaState.dat", "WaveStMod", "3"},
		{"IEA-15-240-RWT-UMaineSemi_HydroDyn.dat", "PotMod", "2"},
		{"IEA-15-240-RWT-UMaineSemi_HydroDyn.dat", "ExctnDisp", "3"},
		{"IEA-15-240-RWT-UMaineSemi_HydroDyn.dat", "WaveDisp", "2"},
		{fst, "CompSeaSt", "0"},
	}
	for _, c := range cases {
		edits := map[string]map[string]string{fst: noMoor}
		if c.file == fst {
			edits[fst] = map[string]string{"CompMooring": "0", c.variable: c.value}
		} else {
			edits[c.file] = map[string]string{c.variable: c.value}
		}
		d := copyCase(t, "iea15_semi_steady10_irregular", folder, fst, edits)
		u, ok := Supported(d).(*Unsupported)
		if !ok {
			t.Errorf("%s %s: accepted", c.variable, c.value)
			continue
		}
		var meta *deck.Meta
		switch c.file {
		case fst:
			meta = &d.Main.Meta
		case "IEA-15-240-RWT-UMaineSemi_SeaState.dat":
			meta = &d.Offshore.SeaState.Meta
		default:
			meta = &d.Offshore.HydroDyn.Meta
		}
		g := &deck.Generic{Meta: *meta}
		_, line, _ := g.Lookup(c.variable)
		if u.File != c.file || u.Variable != c.variable || u.Line != line || line == 0 {
			t.Errorf("%s %s: got %+v, want %s:%d", c.variable, c.value, u, c.file, line)
		}
	}
}

// A spread sea SeaState could not deal out evenly is refused at
// submission naming the SeaState file, the line of WaveNDir and the values
// that work: the semi's 850-s, 0.25-s sea has NStepWave/2 = 1700 =
// 2^2·5^2·17 frequency bins, and SeaState tries 7, 9 and 11 directions
// (past ceil(1.25·7) = 9) without finding a divisor. 5 directions divide
// 1700 and are accepted.
func TestSpreadSeaStateCannotDealIsRefused(t *testing.T) {
	const folder, fst, ssFile = "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst", "IEA-15-240-RWT-UMaineSemi_SeaState.dat"
	spread := func(nDir string) *deck.Deck {
		return copyCase(t, "iea15_semi_steady10_irregular", folder, fst, map[string]map[string]string{
			fst:    {"CompMooring": "0"},
			ssFile: {"WaveDirMod": "1", "WaveDirSpread": "2", "WaveNDir": nDir, "WaveDirRange": "90"}})
	}
	d := spread("7")
	u, ok := Supported(d).(*Unsupported)
	g := &deck.Generic{Meta: d.Offshore.SeaState.Meta}
	_, line, _ := g.Lookup("WaveNDir")
	if !ok || u.File != ssFile || u.Variable != "WaveNDir" || u.Line != line || !strings.Contains(u.Message, "[17 25 85 425]") {
		t.Fatalf("WaveNDir 7 of 1700 bins: %+v, want %s:%d WaveNDir naming 17, 25, 85 and 425", u, ssFile, line)
	}
	if err := Supported(spread("5")); err != nil {
		t.Errorf("WaveNDir 5 of 1700 bins refused: %v", err)
	}
}

// recordedMooring applies the fairlead forces OpenFAST's MoorDyn reported in
// a reference run (CONnFX/FY/FZ of the vessel points) to the platform at
// the fairleads, interpolated in time: the moorings of the reference run,
// played back, so that a run isolates this package's hydrodynamics.
type recordedMooring struct {
	time  []float64
	force [3][3][]float64  // [fairlead][component]
	body  [3]offshore.Vec3 // fairlead positions in the platform axes, from the reference point
}

func (r *recordedMooring) Name() string { return "MooringPlayback" }
func (r *recordedMooring) Init(u *offshore.Input, y *offshore.Output) error {
	return r.CalcOutput(0, u, y)
}
func (r *recordedMooring) UpdateStates(t, dt float64, uT, uNext *offshore.Input) error { return nil }
func (r *recordedMooring) Channel(string) (offshore.Channel, bool)                     { return offshore.Channel{}, false }
func (r *recordedMooring) CalcOutput(t float64, u *offshore.Input, y *offshore.Output) error {
	k := sort.SearchFloat64s(r.time, t)
	if k >= len(r.time) {
		k = len(r.time) - 1
	}
	w := 1.0
	if k > 0 && r.time[k] != r.time[k-1] {
		w = (t - r.time[k-1]) / (r.time[k] - r.time[k-1])
	} else {
		k = max(k, 1)
	}
	var l offshore.Load
	o := &u.Platform.Orient
	for i := 0; i < 3; i++ {
		var f, arm offshore.Vec3
		for c := 0; c < 3; c++ {
			f[c] = r.force[i][c][k-1] + w*(r.force[i][c][k]-r.force[i][c][k-1])
			// Orientᵀ·b: body vector in global axes
			arm[c] = o[0][c]*r.body[i][0] + o[1][c]*r.body[i][1] + o[2][c]*r.body[i][2]
		}
		l.Add(offshore.Load{Force: f, Moment: offshore.Cross(arm, f)})
	}
	y.Platform = l
	return nil
}

// TestSemiPitchDecayWithHydroDyn runs OpenFAST's pitch free decay of the
// VolturnUS-S with this package's hydrodynamics (WAMIT hydrostatics,
// radiation, AddBQuad) and OpenFAST's recorded fairlead forces in place of
// the moorings (CompMooring 0 and recordedMooring), and compares the pitch
// decay period and damping ratio with OpenFAST's (within 2 %; 0.1 % and
// 0.6 % seen) and the pitch, heave and surge time series (within 2 % of
// their ranges; 1.3 %, 0.5 %, 0.8 % seen).
func TestSemiPitchDecayWithHydroDyn(t *testing.T) {
	if testing.Short() {
		t.Skip("a 200-s floating run")
	}
	const folder, fst = "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"
	ref, err := outfile.ReadFile(filepath.Join(testshared.Path(t, "reference-outputs", "iea15_semi_decay_pitch"), folder, "IEA-15-240-RWT-UMaineSemi.outb"))
	if err != nil {
		t.Fatal(err)
	}
	moor := &recordedMooring{time: ref.Time, body: [3]offshore.Vec3{{-58, 0, -14}, {29, 50.229, -14}, {29, -50.229, -14}}}
	for i, p := range []string{"1", "3", "5"} {
		for c, x := range []string{"FX", "FY", "FZ"} {
			v, ok := ref.Column("CON" + p + x)
			if !ok {
				t.Fatalf("CON%s%s missing", p, x)
			}
			moor.force[i][c] = v
		}
	}
	d := copyCase(t, "iea15_semi_decay_pitch", folder, fst, map[string]map[string]string{fst: {"CompMooring": "0"}})
	res, err := Run(context.Background(), d, Options{OutPath: "-", KeepData: true,
		Channels: []string{"PtfmPitch", "PtfmHeave", "PtfmSurge"}, Modules: []offshore.Module{moor}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	col := map[string][]float64{}
	for i, c := range res.Channels {
		col[c.Name] = res.Data[i]
	}
	// extrema of the 2-s moving averages: the tower's vibration and the
	// .outb's 16-bit steps would otherwise add spurious extrema (a uniform
	// 0.8 % amplitude loss at the 29-s period changes neither the period
	// nor the damping ratio)
	pitch, _ := ref.Column("PtfmPitch")
	ours := measureDecay(res.Time, movingAverage(col["PtfmPitch"], 80), 5)
	theirs := measureDecay(ref.Time, movingAverage(pitch, 80), 5)
	t.Logf("pitch decay: period %.3f s (OpenFAST %.3f s), damping ratio %.4f (%.4f) over %d cycles", ours.period, theirs.period, ours.zeta, theirs.zeta, ours.cycles)
	for _, c := range []string{"PtfmPitch", "PtfmHeave", "PtfmSurge"} {
		r, _ := ref.Column(c)
		lo, hi := r[0], r[0]
		var worst float64
		for k := range r {
			lo, hi = math.Min(lo, r[k]), math.Max(hi, r[k])
			if k < len(col[c]) {
				worst = math.Max(worst, math.Abs(col[c][k]-r[k]))
			}
		}
		t.Logf("%s: worst difference %.4g (%.2f %% of the range %.4g)", c, worst, 100*worst/(hi-lo), hi-lo)
		if worst > 0.02*(hi-lo) {
			t.Errorf("%s differs from OpenFAST by up to %.4g (%.2f %% of its range)", c, worst, 100*worst/(hi-lo))
		}
	}
	if ours.cycles < 5 || math.Abs(ours.period/theirs.period-1) > 0.02 || math.Abs(ours.zeta/theirs.zeta-1) > 0.02 {
		t.Errorf("pitch decay period %.3f s, damping ratio %.4f; OpenFAST %.3f s, %.4f", ours.period, ours.zeta, theirs.period, theirs.zeta)
	}
}

// movingAverage returns the centred moving average over n samples (the
// ends average what they have).
func movingAverage(x []float64, n int) []float64 {
	out := make([]float64, len(x))
	for i := range x {
		lo, hi := max(0, i-n/2), min(len(x), i+n/2+1)
		var s float64
		for _, v := range x[lo:hi] {
			s += v
		}
		out[i] = s / float64(hi-lo)
	}
	return out
}
