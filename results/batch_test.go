package results_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/outputs"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// memoryResults is a ResultService over in-memory records: one batch,
// every run succeeded.
type memoryResults struct {
	runs []outputs.BatchRun
}

func (m *memoryResults) JobOutput(context.Context, string, string) (*outputs.JobOutput, error) {
	return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "not used")
}

func (m *memoryResults) OpenOutputFile(context.Context, string, string) (string, string, func(), error) {
	return "", "", nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "not used")
}

func (m *memoryResults) BatchRuns(context.Context, string, string) ([]outputs.BatchRun, error) {
	return m.runs, nil
}

// turbulentRun is a 600 s, 20 Hz record of a 0.25 Hz sine load of
// amplitude amp (kN-m) and a constant hub wind speed meanWind (m/s): what a
// turbulent seed looks like to the batch analysis, whose measured mean
// speed differs from the nominal speed of its inflow.
func turbulentRun(jobID, name string, meanWind, amp float64) outputs.BatchRun {
	return syntheticRun(jobID, name, 12001, func(t float64) (float64, float64, float64) {
		return meanWind, 100 * meanWind, 1000 + amp*math.Sin(2*math.Pi*0.25*t)
	})
}

// syntheticRun is a succeeded run of rows samples at 20 Hz recording
// Wind1VelX (m/s), GenPwr (kW) and RootMyb1 (kN-m) as at gives them at
// each time.
func syntheticRun(jobID, name string, rows int, at func(t float64) (wind, power, root float64)) outputs.BatchRun {
	rec := &analysis.Record{Names: []string{"Wind1VelX", "GenPwr", "RootMyb1"}, Units: []string{"m/s", "kW", "kN-m"},
		Time: make([]float64, rows), Channels: [][]float64{make([]float64, rows), make([]float64, rows), make([]float64, rows)}}
	for i := range rows {
		t := 0.05 * float64(i)
		rec.Time[i] = t
		rec.Channels[0][i], rec.Channels[1][i], rec.Channels[2][i] = at(t)
	}
	return outputs.BatchRun{JobID: jobID, RunName: name, Status: turbinesim.JobSucceeded,
		Output: &outputs.JobOutput{JobID: jobID, File: "run.outb", Record: rec}}
}

// A DLC 1.2 batch: two wind speeds, three seeds each, the seeds' measured
// mean speeds scattered around the nominal one as turbulent boxes give.
// The lifetime weighting takes each wind-speed bin's
// probability and splits it equally across its seeds, so each seed of
// 8 m/s weighs (F(10) − F(6))/3 and each of 12 m/s (F(14) − F(10))/3
// (normalised over the batch). Binning the measured means instead made
// six bins of unequal, seed-dependent widths.
func TestBatchDELSeedsShareTheirWindSpeedBin(t *testing.T) {
	type seed struct {
		nominal, measured, amp float64
		seed                   int
	}
	seeds := []seed{
		{8, 7.62, 400, 1}, {8, 8.05, 500, 2}, {8, 8.41, 450, 3},
		{12, 11.70, 900, 1}, {12, 11.98, 1000, 2}, {12, 12.55, 800, 3},
	}
	res := &memoryResults{}
	for i, s := range seeds {
		name := fmt.Sprintf("DLC1.2_V%.1f_S%d_Y+0", s.nominal, s.seed)
		res.runs = append(res.runs, turbulentRun(fmt.Sprintf("job-%d", i), name, s.measured, s.amp))
	}
	ra := &results.ResultAnalysis{Results: res}
	vave := 8.5
	got, err := ra.BatchDELs(context.Background(), "org", "batch", results.BatchQuery{}, []string{"RootMyb1"},
		[]float64{4}, nil, results.WindDistributionSpec{Kind: "rayleigh", MeanSpeed: &vave}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cf := got.Channels[0]
	// Rayleigh CDF, IEC 61400-1 eq. (9) form.
	F := func(v float64) float64 { return 1 - math.Exp(-math.Pi/4*(v/vave)*(v/vave)) }
	p8, p12 := F(10)-F(6), F(14)-F(10)
	want := []float64{p8 / 3, p8 / 3, p8 / 3, p12 / 3, p12 / 3, p12 / 3}
	sum := 0.0
	for _, w := range want {
		sum += w
	}
	damage := 0.0
	for j, r := range cf.Runs {
		want[j] /= sum
		if w := cf.Lifetime[0].Weights.Weights[j]; math.Abs(w-want[j]) > 1e-12 {
			t.Errorf("run %s (measured %g m/s): weight %.6f, want %.6f", r.ID, seeds[j].measured, w, want[j])
		}
		if r.WindSpeed != seeds[j].nominal {
			t.Errorf("run %s: bin speed %g, want the nominal %g", r.ID, r.WindSpeed, seeds[j].nominal)
		}
		damage += want[j] * math.Pow(r.DELs[0].Value, 4)
	}
	if life := cf.Lifetime[0].DEL; math.Abs(life-math.Pow(damage, 0.25)) > 1e-9*life {
		t.Errorf("lifetime DEL %.6f, want %.6f", life, math.Pow(damage, 0.25))
	}
	if n := len(cf.Lifetime[0].Weights.Bins); n != 2 {
		t.Errorf("%d wind-speed bins, want 2 (8 and 12 m/s)", n)
	}
}

// Grid binning of a turbulent DLC batch: one bin per wind speed of the
// batch's grid holding all its seeds, with V̄ᵢ and P̄ᵢ the plain means over
// those seeds (IEC 61400-12-1 method of bins). The grid is the runs' nominal
// speeds; a seed whose measured mean strays past the mid-point to the next
// speed (here 9.9 m/s in a run of 8 m/s: a 600 s hub-point mean has σ ≈ 0.7
// m/s at class A turbulence) still belongs to its own speed. Before, the grid
// was the distinct measured means: one bin per seed.
func TestBatchCurvesGridIsTheNominalSpeeds(t *testing.T) {
	measured := map[float64][]float64{8: {7.62, 8.05, 9.90}, 12: {11.70, 11.98, 12.55}}
	res := &memoryResults{}
	for _, v := range []float64{8, 12} {
		for s, m := range measured[v] {
			name := fmt.Sprintf("DLC1.2_V%.1f_S%d_Y+0", v, s+1)
			res.runs = append(res.runs, turbulentRun(name, name, m, 100))
		}
	}
	ra := &results.ResultAnalysis{Results: res}
	got, err := ra.BatchCurves(context.Background(), "org", "batch", results.CurveQuery{Binning: "grid"}, false)
	if err != nil {
		t.Fatal(err)
	}
	bins := got.Curve.Bins
	if len(bins) != 2 {
		t.Fatalf("%d bins, want 2 (8 and 12 m/s): %+v", len(bins), bins)
	}
	for i, v := range []float64{8, 12} {
		mean := 0.0
		for _, m := range measured[v] {
			mean += m / 3
		}
		b := bins[i]
		if b.Center != v || b.N != 3 || math.Abs(b.WindSpeed-mean) > 1e-9*mean || math.Abs(b.PowerKW-100*mean) > 1e-9*100*mean {
			t.Errorf("bin %d: centre %g, n %d, V̄ %g, P̄ %g; want %g, 3, %g, %g", i, b.Center, b.N, b.WindSpeed, b.PowerKW, v, mean, 100*mean)
		}
	}
}

// A DLC batch holds fatigue and ultimate cases at the same wind speeds. Its
// lifetime DEL is the fatigue case's, DLC 1.2 (the weights split each bin
// over its seeds and yaw cases, and the extreme turbulence runs of DLC 1.3
// are neither); dlc= selects another case. Before, the DLC 1.3 runs shared
// the bins' probability with the DLC 1.2 seeds and raised the lifetime DEL.
func TestBatchDELOfAMultiDLCBatchIsItsFatigueCase(t *testing.T) {
	res := &memoryResults{}
	for _, c := range []struct {
		dlc string
		amp float64
	}{{"1.2", 500}, {"1.3", 1500}} {
		for _, v := range []float64{8, 12} {
			for s := 1; s <= 2; s++ {
				name := fmt.Sprintf("DLC%s_V%.1f_S%d_Y+0", c.dlc, v, s)
				res.runs = append(res.runs, turbulentRun(name, name, v, c.amp*v/8*(1+0.1*float64(s))))
			}
		}
	}
	ra := &results.ResultAnalysis{Results: res}
	vave := 10.0
	dist := results.WindDistributionSpec{Kind: "rayleigh", MeanSpeed: &vave}
	lifetime := func(q results.BatchQuery) (float64, []string) {
		t.Helper()
		got, err := ra.BatchDELs(context.Background(), "org", "batch", q, []string{"RootMyb1"}, []float64{4}, nil, dist, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range got.Channels[0].Runs {
			ids = append(ids, r.ID)
		}
		return got.Channels[0].Lifetime[0].DEL, ids
	}
	// The independent answer: DLC 1.2's four runs alone, Rayleigh bins
	// [6, 10) and [10, 14) each split over two seeds.
	F := func(v float64) float64 { return 1 - math.Exp(-math.Pi/4*(v/vave)*(v/vave)) }
	p := map[float64]float64{8: (F(10) - F(6)) / 2, 12: (F(14) - F(10)) / 2}
	damage, sum := 0.0, 0.0
	for _, v := range []float64{8, 12} {
		for s := 1; s <= 2; s++ {
			// A sine of amplitude a over T = 600 s at 0.25 Hz: 150 cycles
			// of range 2a, DEL = 2a·(150/600)^(1/4).
			a := 500 * v / 8 * (1 + 0.1*float64(s))
			damage += p[v] * math.Pow(2*a, 4) * 150 / 600
			sum += p[v]
		}
	}
	want := math.Pow(damage/sum, 0.25)
	got, ids := lifetime(results.BatchQuery{})
	if len(ids) != 4 || math.Abs(got-want) > 1e-3*want {
		t.Errorf("default: lifetime DEL %.2f over %d runs %v; want %.2f over the 4 DLC 1.2 runs", got, len(ids), ids, want)
	}
	explicit, ids := lifetime(results.BatchQuery{DLCs: []string{"1.2"}})
	if len(ids) != 4 || explicit != got {
		t.Errorf("dlc=1.2: %.2f over %v", explicit, ids)
	}
	ultimate, ids := lifetime(results.BatchQuery{DLCs: []string{"1.3"}})
	if len(ids) != 4 || math.Abs(ultimate-3*want) > 1e-3*3*want {
		t.Errorf("dlc=1.3: %.2f over %v; want %.2f", ultimate, ids, 3*want)
	}
	// The curves of the same batch: normal production (1.2) by default.
	cv, err := ra.BatchCurves(context.Background(), "org", "batch", results.CurveQuery{Binning: "grid"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if cv.Runs != 4 || len(cv.DLCs) != 1 || cv.DLCs[0] != "1.2" || len(cv.Curve.Bins) != 2 || cv.Curve.Bins[0].N != 2 {
		t.Errorf("curves: %d runs of DLC %v, bins %+v; want the 4 DLC 1.2 runs in 2 bins", cv.Runs, cv.DLCs, cv.Curve.Bins)
	}
	// Without a DLC 1.2 a batch of several DLCs needs dlc= for its
	// lifetime DEL; a DLC without runs is 422.
	res.runs = append(res.runs[4:], turbulentRun("parked", "DLC6.1_V50.0_S1_Y+0", 50, 100))
	for _, q := range []results.BatchQuery{{}, {DLCs: []string{"6.4"}}} {
		if _, err := ra.BatchDELs(context.Background(), "org", "batch", q, []string{"RootMyb1"}, []float64{4}, nil, dist, nil); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
			t.Errorf("%+v: error %v, want EINVALID", q, err)
		}
	}
}

// gamma_f=dlc on DLC 1.1 runs: the extremes are simulated maxima, so the
// normal design situation's 1.35 applies, not the 1.25 of loads
// extrapolated to 50 years; DLC 1.3 keeps its 1.35.
func TestBatchExtremesDLC11GammaIsNormal(t *testing.T) {
	res := &memoryResults{runs: []outputs.BatchRun{
		turbulentRun("a", "DLC1.1_V12.0_S1_Y+0", 12, 1000),
		turbulentRun("b", "DLC1.3_V12.0_S1_Y+0", 12, 900),
	}}
	ra := &results.ResultAnalysis{Results: res}
	got, err := ra.BatchExtremes(context.Background(), "org", "batch", results.BatchQuery{},
		analysis.ExtremeOptions{Channels: []string{"RootMyb1"}}, "dlc", results.ExtrapolationSpec{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range got.Extremes {
		if e.SafetyFactor != 1.35 || math.Abs(e.Design-1.35*e.Characteristic) > 1e-9*math.Abs(e.Design) {
			t.Errorf("%s of DLC %s: γ_f %g, design %g for %g; want 1.35", e.Kind, e.DLC, e.SafetyFactor, e.Design, e.Characteristic)
		}
	}
	if g := results.SimulatedExtremeGamma("2.2b", 1.1); g != 1.1 {
		t.Errorf("DLC 2.2b: γ_f %g, want its table's 1.1", g)
	}
}

// The runs of a DLC batch start with a start-up transient that the analysis
// discards (the DLC table's Transient, 60 s for
// turbulent cases), as the report does. Without t_start the batch
// endpoints now start each run after its transient; before, they used the
// whole record, so a start-up spike became the extreme load and entered
// the DELs.
func TestBatchAnalysisSkipsTheDLCTransient(t *testing.T) {
	req := reportRequest("1.2")
	req.SpeedStep, req.SeedsPerBin = 10, 1 // 4, 14, 24 m/s, one seed, three yaws
	batches, resultStore, runs := reportBatch(t, req, func(dlc.Run) float64 { return 0 }, func(v float64) float64 { return 100 * v })
	if runs[0].Transient != 60 {
		t.Fatalf("DLC 1.2 transient %g s, want 60", runs[0].Transient)
	}
	// A start-up spike of 5000 kN-m at t = 5 s in the first run.
	spikeAt := 100
	resultStore.runs[0].Output.Record.Channels[2][spikeAt] = 5000
	ra := &results.ResultAnalysis{Results: resultStore, Batches: batches}
	ctx := context.Background()
	ex, err := ra.BatchExtremes(ctx, "org", "batch", results.BatchQuery{}, analysis.ExtremeOptions{Channels: []string{"RootMyb1"}}, "", results.ExtrapolationSpec{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ex.Extremes {
		if e.Time < 60 {
			t.Errorf("%s at t = %g s (%g kN-m): inside the 60 s transient", e.Kind, e.Time, e.Characteristic)
		}
	}
	// An explicit t_start still rules: from 0 s the spike is the maximum.
	zero := 0.0
	ex, err = ra.BatchExtremes(ctx, "org", "batch", results.BatchQuery{Window: analysis.NewWindow(&zero, nil)}, analysis.ExtremeOptions{Channels: []string{"RootMyb1"}}, "", results.ExtrapolationSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Extremes[0].Characteristic != 5000 {
		t.Errorf("t_start=0: max %+v, want the 5000 kN-m spike", ex.Extremes[0])
	}
	// DELs: each run counted over [60, 600] s, T = 540 s.
	dels, err := ra.BatchDELs(ctx, "org", "batch", results.BatchQuery{}, []string{"RootMyb1"}, []float64{4}, nil, results.WindDistributionSpec{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range dels.Channels[0].Runs {
		if r.Duration != 540 {
			t.Errorf("run %s: DEL over %g s, want 540 (60 to 600 s)", r.ID, r.Duration)
		}
	}
	// Curves: the run means over [60, 600] s, not diluted by the spike.
	cv, err := ra.BatchCurves(ctx, "org", "batch", results.CurveQuery{Binning: "grid"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if cv.Curve.Bins[0].N != 3 || cv.Curve.Bins[0].PowerKW != 400 {
		t.Errorf("curve bin %+v", cv.Curve.Bins[0])
	}
}
