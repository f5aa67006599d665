package results

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/outputs"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// Certification report of a finished DLC batch: design basis, model summary,
// DLC table, extreme loads with partial safety factors and concurrent values,
// fatigue DELs per DLC with lifetime aggregation, power curve and AEP, failed
// runs. Built here, rendered as HTML by views.ReportPage and printed to PDF
// by the handler.

// CertificationReport is everything the report shows.
type CertificationReport struct {
	Batch     *turbinesim.Batch
	Turbine   *turbinesim.Turbine // nil when the turbine was deleted
	Request   dlc.Request
	Basis     []dlc.BasisRow
	Exponents []float64
	Generated time.Time
	Succeeded int
	Failed    []ReportFailedRun
	// Excluded are the succeeded runs left out of every load, curve and
	// energy figure because they failed a plausibility check (their
	// outputs are not physical), with the reasons; IncludedFlagged says
	// the user asked for them to be used anyway (then Excluded is empty
	// and Flagged lists them).
	Excluded        []ExcludedRun
	Flagged         []ExcludedRun
	IncludedFlagged bool
	Sensors         []string
	// Extremes are the ultimate-load rows; ExtremesFromAll says the batch
	// had no ultimate DLC, so every run was searched.
	Extremes        []analysis.Extreme
	ExtremesFromAll bool
	Fatigue         []ReportFatigueTable
	// Spectra are the lifetime Markov and LDD/LRD summaries of the main
	// fatigue DLC; nil when the batch has none.
	Spectra *ReportLoadSpectra
	// Assumptions are the fatigue and energy assumptions.
	Assumptions ReportAssumptions
	Curve       *analysis.Curve
	AEP         *analysis.AEP
	MeanWind    float64
	// Problems lists parts that could not be computed, said plainly.
	Problems []string
	// Window is the part of each run every figure uses: after its DLC's
	// start-up transient.
	Window AnalysisWindow

	// Extrapolation is DLC 1.1's 50-year extrapolation when the report
	// uses it (every bin has the runs the standard asks for); its loads
	// are the table's DLC 1.1 rows without a run. Nil: DLC 1.1, if any,
	// is reported as simulated (Problems says why).
	Extrapolation *BatchExtrapolation
}

// ReportFailedRun is a run of the batch without a usable output.
type ReportFailedRun struct {
	Run, JobID, Status, Detail string
}

// ReportFatigueTable is the DEL table of one fatigue DLC ("" when the
// table is of counted events alone), with the start-up and shut-down
// events whose damage its lifetime DELs include.
type ReportFatigueTable struct {
	DLC      string
	Runs     int
	Events   []ReportEventCount
	Channels []analysis.ChannelFatigue
}

// ReportEventCount is a start-up or shut-down DLC counted per event.
type ReportEventCount struct {
	DLC           string
	EventsPerYear float64
	Runs          int
}

// Report load-spectrum summaries: the full matrices do not fit a printed
// page, so the report shows each main channel's lifetime cycles by range
// class (summed over the mean classes) and the drivetrain LDD/LRD on a few
// levels, and points to the endpoints for the full resolution.
const (
	reportRangeBins = 10
	reportMeanBins  = 10
	reportLevelBins = 10
)

// ReportLoadSpectra are the lifetime load spectra of one fatigue DLC.
type ReportLoadSpectra struct {
	DLC           string
	Runs          int
	LifetimeYears float64
	Markov        []ReportMarkovSummary
	LoadDuration  []ChannelLoadDuration // hours, revolutions with SpeedChannel
	SpeedChannel  string
	// Events are the start-up and shut-down DLCs counted per event in the
	// spectra, as in the main fatigue DLC's lifetime DELs.
	Events []ReportEventCount
	// MarkovQuery and LoadDurationQuery are the endpoint paths (relative
	// to the service) giving the full-resolution spectra as CSV.
	MarkovQuery, LoadDurationQuery string
}

// ReportMarkovSummary condenses a lifetime Markov matrix: its total, the
// largest range, the span of the cycle means, and the cycles per lifetime
// in each of reportRangeBins range classes over all means.
type ReportMarkovSummary struct {
	Channel, Unit     string
	TotalCycles       float64
	MaxRange          float64
	MeanLow, MeanHigh float64
	RangeEdges        []float64
	RangeCounts       []float64
}

func summariseMarkov(channel, unit string, mk analysis.Markov) ReportMarkovSummary {
	s := ReportMarkovSummary{Channel: channel, Unit: unit, TotalCycles: mk.Total(), MaxRange: mk.RangeEdges[len(mk.RangeEdges)-1],
		MeanLow: mk.MeanEdges[0], MeanHigh: mk.MeanEdges[len(mk.MeanEdges)-1], RangeEdges: mk.RangeEdges, RangeCounts: make([]float64, len(mk.Counts))}
	for i, row := range mk.Counts {
		for _, c := range row {
			s.RangeCounts[i] += c
		}
	}
	return s
}

// ReportAssumptions are the assumptions behind the report's fatigue loads
// and energy (Weibull/Rayleigh parameters,
// availability, start/stop and fault events, yaw-error distribution,
// Goodman on/off; plus Wöhler exponents and N_eq).
type ReportAssumptions struct {
	Class         string
	MeanWind      float64 // Rayleigh V_ave, m/s
	Coverage      float64 // share of the distribution the fatigue DLC's speeds span (0: unknown)
	Availability  float64
	Goodman       bool
	Exponents     []float64
	EquivalentHz  float64 // f_eq
	LifetimeYears float64
	// LifetimeCycles is N_eq of the lifetime DEL: f_eq × lifetime.
	LifetimeCycles float64
	YawCases       []float64 // of the fatigue DLC's runs, equally weighted
	// Events are the start-up and shut-down DLCs counted per event, added
	// to the lifetime DELs of DLC EventsInto ("" when there is no
	// time-weighted fatigue DLC).
	Events     []ReportEventCount
	EventsInto string
}

// ReportOptions are the report's inputs beyond the batch.
type ReportOptions struct {
	// EventsPerYear counts start-up and shut-down events per DLC id (DLC 3.1,
	// 4.1; ParseEventsPerYear): with a count, the DLC's damage per event is
	// added to the main fatigue DLC's lifetime DELs; without one, the DLC is
	// left out and Problems says so.
	EventsPerYear map[string]float64
	// IncludeFlagged uses the runs that failed a plausibility check of
	// severity error; by default they are left out and listed.
	IncludeFlagged bool
}

// CertificationReports builds reports from the batch, result and turbine
// services (Turbines may be nil: the model summary is then left out).
type CertificationReports struct {
	Batches  turbinesim.BatchService
	Results  outputs.ResultService
	Turbines turbinesim.TurbineService
}

// reportSensors are the load sensors the report looks for (blade root,
// low-speed shaft, yaw bearing, tower base, the substructure's base
// reactions at the mudline of a bottom-fixed turbine (SubDyn ReactF/M*ss,
// about the reaction joint), tip deflection and the operating channels), in
// report order; those the runs did not record are left out.
func reportSensorList() []string {
	return []string{
		"RootMxc1", "RootMyc1", "RootMzc1", "RootFxc1", "RootFyc1", "RootFzc1",
		"RootMxb1", "RootMyb1", "RootMzb1",
		"LSShftFxa", "LSSTipMya", "LSSTipMza", "LSSTipMys", "LSSTipMzs", "RotThrust", "RotTorq",
		"YawBrFxp", "YawBrFyp", "YawBrFzp", "YawBrMxp", "YawBrMyp", "YawBrMzp",
		"TwrBsFxt", "TwrBsFyt", "TwrBsFzt", "TwrBsMxt", "TwrBsMyt", "TwrBsMzt",
		"ReactFXss", "ReactFYss", "ReactFZss", "ReactMXss", "ReactMYss", "ReactMZss",
		"TipDxc1", "GenPwr", "RotSpeed", "GenSpeed", "BldPitch1",
	}
}

// reportExponents are the Wöhler exponents of the fatigue table: welded
// steel (3, 5 beyond the knee), steel details and shafts (4), composite
// blades (10).
func reportExponents() []float64 { return []float64{3, 4, 5, 10} }

func reportSensors(rec *analysis.Record) []string {
	var out []string
	for _, s := range reportSensorList() {
		if _, err := rec.Index(s); err == nil {
			out = append(out, s)
		} else if _, err := rec.Index("-" + s); err == nil {
			// the output list's sign flip (the published IEA 15 MW
			// monopile deck lists -ReactFXss …): same extremes in
			// magnitude, same DELs
			out = append(out, "-"+s)
		}
	}
	return out
}

// sensorLocations groups sensors by load location in report order: blade
// root, shaft and rotor, yaw bearing, tower base, mudline, and the rest
// (deflection and operational channels).
func sensorLocations(sensors []string) [][]string {
	prefixes := []string{"Root", "LSS", "YawBr", "TwrBs", "React"}
	var order []string
	groups := map[string][]string{}
	for _, s := range sensors {
		loc := "other"
		for _, p := range prefixes {
			if strings.HasPrefix(strings.TrimPrefix(s, "-"), p) {
				loc = p
			}
		}
		if s == "RotThrust" || s == "RotTorq" {
			loc = "LSS"
		}
		if _, ok := groups[loc]; !ok {
			order = append(order, loc)
		}
		groups[loc] = append(groups[loc], s)
	}
	out := make([][]string, len(order))
	for i, loc := range order {
		out[i] = groups[loc]
	}
	return out
}

// Build gathers everything the certification report of a finished DLC
// batch shows. Parts that cannot be computed (a failed fit, no fatigue
// DLC, ...) are listed in Problems instead of failing the report.
func (r *CertificationReports) Build(ctx context.Context, orgID, batchID string, opt ReportOptions) (*CertificationReport, error) {
	if err := checkEventsPerYear(opt.EventsPerYear); err != nil {
		return nil, err
	}
	b, err := r.Batches.FindBatch(ctx, orgID, batchID)
	if err != nil {
		return nil, err
	}
	if b.Kind != turbinesim.BatchDLC {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "the certification report is for DLC batches; this one is %s", b.Kind)
	}
	if !b.Progress.Finished() {
		return nil, turbinesim.Errorf(turbinesim.ECONFLICT, "the batch is not finished: %d of %d runs done", b.Progress.Done, b.Progress.Total)
	}
	var stored batches.StoredDLCRequest
	if err := json.Unmarshal(b.Request, &stored); err != nil {
		return nil, fmt.Errorf("reading the batch request: %w", err)
	}
	jobs, err := r.Batches.BatchJobs(ctx, orgID, b.ID)
	if err != nil {
		return nil, err
	}
	batchOutputs, err := r.Results.BatchRuns(ctx, orgID, b.ID)
	if err != nil {
		return nil, err
	}
	byJob := map[string]*outputs.JobOutput{}
	for _, o := range batchOutputs {
		if o.Output != nil {
			byJob[o.JobID] = o.Output
		}
	}
	runByName := map[string]dlc.Run{}
	for _, run := range stored.Runs {
		runByName[run.ID] = run
	}
	rep := &CertificationReport{Batch: b, Request: stored.Request, Basis: dlc.LoadBasisTable(stored.Runs), Exponents: reportExponents(),
		Generated: time.Now().UTC(), IncludedFlagged: opt.IncludeFlagged, Excluded: []ExcludedRun{}}
	if b.TurbineID != nil && r.Turbines != nil {
		if t, err := r.Turbines.FindTurbine(ctx, orgID, *b.TurbineID); err == nil {
			rep.Turbine = t
		}
	}
	type usable struct {
		run dlc.Run
		out *outputs.JobOutput
	}
	var ok []usable
	for _, j := range jobs {
		run := runByName[j.Run]
		o := byJob[j.Job.ID]
		if j.Job.Status != turbinesim.JobSucceeded || o == nil {
			fr := ReportFailedRun{Run: j.Run, JobID: j.Job.ID, Status: string(j.Job.Status)}
			if j.Job.Detail != nil {
				fr.Detail = *j.Job.Detail
			}
			rep.Failed = append(rep.Failed, fr)
			continue
		}
		if j.Job.Flagged() {
			e := excludedRun(j.Job.ID, j.Run, j.Job.Checks)
			if !opt.IncludeFlagged {
				rep.Excluded = append(rep.Excluded, e)
				continue
			}
			rep.Flagged = append(rep.Flagged, e)
		}
		ok = append(ok, usable{run, o})
	}
	rep.Succeeded = len(ok)
	if len(ok) == 0 {
		return rep, nil
	}
	// Every figure below is taken after each run's start-up transient
	// (its DLC's Transient); the report states it.
	windows := make([]analysis.Window, len(ok))
	names := make([]string, len(ok))
	runs := make([]*outputs.JobOutput, len(ok))
	for i, u := range ok {
		windows[i], names[i], runs[i] = analysis.After(u.run.Transient), u.run.ID, u.out
	}
	rep.Window = describeBatchWindows(analysis.WholeRecord(), windows, names, runs, true)
	rep.Window.Detail = "every load, curve and energy figure starts each run after its DLC's transient, as the batch's DLC table set it"
	sensors := reportSensors(ok[0].out.Record)
	rep.Sensors = sensors

	// Extreme loads: ultimate DLCs, or every run when the batch has none
	// (then with the runs' own γ_f).
	// DLC 1.1's loads are extrapolated to 50 years when every wind-speed
	// bin has the runs IEC 61400-1 asks for (reportExtrapolation), with
	// γ_f 1.25; otherwise its simulated maxima take the normal factor, not
	// its extrapolation factor (SimulatedExtremeGamma), and the report
	// says which.
	var runs11 []analysis.ExtrapolationRun
	for _, u := range ok {
		if u.run.DLC == extrapolatedDLC && u.run.Analysis == dlc.Ultimate {
			runs11 = append(runs11, analysis.ExtrapolationRun{ID: u.run.ID, WindSpeed: u.run.WindSpeed, Record: u.out.Record, Window: analysis.After(u.run.Transient)})
		}
	}
	extrapolated := reportExtrapolation(rep, stored.Request, runs11, sensors)
	gammas := map[string]float64{}
	var ext []analysis.ExtremeRun
	for _, u := range ok {
		if u.run.Analysis == dlc.Ultimate && !(extrapolated != nil && u.run.DLC == extrapolatedDLC) {
			ext = append(ext, analysis.ExtremeRun{ID: u.run.ID, DLC: u.run.DLC, Record: u.out.Record, Window: analysis.After(u.run.Transient)})
			gammas[u.run.DLC] = SimulatedExtremeGamma(u.run.DLC, u.run.Gamma)
		}
	}
	if len(ext) == 0 && extrapolated == nil {
		rep.ExtremesFromAll = true
		for _, u := range ok {
			ext = append(ext, analysis.ExtremeRun{ID: u.run.ID, DLC: u.run.DLC, Record: u.out.Record, Window: analysis.After(u.run.Transient)})
			gammas[u.run.DLC] = max(SimulatedExtremeGamma(u.run.DLC, u.run.Gamma), 1)
		}
	}
	if g, ok := gammas[extrapolatedDLC]; ok {
		rep.Problems = append(rep.Problems, fmt.Sprintf("DLC %s extreme loads are the simulated maxima, not extrapolated to a 50-year recurrence as IEC 61400-1 asks for this case; "+
			"they are reported as a normal design situation with γf = %.2f instead of the extrapolated loads' 1.25", extrapolatedDLC, g))
	}
	// Concurrent values are the other components at the same location
	// (a certification load table's layout).
	for _, group := range sensorLocations(sensors) {
		if len(ext) == 0 {
			break
		}
		ex, err := analysis.Extremes(ext, analysis.ExtremeOptions{Channels: group, Concurrent: group, SafetyFactors: gammas})
		if err != nil {
			rep.Problems = append(rep.Problems, "extreme loads: "+err.Error())
			break
		}
		rep.Extremes = append(rep.Extremes, ex...)
	}
	if extrapolated != nil {
		rep.Extremes = withExtrapolatedLoads(rep.Extremes, extrapolated.Loads)
	}

	// Fatigue: each fatigue DLC separately, lifetime DELs with the class's
	// Rayleigh distribution (the m-power mean), the
	// same default as every batch analysis (BatchWindDistribution).
	dist, distInfo, derr := BatchWindDistribution(WindDistributionSpec{}, stored.Request.Class)
	if derr != nil {
		rep.Problems = append(rep.Problems, "wind distribution: "+turbinesim.ErrorMessage(derr))
	}
	fatigue := map[string][]analysis.FatigueInput{}
	var fatigueOrder []string
	eventRuns := map[string][]analysis.FatigueInput{}
	var eventOrder []string
	for _, u := range ok {
		if u.run.Analysis != dlc.Fatigue {
			continue
		}
		in := analysis.FatigueInput{ID: u.run.ID, WindSpeed: u.run.WindSpeed, Record: u.out.Record, Window: analysis.After(u.run.Transient)}
		// Start-up and shut-down fatigue counts events per year, which only
		// the caller knows (the runs carry weight 0): time-weighting 100 s
		// event runs by the wind distribution would give a number without
		// meaning.
		if IsEventFatigueDLC(u.run.DLC) {
			if _, seen := eventRuns[u.run.DLC]; !seen {
				eventOrder = append(eventOrder, u.run.DLC)
			}
			eventRuns[u.run.DLC] = append(eventRuns[u.run.DLC], in)
			continue
		}
		if _, seen := fatigue[u.run.DLC]; !seen {
			fatigueOrder = append(fatigueOrder, u.run.DLC)
		}
		fatigue[u.run.DLC] = append(fatigue[u.run.DLC], in)
	}
	// The counted events join the main fatigue DLC (normal production,
	// 1.2, when the batch has it): one lifetime DEL per channel of the
	// turbine's operating life, production by time and events by count.
	var events []analysis.EventCase
	for _, id := range eventOrder {
		n, counted := opt.EventsPerYear[id]
		if !counted {
			rep.Problems = append(rep.Problems, "fatigue DLC "+id+": start-up and shut-down damage adds per event, with the number of events per year from the manufacturer; "+
				"none was given (events_per_year="+id+":N), so DLC "+id+" is not in the lifetime DELs")
			continue
		}
		events = append(events, analysis.EventCase{DLC: id, EventsPerYear: n, Runs: eventRuns[id]})
	}
	for _, id := range slices.Sorted(maps.Keys(opt.EventsPerYear)) {
		if _, ok := eventRuns[id]; !ok {
			rep.Problems = append(rep.Problems, fmt.Sprintf("events_per_year names DLC %s, which has no succeeded run in this batch", id))
		}
	}
	mainFatigue := ""
	if len(fatigueOrder) > 0 {
		mainFatigue = fatigueOrder[0]
		if slices.Contains(fatigueOrder, fatigueDLC) {
			mainFatigue = fatigueDLC
		}
	}
	tables := fatigueOrder
	if mainFatigue == "" && len(events) > 0 {
		tables = []string{""} // the events alone
	}
	for _, id := range tables {
		if derr != nil || len(sensors) == 0 {
			break
		}
		var withEvents []analysis.EventCase
		if id == mainFatigue {
			withEvents = events
		}
		res, err := analysis.LifetimeFatigue(fatigue[id], withEvents, sensors, analysis.DELOptions{Exponents: reportExponents()}, dist)
		if err != nil {
			rep.Problems = append(rep.Problems, "fatigue DLC "+id+": "+err.Error())
			continue
		}
		t := ReportFatigueTable{DLC: id, Runs: len(fatigue[id]), Channels: res}
		for _, e := range withEvents {
			t.Events = append(t.Events, ReportEventCount{DLC: e.DLC, EventsPerYear: e.EventsPerYear, Runs: len(e.Runs)})
		}
		rep.Fatigue = append(rep.Fatigue, t)
	}
	rep.Assumptions = ReportAssumptions{Class: stored.Request.Class, Availability: 1, Exponents: reportExponents(), EquivalentHz: 1,
		LifetimeYears: DefaultLifetimeYears, LifetimeCycles: DefaultLifetimeYears * analysis.SecondsPerYear, EventsInto: mainFatigue}
	for _, e := range events {
		rep.Assumptions.Events = append(rep.Assumptions.Events, ReportEventCount{DLC: e.DLC, EventsPerYear: e.EventsPerYear, Runs: len(e.Runs)})
	}
	if derr == nil {
		rep.Assumptions.MeanWind = distInfo.MeanSpeed
	}
	// Load spectra of the main fatigue DLC: normal production (1.2) when
	// the batch has it, else its first fatigue DLC.
	if mainFatigue != "" && derr == nil {
		main := mainFatigue
		yaws := map[float64]bool{}
		for _, u := range ok {
			if u.run.DLC == main && !yaws[u.run.Yaw] {
				yaws[u.run.Yaw] = true
				rep.Assumptions.YawCases = append(rep.Assumptions.YawCases, u.run.Yaw)
			}
		}
		slices.Sort(rep.Assumptions.YawCases)
		rep.Spectra = reportSpectra(b.ID, main, stored.Request.Class, fatigue[main], events, dist, &rep.Assumptions, &rep.Problems)
	}

	// Power curve and AEP from normal power production (NTM: DLC 1.1, 1.2;
	// else the extreme turbulence of 1.3), binned on the batch's own
	// wind-speed grid, as the batch curves (productionRank). Events that
	// are also power production (ECD, EWS gusts and shears), faults,
	// start-ups and stops say nothing about the power of a normal year:
	// never used.
	best := 0
	for _, u := range ok {
		best = max(best, productionRank(u.run.DLC))
	}
	curveRuns := func(u usable) bool { return best > 0 && productionRank(u.run.DLC) == best }
	switch best {
	case 0:
		rep.Problems = append(rep.Problems, "power curve: the batch has no normal power production run (DLC 1.1, 1.2 or 1.3); its events' power is not a power curve, so there is no curve or AEP")
	case 1:
		rep.Problems = append(rep.Problems, "power curve: the batch has no normal-turbulence power production (DLC 1.1 or 1.2); the curve and AEP are from its DLC 1.3 runs (extreme turbulence)")
	}
	var points []analysis.CurvePoint
	for _, u := range ok {
		if !curveRuns(u) {
			continue
		}
		p, err := analysis.RunCurvePoint(u.out.Record, analysis.After(u.run.Transient), CurveChannels(u.out.Record, ""))
		if err != nil {
			rep.Problems = append(rep.Problems, "power curve, run "+u.run.ID+": "+err.Error())
			continue
		}
		p.NominalSpeed = u.run.WindSpeed // its seeds share the grid bin
		points = append(points, p)
	}
	if len(points) > 0 {
		// Cp over the swept area, as the batch curves (sweptRadius) and
		// AeroDyn's RtArea: the precone is the turbine's, when known.
		var precone *float64
		if rep.Turbine != nil {
			precone = rep.Turbine.PreconeDeg
		}
		radius := sweptRadiusOf(stored.Request.Turbine.RotorDiameter, precone)
		cv, err := analysis.PowerCurve(points, analysis.CurveOptions{Binning: analysis.BinGrid, RotorRadius: radius})
		if err != nil {
			rep.Problems = append(rep.Problems, "power curve: "+err.Error())
		} else {
			rep.Curve = &cv
			if derr == nil {
				if aep, err := analysis.AnnualEnergy(cv.Bins, dist); err == nil {
					rep.AEP = &aep
					rep.MeanWind = distInfo.MeanSpeed
				} else {
					rep.Problems = append(rep.Problems, "AEP: "+err.Error())
				}
			}
		}
	}
	return rep, nil
}

// reportSpectra summarises the lifetime Markov matrices of the main load
// channels and the LDD/LRD of the drivetrain torque channels over the runs
// of one fatigue DLC and the counted start-up and shut-down events,
// weighted as the lifetime DEL (DefaultLifetimeYears;
// analysis.LifetimeMarkovMatrix). A channel without cycles (constant) is
// left out; other failures are problems.
func reportSpectra(batchID, dlcID, class string, runs []analysis.FatigueInput, events []analysis.EventCase, dist analysis.WindDistribution, as *ReportAssumptions, problems *[]string) *ReportLoadSpectra {
	if len(runs) == 0 {
		return nil
	}
	rec := runs[0].Record
	var counts []string
	for _, e := range events {
		counts = append(counts, fmt.Sprintf("%s:%g", e.DLC, e.EventsPerYear))
	}
	query := fmt.Sprintf("dlc=%s&class=%s&lifetime_years=%g&format=csv", dlcID, class, DefaultLifetimeYears)
	if len(counts) > 0 {
		query += "&events_per_year=" + strings.Join(counts, ",")
	}
	sp := &ReportLoadSpectra{DLC: dlcID, Runs: len(runs), LifetimeYears: DefaultLifetimeYears,
		MarkovQuery:       fmt.Sprintf("/analysis/batches/%s/markov?%s", batchID, query),
		LoadDurationQuery: fmt.Sprintf("/analysis/batches/%s/load-duration?%s", batchID, query)}
	for _, e := range events {
		sp.Events = append(sp.Events, ReportEventCount{DLC: e.DLC, EventsPerYear: e.EventsPerYear, Runs: len(e.Runs)})
	}
	opt := analysis.BatchSpectrumOptions{LifetimeSeconds: DefaultLifetimeYears * analysis.SecondsPerYear,
		RangeBins: reportRangeBins, MeanBins: reportMeanBins, LevelBins: reportLevelBins}
	for _, n := range present(rec, MainLoadChannels()) {
		mk, w, err := analysis.LifetimeMarkovMatrix(runs, events, n, opt, dist)
		if err != nil {
			if !strings.Contains(err.Error(), "no cycles") {
				*problems = append(*problems, "Markov matrix of "+n+": "+err.Error())
			}
			continue
		}
		as.Coverage = w.Coverage
		idx, _ := rec.Index(n)
		sp.Markov = append(sp.Markov, summariseMarkov(n, rec.Unit(idx), mk))
	}
	if slices.Contains(rec.Names, DefaultSpeedChannel) {
		opt.SpeedChannel = DefaultSpeedChannel
		sp.SpeedChannel = DefaultSpeedChannel
	}
	for _, n := range present(rec, DrivetrainChannels()) {
		ld, w, err := analysis.LifetimeLoadDuration(runs, events, n, opt, dist)
		if err != nil {
			*problems = append(*problems, "load-duration distribution of "+n+": "+err.Error())
			continue
		}
		as.Coverage = w.Coverage
		idx, _ := rec.Index(n)
		sp.LoadDuration = append(sp.LoadDuration, channelLoadDuration(n, rec.Unit(idx), ld, "h", 3600))
	}
	return sp
}

// reportExtrapolation extrapolates the DLC 1.1 runs' sensor loads to 50
// years with the class's Rayleigh distribution (the lifetime DEL's). It
// returns nil, with a Problems line saying why, when the batch has too few
// runs in a bin or the fit fails; the report then shows DLC 1.1's
// simulated maxima at γ_f 1.35.
func reportExtrapolation(rep *CertificationReport, req dlc.Request, runs []analysis.ExtrapolationRun, sensors []string) *BatchExtrapolation {
	if len(runs) == 0 || len(sensors) == 0 {
		return nil
	}
	dist, info, err := BatchWindDistribution(WindDistributionSpec{}, req.Class)
	if err != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("DLC %s loads not extrapolated: wind distribution: %s", extrapolatedDLC, turbinesim.ErrorMessage(err)))
		return nil
	}
	x, err := extrapolateLoads(runs, sensors, DesignReturnPeriodYears, dist, info, req.Turbine.VRated)
	if err != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("DLC %s loads not extrapolated to %d years: %s", extrapolatedDLC, DesignReturnPeriodYears, turbinesim.ErrorMessage(err)))
		return nil
	}
	if !x.Sufficient {
		rep.Problems = append(rep.Problems, fmt.Sprintf("DLC %s loads not extrapolated to %d years: too few runs (%s)", extrapolatedDLC, DesignReturnPeriodYears, strings.Join(x.Warnings, "; ")))
		return nil
	}
	rep.Extrapolation = x
	return x
}

// withExtrapolatedLoads puts the extrapolated loads into the extreme
// table: a load replaces the row of its channel and kind when its design
// value governs (larger for max, smaller for min) and is appended when the
// table has no such row.
func withExtrapolatedLoads(rows []analysis.Extreme, loads []ExtrapolatedLoad) []analysis.Extreme {
	for _, l := range loads {
		i := slices.IndexFunc(rows, func(e analysis.Extreme) bool { return e.Channel == l.Channel && e.Kind == l.Kind })
		switch {
		case i < 0:
			rows = append(rows, extrapolatedRow(l))
		case l.Kind == "max" && l.Design > rows[i].Design, l.Kind == "min" && l.Design < rows[i].Design:
			rows[i] = extrapolatedRow(l)
		}
	}
	return rows
}
