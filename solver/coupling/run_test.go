package coupling

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

func loadRigid(t *testing.T) *deck.Deck {
	t.Helper()
	d, err := deck.Load(testshared.Path(t, "reference-outputs", "nrel5mw_steady8_rigid_bem", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestUnknownChannelIsAnErrorListingValidOnes(t *testing.T) {
	d := loadRigid(t)
	_, err := Run(context.Background(), d, Options{OutPath: "-", TMax: 0.1, Channels: []string{"RotSpeed", "NoSuchChannel"}}, nil)
	if err == nil {
		t.Fatal("expected an error for an unknown channel")
	}
	msg := err.Error()
	for _, want := range []string{"NoSuchChannel", "RotSpeed", "TwrBsMyt", "GenPwr", "RtFldCp"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %s", msg, want)
		}
	}
	res, err := Run(context.Background(), d, Options{OutPath: "-", TMax: 0.1, Channels: []string{"RotSpeed", "NoSuchChannel"}, SkipUnsupported: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Dropped) != 1 || res.Dropped[0] != "NoSuchChannel" {
		t.Fatalf("dropped %v", res.Dropped)
	}
}

func TestCancellationStopsWithoutWritingAFile(t *testing.T) {
	d := loadRigid(t)
	out := filepath.Join(t.TempDir(), "run.outb")
	ctx, cancel := context.WithCancel(context.Background())
	var last float64
	_, err := Run(ctx, d, Options{OutPath: out, TMax: 60}, func(simTime, tMax float64) {
		last = simTime
		if simTime >= 1 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	// Stopped within one output step of the cancellation.
	if last > 1+0.1+1e-9 {
		t.Fatalf("progress continued to t=%g after cancelling at 1 s", last)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("output file exists after cancellation (stat err %v)", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 0 {
		t.Fatalf("leftover files after cancellation: %v", entries)
	}
}

// A numerically unstable setup (drivetrain torsion with a 0.2-s step)
// must end in a SimError that names the module and the time.
func TestDivergenceBecomesSimError(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-outputs", "nrel5mw_steady8_flex_bem", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	d.Main.DT = 0.2
	d.Main.DT_Out = deck.DefReal{Value: 0.2}
	_, err = Run(context.Background(), d, Options{OutPath: "-", TMax: 60, Channels: []string{"RotSpeed"}}, nil)
	var se *SimError
	if !errors.As(err, &se) {
		t.Fatalf("want *SimError, got %v", err)
	}
	if se.Time <= 0 || se.Module == "" {
		t.Fatalf("SimError lacks time or module: %+v", se)
	}
	t.Logf("%v", se)
}

// The written .outb (FileID 4) reads back with the requested channels, the
// DT_Out decimation and OpenFAST's units.
func TestOutbWrittenWithOpenFASTNamesAndUnits(t *testing.T) {
	d := loadRigid(t)
	out := filepath.Join(t.TempDir(), "rigid.outb")
	res, err := Run(context.Background(), d, Options{OutPath: out, TMax: 2, Channels: []string{"RotSpeed", "GenPwr", "RotThrust", "Azimuth", "Wind1VelX"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := outfile.ReadOutbFile(res.OutPath)
	if err != nil {
		t.Fatal(err)
	}
	if f.FileID != outfile.FileIDChanLenIn {
		t.Fatalf("FileID %v", f.FileID)
	}
	want := map[string]string{"ConvIter": "-", "RotSpeed": "rpm", "GenPwr": "kW", "RotThrust": "kN", "Azimuth": "deg", "Wind1VelX": "m/s"}
	for _, c := range f.Channels {
		if u, ok := want[c.Name]; ok && u != c.Unit {
			t.Errorf("%s unit %q, want %q", c.Name, c.Unit, u)
		}
	}
	if n := f.NumRows(); n != 21 { // 0..2 s at DT_Out = 0.1 s
		t.Fatalf("%d rows, want 21", n)
	}
	rs, _ := f.Column("RotSpeed")
	if math.Abs(rs[0]-10) > 0.01 { // initial RotSpeed of the deck
		t.Fatalf("RotSpeed at t=0 is %g rpm, want 10", rs[0])
	}
	w, _ := f.Column("Wind1VelX")
	if math.Abs(w[5]-8) > 0.01 {
		t.Fatalf("Wind1VelX %g, want 8", w[5])
	}
}

// The land-based IEA 15 MW deck (ROSCO control, curved and prebent blades
// through BlCrvAC/BlCrvAng, direct drive) runs; after 3 s the rotor speed
// and generator torque are close to the OpenFAST reference.
func TestIEA15OnshoreRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("long run")
	}
	dir := testshared.Path(t, "reference-outputs", "iea15_onshore_steady13_rosco", "IEA-15-240-RWT-Onshore")
	res, err := runPath(context.Background(), filepath.Join(dir, "IEA-15-240-RWT-Onshore.fst"),
		Options{OutPath: "-", TMax: 3, Channels: []string{"RotSpeed", "GenTq", "BldPitch1"}, KeepData: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := outfile.ReadOutbFile(filepath.Join(dir, "IEA-15-240-RWT-Onshore.outb"))
	if err != nil {
		t.Fatal(err)
	}
	k := len(res.Time) - 1
	j := ref.Index("RotSpeed")
	var rk int
	for rk = range ref.Time {
		if ref.Time[rk] >= res.Time[k]-1e-9 {
			break
		}
	}
	got, want := res.Data[3][k], ref.Data[j][rk]
	t.Logf("t=%.2f s RotSpeed %.4f rpm, reference %.4f rpm (notes: %v)", res.Time[k], got, want, res.Notes)
	if math.Abs(got-want) > 0.01*want {
		t.Fatalf("RotSpeed %.4f rpm differs from the reference %.4f rpm by more than 1%%", got, want)
	}
}

// OutFileFmt = 3 writes the text .out beside the .outb with the same rows.
func TestTextOutputWhenRequested(t *testing.T) {
	d := loadRigid(t)
	d.Main.OutFileFmt = 3
	out := filepath.Join(t.TempDir(), "rigid.outb")
	res, err := Run(context.Background(), d, Options{OutPath: out, TMax: 1, Channels: []string{"RotSpeed", "GenPwr"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.TextPath == "" || res.OutPath == "" {
		t.Fatalf("paths %q %q", res.OutPath, res.TextPath)
	}
	txt, err := outfile.ReadTextFile(res.TextPath)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := outfile.ReadOutbFile(res.OutPath)
	if err != nil {
		t.Fatal(err)
	}
	if txt.NumRows() != bin.NumRows() || txt.Index("GenPwr") < 0 {
		t.Fatalf("text rows %d, binary rows %d", txt.NumRows(), bin.NumRows())
	}
	a, _ := txt.Column("RotSpeed")
	b, _ := bin.Column("RotSpeed")
	if math.Abs(a[5]-b[5]) > 1e-3*math.Abs(b[5]) { // ES10.3E2 keeps 4 significant digits
		t.Fatalf("RotSpeed text %g, binary %g", a[5], b[5])
	}
}

// The .outb is streamed row by row while the run goes on; it must hold
// every row the run computed: the same times, and each value within the
// int16 packing resolution of its channel ((max−min)/65535, outfile.PackScale)
// of the in-memory table kept with KeepData.
func TestStreamedOutbHoldsEveryRow(t *testing.T) {
	d := loadRigid(t)
	out := filepath.Join(t.TempDir(), "run.outb")
	res, err := Run(context.Background(), d, Options{OutPath: out, TMax: 3, KeepData: true,
		Channels: []string{"RotSpeed", "GenPwr", "RootMxc1", "Azimuth"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := outfile.ReadOutbFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Time) != len(res.Time) || len(res.Time) != 31 {
		t.Fatalf("file has %d rows, run kept %d (want 31 at DT_Out 0.1 s over 3 s)", len(f.Time), len(res.Time))
	}
	for i, c := range res.Channels {
		col, ok := f.Column(c.Name)
		if !ok {
			t.Fatalf("file lacks %s", c.Name)
		}
		lo, hi := res.Data[i][0], res.Data[i][0]
		for _, v := range res.Data[i] {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		tol := math.Max((hi-lo)/65535, 1e-6*math.Abs(hi))
		for k := range col {
			if math.Abs(col[k]-res.Data[i][k]) > tol {
				t.Fatalf("%s row %d: file %g, run %g (tolerance %g)", c.Name, k, col[k], res.Data[i][k], tol)
			}
		}
	}
}

// A deck that switches on an offshore module this solver does not run
// fails at once, naming the file, line and switch, before any output file
// is created.
func TestOffshoreDeckFailsFast(t *testing.T) {
	d := loadRigid(t)
	d.Main.CompIce = 1 // ice loads are not modelled
	out := filepath.Join(t.TempDir(), "run.outb")
	_, err := Run(context.Background(), d, Options{OutPath: out, TMax: 0.1}, nil)
	if err == nil {
		t.Fatal("expected an error for an offshore deck")
	}
	for _, want := range []string{"Main_Onshore.fst:", "CompIce: 1", "not supported yet"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if _, statErr := os.Stat(out); !errors.Is(statErr, os.ErrNotExist) {
		t.Errorf("an output file was left behind: %v", statErr)
	}
}

// runPath loads the deck at path and runs it (see Run).
func runPath(ctx context.Context, path string, opts Options, progress func(simTime, tMax float64)) (*Result, error) {
	d, err := deck.Load(path)
	if err != nil {
		return nil, fmt.Errorf("coupling: loading %s: %w", path, err)
	}
	return Run(ctx, d, opts, progress)
}

// ElastoDyn's other names of the same quantities give the same values,
// the DOF channels follow the state (side-to-side tower DOFs reversed, as
// Q_TSS1 always was), and teeter and furl channels are INVALID.
func TestElastoDynChannelAliases(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-outputs", "nrel5mw_steady8_flex_bem", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	same := [][2]string{
		{"RootMxc1", "RootMIP1"}, {"RootMyc1", "RootMOoP1"}, {"RootMxb2", "RootMEdg2"}, {"RootMyb3", "RootMFlp3"},
		{"TwrClrnc1", "TipClrnc1"}, {"TwrClrnc2", "Tip2Twr2"}, {"Azimuth", "LSSTipPxa"}, {"RotSpeed", "LSSTipVxs"},
		{"RotAccel", "LSSTipAxa"}, {"GenAccel", "HSShftA"}, {"TTDspFA", "YawBrTDxt"}, {"TTDspSS", "YawBrTDyt"},
	}
	var names []string
	for _, p := range same {
		names = append(names, p[0], p[1])
	}
	names = append(names, "GenSpeed", "LSSGagVxa", "Q_TSS1", "QD_TSS1", "Q_B1F1", "QD2_B2E1", "Q_Teet", "RotFurl")
	d.Main.DT_Out.Default = true // every step
	res, err := Run(context.Background(), d, Options{OutPath: "-", TMax: 2, KeepData: true, Channels: names}, nil)
	if err != nil {
		t.Fatal(err)
	}
	col := map[string][]float64{}
	unit := map[string]string{}
	for i, c := range res.Channels {
		col[c.Name], unit[c.Name] = res.Data[i], c.Unit
	}
	last := len(res.Time) - 1
	for _, p := range same {
		a, b := col[p[0]][last], col[p[1]][last]
		if a != b || unit[p[0]] != unit[p[1]] {
			t.Errorf("%s = %g %s but %s = %g %s", p[0], a, unit[p[0]], p[1], b, unit[p[1]])
		}
		if a == 0 && !strings.HasPrefix(p[0], "TTDsp") {
			t.Errorf("%s is zero at the end of the run", p[0])
		}
	}
	// The LSS gage turns with the generator: GenSpeed / GBRatio (97).
	if g, l := col["GenSpeed"][last], col["LSSGagVxa"][last]; math.Abs(g/97-l) > 1e-9*g {
		t.Errorf("LSSGagVxa %g rpm, GenSpeed/97 = %g", l, g/97)
	}
	// QD_TSS1 is the rate of Q_TSS1 (central difference of the output).
	q, qd := col["Q_TSS1"], col["QD_TSS1"]
	for k := 1; k < last; k++ {
		rate := (q[k+1] - q[k-1]) / (res.Time[k+1] - res.Time[k-1])
		if math.Abs(rate-qd[k]) > 0.02*math.Abs(qd[k])+1e-4 {
			t.Errorf("t=%g s: QD_TSS1 %g is not the rate of Q_TSS1 (%g)", res.Time[k], qd[k], rate)
			break
		}
	}
	for _, n := range []string{"Q_Teet", "RotFurl"} {
		if unit[n] != "INVALID" {
			t.Errorf("%s unit %q, want INVALID", n, unit[n])
		}
	}
	if unit["Q_B1F1"] != "m" || unit["QD2_B2E1"] != "m/s^2" {
		t.Errorf("blade DOF units %q, %q", unit["Q_B1F1"], unit["QD2_B2E1"])
	}
}

// The tower gages' section loads continue the tower-base loads: at the
// lowest node (half an element above the base) the fore-aft moment plus
// the shear times the node's height is the base moment, and shear and
// axial force are the base's but for the lower half element (its weight
// by hand for the axial force), within 0.5 % (axial 0.1 %) of the
// channel's level at every step; below the top the axial force is a
// larger compression than at the yaw bearing.
func TestTowerGageLoadsContinueTheBaseLoads(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-outputs", "nrel5mw_steady8_flex_bem", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	ed := d.ElastoDyn
	ed.NTwGages, ed.TwrGagNd = 2, []int{1, ed.TwrNodes}
	d.Main.DT_Out.Default = true
	names := []string{"TwrBsMyt", "TwrBsFxt", "TwrBsFzt", "TwHt1MLyt", "TwHt1FLxt", "TwHt1FLzt", "TwHt1MLxt", "TwrBsMxt", "TwHt1FLyt", "TwHt2FLzt", "YawBrFzp"}
	res, err := Run(context.Background(), d, Options{OutPath: "-", TMax: 5, KeepData: true, Channels: names}, nil)
	if err != nil {
		t.Fatal(err)
	}
	col := map[string][]float64{}
	for i, c := range res.Channels {
		col[c.Name] = res.Data[i]
	}
	dh := (ed.TowerHt - ed.TowerBsHt) / float64(ed.TwrNodes)
	h1 := dh / 2 // m, node 1 above the base
	// The lower half of node 1's element weighs on the base but not on
	// the gage (mass density near the base; kN).
	tw := ed.Tower
	rho := tw.TMassDen[0] + (tw.TMassDen[1]-tw.TMassDen[0])*(h1/(ed.TowerHt-ed.TowerBsHt)-tw.HtFract[0])/(tw.HtFract[1]-tw.HtFract[0])
	halfWeight := 0.5 * rho * tw.AdjTwMa * dh * d.Main.Gravity / 1000
	level := func(x []float64) float64 {
		l := 0.0
		for _, v := range x {
			l = math.Max(l, math.Abs(v))
		}
		return l
	}
	my, mx := level(col["TwrBsMyt"]), level(col["TwrBsMxt"])
	fx, fz := level(col["TwrBsFxt"]), level(col["TwrBsFzt"])
	for k := range res.Time {
		checks := []struct {
			what      string
			got, want float64
			tol       float64
		}{
			{"MLyt + h·FLxt vs TwrBsMyt", col["TwHt1MLyt"][k] + h1*col["TwHt1FLxt"][k], col["TwrBsMyt"][k], 0.005 * my},
			{"MLxt − h·FLyt vs TwrBsMxt", col["TwHt1MLxt"][k] - h1*col["TwHt1FLyt"][k], col["TwrBsMxt"][k], 0.005 * mx},
			{"FLxt vs TwrBsFxt", col["TwHt1FLxt"][k], col["TwrBsFxt"][k], 0.005 * fx},
			{"FLzt − half element's weight vs TwrBsFzt", col["TwHt1FLzt"][k] - halfWeight, col["TwrBsFzt"][k], 0.001 * fz},
		}
		for _, c := range checks {
			if math.Abs(c.got-c.want) > c.tol {
				t.Fatalf("t=%g s: %s: %g, want %g ± %g", res.Time[k], c.what, c.got, c.want, c.tol)
			}
		}
	}
	last := len(res.Time) - 1
	if top, yb := col["TwHt2FLzt"][last], col["YawBrFzp"][last]; !(top < yb && yb < 0) {
		t.Errorf("axial force below the top %g kN, at the yaw bearing %g kN: want both compressive and the lower one larger", top, yb)
	}
}
