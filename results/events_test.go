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
)

// alternatingRun is a run whose RootMyb1 alternates 1000 ± amp at 1 s
// steps for k periods: exactly k cycles of range 2·amp over 2k seconds
// (ASTM E1049 rainflow), so its damage sum is k·(2·amp)ᵐ and its DEL at
// f_eq = 1 Hz is 2·amp·0.5^(1/m).
func alternatingRun(jobID, name string, wind, amp float64, k int) outputs.BatchRun {
	n := 2*k + 1
	rec := &analysis.Record{Names: []string{"Wind1VelX", "RootMyb1"}, Units: []string{"m/s", "kN-m"},
		Time: make([]float64, n), Channels: [][]float64{make([]float64, n), make([]float64, n)}}
	for i := range n {
		rec.Time[i] = float64(i)
		rec.Channels[0][i] = wind
		rec.Channels[1][i] = 1000 + amp
		if i%2 == 1 {
			rec.Channels[1][i] = 1000 - amp
		}
	}
	return outputs.BatchRun{JobID: jobID, RunName: name, Status: turbinesim.JobSucceeded,
		Output: &outputs.JobOutput{JobID: jobID, File: "run.outb", Record: rec}}
}

// A batch of DLC 1.2 (8 and 12 m/s), 3.1 (start-up at 4 and 25 m/s) and
// 4.1 (shut-down at 25 m/s). With events_per_year=3.1:1000,4.1:500 the
// lifetime DEL is, by hand (production by time weight,
// events by count; f_eq = 1 Hz, a year of 8760 h):
//
//	DELᵐ = [p₈·6ᵐ + p₁₂·10ᵐ]·0.5 / (p₈ + p₁₂)
//	     + [1000·(2·100ᵐ + 5·40ᵐ)/2 + 500·1·160ᵐ] / 31 536 000
//
// p the Rayleigh (V_ave 8.5 m/s) probabilities of the bins [6, 10] and
// [10, 14]. Without the counts the events are left out with a note.
// wholeRuns analyses the whole of each run (t_start=0): alternatingRun
// records have no start-up transient to leave out.
var wholeRuns = results.BatchQuery{Window: analysis.After(0)}

func TestBatchDELsStartUpAndShutDownCountPerEvent(t *testing.T) {
	res := &memoryResults{runs: []outputs.BatchRun{
		alternatingRun("p8", "DLC1.2_V8.0_S1_Y+0", 8, 3, 40),
		alternatingRun("p12", "DLC1.2_V12.0_S1_Y+0", 12, 5, 40),
		alternatingRun("u4", "DLC3.1_V4.0_S1_Y+0", 4, 50, 2),
		alternatingRun("u25", "DLC3.1_V25.0_S1_Y+0", 25, 20, 5),
		alternatingRun("d25", "DLC4.1_V25.0_S1_Y+0", 25, 80, 1),
	}}
	ra := &results.ResultAnalysis{Results: res}
	vave := 8.5
	dist := results.WindDistributionSpec{Kind: "rayleigh", MeanSpeed: &vave}
	F := func(v float64) float64 { return 1 - math.Exp(-math.Pi/4*(v/vave)*(v/vave)) }
	p8, p12 := F(10)-F(6), F(14)-F(10)
	exps := []float64{3, 10}
	production := func(m float64) float64 {
		return (p8*math.Pow(6, m) + p12*math.Pow(10, m)) * 0.5 / (p8 + p12)
	}
	events := map[string]float64{"3.1": 1000, "4.1": 500}
	got, err := ra.BatchDELs(context.Background(), "org", "batch", wholeRuns, []string{"RootMyb1"}, exps, nil, dist, events)
	if err != nil {
		t.Fatal(err)
	}
	for k, m := range exps {
		l := got.Channels[0].Lifetime[k]
		ev := (1000*(2*math.Pow(100, m)+5*math.Pow(40, m))/2 + 500*math.Pow(160, m)) / (8760 * 3600)
		want := math.Pow(production(m)+ev, 1/m)
		if math.Abs(l.DEL-want) > 1e-9*want {
			t.Errorf("m=%g: lifetime DEL %.9g, want %.9g by hand", m, l.DEL, want)
		}
		if tw := math.Pow(production(m), 1/m); math.Abs(l.TimeWeightedDEL-tw) > 1e-9*tw {
			t.Errorf("m=%g: time-weighted DEL %.9g, want %.9g", m, l.TimeWeightedDEL, tw)
		}
		if len(l.Events) != 2 || l.Events[0].DLC != "3.1" || l.Events[1].DLC != "4.1" {
			t.Errorf("m=%g: events %+v, want DLC 3.1 then 4.1", m, l.Events)
		}
	}
	if strings.Join(got.DLCs, ",") != "1.2,3.1,4.1" || len(got.Notes) != 0 {
		t.Errorf("dlcs %v, notes %v; want 1.2,3.1,4.1 and no note", got.DLCs, got.Notes)
	}

	// Without counts: DLC 1.2 alone, and a note for each event DLC.
	plain, err := ra.BatchDELs(context.Background(), "org", "batch", wholeRuns, []string{"RootMyb1"}, exps, nil, dist, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, m := range exps {
		if want, l := math.Pow(production(m), 1/m), plain.Channels[0].Lifetime[k]; math.Abs(l.DEL-want) > 1e-9*want || len(l.Events) != 0 {
			t.Errorf("m=%g without events_per_year: DEL %.9g (events %v), want the DLC 1.2 DEL %.9g", m, l.DEL, l.Events, want)
		}
	}
	if len(plain.Notes) != 2 || !strings.Contains(plain.Notes[0], "3.1") || !strings.Contains(plain.Notes[1], "events_per_year=4.1") {
		t.Errorf("notes %q, want one per left-out event DLC", plain.Notes)
	}

	// dlc=3.1 without its count is not time-weighted.
	_, err = ra.BatchDELs(context.Background(), "org", "batch", results.BatchQuery{DLCs: []string{"3.1"}}, []string{"RootMyb1"}, exps, nil, dist, nil)
	if turbinesim.ErrorCode(err) != turbinesim.EINVALID || !strings.Contains(turbinesim.ErrorMessage(err), "events_per_year=3.1") {
		t.Errorf("dlc=3.1 without events_per_year: %v, want EINVALID asking for events_per_year", err)
	}
}

// A batch of start-up runs only used to return their time-weighted DEL;
// it now asks for the events per year, and with them gives the events'
// DEL alone: DELᵐ = 1000·(2·100ᵐ + 5·40ᵐ)/2 / 31 536 000.
func TestBatchDELsEventOnlyBatch(t *testing.T) {
	res := &memoryResults{runs: []outputs.BatchRun{
		alternatingRun("u4", "DLC3.1_V4.0_S1_Y+0", 4, 50, 2),
		alternatingRun("u25", "DLC3.1_V25.0_S1_Y+0", 25, 20, 5),
	}}
	ra := &results.ResultAnalysis{Results: res}
	_, err := ra.BatchDELs(context.Background(), "org", "batch", wholeRuns, []string{"RootMyb1"}, []float64{4}, nil, results.WindDistributionSpec{}, nil)
	if turbinesim.ErrorCode(err) != turbinesim.EINVALID || !strings.Contains(turbinesim.ErrorMessage(err), "events_per_year") {
		t.Fatalf("start-up batch without events_per_year: %v, want EINVALID asking for it", err)
	}
	got, err := ra.BatchDELs(context.Background(), "org", "batch", wholeRuns, []string{"RootMyb1"}, []float64{4}, nil, results.WindDistributionSpec{}, map[string]float64{"3.1": 1000})
	if err != nil {
		t.Fatal(err)
	}
	want := math.Pow(1000*(2*math.Pow(100, 4)+5*math.Pow(40, 4))/2/(8760*3600), 0.25)
	if l := got.Channels[0].Lifetime[0]; math.Abs(l.DEL-want) > 1e-9*want || l.TimeWeightedDEL != 0 {
		t.Errorf("lifetime DEL %.9g (time-weighted %g), want %.9g from the events alone", l.DEL, l.TimeWeightedDEL, want)
	}
	if _, err := ra.BatchDELs(context.Background(), "org", "batch", wholeRuns, []string{"RootMyb1"}, []float64{4}, nil, results.WindDistributionSpec{}, map[string]float64{"4.1": 1000}); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
		t.Errorf("events_per_year=4.1 on a batch without DLC 4.1: %v, want EINVALID", err)
	}
}

func TestParseEventsPerYear(t *testing.T) {
	got, err := results.ParseEventsPerYear([]string{"3.1:1000", " 4.1 : 250.5"})
	if err != nil || got["3.1"] != 1000 || got["4.1"] != 250.5 || len(got) != 2 {
		t.Fatalf("got %v, %v", got, err)
	}
	for _, bad := range [][]string{{"1.2:100"}, {"3.2:100"}, {"3.1:-1"}, {"3.1"}, {"3.1:x"}, {"3.1:1", "3.1:2"}, {"3.1:Inf"}} {
		if _, err := results.ParseEventsPerYear(bad); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
			t.Errorf("%q: %v, want EINVALID", bad, err)
		}
	}
}
