package dlc

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/windfile"
)

func load5MW(t *testing.T) *deck.Deck {
	t.Helper()
	p := testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst")
	d, err := deck.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// smallGrid keeps generation cheap in tests: 7 × 7 points, 0.25 s.
var smallGrid = GridOptions{Points: 7, Dt: 0.25}

func TestPrepareRunTurbulent(t *testing.T) {
	d := load5MW(t)
	origTMax, origType := d.Main.TMax, d.InflowWind.WindType
	runs, err := Expand(Request{Turbine: nrel5MW, DLCs: []string{"1.2"}, Class: "I", Category: "B", BatchSeed: 7, Grid: smallGrid,
		Overrides: map[string]Override{"1.2": {Speeds: []float64{12}, Seeds: intp(1), Yaw: []float64{10}, Duration: ptr(20), Transient: ptr(5)}}})
	if err != nil {
		t.Fatal(err)
	}
	run := runs[0]
	dir := t.TempDir()
	fst, err := PrepareRun(context.Background(), d, run, dir)
	if err != nil {
		t.Fatal(err)
	}
	if d.Main.TMax != origTMax || d.InflowWind.WindType != origType {
		t.Errorf("input deck modified")
	}
	got, err := deck.Load(fst)
	if err != nil {
		t.Fatalf("written deck does not load: %v", err)
	}
	iw := got.InflowWind
	if iw.WindType != 3 {
		t.Fatalf("WindType %d, want 3", iw.WindType)
	}
	wantWind := filepath.Join(filepath.Dir(fst), WindDir, run.ID+".bts")
	inflowPath := got.InflowWind.Meta.Path
	if p := filepath.Join(filepath.Dir(inflowPath), filepath.FromSlash(iw.FileName_BTS)); filepath.Clean(p) != wantWind {
		t.Errorf("FileName_BTS %q resolves to %s, want %s", iw.FileName_BTS, p, wantWind)
	}
	if iw.PropagationDir != 10 || got.Main.TMax != 25 {
		t.Errorf("PropagationDir %g, TMax %g; want 10, 25", iw.PropagationDir, got.Main.TMax)
	}
	if got.Main.DT_Out != d.Main.DT_Out {
		t.Errorf("DT_Out changed: %+v vs %+v", got.Main.DT_Out, d.Main.DT_Out)
	}
	ff, err := windfile.ReadBTSFile(wantWind)
	if err != nil {
		t.Fatal(err)
	}
	if ff.URef != 12 || math.Abs(ff.ZHub-90) > 1e-9 {
		t.Errorf("box URef %g ZHub %g, want 12, 90", ff.URef, ff.ZHub)
	}
	// The hub-point mean of u over the box is the requested speed within
	// a few turbulence standard deviations' sampling error: σ_u ≈ 0.14·
	// (0.75·12 + 5.6) = 2.0 m/s, and a 25-s record has few independent
	// samples, so allow ±2 m/s.
	var sum float64
	iz, iy := ff.NZ/2, ff.NY/2
	for it := 0; it < ff.NT; it++ {
		sum += float64(ff.Vel(it, iz, iy)[0])
	}
	if mean := sum / float64(ff.NT); math.Abs(mean-12) > 2 {
		t.Errorf("hub mean u %g m/s, want about 12", mean)
	}
	if ff.Duration() < 25 {
		t.Errorf("box spans %g s, less than TMax 25 s", ff.Duration())
	}
	// No steady-state table in this deck (simple VS control, no Cp file):
	// initial conditions are left.
	if got.ElastoDyn.RotSpeed != d.ElastoDyn.RotSpeed || got.ElastoDyn.BlPitch != d.ElastoDyn.BlPitch {
		t.Errorf("initial conditions changed without a steady-state table")
	}
}

func TestPrepareRunEventAndParked(t *testing.T) {
	d := load5MW(t)
	runs, err := Expand(Request{Turbine: nrel5MW, DLCs: []string{"1.4", "6.1"}, Class: "I", Category: "B", Grid: smallGrid,
		Overrides: map[string]Override{"6.1": {Seeds: intp(1), Yaw: []float64{-8}, Duration: ptr(10), Transient: ptr(0)}}})
	if err != nil {
		t.Fatal(err)
	}
	ecd, parked := runs[0], runs[len(runs)-1]
	if ecd.DLC != "1.4" || parked.DLC != "6.1" {
		t.Fatalf("unexpected runs %s, %s", ecd.ID, parked.ID)
	}
	fst, err := PrepareRun(context.Background(), d, ecd, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got, err := deck.Load(fst)
	if err != nil {
		t.Fatal(err)
	}
	iw := got.InflowWind
	if iw.WindType != 2 || iw.RefHt_Uni != 90 || iw.RefLength != 126 {
		t.Errorf("uniform wind set-up: WindType %d RefHt_Uni %g RefLength %g", iw.WindType, iw.RefHt_Uni, iw.RefLength)
	}
	u, err := windfile.ReadUniformFile(filepath.Join(filepath.Dir(iw.Meta.Path), filepath.FromSlash(iw.FileName_Uni)))
	if err != nil {
		t.Fatal(err)
	}
	if first := u.Rows[0]; first.HorSpeed != 9.4 || first.GustSpeed != 0 {
		t.Errorf("first row %+v, want hub speed 9.4 m/s (V_r − 2) and no gust", first)
	}
	// ECD (IEC 61400-1 §6.3.3.5): the gust reaches V_cg = 15 m/s over
	// T = 10 s after the event start.
	end := u.At(ecd.EventTime + 10)
	if math.Abs(end.GustSpeed-15) > 1e-6 {
		t.Errorf("ECD gust at the end of the rise %g m/s, want 15", end.GustSpeed)
	}

	fst, err = PrepareRun(context.Background(), d, parked, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got, err = deck.Load(fst)
	if err != nil {
		t.Fatal(err)
	}
	if got.ElastoDyn.BlPitch != [3]float64{90, 90, 90} || got.ElastoDyn.RotSpeed != 0 {
		t.Errorf("parked: pitch %v rotor %g", got.ElastoDyn.BlPitch, got.ElastoDyn.RotSpeed)
	}
	if got.ServoDyn.PCMode != 0 || !got.ServoDyn.GenTiStr || got.ServoDyn.TimGenOn <= got.Main.TMax {
		t.Errorf("parked: ServoDyn PCMode %d GenTiStr %v TimGenOn %g", got.ServoDyn.PCMode, got.ServoDyn.GenTiStr, got.ServoDyn.TimGenOn)
	}
	// Without pitch control ServoDyn commands PitNeut: it must be
	// feathered too, or the blades leave feather at the first step.
	if got.ServoDyn.PitNeut != [3]float64{90, 90, 90} {
		t.Errorf("parked: PitNeut %v, want feathered", got.ServoDyn.PitNeut)
	}
	if got.InflowWind.PropagationDir != -8 {
		t.Errorf("PropagationDir %g", got.InflowWind.PropagationDir)
	}
	ff, err := windfile.ReadBTSFile(filepath.Join(filepath.Dir(got.InflowWind.Meta.Path), filepath.FromSlash(got.InflowWind.FileName_BTS)))
	if err != nil {
		t.Fatal(err)
	}
	if ff.URef != 50 {
		t.Errorf("EWM50 box URef %g, want V_ref = 50", ff.URef)
	}
}

func TestPrepareRunErrors(t *testing.T) {
	d := load5MW(t)
	if _, err := PrepareRun(context.Background(), d, Run{ID: "x", TMax: 10}, t.TempDir()); err == nil {
		t.Error("run without wind spec accepted")
	}
	if _, err := PrepareRun(context.Background(), nil, Run{ID: "x"}, t.TempDir()); err == nil {
		t.Error("nil deck accepted")
	}
	tall := nrel5MW
	tall.HubHeight = 120
	runs, err := Expand(Request{Turbine: tall, DLCs: []string{"1.4"}, Class: "I", Category: "B"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PrepareRun(context.Background(), d, runs[0], t.TempDir()); err == nil || !strings.Contains(err.Error(), "hub height") {
		t.Errorf("hub height mismatch: err %v", err)
	}
}

// BenchmarkPrepareRunDefaultGrid prepares one standard DLC 1.2 run of the
// NREL 5 MW (25 × 25 grid, 0.05 s, 660 s box) — run with -benchtime 1x.
func BenchmarkPrepareRunDefaultGrid(b *testing.B) {
	p := testshared.Path(b, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst")
	d, err := deck.Load(p)
	if err != nil {
		b.Fatal(err)
	}
	runs, err := Expand(Request{Turbine: nrel5MW, DLCs: []string{"1.2"}, Class: "I", Category: "B",
		Overrides: map[string]Override{"1.2": {Speeds: []float64{12}, Seeds: intp(1), Yaw: []float64{0}}}})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := PrepareRun(context.Background(), d, runs[0], b.TempDir()); err != nil {
			b.Fatal(err)
		}
	}
}

// CheckRun refuses what PrepareRunWith would refuse, without generating
// any wind (it writes nothing and needs no directory).
func TestCheckRunRefusesWhatPrepareRefuses(t *testing.T) {
	d := load5MW(t)
	runs, err := Expand(Request{Turbine: nrel5MW, DLCs: []string{"1.2", "1.4"}, Class: "I", Category: "B", BatchSeed: 7, Grid: smallGrid,
		Overrides: map[string]Override{"1.2": {Speeds: []float64{12}, Seeds: intp(1), Yaw: []float64{0}, Duration: ptr(20)}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if err := CheckRun(d, r); err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
	}
	turb := runs[0]
	badDt := turb
	spec := *turb.Turbulence
	spec.Dt = -1
	badDt.Turbulence = &spec
	tall := turb
	tallSpec := *turb.Turbulence
	tallSpec.Grid.HubHeight += 30
	tall.Turbulence = &tallSpec
	badYaw := turb
	badYaw.Yaw = 200
	both := turb
	both.Event = runs[len(runs)-1].Event
	badEvent := runs[len(runs)-1]
	ev := *badEvent.Event
	ev.Site.VHub = -3
	badEvent.Event = &ev
	for _, c := range []struct {
		name string
		run  Run
		want string
	}{
		{"time step", badDt, "time step"},
		{"hub height", tall, "hub height"},
		{"yaw", badYaw, "yaw"},
		{"two winds", both, "exactly one"},
		{"event speed", badEvent, "wind"},
	} {
		err := CheckRun(d, c.run)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: CheckRun = %v, want an error about %q", c.name, err, c.want)
		}
		dir := t.TempDir()
		if _, perr := PrepareRunWith(context.Background(), d, c.run, dir, PrepareOptions{}); perr == nil || perr.Error() != err.Error() {
			t.Errorf("%s: PrepareRunWith = %v, CheckRun = %v: want the same refusal", c.name, perr, err)
		}
	}
}

// A start-up (DLC 3.1) of a deck without pitch control (the shared
// NREL 5 MW deck, PCMode 0) idles feathered and pitches to the deck's
// neutral pitch at the normal rate when the generator comes on.
func TestPrepareRunStartUpWithoutPitchControl(t *testing.T) {
	d := load5MW(t)
	if d.ServoDyn == nil || d.ServoDyn.PCMode != 0 {
		t.Skip("the reference deck has pitch control")
	}
	neutral := d.ServoDyn.PitNeut
	if !d.ServoDyn.Meta.Has("PitNeut") && !d.ServoDyn.Meta.Has("PitNeut(1)") {
		neutral = d.ElastoDyn.BlPitch
	}
	runs, err := Expand(Request{Turbine: nrel5MW, DLCs: []string{"3.1"}, Class: "I", Category: "B",
		Overrides: map[string]Override{"3.1": {Speeds: []float64{12}, Duration: ptr(20), Transient: ptr(0)}}})
	if err != nil {
		t.Fatal(err)
	}
	fst, err := PrepareRun(context.Background(), d, runs[0], t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got, err := deck.Load(fst)
	if err != nil {
		t.Fatal(err)
	}
	sd, ev := got.ServoDyn, runs[0].EventTime
	if got.ElastoDyn.BlPitch != [3]float64{90, 90, 90} || sd.PitNeut != [3]float64{90, 90, 90} || sd.TimGenOn != ev {
		t.Errorf("start-up: BlPitch %v PitNeut %v TimGenOn %g, want feathered until %g s", got.ElastoDyn.BlPitch, sd.PitNeut, sd.TimGenOn, ev)
	}
	for k := range 3 {
		if sd.TPitManS[k] != ev || sd.PitManRat[k] != NormalPitchRate || sd.BlPitchF[k] != neutral[k] {
			t.Errorf("blade %d: TPitManS %g PitManRat %g BlPitchF %g; want %g, %g, %g", k+1, sd.TPitManS[k], sd.PitManRat[k], sd.BlPitchF[k], ev, NormalPitchRate, neutral[k])
		}
	}
}

// Every load-case run records AeroDyn's rotor thrust RtFldFxh, which the
// thrust and Ct curves are computed from: added when the deck's AeroDyn
// OutList lacks it, not repeated when it has it.
func TestPrepareRunRecordsAeroThrust(t *testing.T) {
	runs, err := Expand(Request{Turbine: nrel5MW, DLCs: []string{"1.4"}, Class: "I", Category: "B", Grid: smallGrid,
		Overrides: map[string]Override{"1.4": {Speeds: []float64{11.4}, Duration: ptr(5), Transient: ptr(0)}}})
	if err != nil {
		t.Fatal(err)
	}
	count := func(l deck.OutList) int {
		n := 0
		for _, e := range l {
			if isAeroThrust(e) {
				n++
			}
		}
		return n
	}
	for _, strip := range []bool{false, true} {
		d := load5MW(t)
		if strip {
			var kept deck.OutList
			for _, e := range d.AeroDyn.OutList {
				if !strings.Contains(e, "RtFld") {
					kept = append(kept, e)
				}
			}
			d.AeroDyn.OutList = kept
		}
		before := len(d.AeroDyn.OutList)
		fst, err := PrepareRun(context.Background(), d, runs[0], t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		got, err := deck.Load(fst)
		if err != nil {
			t.Fatal(err)
		}
		if n := count(got.AeroDyn.OutList); n != 1 {
			t.Errorf("stripped %v: RtFldFxh listed %d times in %v", strip, n, got.AeroDyn.OutList)
		}
		if len(d.AeroDyn.OutList) != before {
			t.Errorf("input deck's OutList modified")
		}
	}
}
