package results

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/outputs"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// Batch result analysis: power and thrust curves, AEP, lifetime DELs and
// extreme loads over the runs of a batch. Only succeeded runs with an
// output take part; the others are listed as skipped. Each run is reduced
// over the query's window (t_start to skip the start-up transient).

// BatchQuery selects the runs' window and the wind-speed channel that
// places each run in its bin. A window without a start starts each run of
// a DLC batch after its start-up transient (skipTransients).
type BatchQuery struct {
	Window analysis.Window
	// WindChannel is the hub wind speed channel; "" is Wind1VelX
	// (RtVAvgxh suits sheared inflow).
	WindChannel string
	// DLCs, when given, keep only the runs of those design load cases
	// (read from the run names, DLCOfRunName). Without them a DLC batch
	// of several cases answers each question from the cases it is about:
	// fatigue from DLC 1.2, curves from normal power production (DLC 1.1
	// and 1.2), extremes from every run.
	DLCs []string
	// IncludeFlagged keeps the runs that failed a plausibility check of
	// severity error (turbinesim.RunFlagged: overspeed, a non-finite
	// output, ...); by default they are left out of every answer and
	// listed in its Excluded.
	IncludeFlagged bool
	// AllRuns (extremes only) searches every run for the extremes, as
	// the table of a batch without a type-U DLC does, instead of the
	// ultimate-load runs (batchRuns.ultimate).
	AllRuns bool
}

// ExcludedRun is a finished run left out of a batch answer because its
// outputs failed a plausibility check (the messages of its failed
// checks of severity error say why).
type ExcludedRun struct {
	JobID string `json:"job_id"`
	// Run is its name in the batch (e.g. DLC3.2_V25.0_Y+0), "" when
	// unnamed.
	Run     string   `json:"run"`
	Reasons []string `json:"reasons"`
}

// Completeness says whether a batch answer covers the whole batch: Partial
// while some of its runs are still queued or running (the answer is then
// from RunsFinished of RunsTotal runs and will change), and how many runs
// ended without an output (failed or cancelled: listed in skipped).
type Completeness struct {
	Partial      bool `json:"partial"`
	RunsFinished int  `json:"runs_finished"`
	RunsTotal    int  `json:"runs_total"`
	RunsFailed   int  `json:"runs_failed"`
}

// excludedRun describes a flagged run.
func excludedRun(jobID, run string, checks []turbinesim.RunCheck) ExcludedRun {
	e := ExcludedRun{JobID: jobID, Run: run, Reasons: []string{}}
	for _, c := range checks {
		if c.Severity == turbinesim.CheckError {
			e.Reasons = append(e.Reasons, c.Message)
		}
	}
	return e
}

func (q BatchQuery) windChannel() string {
	if q.WindChannel == "" {
		return "Wind1VelX"
	}
	return q.WindChannel
}

// CurveQuery is a BatchQuery for binned curves: Binning iec (0.5 m/s bins
// centred on multiples of BinWidth, the default) or grid (one bin per
// distinct nominal speed of the DLC runs, holding all their seeds; the
// measured mean speed for runs without one); RotorRadius (m) for Cp and Ct, by default the
// batch turbine's swept radius (sweptRadius); AirDensity defaults to
// 1.225 kg/m³.
type CurveQuery struct {
	BatchQuery
	Binning     string
	BinWidth    *float64
	RotorRadius *float64
	AirDensity  *float64
}

// WindDistributionSpec names the wind-speed distribution of AEP, lifetime
// DELs, load spectra and extrapolated extremes: Kind rayleigh (MeanSpeed)
// or weibull (Shape k, Scale a in m/s); with no Kind, the IEC Rayleigh
// distribution of Class (I, II or III, V_ave = 0.2·V_ref). With neither,
// a batch question uses the batch's own class (windDistribution).
type WindDistributionSpec struct {
	Kind      string
	MeanSpeed *float64
	Shape     *float64
	Scale     *float64
	Class     string
}

// Distribution validates the spec and returns the distribution.
func (d WindDistributionSpec) Distribution() (analysis.WindDistribution, error) {
	switch d.Kind {
	case "rayleigh":
		if d.MeanSpeed == nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "mean_speed: required for distribution=rayleigh")
		}
		r := analysis.Rayleigh{MeanSpeed: *d.MeanSpeed}
		if err := r.Validate(); err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "mean_speed: %v", err)
		}
		return r, nil
	case "weibull":
		if d.Shape == nil || d.Scale == nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "k and a: required for distribution=weibull")
		}
		w := analysis.Weibull{Shape: *d.Shape, Scale: *d.Scale}
		if err := w.Validate(); err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "weibull: %v", err)
		}
		return w, nil
	case "":
		class := d.Class
		if class == "" {
			class = DefaultWindClass
		}
		r, err := analysis.RayleighForClass(class)
		if err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "class: %v", err)
		}
		return r, nil
	default:
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "distribution: %q is not rayleigh or weibull", d.Kind)
	}
}

// DefaultWindClass is the IEC wind class of a batch question that names
// no distribution, for a batch without a class of its own (sweeps, plain
// job batches).
const DefaultWindClass = "I"

// Sources of a DistributionInfo: where the distribution came from.
const (
	DistributionFromQuery        = "query"         // distribution= or class= given
	DistributionFromBatchClass   = "batch_class"   // the DLC batch's turbine class
	DistributionFromDefaultClass = "default_class" // DefaultWindClass
)

// DistributionInfo names the wind distribution an answer used and where
// it came from.
type DistributionInfo struct {
	Kind      string  `json:"kind"` // rayleigh or weibull
	MeanSpeed float64 `json:"mean_speed,omitempty"`
	Shape     float64 `json:"k,omitempty"`
	Scale     float64 `json:"a,omitempty"`
	// Class is the IEC class of a class distribution ("" for an explicit
	// rayleigh or weibull); Source is DistributionFromQuery, ...BatchClass
	// or ...DefaultClass.
	Class  string `json:"class,omitempty"`
	Source string `json:"source,omitempty"`
}

func describeDistribution(d analysis.WindDistribution) DistributionInfo {
	switch d := d.(type) {
	case analysis.Rayleigh:
		return DistributionInfo{Kind: "rayleigh", MeanSpeed: d.MeanSpeed}
	case analysis.Weibull:
		return DistributionInfo{Kind: "weibull", Shape: d.Shape, Scale: d.Scale}
	}
	return DistributionInfo{}
}

// BatchWindDistribution is the one rule every batch analysis (lifetime
// DELs, Markov and load-duration spectra, AEP, extrapolated extremes, the
// report) uses for its wind distribution: the spec when it names a kind or
// a class; else the IEC Rayleigh distribution of batchClass, the batch's
// turbine class (DLC batches), when it has one; else of DefaultWindClass.
// The info says which.
func BatchWindDistribution(ds WindDistributionSpec, batchClass string) (analysis.WindDistribution, DistributionInfo, error) {
	source := DistributionFromQuery
	if ds.Kind == "" && ds.Class == "" {
		ds.Class, source = DefaultWindClass, DistributionFromDefaultClass
		if batchClass != "" {
			ds.Class, source = batchClass, DistributionFromBatchClass
		}
	}
	dist, err := ds.Distribution()
	if err != nil {
		if source == DistributionFromBatchClass {
			return nil, DistributionInfo{}, turbinesim.Errorf(turbinesim.EINVALID, "the batch's wind class %q has no IEC distribution; give distribution= or class=", batchClass)
		}
		return nil, DistributionInfo{}, err
	}
	info := describeDistribution(dist)
	info.Source = source
	if ds.Kind == "" {
		info.Class = ds.Class
	}
	return dist, info, nil
}

// windDistribution is BatchWindDistribution for a stored batch: its class
// is the DLC request's (storedDLCRequest), none for other batches.
func (a *ResultAnalysis) windDistribution(ctx context.Context, orgID, batchID string, ds WindDistributionSpec) (analysis.WindDistribution, DistributionInfo, error) {
	class := ""
	if ds.Kind == "" && ds.Class == "" {
		stored, err := a.storedDLCRequest(ctx, orgID, batchID)
		if err != nil {
			return nil, DistributionInfo{}, err
		}
		if stored != nil {
			class = stored.Request.Class
		}
	}
	return BatchWindDistribution(ds, class)
}

// batchRuns is what every batch question needs: the usable runs and
// their windows.
type batchRuns struct {
	id      string
	runs    []*outputs.JobOutput
	names   []string          // run names (batch_runs), "" when unnamed
	windows []analysis.Window // each run's analysis window
	skipped []string
	// excluded are the finished runs left out as flagged (BatchQuery.IncludeFlagged).
	excluded []ExcludedRun
	complete Completeness
	query    BatchQuery
	// dlcTransients says the windows start after the DLCs' transients
	// (skipTransients).
	dlcTransients bool
}

func (a *ResultAnalysis) batchRuns(ctx context.Context, orgID, batchID string, q BatchQuery) (*batchRuns, error) {
	runs, err := a.Results.BatchRuns(ctx, orgID, batchID)
	if err != nil {
		return nil, err
	}
	b := &batchRuns{id: batchID, query: q, skipped: []string{}, excluded: []ExcludedRun{}}
	b.complete.RunsTotal = len(runs)
	for _, r := range runs {
		switch {
		case !r.Status.Terminal():
			b.complete.Partial = true
		case r.Output == nil:
			b.complete.RunsFinished++
			b.complete.RunsFailed++
		default:
			b.complete.RunsFinished++
		}
		if r.Output == nil {
			b.skipped = append(b.skipped, r.JobID)
			continue
		}
		if !q.IncludeFlagged && turbinesim.RunFlagged(r.Checks) {
			b.excluded = append(b.excluded, excludedRun(r.JobID, r.RunName, r.Checks))
			continue
		}
		b.runs = append(b.runs, r.Output)
		b.names = append(b.names, r.RunName)
		b.windows = append(b.windows, q.Window)
	}
	if len(b.runs) == 0 && len(b.excluded) > 0 {
		return nil, turbinesim.Errorf(turbinesim.ECONFLICT, "every finished run of the batch failed a plausibility check (e.g. %s: %s); include_flagged=true uses them anyway",
			runLabel(b.excluded[0]), strings.Join(b.excluded[0].Reasons, "; "))
	}
	if len(b.runs) == 0 {
		return nil, turbinesim.Errorf(turbinesim.ECONFLICT, "batch has no finished job with an output yet")
	}
	if err := a.skipTransients(ctx, orgID, b); err != nil {
		return nil, err
	}
	if len(q.DLCs) > 0 {
		return b.onlyDLCs(q.DLCs, "dlc")
	}
	return b, nil
}

// onlyDLCs keeps the runs of the named DLCs; none is EINVALID naming the
// query parameter (param) and the DLCs the batch has.
func (b *batchRuns) onlyDLCs(ids []string, param string) (*batchRuns, error) {
	kept := b.filter(func(name string) bool { return slices.Contains(ids, DLCOfRunName(name)) })
	if len(kept.runs) == 0 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "%s: no finished run of DLC %s in this batch (its finished runs are of DLC %s)",
			param, strings.Join(ids, ", "), strings.Join(b.dlcs(), ", "))
	}
	return kept, nil
}

// dlcs lists the distinct DLCs of the runs' names in order ("" left out).
func (b *batchRuns) dlcs() []string {
	var out []string
	for _, n := range b.names {
		if id := DLCOfRunName(n); id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// runLabel names an excluded run by its run name, else its job id.
func runLabel(e ExcludedRun) string {
	if e.Run != "" {
		return e.Run
	}
	return "job " + e.JobID
}

// filter is b with only the runs whose name keep accepts.
func (b *batchRuns) filter(keep func(name string) bool) *batchRuns {
	out := &batchRuns{id: b.id, skipped: b.skipped, excluded: b.excluded, complete: b.complete, query: b.query, dlcTransients: b.dlcTransients}
	for i, r := range b.runs {
		if keep(b.names[i]) {
			out.runs = append(out.runs, r)
			out.names = append(out.names, b.names[i])
			out.windows = append(out.windows, b.windows[i])
		}
	}
	return out
}

// skipTransients starts each run after its start-up transient when the
// query gives no t_start: the runs of a DLC batch after their DLC's
// Transient (e.g. 60 s for turbulent cases, stored with the batch
// request), as the certification report does; every other run (parametric
// sweeps, plain job batches, a run the request does not name) after its
// own start-up transient (runWindow: 30 s, 200 s on a floating
// platform). A start-up excursion is neither an extreme load, nor fatigue
// of the operating turbine, nor a point of its power curve.
// An explicit t_start keeps the query's window for every run.
func (a *ResultAnalysis) skipTransients(ctx context.Context, orgID string, b *batchRuns) error {
	start, end := b.query.Window.Bounds()
	if !math.IsInf(start, -1) {
		return nil
	}
	var endp *float64
	if !math.IsInf(end, 1) {
		endp = &end
	}
	for i, r := range b.runs {
		b.windows[i] = runWindow(r, nil, endp)
	}
	transient, err := a.dlcTransients(ctx, orgID, b.id)
	if err != nil || transient == nil {
		return err
	}
	for i, name := range b.names {
		tr, ok := transient[name]
		if !ok || !(tr >= 0) {
			continue
		}
		b.dlcTransients = true
		b.windows[i] = analysis.NewWindow(&tr, endp)
	}
	return nil
}

// dlcTransients maps the run names of a DLC batch to their start-up
// transients (s); nil for batches of other kinds.
func (a *ResultAnalysis) dlcTransients(ctx context.Context, orgID, batchID string) (map[string]float64, error) {
	if a.Batches == nil {
		return nil, nil
	}
	batch, err := a.Batches.FindBatch(ctx, orgID, batchID)
	if turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
		return nil, nil // jobs sharing a batch id without a batches row
	}
	if err != nil {
		return nil, err
	}
	if batch.Kind != turbinesim.BatchDLC {
		return nil, nil
	}
	var stored batches.StoredDLCRequest
	if err := json.Unmarshal(batch.Request, &stored); err != nil {
		return nil, fmt.Errorf("reading the request of batch %s: %w", batchID, err)
	}
	transient := make(map[string]float64, len(stored.Runs))
	for _, r := range stored.Runs {
		transient[r.ID] = r.Transient
	}
	return transient, nil
}

// window states the windows of b's runs (describeBatchWindows).
func (b *batchRuns) window() AnalysisWindow {
	return describeBatchWindows(b.query.Window, b.windows, b.names, b.runs, b.dlcTransients)
}

// fatigueDLC is the design load case whose runs make a DLC batch's
// lifetime DEL when the query names none: normal power production with
// normal turbulence (IEC 61400-1 DLC 1.2).
const fatigueDLC = "1.2"

// forFatigue chooses the runs of a lifetime DEL. The weights of §4.4 split
// each wind-speed bin over the seeds and yaw cases of one fatigue case; the
// runs of other DLCs at the same speeds (extreme turbulence, faults,
// parked) would take shares of that probability they do not have. So a
// batch of several DLCs uses its DLC 1.2 runs, or asks for dlc=.
func (b *batchRuns) forFatigue() (*batchRuns, error) {
	ids := b.dlcs()
	if len(b.query.DLCs) > 0 || len(ids) <= 1 {
		return b, nil
	}
	if !slices.Contains(ids, fatigueDLC) {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "dlc: the batch has runs of DLC %s; name the one whose lifetime DEL you want (e.g. dlc=%s)",
			strings.Join(ids, ", "), ids[0])
	}
	return b.filter(func(name string) bool { return DLCOfRunName(name) == fatigueDLC }), nil
}

// productionRank says how well a DLC's runs make a power curve: 2 for
// normal power production in normal turbulence (DLC 1.1, 1.2), 1 for
// power production in extreme turbulence (1.3: still the operating
// turbine, averaged over 10 minutes), 0 for everything else — deterministic
// gusts and shears (1.4, 1.5), faults, start-ups, stops and parked cases,
// whose power is that of an event, not of the turbine's power curve.
func productionRank(dlcID string) int {
	d, ok := dlc.Lookup(dlcID)
	switch {
	case !ok || d.State != dlc.PowerProduction:
		return 0
	case d.Wind == dlc.NTM:
		return 2
	case d.Wind == dlc.ETM:
		return 1
	}
	return 0
}

// forCurves chooses the runs of the power, thrust and Cp curves: with no
// dlc= given, the normal power production runs of a DLC batch (DLC 1.1
// and 1.2, else 1.3; productionRank), never its events. A batch whose runs
// are not named after a DLC (a parametric sweep of steady production
// points, jobs sharing a batch id) keeps every run; dlc= keeps what it
// names. A DLC batch with no production run has no power curve: EINVALID
// saying so.
func (b *batchRuns) forCurves() (*batchRuns, error) {
	if len(b.query.DLCs) > 0 || !slices.ContainsFunc(b.names, func(n string) bool { return DLCOfRunName(n) != "" }) {
		return b, nil
	}
	best := 0
	for _, n := range b.names {
		best = max(best, productionRank(DLCOfRunName(n)))
	}
	if best == 0 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "no power curve: the batch has no normal power production run (DLC 1.1, 1.2 or 1.3), only DLC %s, "+
			"whose power is that of an event; name dlc= to bin those runs anyway", strings.Join(b.dlcs(), ", "))
	}
	return b.filter(func(name string) bool { return productionRank(DLCOfRunName(name)) == best }), nil
}

// BatchCurves is the answer of the curve questions: the binned curve, and
// with series the same bins as one array per quantity.
type BatchCurves struct {
	BatchID  string        `json:"batch_id"`
	Runs     int           `json:"runs"`
	Skipped  []string      `json:"skipped"`
	Excluded []ExcludedRun `json:"excluded"`
	Completeness
	// DLCs are the design load cases of the runs binned (empty when the
	// runs are not named after one).
	DLCs  []string       `json:"dlcs,omitempty"`
	Curve analysis.Curve `json:"curve"`
	// Window is the part of each run used: after its start-up transient
	// unless t_start was given.
	Window AnalysisWindow `json:"analysis_window"`
	// Series (curves only): wind_speed, power_kw, thrust_kn, cp, ct,
	// pitch_deg, rotor_speed_rpm, n, one value per bin.
	Series map[string][]float64 `json:"series,omitempty"`
}

// BatchCurves bins the runs' mean power, thrust, pitch and rotor speed by
// wind speed; withSeries adds the per-quantity arrays.
func (a *ResultAnalysis) BatchCurves(ctx context.Context, orgID, batchID string, q CurveQuery, withSeries bool) (*BatchCurves, error) {
	b, cv, err := a.curve(ctx, orgID, batchID, q)
	if err != nil {
		return nil, err
	}
	binned, err := b.forCurves()
	if err != nil {
		return nil, err
	}
	res := &BatchCurves{BatchID: b.id, Runs: len(binned.runs), Skipped: b.skipped, Excluded: b.excluded, Completeness: b.complete, DLCs: binned.dlcs(), Curve: cv,
		Window: binned.window()}
	if withSeries {
		res.Series = map[string][]float64{}
		for _, bin := range cv.Bins {
			res.Series["wind_speed"] = append(res.Series["wind_speed"], bin.WindSpeed)
			res.Series["power_kw"] = append(res.Series["power_kw"], bin.PowerKW)
			res.Series["thrust_kn"] = append(res.Series["thrust_kn"], bin.ThrustKN)
			res.Series["cp"] = append(res.Series["cp"], bin.Cp)
			res.Series["ct"] = append(res.Series["ct"], bin.Ct)
			res.Series["pitch_deg"] = append(res.Series["pitch_deg"], bin.PitchDeg)
			res.Series["rotor_speed_rpm"] = append(res.Series["rotor_speed_rpm"], bin.RotorSpeedRPM)
			res.Series["n"] = append(res.Series["n"], float64(bin.N))
		}
	}
	return res, nil
}

// curve bins the batch's curve runs (forCurves); it returns every usable
// run of the batch and the curve.
func (a *ResultAnalysis) curve(ctx context.Context, orgID, batchID string, q CurveQuery) (*batchRuns, analysis.Curve, error) {
	var opt analysis.CurveOptions
	switch q.Binning {
	case "", "iec":
		opt.Binning = analysis.BinIEC
	case "grid":
		opt.Binning = analysis.BinGrid
	default:
		return nil, analysis.Curve{}, turbinesim.Errorf(turbinesim.EINVALID, "binning: %q is not iec or grid", q.Binning)
	}
	for _, p := range []struct {
		name string
		v    *float64
		dst  *float64
	}{{"bin_width", q.BinWidth, &opt.BinWidth}, {"rotor_radius", q.RotorRadius, &opt.RotorRadius}, {"air_density", q.AirDensity, &opt.AirDensity}} {
		if p.v == nil {
			continue
		}
		if !(*p.v > 0) {
			return nil, analysis.Curve{}, turbinesim.Errorf(turbinesim.EINVALID, "%s: must be positive", p.name)
		}
		*p.dst = *p.v
	}
	all, err := a.batchRuns(ctx, orgID, batchID, q.BatchQuery)
	if err != nil {
		return nil, analysis.Curve{}, err
	}
	// all is returned with a curve error too: the loads of a batch
	// without a power curve (events only) still stand.
	cv, err := a.curveOf(ctx, orgID, all, q, opt)
	return all, cv, err
}

// curveOf bins the curve runs of b (forCurves) with the options of curve.
func (a *ResultAnalysis) curveOf(ctx context.Context, orgID string, all *batchRuns, q CurveQuery, opt analysis.CurveOptions) (analysis.Curve, error) {
	batchID := all.id
	b, err := all.forCurves()
	if err != nil {
		return analysis.Curve{}, err
	}
	if q.RotorRadius == nil {
		if opt.RotorRadius, err = a.sweptRadius(ctx, orgID, batchID); err != nil {
			return analysis.Curve{}, err
		}
	}
	points := make([]analysis.CurvePoint, 0, len(b.runs))
	for i, r := range b.runs {
		ch := CurveChannels(r.Record, q.WindChannel)
		opt.ThrustChannel = ch.Thrust
		p, err := analysis.RunCurvePoint(r.Record, b.windows[i], ch)
		if err != nil {
			return analysis.Curve{}, turbinesim.Errorf(turbinesim.EINVALID, "job %s: %v", r.JobID, err)
		}
		// Grid binning groups a DLC run's seeds on the speed of its
		// inflow; the bin means stay those of the measured wind.
		if v, ok := NominalWindSpeedOfRunName(b.names[i]); ok {
			p.NominalSpeed = v
		}
		points = append(points, p)
	}
	cv, err := analysis.PowerCurve(points, opt)
	if err != nil {
		return analysis.Curve{}, turbinesim.Errorf(turbinesim.EINVALID, "%v", err)
	}
	return cv, nil
}

// sweptRadius is the radius of the disk the batch turbine's rotor sweeps,
// (rotor diameter / 2) · cos(precone): the area AeroDyn's RtArea uses and
// the one that makes the curves' Cp and Ct reproduce RtFldCp and RtFldCt
// (solver/analysis CurveOptions). It is 0, leaving Cp and Ct uncomputed,
// when the batch has no turbine (deleted since) or the turbine states no
// diameter.
func (a *ResultAnalysis) sweptRadius(ctx context.Context, orgID, batchID string) (float64, error) {
	if a.Batches == nil || a.Turbines == nil {
		return 0, nil
	}
	b, err := a.Batches.FindBatch(ctx, orgID, batchID)
	if err != nil {
		return 0, err
	}
	if b.TurbineID == nil {
		return 0, nil
	}
	t, err := a.Turbines.FindTurbine(ctx, orgID, *b.TurbineID)
	if turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if t.RotorDiameterM == nil || !(*t.RotorDiameterM > 0) {
		return 0, nil
	}
	return sweptRadiusOf(*t.RotorDiameterM, t.PreconeDeg), nil
}

// sweptRadiusOf is (diameter / 2) · cos(precone), precone in degrees (nil:
// none), the radius of AeroDyn's RtArea.
func sweptRadiusOf(diameter float64, preconeDeg *float64) float64 {
	cone := 0.0
	if preconeDeg != nil {
		cone = *preconeDeg * math.Pi / 180
	}
	return diameter / 2 * math.Cos(cone)
}

// CurveChannels are OpenFAST's names of the curve quantities the run
// records (analysis.RecordedCurveChannels): wind from wind ("" for
// Wind1VelX), thrust from AeroDyn's aerodynamic rotor thrust (RtFldFxh or
// RtAeroFxh, never RotThrust, which adds the rotor weight along the tilted
// shaft), Cp and Ct over the rotor-average wind RtVAvgxh when recorded,
// and the optional ones dropped when the run did not record them, so every
// point agrees on what is missing.
func CurveChannels(rec *analysis.Record, wind string) analysis.CurveChannels {
	return analysis.RecordedCurveChannels(rec, wind)
}

// BatchAEP is the annual energy production of a batch's power curve.
type BatchAEP struct {
	BatchID      string           `json:"batch_id"`
	Distribution DistributionInfo `json:"distribution"`
	AEP          analysis.AEP     `json:"aep"`
	Curve        analysis.Curve   `json:"curve"`
	// Window is the part of each run used: after its start-up transient
	// unless t_start was given.
	Window AnalysisWindow `json:"analysis_window"`
}

// BatchAEP integrates the batch's power curve over the wind distribution
// (IEC 61400-12-1 measured AEP) at the availability (nil: 1, i.e. 100 %;
// else in (0, 1]).
func (a *ResultAnalysis) BatchAEP(ctx context.Context, orgID, batchID string, q CurveQuery, ds WindDistributionSpec, availability *float64) (*BatchAEP, error) {
	avail := 1.0
	if availability != nil {
		avail = *availability
		if !(avail > 0 && avail <= 1) {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "availability: %g is not in (0, 1]", avail)
		}
	}
	dist, info, err := a.windDistribution(ctx, orgID, batchID, ds)
	if err != nil {
		return nil, err
	}
	b, cv, err := a.curve(ctx, orgID, batchID, q)
	if err != nil {
		return nil, err
	}
	aep, err := analysis.AnnualEnergyAt(cv.Bins, dist, avail)
	if err != nil {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "%v", err)
	}
	res := &BatchAEP{BatchID: b.id, Distribution: info, AEP: aep, Curve: cv}
	if binned, err := b.forCurves(); err == nil {
		res.Window = binned.window()
	}
	return res, nil
}

// BatchDELs is the fatigue answer of a batch.
type BatchDELs struct {
	BatchID  string        `json:"batch_id"`
	Skipped  []string      `json:"skipped"`
	Excluded []ExcludedRun `json:"excluded"`
	Completeness
	// DLCs are the design load cases of the runs used (empty when the
	// runs are not named after one).
	DLCs []string `json:"dlcs,omitempty"`
	// Distribution is the wind distribution of the lifetime weights
	// (BatchWindDistribution).
	Distribution DistributionInfo          `json:"distribution"`
	Channels     []analysis.ChannelFatigue `json:"channels"`
	// EquivalentFrequency f_eq (Hz) of every DEL here, and the equivalent
	// cycle counts it means: N_eq = f_eq × T of a run (each run's DEL) and
	// f_eq × one year of operation for the lifetime DEL (the same load
	// counted over any operating time at that rate).
	EquivalentFrequency     float64 `json:"equivalent_frequency_hz"`
	EquivalentCyclesPerYear float64 `json:"equivalent_cycles_per_year"`
	// Notes say which runs were left out and why (start-up or shut-down
	// fatigue without events_per_year).
	Notes []string `json:"notes,omitempty"`
	// Window is the part of each run used: after its start-up transient
	// unless t_start was given.
	Window AnalysisWindow `json:"analysis_window"`
}

// batchEquivalentFrequency is f_eq of the batch DELs: 1 Hz, the convention
// of NREL's MLife, pCrunch and openfast_toolbox (analysis.DELOptions).
const batchEquivalentFrequency = 1.0

// secondsPerYear is a year of 8760 h.
const secondsPerYear = 8760 * 3600

// BatchDELs computes each run's short-term DELs of the channels (all when
// none is named) for the Wöhler exponents and the lifetime DEL as the m-power
// mean weighted by the distribution's bin probabilities; each run's bin speed
// is the nominal speed in its DLC run name (NominalWindSpeedOfRunName), else
// its mean of the wind channel. ultimate gives channels an ultimate load S_u
// for the Goodman mean-load correction; each channel's answer says whether it
// was applied, and a cycle with S_m ≥ S_u is EINVALID naming the channel.
//
// Start-up and shut-down fatigue (DLC 3.1, 4.1; IsEventFatigueDLC) adds per
// event, not by time: eventsPerYear (per DLC id,
// ParseEventsPerYear) adds those runs' damage, n_events per year times the
// mean damage of one event run, to the time-weighted runs' damage
// (analysis.LifetimeFatigue). Without a count, their runs are left out and
// Notes says so; a selection of nothing but event runs is EINVALID.
func (a *ResultAnalysis) BatchDELs(ctx context.Context, orgID, batchID string, q BatchQuery, channels []string, exponents []float64, ultimate map[string]float64, ds WindDistributionSpec, eventsPerYear map[string]float64) (*BatchDELs, error) {
	if len(exponents) == 0 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "exponents: give at least one Wöhler exponent, e.g. exponents=3,4,10")
	}
	for _, m := range exponents {
		if !(m > 0) || m > maxWohlerExponent {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "exponents: %g is not in (0, %d]", m, maxWohlerExponent)
		}
	}
	if err := checkUltimateLoads(ultimate); err != nil {
		return nil, err
	}
	dist, info, err := a.windDistribution(ctx, orgID, batchID, ds)
	if err != nil {
		return nil, err
	}
	if err := checkEventsPerYear(eventsPerYear); err != nil {
		return nil, err
	}
	all := q
	all.DLCs = nil
	b, err := a.batchRuns(ctx, orgID, batchID, all)
	if err != nil {
		return nil, err
	}
	sel, err := b.fatigueSelection(q.DLCs, eventsPerYear)
	if err != nil {
		return nil, err
	}
	res, err := sel.fatigue(channels, analysis.DELOptions{Exponents: exponents, UltimateLoads: ultimate}, dist)
	if err != nil {
		return nil, err
	}
	return &BatchDELs{BatchID: b.id, Skipped: b.skipped, Excluded: b.excluded, Completeness: b.complete, DLCs: sel.dlcs(), Distribution: info, Channels: res, Notes: sel.notes, Window: sel.window(),
		EquivalentFrequency: batchEquivalentFrequency, EquivalentCyclesPerYear: batchEquivalentFrequency * secondsPerYear}, nil
}

// fatigueSelection is the runs of a lifetime DEL: the time-weighted ones
// and the event cases with their counts.
type fatigueSelection struct {
	timeWeighted *batchRuns // nil when only events
	events       []eventRuns
	notes        []string
}

type eventRuns struct {
	dlc           string
	eventsPerYear float64
	runs          *batchRuns
}

// window states the windows of the selection's runs, time-weighted and
// event runs together.
func (f *fatigueSelection) window() AnalysisWindow {
	var all *batchRuns
	for _, part := range append([]*batchRuns{f.timeWeighted}, f.eventParts()...) {
		if part == nil {
			continue
		}
		if all == nil {
			all = &batchRuns{query: part.query, dlcTransients: part.dlcTransients}
		}
		all.runs = append(all.runs, part.runs...)
		all.names = append(all.names, part.names...)
		all.windows = append(all.windows, part.windows...)
	}
	if all == nil {
		return AnalysisWindow{}
	}
	return all.window()
}

func (f *fatigueSelection) eventParts() []*batchRuns {
	out := make([]*batchRuns, len(f.events))
	for i, e := range f.events {
		out[i] = e.runs
	}
	return out
}

func (f *fatigueSelection) dlcs() []string {
	var out []string
	if f.timeWeighted != nil {
		out = f.timeWeighted.dlcs()
	}
	for _, e := range f.events {
		out = append(out, e.dlc)
	}
	return out
}

// fatigueSelection splits b's runs into time-weighted fatigue runs (the
// DLCs named, else forFatigue's choice) and the event cases counted in
// eventsPerYear. Event runs without a count are left out with a note; a
// DLC named in dlc= without a count, or nothing time-weighted and no
// count, is EINVALID: time-weighting a 100 s start-up by the wind
// distribution gives a number without meaning.
func (b *batchRuns) fatigueSelection(named []string, eventsPerYear map[string]float64) (*fatigueSelection, error) {
	sel := &fatigueSelection{}
	if len(named) > 0 {
		if _, err := b.onlyDLCs(named, "dlc"); err != nil {
			return nil, err
		}
		for _, id := range named {
			if _, counted := eventsPerYear[id]; IsEventFatigueDLC(id) && !counted {
				return nil, turbinesim.Errorf(turbinesim.EINVALID, "dlc: DLC %s is start-up or shut-down fatigue, whose damage adds per event: give its number of events per year, e.g. events_per_year=%s:1000", id, id)
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(eventsPerYear)) {
		runs, err := b.onlyDLCs([]string{id}, "events_per_year")
		if err != nil {
			return nil, err
		}
		sel.events = append(sel.events, eventRuns{dlc: id, eventsPerYear: eventsPerYear[id], runs: runs})
	}
	timed := b.filter(func(name string) bool { return !IsEventFatigueDLC(DLCOfRunName(name)) })
	if len(named) > 0 {
		timed = timed.filter(func(name string) bool { return slices.Contains(named, DLCOfRunName(name)) })
	} else {
		for _, id := range b.dlcs() {
			if _, counted := eventsPerYear[id]; IsEventFatigueDLC(id) && !counted {
				sel.notes = append(sel.notes, fmt.Sprintf("DLC %s (start-up or shut-down fatigue) left out: its damage adds per event; give events_per_year=%s:N to include it", id, id))
			}
		}
	}
	if len(timed.runs) > 0 {
		if len(named) == 0 {
			var err error
			if timed, err = timed.forFatigue(); err != nil {
				return nil, err
			}
		}
		sel.timeWeighted = timed
	}
	if sel.timeWeighted == nil && len(sel.events) == 0 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "events_per_year: the batch's fatigue runs are start-up or shut-down events (DLC %s), whose damage adds per event, not by time; give their number of events per year, e.g. events_per_year=%s:1000",
			strings.Join(b.dlcs(), ", "), b.dlcs()[0])
	}
	return sel, nil
}

// IsEventFatigueDLC says whether the design load case is start-up or
// normal shut-down fatigue (IEC 61400-1 DLC 3.1, 4.1), counted per event.
func IsEventFatigueDLC(id string) bool {
	d, ok := dlc.Lookup(id)
	return ok && d.Analysis == dlc.Fatigue && (d.State == dlc.StartUp || d.State == dlc.NormalShutdown)
}

// ParseEventsPerYear reads "3.1:1000,4.1:1000" (the events_per_year
// query parameter): start-up and shut-down events per year per DLC.
func ParseEventsPerYear(specs []string) (map[string]float64, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	out := map[string]float64{}
	for _, s := range specs {
		id, v, ok := strings.Cut(s, ":")
		id = strings.TrimSpace(id)
		if !ok || id == "" {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "events_per_year: %q is not dlc:count (e.g. 3.1:1000)", s)
		}
		if _, dup := out[id]; dup {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "events_per_year: DLC %s given twice", id)
		}
		n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "events_per_year: %q: the count is not a number", s)
		}
		out[id] = n
	}
	return out, checkEventsPerYear(out)
}

// checkEventsPerYear: each DLC is start-up or shut-down fatigue, each
// count a finite number ≥ 0.
func checkEventsPerYear(events map[string]float64) error {
	for _, id := range slices.Sorted(maps.Keys(events)) {
		if !IsEventFatigueDLC(id) {
			return turbinesim.Errorf(turbinesim.EINVALID, "events_per_year: DLC %s is not start-up or shut-down fatigue (DLC 3.1 or 4.1); its damage is time-weighted", id)
		}
		if n := events[id]; !(n >= 0) || math.IsInf(n, 0) {
			return turbinesim.Errorf(turbinesim.EINVALID, "events_per_year: DLC %s: %g events per year is not a finite number ≥ 0", id, n)
		}
	}
	return nil
}

// fatigue computes the lifetime DELs of the selection.
func (f *fatigueSelection) fatigue(channels []string, opt analysis.DELOptions, dist analysis.WindDistribution) ([]analysis.ChannelFatigue, error) {
	if len(f.events) == 0 {
		return f.timeWeighted.fatigue(channels, opt, dist)
	}
	var inputs []analysis.FatigueInput
	first := f.events[0].runs
	if f.timeWeighted != nil {
		var err error
		if inputs, err = f.timeWeighted.fatigueInputs(channels); err != nil {
			return nil, err
		}
		first = f.timeWeighted
	}
	events := make([]analysis.EventCase, len(f.events))
	for i, e := range f.events {
		in, err := e.runs.fatigueInputs(channels)
		if err != nil {
			return nil, err
		}
		events[i] = analysis.EventCase{DLC: e.dlc, EventsPerYear: e.eventsPerYear, Runs: in}
	}
	if len(channels) == 0 {
		channels = first.runs[0].Record.Names
	}
	if err := checkUltimateChannels(opt.UltimateLoads, channels); err != nil {
		return nil, err
	}
	res, err := analysis.LifetimeFatigue(inputs, events, channels, opt, dist)
	if err != nil {
		return nil, goodmanInvalid(err)
	}
	return res, nil
}

// fatigueInputs are b's runs as fatigue inputs, each with its bin speed,
// after checking they record the channels.
func (b *batchRuns) fatigueInputs(channels []string) ([]analysis.FatigueInput, error) {
	wind := b.query.windChannel()
	inputs := make([]analysis.FatigueInput, 0, len(b.runs))
	for i, r := range b.runs {
		if err := CheckChannels(r.Record, channels); err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "job %s: %s", r.JobID, turbinesim.ErrorMessage(err))
		}
		st, err := analysis.Statistics(r.Record, []string{wind}, b.windows[i])
		if err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "job %s: wind speed: %v", r.JobID, err)
		}
		// The bin of a DLC run is the nominal speed of its inflow: the
		// seeds and yaw cases of one speed share that bin's probability
		//. Their measured means scatter around it
		// (turbulent boxes), and binning those would give every seed a bin
		// of its own, of a width set by chance.
		speed := st[0].Mean
		if v, ok := NominalWindSpeedOfRunName(b.names[i]); ok {
			speed = v
		}
		inputs = append(inputs, analysis.FatigueInput{ID: r.JobID, WindSpeed: speed, Record: r.Record, Window: b.windows[i]})
	}
	return inputs, nil
}

// fatigue computes the DELs over every run of b (see forFatigue for which
// runs those should be); opt.UltimateLoads name channels of channels.
func (b *batchRuns) fatigue(channels []string, opt analysis.DELOptions, dist analysis.WindDistribution) ([]analysis.ChannelFatigue, error) {
	inputs, err := b.fatigueInputs(channels)
	if err != nil {
		return nil, err
	}
	if len(channels) == 0 {
		channels = b.runs[0].Record.Names
	}
	if err := checkUltimateChannels(opt.UltimateLoads, channels); err != nil {
		return nil, err
	}
	res, err := analysis.BatchDEL(inputs, channels, opt, dist)
	if err != nil {
		return nil, goodmanInvalid(err)
	}
	return res, nil
}

// Run selections of an extreme-load table (BatchExtremes.Runs).
const (
	// ExtremeRunsUltimate: the runs of the type-U DLCs, each with its
	// γ_f, as the results page and the certification report take them.
	ExtremeRunsUltimate = "ultimate"
	// ExtremeRunsAll: every run (runs=all, or a batch without a type-U
	// DLC or without DLC run names).
	ExtremeRunsAll = "all"
	// ExtremeRunsDLC: the runs of the DLCs dlc= names.
	ExtremeRunsDLC = "dlc"
)

// BatchExtremes is the extreme-load table of a batch.
type BatchExtremes struct {
	BatchID  string        `json:"batch_id"`
	Skipped  []string      `json:"skipped"`
	Excluded []ExcludedRun `json:"excluded"`
	Completeness
	// Runs says which runs the extremes were searched in
	// (ExtremeRunsUltimate, ExtremeRunsAll or ExtremeRunsDLC) and DLCs
	// their design load cases; SafetyFactors says how γ_f was chosen:
	// "dlc" (each DLC's factor for its simulated extremes), "1"
	// (characteristic loads) or the factor given.
	Runs          string             `json:"runs"`
	DLCs          []string           `json:"dlcs,omitempty"`
	SafetyFactors string             `json:"safety_factors"`
	Extremes      []analysis.Extreme `json:"extremes"`
	// Window is the part of each run used: after its start-up transient
	// unless t_start was given.
	Window AnalysisWindow `json:"analysis_window"`
	// Extrapolation (extrapolate=<N>y) is DLC 1.1's loads extrapolated
	// to the return period; the simulated rows above are unchanged.
	Extrapolation *BatchExtrapolation `json:"extrapolation,omitempty"`
}

// SafetyFactorSpec chooses the partial safety factor for loads γ_f of an
// extreme-load table: "" or "1" characteristic loads; "dlc" each run's
// DLC's factor from the IEC 61400-1 table (solver/dlc: 1.35 normal, 1.1
// abnormal, ...); a number, that factor for every run.
type SafetyFactorSpec string

// factors returns the γ_f per DLC of the runs (nil for characteristic
// loads). A run without a DLC in its name cannot take a per-DLC factor:
// a silent 1 would understate its design load.
func (g SafetyFactorSpec) factors(b *batchRuns) (map[string]float64, error) {
	switch g {
	case "", "1":
		return nil, nil
	case "dlc":
		out := map[string]float64{}
		for i, r := range b.runs {
			id := DLCOfRunName(b.names[i])
			d, ok := dlc.Lookup(id)
			if !ok {
				return nil, turbinesim.Errorf(turbinesim.EINVALID, "gamma_f=dlc: job %s is not a run of a known DLC (run name %q)", r.JobID, b.names[i])
			}
			out[id] = SimulatedExtremeGamma(d.ID, d.Gamma)
		}
		return out, nil
	}
	v, err := strconv.ParseFloat(string(g), 64)
	if err != nil || !(v >= 1) || v > 3 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "gamma_f: %q is not dlc or a factor in [1, 3]", string(g))
	}
	out := map[string]float64{}
	for i := range b.runs {
		out[DLCOfRunName(b.names[i])] = v
	}
	return out, nil
}

// extrapolatedDLC is the design load case whose table γ_f (1.25) assumes
// loads extrapolated to a 50-year recurrence (IEC 61400-1 ed.4 Table 3
// note; solver/dlc's table says so in the DLC's notes).
const extrapolatedDLC = "1.1"

// SimulatedExtremeGamma is the partial safety factor for loads to apply to
// a DLC's simulated extremes given its table factor gamma. Every extreme
// here is a maximum (minimum) of the simulated records: nothing is
// extrapolated. DLC 1.1's reduced γ_f = 1.25 holds only for extrapolated
// loads, so its plain maxima are treated as the normal design situation
// they are, γ_f = 1.35 (analysis.SafetyFactorForClass("N")); every other
// DLC keeps its factor.
func SimulatedExtremeGamma(dlcID string, gamma float64) float64 {
	if dlcID != extrapolatedDLC {
		return gamma
	}
	normal, _ := analysis.SafetyFactorForClass("N")
	return max(gamma, normal)
}

// BatchExtremes finds the maximum and minimum of each channel over the
// batch with the run, time and concurrent values: characteristic loads,
// and design loads (γ_f × characteristic) when gamma asks for them; each
// extreme names its run's DLC when the run name carries one. ext, when it
// names a return period, adds DLC 1.1's extrapolated loads of the same
// channels (design = 1.25 × extrapolated whatever gamma is).
func (a *ResultAnalysis) BatchExtremes(ctx context.Context, orgID, batchID string, q BatchQuery, opt analysis.ExtremeOptions, gamma SafetyFactorSpec, ext ExtrapolationSpec) (*BatchExtremes, error) {
	years, err := ext.years()
	if err != nil {
		return nil, err
	}
	b, err := a.batchRuns(ctx, orgID, batchID, q)
	if err != nil {
		return nil, err
	}
	// Without dlc= and runs=all, the ultimate loads as the results page
	// and the certification report take them: the type-U DLCs' runs, each
	// DLC's γ_f unless gamma_f says otherwise.
	sel, selection, factors := b, ExtremeRunsAll, string(gamma)
	switch {
	case len(q.DLCs) > 0:
		selection = ExtremeRunsDLC
	case !q.AllRuns:
		u, gammas, fromAll := b.ultimate()
		if !fromAll {
			sel, selection = u, ExtremeRunsUltimate
		}
		if gamma == "" {
			opt.SafetyFactors, factors = gammas, "dlc"
		}
	}
	if factors == "" {
		factors = "1"
	}
	if gamma != "" || opt.SafetyFactors == nil {
		if opt.SafetyFactors, err = gamma.factors(sel); err != nil {
			return nil, err
		}
	}
	if opt.SafetyFactors == nil {
		factors = "1"
	}
	ex, err := sel.extremes(opt)
	if err != nil {
		return nil, err
	}
	res := &BatchExtremes{BatchID: b.id, Skipped: b.skipped, Excluded: b.excluded, Completeness: b.complete, Runs: selection, DLCs: sel.dlcs(),
		SafetyFactors: factors, Extremes: ex, Window: sel.window()}
	if years > 0 {
		if res.Extrapolation, err = a.extrapolate(ctx, orgID, b, opt.Channels, ext, years); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func (b *batchRuns) extremes(opt analysis.ExtremeOptions) ([]analysis.Extreme, error) {
	runs := make([]analysis.ExtremeRun, len(b.runs))
	for i, r := range b.runs {
		if err := CheckChannels(r.Record, append(slices.Clone(opt.Channels), opt.Concurrent...)); err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "job %s: %s", r.JobID, turbinesim.ErrorMessage(err))
		}
		runs[i] = analysis.ExtremeRun{ID: r.JobID, DLC: DLCOfRunName(b.names[i]), Record: r.Record, Window: b.windows[i]}
	}
	ex, err := analysis.Extremes(runs, opt)
	if err != nil {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "%v", err)
	}
	return ex, nil
}

// DLCOfRunName reads the design load case from a DLC run name such as
// DLC1.2_V12.0_S3_Y+0 (the batch service's naming); "" otherwise.
func DLCOfRunName(runName string) string {
	rest, ok := strings.CutPrefix(runName, "DLC")
	if !ok {
		return ""
	}
	dlc, _, _ := strings.Cut(rest, "_")
	return dlc
}

// NominalWindSpeedOfRunName reads the hub wind speed the inflow of a DLC
// run was generated for from its name (DLC1.2_V12.0_S3_Y+0 gives 12 m/s,
// solver/dlc's run naming); ok is false for any other name.
func NominalWindSpeedOfRunName(runName string) (v float64, ok bool) {
	if DLCOfRunName(runName) == "" {
		return 0, false
	}
	_, rest, found := strings.Cut(runName, "_V")
	if !found {
		return 0, false
	}
	field, _, _ := strings.Cut(rest, "_")
	v, err := strconv.ParseFloat(field, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// overviewLoadChannels are the usual OpenFAST load channels the batch
// overview tabulates (DELs and extremes) when the runs record them.
var overviewLoadChannels = []string{"RootMxc1", "RootMyc1", "RootMyb1", "LSShftMxa", "YawBrMyp", "TwrBsMxt", "TwrBsMyt"}

// overviewExponents are the Wöhler exponents of the overview's DEL table:
// welded steel (3, 4) and composite blades (10).
var overviewExponents = []float64{3, 4, 10}

// BatchOverview is the results page of a batch: its curves and, for the
// load channels it records, lifetime DELs and characteristic extremes.
type BatchOverview struct {
	BatchID string
	Runs    int
	Skipped int
	// Excluded are the finished runs left out as flagged.
	Excluded []ExcludedRun
	// Complete says whether every run has finished (Partial otherwise).
	Complete Completeness
	Curve    analysis.Curve
	// CurveNote says why there is no curve (a batch of events only).
	CurveNote string
	// Distribution weights the DELs (BatchWindDistribution).
	Distribution DistributionInfo
	// Loads are the load channels tabulated; LoadNote says why a table is
	// missing (no load channel, or the DELs could not be computed).
	Loads []string
	DELs  []analysis.ChannelFatigue
	// Extremes are the ultimate loads (batchRuns.ultimate: the runs of
	// type-U DLCs with their γ_f); ExtremesFromAll says the batch has no
	// such run and every run was used.
	Extremes        []analysis.Extreme
	ExtremesFromAll bool
	LoadNote        string
	// RunNames maps a run's job id to its run name (e.g.
	// DLC1.1_V25.0_S1_Y+10) for the runs the batch service named.
	RunNames map[string]string
	// Window is the part of each run the tables use: after its start-up
	// transient unless t_start was given.
	Window AnalysisWindow
}

// BatchOverview gathers the batch page's curve and load tables. A failure
// of the optional tables is reported in LoadNote rather than failing the
// page.
func (a *ResultAnalysis) BatchOverview(ctx context.Context, orgID, batchID string, q CurveQuery, ds WindDistributionSpec, eventsPerYear map[string]float64) (*BatchOverview, error) {
	dist, info, err := a.windDistribution(ctx, orgID, batchID, ds)
	if err != nil {
		return nil, err
	}
	if err := checkEventsPerYear(eventsPerYear); err != nil {
		return nil, err
	}
	b, cv, err := a.curve(ctx, orgID, batchID, q)
	curveNote := ""
	if err != nil {
		// A batch of events has no power curve; its loads still stand.
		if b == nil || turbinesim.ErrorCode(err) != turbinesim.EINVALID {
			return nil, err
		}
		curveNote = turbinesim.ErrorMessage(err)
	}
	o := &BatchOverview{BatchID: b.id, Runs: len(b.runs), Skipped: len(b.skipped), Excluded: b.excluded, Complete: b.complete, Curve: cv, CurveNote: curveNote, Distribution: info, Window: b.window(),
		RunNames: make(map[string]string, len(b.runs))}
	for i, r := range b.runs {
		if b.names[i] != "" {
			o.RunNames[r.JobID] = b.names[i]
		}
	}
	for _, n := range overviewLoadChannels {
		if slices.Contains(b.runs[0].Record.Names, n) {
			o.Loads = append(o.Loads, n)
		}
	}
	if len(o.Loads) == 0 {
		o.LoadNote = "No blade-root, shaft, yaw-bearing or tower-base load channels in the outputs: no DEL or extreme table."
		return o, nil
	}
	fb, err := b.fatigueSelection(q.DLCs, eventsPerYear)
	if err == nil {
		o.DELs, err = fb.fatigue(o.Loads, analysis.DELOptions{Exponents: overviewExponents}, dist)
	}
	if err != nil {
		o.LoadNote = "DELs not computed: " + turbinesim.ErrorMessage(err)
	} else {
		o.LoadNote = strings.Join(fb.notes, "; ")
	}
	ub, gammas, fromAll := b.ultimate()
	o.ExtremesFromAll = fromAll
	o.Extremes, _ = ub.extremes(analysis.ExtremeOptions{Channels: o.Loads, SafetyFactors: gammas})
	return o, nil
}

// ultimate selects the runs ultimate loads come from, as the certification
// report does: the runs of DLCs whose analysis type is U (IEC 61400-1
// Table 2; solver/dlc's table), each DLC with its partial safety factor
// γ_f for its simulated extremes (SimulatedExtremeGamma). A batch with no
// such run (fatigue DLCs only, or runs of no known DLC) keeps every run,
// with its DLC's factor where it has one, and fromAll says so.
func (b *batchRuns) ultimate() (runs *batchRuns, gammas map[string]float64, fromAll bool) {
	gammas = map[string]float64{}
	isU := func(name string) bool {
		d, ok := dlc.Lookup(DLCOfRunName(name))
		return ok && d.Analysis == dlc.Ultimate
	}
	if slices.ContainsFunc(b.names, isU) {
		u := b.filter(isU)
		for _, n := range u.names {
			d, _ := dlc.Lookup(DLCOfRunName(n))
			gammas[d.ID] = SimulatedExtremeGamma(d.ID, d.Gamma)
		}
		return u, gammas, false
	}
	for _, n := range b.names {
		if d, ok := dlc.Lookup(DLCOfRunName(n)); ok {
			gammas[d.ID] = max(SimulatedExtremeGamma(d.ID, d.Gamma), 1)
		}
	}
	if len(gammas) == 0 {
		gammas = nil
	}
	return b, gammas, true
}
