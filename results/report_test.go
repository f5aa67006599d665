package results_test

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/outputs"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/dlc"
	"github.com/turbinesim/turbinesim/views"
)

// memoryBatches is the BatchService of one finished DLC batch whose jobs
// are the runs, in order; only the report's two reads are implemented.
type memoryBatches struct {
	turbinesim.BatchService
	batch *turbinesim.Batch
	jobs  []turbinesim.BatchRunJob
}

func (m *memoryBatches) FindBatch(context.Context, string, string) (*turbinesim.Batch, error) {
	return m.batch, nil
}

func (m *memoryBatches) BatchJobs(context.Context, string, string) ([]turbinesim.BatchRunJob, error) {
	return m.jobs, nil
}

// reportBatch expands req and gives every run a record whose measured
// mean wind is its nominal speed plus offset(run) and whose power is
// power(measured mean).
func reportBatch(t *testing.T, req dlc.Request, offset func(dlc.Run) float64, power func(float64) float64) (*memoryBatches, *memoryResults, []dlc.Run) {
	t.Helper()
	runs, err := dlc.Expand(req)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := json.Marshal(batches.StoredDLCRequest{Request: req, Runs: runs})
	if err != nil {
		t.Fatal(err)
	}
	batches := &memoryBatches{batch: &turbinesim.Batch{ID: "batch", Kind: turbinesim.BatchDLC, Request: stored,
		Progress: turbinesim.BatchProgress{Total: len(runs), Succeeded: len(runs), Done: len(runs)}}}
	resultStore := &memoryResults{}
	for _, r := range runs {
		v := r.WindSpeed + offset(r)
		br := turbulentRun(r.ID, r.ID, v, 100)
		br.Output.Record.Channels[1] = constant(len(br.Output.Record.Time), power(v))
		resultStore.runs = append(resultStore.runs, br)
		batches.jobs = append(batches.jobs, turbinesim.BatchRunJob{Run: r.ID, Job: &turbinesim.Job{ID: r.ID, Status: turbinesim.JobSucceeded}})
	}
	return batches, resultStore, runs
}

func constant(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// 5 MW-like key numbers for the report tests.
func reportRequest(dlcs ...string) dlc.Request {
	return dlc.Request{Turbine: dlc.Turbine{Name: "T", HubHeight: 90, RotorDiameter: 126, VIn: 4, VRated: 11.4, VOut: 24, RatedRotorSpeed: 12.1},
		DLCs: dlcs, Class: "I", Category: "B", SpeedStep: 4, SeedsPerBin: 2}
}

// The report's power curve bins the power-production runs on the batch's
// wind-speed grid: one bin per DLC speed with all of
// its seeds and yaw cases, even when a seed's measured mean wind lies
// nearer the next speed. Before, every distinct measured mean was a bin.
func TestReportPowerCurveBinsOnTheDLCGrid(t *testing.T) {
	// Seeds 1 and 2 measure 0.9 m/s low and 1.2 m/s high; yaw cases differ
	// by a further 0.1 m/s, so no two runs share a measured mean.
	offset := func(r dlc.Run) float64 { return []float64{0, -0.9, 1.2}[r.SeedIndex] + 0.01*r.Yaw }
	power := func(v float64) float64 { return math.Min(5000, 3*v*v*v) }
	batches, resultStore, runs := reportBatch(t, reportRequest("1.2"), offset, power)
	rep, err := (&results.CertificationReports{Batches: batches, Results: resultStore}).Build(context.Background(), "org", "batch", results.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Curve == nil {
		t.Fatalf("no power curve; problems %v", rep.Problems)
	}
	bySpeed := map[float64][]float64{}
	var speeds []float64
	for _, r := range runs {
		if _, seen := bySpeed[r.WindSpeed]; !seen {
			speeds = append(speeds, r.WindSpeed)
		}
		bySpeed[r.WindSpeed] = append(bySpeed[r.WindSpeed], r.WindSpeed+offset(r))
	}
	if len(rep.Curve.Bins) != len(speeds) {
		t.Fatalf("%d bins, want %d (the DLC speeds %v)", len(rep.Curve.Bins), len(speeds), speeds)
	}
	for i, v := range speeds {
		b := rep.Curve.Bins[i]
		var vm, pm float64
		for _, m := range bySpeed[v] {
			vm += m / float64(len(bySpeed[v]))
			pm += power(m) / float64(len(bySpeed[v]))
		}
		if b.Center != v || b.N != len(bySpeed[v]) || math.Abs(b.WindSpeed-vm) > 1e-9*vm || math.Abs(b.PowerKW-pm) > 1e-9*pm {
			t.Errorf("bin %d: centre %g, n %d, V̄ %g, P̄ %g; want %g, %d, %g, %g", i, b.Center, b.N, b.WindSpeed, b.PowerKW, v, len(bySpeed[v]), vm, pm)
		}
	}
	// The AEP then sums the same bins (IEC 61400-12-1, class I Rayleigh).
	F := func(v float64) float64 { return 1 - math.Exp(-math.Pi/4*(v/10)*(v/10)) }
	want, prevV, prevP := 0.0, rep.Curve.Bins[0].WindSpeed-0.5, 0.0
	for _, b := range rep.Curve.Bins {
		want += (F(b.WindSpeed) - F(prevV)) * (prevP + b.PowerKW) / 2
		prevV, prevP = b.WindSpeed, b.PowerKW
	}
	want *= 8760 / 1000.0
	if rep.AEP == nil || math.Abs(rep.AEP.MWhPerYear-want) > 1e-9*want {
		t.Errorf("AEP %+v, want %g MWh", rep.AEP, want)
	}
}

// The power curve and AEP come from normal power production (NTM, DLC 1.1
// and 1.2), not
// from the extreme events that are also power production: a 100 s
// extreme coherent gust with direction change (DLC 1.4, at V_rated ± 2)
// says nothing about the power delivered at its mean speed. Before, every
// power-production run was binned, adding the gust runs' bins.
func TestReportPowerCurveIsNormalProductionOnly(t *testing.T) {
	offset := func(dlc.Run) float64 { return 0 }
	// The DLC 1.2 runs deliver power(V); the gust runs half of it, so any
	// of them in a bin shows.
	power := func(v float64) float64 { return math.Min(5000, 3*v*v*v) }
	batches, resultStore, runs := reportBatch(t, reportRequest("1.2", "1.4"), offset, power)
	want := map[float64]int{}
	for i, r := range runs {
		if r.DLC == "1.2" {
			want[r.WindSpeed]++
			continue
		}
		rec := resultStore.runs[i].Output.Record
		rec.Channels[1] = constant(len(rec.Time), power(r.WindSpeed)/2)
	}
	rep, err := (&results.CertificationReports{Batches: batches, Results: resultStore}).Build(context.Background(), "org", "batch", results.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Curve == nil {
		t.Fatalf("no power curve; problems %v", rep.Problems)
	}
	if len(rep.Curve.Bins) != len(want) {
		t.Errorf("%d bins, want %d (the DLC 1.2 speeds)", len(rep.Curve.Bins), len(want))
	}
	for _, b := range rep.Curve.Bins {
		if b.N != want[b.Center] || math.Abs(b.PowerKW-power(b.Center)) > 1e-9*b.PowerKW {
			t.Errorf("bin %g m/s: n %d, P̄ %g kW; want %d DLC 1.2 runs at %g kW", b.Center, b.N, b.PowerKW, want[b.Center], power(b.Center))
		}
	}
}

// memoryTurbines finds one turbine.
type memoryTurbines struct {
	turbinesim.TurbineService
	turbine *turbinesim.Turbine
}

func (m *memoryTurbines) FindTurbine(context.Context, string, string) (*turbinesim.Turbine, error) {
	return m.turbine, nil
}

// The report's Cp uses the swept area π(D/2·cos precone)², AeroDyn's
// RtArea and the radius the batch curve endpoint uses
// (TestReferencePowerCurveCpCt reproduces RtFldCp with it), so the report
// and /analysis/batches/{id}/curves give one Cp for one batch. Before, the
// report used D/2 and its Cp was 0.19 % low for a 2.5° precone.
func TestReportCpUsesTheSweptArea(t *testing.T) {
	power := func(v float64) float64 { return math.Min(5000, 3*v*v*v) }
	batches, resultStore, _ := reportBatch(t, reportRequest("1.2"), func(dlc.Run) float64 { return 0 }, power)
	id, d, cone := "turbine", 126.0, -2.5
	batches.batch.TurbineID = &id
	turbines := &memoryTurbines{turbine: &turbinesim.Turbine{ID: id, Name: "T",
		TurbineParams: turbinesim.TurbineParams{RotorDiameterM: &d, PreconeDeg: &cone}}}
	rep, err := (&results.CertificationReports{Batches: batches, Results: resultStore, Turbines: turbines}).Build(context.Background(), "org", "batch", results.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := d / 2 * math.Cos(cone*math.Pi/180)
	if rep.Curve == nil || math.Abs(rep.Curve.RotorRadius-r) > 1e-12*r {
		t.Fatalf("rotor radius %+v, want %g", rep.Curve, r)
	}
	for _, b := range rep.Curve.Bins {
		cp := b.PowerKW * 1000 / (0.5 * 1.225 * math.Pi * r * r * math.Pow(b.WindSpeed, 3))
		if math.Abs(b.Cp-cp) > 1e-9*cp {
			t.Errorf("bin %g m/s: Cp %.6f, want %.6f", b.Center, b.Cp, cp)
		}
	}
}

// DLC 1.1's partial safety factor γ_f = 1.25 is for loads extrapolated to
// a 50-year recurrence (IEC 61400-1, as the DLC table's own note says);
// the report's extremes are simulated 10-min maxima, not extrapolated, so
// DLC 1.1 is a normal design situation with γ_f = 1.35 there, and the
// report says its loads are not extrapolated. Before, 1.25 was applied to
// the plain maxima: design loads 7.4 % below the normal factor's.
func TestReportDLC11IsNotExtrapolated(t *testing.T) {
	req := reportRequest("1.1")
	req.SeedsPerBin = 1
	batches, resultStore, _ := reportBatch(t, req, func(dlc.Run) float64 { return 0 }, func(v float64) float64 { return 100 * v })
	rep, err := (&results.CertificationReports{Batches: batches, Results: resultStore}).Build(context.Background(), "org", "batch", results.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Extremes) == 0 {
		t.Fatalf("no extremes; problems %v", rep.Problems)
	}
	for _, e := range rep.Extremes {
		if e.DLC == "1.1" && (e.SafetyFactor != 1.35 || math.Abs(e.Design-1.35*e.Characteristic) > 1e-12*math.Abs(e.Design)) {
			t.Errorf("%s %s: γ_f %g, design %g for characteristic %g; want γ_f 1.35", e.Channel, e.Kind, e.SafetyFactor, e.Design, e.Characteristic)
		}
	}
	said := false
	for _, p := range rep.Problems {
		said = said || strings.Contains(p, "DLC 1.1") && strings.Contains(p, "extrapolat")
	}
	if !said {
		t.Errorf("problems %q do not say DLC 1.1 is not extrapolated", rep.Problems)
	}
}

// Start-up and shut-down (DLC 3.1, 4.1) do fatigue per event, counted per
// year (added as counts per lifetime, not by time weight; the DLC table gives
// them weight 0 for want of the counts). A lifetime DEL from time-weighting
// their 100 s runs by the Rayleigh probability of V_in, V_r and V_out has no
// meaning, so the report leaves them out of the lifetime table and says why.
// Before, it printed one.
func TestReportStartStopFatigueIsNotTimeWeighted(t *testing.T) {
	batches, resultStore, _ := reportBatch(t, reportRequest("1.2", "3.1", "4.1"), func(dlc.Run) float64 { return 0 }, func(v float64) float64 { return 100 * v })
	rep, err := (&results.CertificationReports{Batches: batches, Results: resultStore}).Build(context.Background(), "org", "batch", results.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for _, f := range rep.Fatigue {
		tables = append(tables, f.DLC)
	}
	if len(tables) != 1 || tables[0] != "1.2" {
		t.Errorf("lifetime DEL tables for DLC %v, want only 1.2", tables)
	}
	for _, id := range []string{"3.1", "4.1"} {
		said := false
		for _, p := range rep.Problems {
			said = said || strings.Contains(p, "DLC "+id) && strings.Contains(p, "per year")
		}
		if !said {
			t.Errorf("problems %q do not say why DLC %s has no lifetime DEL", rep.Problems, id)
		}
	}
}

// The report's load spectra and assumptions.
// Every run's RootMyb1 is a 0.25 Hz sine, so the lifetime Markov matrix
// holds f·L = 0.25 Hz × 20 years of cycles, to within the ±1 cycle each
// run's window ends add to its ~135 (1 %). Every run turns at 12 rpm, so
// the LRD holds 12/60 × L revolutions exactly and the LDD's hours add up
// to 20 × 8760 h; the torque is 400 kN·m per m/s of the run's nominal
// wind, so the hours at the highest torque level are the weight of the
// highest wind speed's runs.
func TestReportLoadSpectraAndAssumptions(t *testing.T) {
	batches, resultStore, runs := reportBatch(t, reportRequest("1.2"), func(dlc.Run) float64 { return 0 }, func(v float64) float64 { return 100 * v })
	for i, br := range resultStore.runs {
		rec := br.Output.Record
		n := len(rec.Time)
		rec.Names = append(rec.Names, "RotTorq", "RotSpeed")
		rec.Units = append(rec.Units, "kN-m", "rpm")
		rec.Channels = append(rec.Channels, constant(n, 400*runs[i].WindSpeed), constant(n, 12))
	}
	rep, err := (&results.CertificationReports{Batches: batches, Results: resultStore}).Build(context.Background(), "org", "batch", results.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) > 0 {
		t.Errorf("problems: %q", rep.Problems)
	}
	sp := rep.Spectra
	if sp == nil || sp.DLC != "1.2" || len(sp.Markov) != 1 || sp.Markov[0].Channel != "RootMyb1" || len(sp.LoadDuration) != 1 {
		t.Fatalf("spectra %+v", sp)
	}
	L := 20 * 8760 * 3600.0
	if got, want := sp.Markov[0].TotalCycles, 0.25*L; math.Abs(got-want) > 0.01*want {
		t.Errorf("lifetime cycles %g, want f·L = %g (±1 %%)", got, want)
	}
	// Range 200 kN-m (amplitude 100): the sine's full cycles sit in the
	// top range class.
	if rc := sp.Markov[0].RangeCounts; rc[len(rc)-1] < 0.98*sp.Markov[0].TotalCycles || math.Abs(sp.Markov[0].MaxRange-200) > 1e-6 {
		t.Errorf("range classes %v, largest range %v", rc, sp.Markov[0].MaxRange)
	}
	ld := sp.LoadDuration[0]
	if ld.Channel != "RotTorq" || ld.DurationUnit != "h" || math.Abs(ld.TotalDuration-20*8760) > 1e-9*20*8760 ||
		math.Abs(ld.TotalRevolutions-12.0/60*L) > 1e-9*12.0/60*L {
		t.Errorf("LDD %s: %v %s, %v rev; want %v h, %v rev", ld.Channel, ld.TotalDuration, ld.DurationUnit, ld.TotalRevolutions, 20*8760.0, 12.0/60*L)
	}
	// The top torque level holds the runs of the highest speed: their
	// weight is that bin's Rayleigh probability over the batch's.
	var speeds []float64
	for _, r := range runs {
		if !slices.Contains(speeds, r.WindSpeed) {
			speeds = append(speeds, r.WindSpeed)
		}
	}
	slices.Sort(speeds)
	F := func(v float64) float64 { return 1 - math.Exp(-math.Pi/4*(v/10)*(v/10)) }
	step := speeds[1] - speeds[0]
	lo, hi := speeds[0]-step/2, speeds[len(speeds)-1]+step/2
	top := (F(hi) - F(hi-step)) / (F(hi) - F(lo))
	if got := ld.Duration[len(ld.Duration)-1] / ld.TotalDuration; math.Abs(got-top) > 1e-9 {
		t.Errorf("share of time at the top torque level %v, want %v", got, top)
	}
	a := rep.Assumptions
	if a.MeanWind != 10 || a.Availability != 1 || a.Goodman || a.LifetimeYears != 20 || a.LifetimeCycles != L || a.EquivalentHz != 1 ||
		len(a.Exponents) != 4 || len(a.YawCases) == 0 || math.Abs(a.Coverage-(F(hi)-F(lo))) > 1e-12 {
		t.Errorf("assumptions %+v", a)
	}
	var html strings.Builder
	if err := views.ReportPage(rep).Render(context.Background(), &html); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="markov"`, `id="ldd"`, `id="assumptions"`, "Goodman off", "Availability", "Wöhler exponents", "Yaw-error distribution",
		"/analysis/batches/batch/markov?dlc=1.2&amp;class=I&amp;lifetime_years=20&amp;format=csv", "7. Failed runs"} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("report HTML lacks %q", want)
		}
	}
}

// eventRecord replaces run br's RootMyb1 by 1000 + amp up to the run's
// transient and then k periods of 1000 ± amp at 1 s steps: the analysis
// window (after the transient) holds exactly k cycles of range 2·amp, so
// one event's damage sum is k·(2·amp)ᵐ.
func eventRecord(br outputs.BatchRun, transient, amp float64, k int) {
	rec := br.Output.Record
	n := int(transient) + 2*k + 1
	rec.Time = make([]float64, n)
	for c := range rec.Channels {
		rec.Channels[c] = constant(n, rec.Channels[c][0])
	}
	for i := range n {
		rec.Time[i] = float64(i)
		rec.Channels[2][i] = 1000 + amp
		if j := i - int(transient); j > 0 && j%2 == 1 {
			rec.Channels[2][i] = 1000 - amp
		}
	}
}

// With events_per_year the report adds the start-up and shut-down damage
// per event to the DLC 1.2 lifetime DELs: by hand,
// DELᵐ = DEL₁.₂ᵐ + Σ_d n_d·D̄_d/(8760·3600 s), D̄_d the mean over the
// DLC's wind speeds of k·(2·amp)ᵐ of its runs, with DEL₁.₂ the table's
// value without events. The assumptions name the counts.
func TestReportAddsCountedStartStopEvents(t *testing.T) {
	batches, resultStore, runs := reportBatch(t, reportRequest("1.2", "3.1", "4.1"), func(dlc.Run) float64 { return 0 }, func(v float64) float64 { return 100 * v })
	counts := map[string]float64{"3.1": 1000, "4.1": 500}
	// sum[dlc][speed] and n[dlc][speed]: each event run's damage for m = 10.
	m := 10.0
	sum := map[string]map[float64]float64{"3.1": {}, "4.1": {}}
	num := map[string]map[float64]float64{"3.1": {}, "4.1": {}}
	for i, r := range runs {
		if r.DLC != "3.1" && r.DLC != "4.1" {
			continue
		}
		amp, k := 300+50*float64(i%3), 2+i%2
		eventRecord(resultStore.runs[i], r.Transient, amp, k)
		sum[r.DLC][r.WindSpeed] += float64(k) * math.Pow(2*amp, m)
		num[r.DLC][r.WindSpeed]++
	}
	build := func(opt results.ReportOptions) *results.CertificationReport {
		rep, err := (&results.CertificationReports{Batches: batches, Results: resultStore}).Build(context.Background(), "org", "batch", opt)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	plain := build(results.ReportOptions{})
	rep := build(results.ReportOptions{EventsPerYear: counts})
	if len(rep.Fatigue) != 1 || rep.Fatigue[0].DLC != "1.2" || len(rep.Fatigue[0].Events) != 2 {
		t.Fatalf("fatigue tables %+v, want DLC 1.2 with the two event DLCs", rep.Fatigue)
	}
	term := 0.0
	for id, bySpeed := range sum {
		mean := 0.0
		for v, s := range bySpeed {
			mean += s / num[id][v] / float64(len(bySpeed))
		}
		term += counts[id] * mean / (8760 * 3600)
	}
	lifetime := func(rep *results.CertificationReport) float64 {
		for _, cf := range rep.Fatigue[0].Channels {
			if cf.Channel == "RootMyb1" {
				for _, l := range cf.Lifetime {
					if l.Exponent == m {
						return l.DEL
					}
				}
			}
		}
		t.Fatal("no RootMyb1 m = 10 lifetime DEL")
		return 0
	}
	base := lifetime(plain)
	want := math.Pow(math.Pow(base, m)+term, 1/m)
	if got := lifetime(rep); math.Abs(got-want) > 1e-9*want || !(want > 1.01*base) {
		t.Errorf("RootMyb1 m = 10 lifetime DEL %.9g, want %.9g by hand (DLC 1.2 alone %.9g)", got, want, base)
	}
	for _, p := range rep.Problems {
		if strings.Contains(p, "per year") {
			t.Errorf("problem %q although the events are counted", p)
		}
	}
	var html strings.Builder
	if err := views.ReportPage(rep).Render(context.Background(), &html); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"DLC 3.1: 1000 per year", "DLC 4.1: 500 per year", "plus start-up and shut-down damage per event"} {
		if !strings.Contains(html.String(), s) {
			t.Errorf("report page does not say %q", s)
		}
	}
}

// A monopile batch's report lists the tower-base and mudline loads (SubDyn
// base reactions, also under the output list's sign flip -ReactMYss) among
// the extremes and the lifetime DELs. Before, the mudline channels were not
// report sensors.
func TestReportListsMudlineAndTowerBaseLoads(t *testing.T) {
	req := reportRequest("1.2", "1.3")
	req.SeedsPerBin = 1
	batches, resultStore, _ := reportBatch(t, req, func(dlc.Run) float64 { return 0 }, func(v float64) float64 { return 100 * v })
	for i := range resultStore.runs {
		rec := resultStore.runs[i].Output.Record
		n := len(rec.Time)
		twr, mud := make([]float64, n), make([]float64, n)
		for k, tt := range rec.Time {
			twr[k] = 2e5 + 4e4*math.Sin(2*math.Pi*0.2*tt)
			mud[k] = -3e5 - 6e4*math.Sin(2*math.Pi*0.2*tt)
		}
		rec.Names = append(rec.Names, "TwrBsMyt", "-ReactMYss")
		rec.Units = append(rec.Units, "kN-m", "N-m")
		rec.Channels = append(rec.Channels, twr, mud)
	}
	rep, err := (&results.CertificationReports{Batches: batches, Results: resultStore}).Build(context.Background(), "org", "batch", results.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"TwrBsMyt", "-ReactMYss"} {
		if !slices.Contains(rep.Sensors, want) {
			t.Errorf("sensors %v lack %s", rep.Sensors, want)
		}
		extremes := 0
		for _, e := range rep.Extremes {
			if e.Channel == want {
				extremes++
			}
		}
		dels := 0
		for _, f := range rep.Fatigue {
			for _, c := range f.Channels {
				if c.Channel == want && len(c.Lifetime) > 0 {
					dels++
				}
			}
		}
		if extremes == 0 || dels == 0 {
			t.Errorf("%s: %d extreme rows, %d fatigue tables with a lifetime DEL; problems %v", want, extremes, dels, rep.Problems)
		}
	}
}
