package results_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/outputs"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// Every batch analysis takes the same default wind distribution: the IEC
// Rayleigh distribution of the DLC batch's own class (class III: V_ave =
// 0.2 × 37.5 = 7.5 m/s), and says so. Before, /del, /markov,
// /load-duration and /aep used class I (V_ave 10 m/s) whatever the batch's
// class, while the extrapolation and the report used the batch's.
func TestBatchAnalysesDefaultToTheBatchClass(t *testing.T) {
	req := reportRequest("1.2")
	req.Class = "III"
	req.SpeedStep, req.SeedsPerBin = 10, 1
	batches, resultStore, runs := reportBatch(t, req, func(dlc.Run) float64 { return 0 }, func(v float64) float64 { return 100 * v })
	for i, r := range runs { // DELs growing with the speed: the weights matter
		resultStore.runs[i] = turbulentRun(r.ID, r.ID, r.WindSpeed, 10*r.WindSpeed)
	}
	ra := &results.ResultAnalysis{Results: resultStore, Batches: batches}
	ctx := context.Background()
	check := func(what string, got results.DistributionInfo) {
		t.Helper()
		if got.Kind != "rayleigh" || got.MeanSpeed != 7.5 || got.Class != "III" || got.Source != results.DistributionFromBatchClass {
			t.Errorf("%s: distribution %+v, want the batch's class III Rayleigh (7.5 m/s) from batch_class", what, got)
		}
	}
	ch := []string{"RootMyb1"}
	dels, err := ra.BatchDELs(ctx, "org", "batch", results.BatchQuery{}, ch, []float64{4}, nil, results.WindDistributionSpec{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	check("del", dels.Distribution)
	explicit, err := ra.BatchDELs(ctx, "org", "batch", results.BatchQuery{}, ch, []float64{4}, nil, results.WindDistributionSpec{Class: "III"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	classI, err := ra.BatchDELs(ctx, "org", "batch", results.BatchQuery{}, ch, []float64{4}, nil, results.WindDistributionSpec{Class: "I"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dels.Channels[0].Lifetime[0].DEL, explicit.Channels[0].Lifetime[0].DEL; got != want || got == classI.Channels[0].Lifetime[0].DEL {
		t.Errorf("default lifetime DEL %.9g, want class III's %.9g (class I's is %.9g)", got, want, classI.Channels[0].Lifetime[0].DEL)
	}
	if explicit.Distribution.Source != results.DistributionFromQuery {
		t.Errorf("class=III: source %q, want query", explicit.Distribution.Source)
	}
	mk, err := ra.BatchMarkov(ctx, "org", "batch", results.SpectrumQuery{Channels: ch})
	if err != nil {
		t.Fatal(err)
	}
	check("markov", mk.Distribution)
	ld, err := ra.BatchLoadDuration(ctx, "org", "batch", results.SpectrumQuery{Channels: ch})
	if err != nil {
		t.Fatal(err)
	}
	check("load-duration", ld.Distribution)
	aep, err := ra.BatchAEP(ctx, "org", "batch", results.CurveQuery{Binning: "grid"}, results.WindDistributionSpec{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	check("aep", aep.Distribution)
	rep, err := (&results.CertificationReports{Batches: batches, Results: resultStore}).Build(ctx, "org", "batch", results.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Assumptions.MeanWind != 7.5 || rep.Assumptions.Class != "III" {
		t.Errorf("report assumptions class %q, V_ave %g; want III, 7.5", rep.Assumptions.Class, rep.Assumptions.MeanWind)
	}

	// A batch without a class of its own (no batches row): class I, said so.
	plain := &results.ResultAnalysis{Results: resultStore}
	dels, err = plain.BatchDELs(ctx, "org", "batch", results.BatchQuery{}, ch, []float64{4}, nil, results.WindDistributionSpec{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := dels.Distribution; d.MeanSpeed != 10 || d.Class != "I" || d.Source != results.DistributionFromDefaultClass {
		t.Errorf("batch without a class: distribution %+v, want class I (10 m/s) from default_class", d)
	}
}

// The batch Markov and load-duration spectra select runs as /del does.
// A batch of DLC 1.2 (8, 12 m/s), 3.1 (4, 25 m/s) and 4.1 (25 m/s), the
// fixture of TestBatchDELsStartUpAndShutDownCountPerEvent: each production
// run has 40 cycles of its range in 80 s, so its cycles per lifetime are
// L/80·40 whatever its weight (Σ w = 1): L/2 in all. Start-ups have 2 and
// 5 cycles (one seed at each of two speeds: 3.5 per event), the shut-down
// 1. By hand, with 3.1:1000 and 4.1:500 per year over 20 years the matrix
// holds L/2 + 20·(1000·3.5 + 500·1) cycles, and Σ n·Sᵐ over it is
// L·DEL_lifeᵐ of BatchDELs with the same counts. The LDD hours are the
// lifetime plus the events' own time: 20·(1000·(4+10)/2 + 500·2) s.
// Without counts the events are left out with /del's note, and a batch
// of start-ups only is 422; before, it got time-weighted spectra.
func TestBatchSpectraSelectRunsAsTheDEL(t *testing.T) {
	runs := []outputs.BatchRun{
		alternatingRun("p8", "DLC1.2_V8.0_S1_Y+0", 8, 3, 40),
		alternatingRun("p12", "DLC1.2_V12.0_S1_Y+0", 12, 5, 40),
		alternatingRun("u4", "DLC3.1_V4.0_S1_Y+0", 4, 50, 2),
		alternatingRun("u25", "DLC3.1_V25.0_S1_Y+0", 25, 20, 5),
		alternatingRun("d25", "DLC4.1_V25.0_S1_Y+0", 25, 80, 1),
	}
	ctx := context.Background()
	ra := &results.ResultAnalysis{Results: &memoryResults{runs: runs}}
	ch := []string{"RootMyb1"}
	const years = 20.0
	L := years * analysis.SecondsPerYear

	mk, err := ra.BatchMarkov(ctx, "org", "batch", results.SpectrumQuery{BatchQuery: wholeRuns, Channels: ch})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(mk.DLCs, ",") != "1.2" || len(mk.Notes) != 2 || !strings.Contains(mk.Notes[0], "DLC 3.1") || len(mk.Events) != 0 {
		t.Errorf("without counts: dlcs %v, notes %v, events %v; want 1.2 and /del's notes on 3.1 and 4.1", mk.DLCs, mk.Notes, mk.Events)
	}
	if got := mk.Channels[0].TotalCycles; math.Abs(got-L/2) > 1e-9*L {
		t.Errorf("without counts: %g cycles, want L/2 = %g", got, L/2)
	}

	events := map[string]float64{"3.1": 1000, "4.1": 500}
	q := results.SpectrumQuery{BatchQuery: wholeRuns, Channels: ch, EventsPerYear: events, RangeBins: 1000, MeanBins: 1}
	mk, err = ra.BatchMarkov(ctx, "org", "batch", q)
	if err != nil {
		t.Fatal(err)
	}
	want := L/2 + years*(1000*3.5+500*1)
	if got := mk.Channels[0].TotalCycles; math.Abs(got-want) > 1e-9*want {
		t.Errorf("with counts: %.9g cycles, want %.9g by hand", got, want)
	}
	if len(mk.Events) != 2 || mk.Events[0].DLC != "3.1" || mk.Events[0].EventsPerLifetime != 20000 || mk.Events[0].Runs[0].Weight != 0.5 {
		t.Errorf("events %+v, want 3.1 (20000 events, each run half an event) then 4.1", mk.Events)
	}
	// Σ n·Sᵐ over the matrix: every range is 2·amp exactly, at the centre
	// of a 1000-bin range grid up to half a bin (0.08 kN-m of 160).
	const m = 4.0
	dels, err := ra.BatchDELs(ctx, "org", "batch", wholeRuns, ch, []float64{m}, nil, results.WindDistributionSpec{}, events)
	if err != nil {
		t.Fatal(err)
	}
	cm := mk.Channels[0].Markov
	damage := 0.0
	for i, row := range cm.Counts {
		s := (cm.RangeEdges[i] + cm.RangeEdges[i+1]) / 2
		for _, n := range row {
			damage += n * math.Pow(s, m)
		}
	}
	lifeDamage := L * math.Pow(dels.Channels[0].Lifetime[0].DEL, m)
	if math.Abs(damage-lifeDamage) > 0.01*lifeDamage {
		t.Errorf("Σ n·S^m of the matrix %.6g, want L·DEL_life^m %.6g of /del (1 %%: bin centres)", damage, lifeDamage)
	}

	ld, err := ra.BatchLoadDuration(ctx, "org", "batch", results.SpectrumQuery{BatchQuery: wholeRuns, Channels: ch, EventsPerYear: events})
	if err != nil {
		t.Fatal(err)
	}
	hours := (L + years*(1000*(4.0+10)/2+500*2)) / 3600
	if got := ld.Channels[0].TotalDuration; math.Abs(got-hours) > 1e-9*hours {
		t.Errorf("LDD %.9g h, want the lifetime plus the events' time, %.9g h", got, hours)
	}

	// Start-ups alone: 422 without a count, counted per event with one.
	startUps := &results.ResultAnalysis{Results: &memoryResults{runs: runs[2:4]}}
	_, err = startUps.BatchMarkov(ctx, "org", "batch", results.SpectrumQuery{BatchQuery: wholeRuns, Channels: ch})
	if turbinesim.ErrorCode(err) != turbinesim.EINVALID || !strings.Contains(turbinesim.ErrorMessage(err), "events_per_year") {
		t.Errorf("start-ups alone without a count: %v, want 422 asking for events_per_year", err)
	}
	_, err = startUps.BatchLoadDuration(ctx, "org", "batch", results.SpectrumQuery{BatchQuery: wholeRuns, Channels: ch})
	if turbinesim.ErrorCode(err) != turbinesim.EINVALID {
		t.Errorf("LDD of start-ups alone without a count: %v, want 422", err)
	}
	mk, err = startUps.BatchMarkov(ctx, "org", "batch", results.SpectrumQuery{BatchQuery: wholeRuns, Channels: ch, EventsPerYear: map[string]float64{"3.1": 1000}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mk.Channels[0].TotalCycles, years*1000*3.5; math.Abs(got-want) > 1e-9*want || len(mk.Runs) != 0 {
		t.Errorf("start-ups counted: %g cycles, %d time-weighted runs; want %g and none", got, len(mk.Runs), want)
	}
}

// The report's lifetime spectra count the start-up events with the
// events_per_year of its DELs: the Markov totals grow by 1000 × 20 years ×
// the mean cycles of one event (the speeds equally, the seeds of a speed
// equally), rainflow-counted here from each DLC 3.1 run's window, and the
// CSV links carry the count. Before, the report's spectra left them out
// while its DELs counted them.
func TestReportSpectraCountTheEvents(t *testing.T) {
	batches, resultStore, runs := reportBatch(t, reportRequest("1.2", "3.1"), func(dlc.Run) float64 { return 0 }, func(v float64) float64 { return 100 * v })
	reports := &results.CertificationReports{Batches: batches, Results: resultStore}
	ctx := context.Background()
	without, err := reports.Build(ctx, "org", "batch", results.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	with, err := reports.Build(ctx, "org", "batch", results.ReportOptions{EventsPerYear: map[string]float64{"3.1": 1000}})
	if err != nil {
		t.Fatal(err)
	}
	if without.Spectra == nil || with.Spectra == nil || len(with.Spectra.Markov) == 0 {
		t.Fatalf("no spectra: problems %v", with.Problems)
	}
	perSpeed := map[float64][]float64{}
	for i, r := range runs {
		if r.DLC != "3.1" {
			continue
		}
		rec := resultStore.runs[i].Output.Record
		lo, hi, err := analysis.After(r.Transient).Range(rec.Time)
		if err != nil {
			t.Fatal(err)
		}
		y, _ := rec.Channel("RootMyb1")
		cycles, err := analysis.Rainflow(y[lo:hi])
		if err != nil {
			t.Fatal(err)
		}
		n := 0.0
		for _, c := range cycles {
			n += c.Count
		}
		perSpeed[r.WindSpeed] = append(perSpeed[r.WindSpeed], n)
	}
	if len(perSpeed) == 0 {
		t.Fatal("the batch has no DLC 3.1 run")
	}
	perEvent := 0.0
	for _, ns := range perSpeed {
		s := 0.0
		for _, n := range ns {
			s += n
		}
		perEvent += s / float64(len(ns)) / float64(len(perSpeed))
	}
	got := with.Spectra.Markov[0].TotalCycles - without.Spectra.Markov[0].TotalCycles
	if want := 1000 * results.DefaultLifetimeYears * perEvent; math.Abs(got-want) > 1e-9*want {
		t.Errorf("%s: the events add %.9g cycles, want 1000 × %g years × %.6g per event = %.9g", with.Spectra.Markov[0].Channel, got, float64(results.DefaultLifetimeYears), perEvent, want)
	}
	if len(with.Spectra.Events) != 1 || !strings.Contains(with.Spectra.MarkovQuery, "events_per_year=3.1:1000") || strings.Contains(without.Spectra.MarkovQuery, "events_per_year") {
		t.Errorf("spectra events %v, queries %q / %q", with.Spectra.Events, with.Spectra.MarkovQuery, without.Spectra.MarkovQuery)
	}
}
