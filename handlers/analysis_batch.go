package handlers

import (
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/analysis"
)

// Batch result endpoints. A batch is the set of the caller's jobs with the
// same batch_id (there is no batches table yet); only succeeded jobs with
// an output take part, the others are listed in "skipped". Each run is
// reduced over its window (query t_start, default 0, to skip the start-up
// transient; t_end optional).

// BatchCurves is the answer of /power-curve and /curves: the binned
// curve, and for /curves the same bins as one array per quantity.
type BatchCurves struct {
	BatchID string         `json:"batch_id"`
	Runs    int            `json:"runs"`
	Skipped []string       `json:"skipped"`
	Curve   analysis.Curve `json:"curve"`
	// Series (curves only): wind_speed, power_kw, thrust_kn, cp, ct,
	// pitch_deg, rotor_speed_rpm, n, one value per bin.
	Series map[string][]float64 `json:"series,omitempty"`
}

// batchContext is what every batch endpoint needs: the usable runs and
// their window.
type batchContext struct {
	id      string
	runs    []*turbinesim.JobOutput
	names   []string // run names (batch_runs), "" when unnamed
	skipped []string
	window  analysis.Window
}

func (s *Server) batchOf(c echo.Context) (*batchContext, error) {
	rs, err := s.results()
	if err != nil {
		return nil, err
	}
	w, err := queryWindow(c)
	if err != nil {
		return nil, err
	}
	runs, err := rs.BatchRuns(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return nil, err
	}
	b := &batchContext{id: c.Param("id"), window: w, skipped: []string{}}
	for _, r := range runs {
		if r.Output == nil {
			b.skipped = append(b.skipped, r.JobID)
			continue
		}
		b.runs = append(b.runs, r.Output)
		b.names = append(b.names, r.RunName)
	}
	if len(b.runs) == 0 {
		return nil, turbinesim.Errorf(turbinesim.ECONFLICT, "batch has no finished job with an output yet")
	}
	return b, nil
}

func queryFloat(c echo.Context, name string) (*float64, error) {
	v := c.QueryParam(name)
	if v == "" {
		return nil, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "%s: %q is not a number", name, v)
	}
	return &f, nil
}

func queryWindow(c echo.Context) (analysis.Window, error) {
	start, err := queryFloat(c, "t_start")
	if err != nil {
		return analysis.Window{}, err
	}
	end, err := queryFloat(c, "t_end")
	if err != nil {
		return analysis.Window{}, err
	}
	return analysis.NewWindow(start, end), nil
}

func queryList(c echo.Context, name string) []string {
	var out []string
	for _, v := range c.QueryParams()[name] {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// curve bins the runs' mean values: binning=iec (0.5 m/s bins centred on
// multiples of bin_width, default) or grid (one bin per distinct run wind
// speed: the batch's own grid); rotor_radius (m) enables Cp and Ct,
// air_density defaults to 1.225 kg/m³; wind_channel defaults to Wind1VelX
// (RtVAvgxh for sheared inflow).
func (s *Server) curve(c echo.Context) (*batchContext, analysis.Curve, error) {
	b, err := s.batchOf(c)
	if err != nil {
		return nil, analysis.Curve{}, err
	}
	var opt analysis.CurveOptions
	switch c.QueryParam("binning") {
	case "", "iec":
		opt.Binning = analysis.BinIEC
	case "grid":
		opt.Binning = analysis.BinGrid
	default:
		return nil, analysis.Curve{}, turbinesim.Errorf(turbinesim.EINVALID, "binning: %q is not iec or grid", c.QueryParam("binning"))
	}
	for name, dst := range map[string]*float64{"bin_width": &opt.BinWidth, "rotor_radius": &opt.RotorRadius, "air_density": &opt.AirDensity} {
		v, err := queryFloat(c, name)
		if err != nil {
			return nil, analysis.Curve{}, err
		}
		if v != nil {
			if *v <= 0 {
				return nil, analysis.Curve{}, turbinesim.Errorf(turbinesim.EINVALID, "%s: must be positive", name)
			}
			*dst = *v
		}
	}
	points := make([]analysis.CurvePoint, 0, len(b.runs))
	for _, r := range b.runs {
		ch := curveChannels(r.Record, c.QueryParam("wind_channel"))
		p, err := analysis.RunCurvePoint(r.Record, b.window, ch)
		if err != nil {
			return nil, analysis.Curve{}, invalidAnalysis(turbinesim.Errorf(turbinesim.EINVALID, "job %s: %v", r.JobID, err))
		}
		points = append(points, p)
	}
	cv, err := analysis.PowerCurve(points, opt)
	if err != nil {
		return nil, analysis.Curve{}, turbinesim.Errorf(turbinesim.EINVALID, "%v", err)
	}
	return b, cv, nil
}

// curveChannels are OpenFAST's names, with optional ones dropped when the
// run did not record them (so every point agrees on what is missing).
func curveChannels(rec *analysis.Record, wind string) analysis.CurveChannels {
	ch := analysis.OpenFASTCurveChannels()
	if wind != "" {
		ch.WindSpeed = wind
	}
	has := func(n string) bool { _, err := rec.Index(n); return err == nil }
	if !has(ch.Thrust) {
		ch.Thrust = ""
	}
	if !has(ch.Pitch) {
		ch.Pitch = ""
	}
	if !has(ch.RotorSpeed) {
		ch.RotorSpeed = ""
	}
	return ch
}

// batchPowerCurve: GET /analysis/batches/{id}/power-curve.
func (s *Server) batchPowerCurve(c echo.Context) error {
	b, cv, err := s.curve(c)
	if err != nil {
		return err
	}
	if wantsCSV(c) {
		return writeCSV(c, "power-curve-"+b.id+".csv", curveTable(cv))
	}
	return c.JSON(http.StatusOK, BatchCurves{BatchID: b.id, Runs: len(b.runs), Skipped: b.skipped, Curve: cv})
}

// batchCurves: GET /analysis/batches/{id}/curves.
func (s *Server) batchCurves(c echo.Context) error {
	b, cv, err := s.curve(c)
	if err != nil {
		return err
	}
	if wantsCSV(c) {
		return writeCSV(c, "curves-"+b.id+".csv", curveTable(cv))
	}
	series := map[string][]float64{}
	for _, bin := range cv.Bins {
		series["wind_speed"] = append(series["wind_speed"], bin.WindSpeed)
		series["power_kw"] = append(series["power_kw"], bin.PowerKW)
		series["thrust_kn"] = append(series["thrust_kn"], bin.ThrustKN)
		series["cp"] = append(series["cp"], bin.Cp)
		series["ct"] = append(series["ct"], bin.Ct)
		series["pitch_deg"] = append(series["pitch_deg"], bin.PitchDeg)
		series["rotor_speed_rpm"] = append(series["rotor_speed_rpm"], bin.RotorSpeedRPM)
		series["n"] = append(series["n"], float64(bin.N))
	}
	return c.JSON(http.StatusOK, BatchCurves{BatchID: b.id, Runs: len(b.runs), Skipped: b.skipped, Curve: cv, Series: series})
}

func curveTable(cv analysis.Curve) [][]string {
	rows := [][]string{{"center", "low", "high", "n", "wind_speed", "power_kw", "thrust_kn", "pitch_deg", "rotor_speed_rpm", "cp", "ct"}}
	for _, b := range cv.Bins {
		rows = append(rows, []string{num(b.Center), num(b.Low), num(b.High), strconv.Itoa(b.N), num(b.WindSpeed),
			num(b.PowerKW), num(b.ThrustKN), num(b.PitchDeg), num(b.RotorSpeedRPM), num(b.Cp), num(b.Ct)})
	}
	return rows
}

// windDistribution reads distribution=rayleigh&mean_speed=V or
// distribution=weibull&k=K&a=A; without distribution, class=I|II|III
// (IEC Rayleigh, V_ave = 0.2·V_ref) or, by default, IEC class I.
func windDistribution(c echo.Context) (analysis.WindDistribution, error) {
	switch d := c.QueryParam("distribution"); d {
	case "rayleigh":
		v, err := queryFloat(c, "mean_speed")
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "mean_speed: required for distribution=rayleigh")
		}
		r := analysis.Rayleigh{MeanSpeed: *v}
		if err := r.Validate(); err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "mean_speed: %v", err)
		}
		return r, nil
	case "weibull":
		k, err := queryFloat(c, "k")
		if err != nil {
			return nil, err
		}
		a, err := queryFloat(c, "a")
		if err != nil {
			return nil, err
		}
		if k == nil || a == nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "k and a: required for distribution=weibull")
		}
		w := analysis.Weibull{Shape: *k, Scale: *a}
		if err := w.Validate(); err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "weibull: %v", err)
		}
		return w, nil
	case "":
		class := c.QueryParam("class")
		if class == "" {
			class = "I"
		}
		r, err := analysis.RayleighForClass(class)
		if err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "class: %v", err)
		}
		return r, nil
	default:
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "distribution: %q is not rayleigh or weibull", d)
	}
}

// BatchAEP is the answer of GET /analysis/batches/{id}/aep.
type BatchAEP struct {
	BatchID      string           `json:"batch_id"`
	Distribution DistributionInfo `json:"distribution"`
	AEP          analysis.AEP     `json:"aep"`
	Curve        analysis.Curve   `json:"curve"`
}

// DistributionInfo names the wind distribution an answer used.
type DistributionInfo struct {
	Kind      string  `json:"kind"` // rayleigh or weibull
	MeanSpeed float64 `json:"mean_speed,omitempty"`
	Shape     float64 `json:"k,omitempty"`
	Scale     float64 `json:"a,omitempty"`
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

// batchAEP: GET /analysis/batches/{id}/aep.
func (s *Server) batchAEP(c echo.Context) error {
	dist, err := windDistribution(c)
	if err != nil {
		return err
	}
	b, cv, err := s.curve(c)
	if err != nil {
		return err
	}
	aep, err := analysis.AnnualEnergy(cv.Bins, dist)
	if err != nil {
		return turbinesim.Errorf(turbinesim.EINVALID, "%v", err)
	}
	return c.JSON(http.StatusOK, BatchAEP{BatchID: b.id, Distribution: describeDistribution(dist), AEP: aep, Curve: cv})
}

// BatchDELs is the answer of GET /analysis/batches/{id}/del.
type BatchDELs struct {
	BatchID  string                    `json:"batch_id"`
	Skipped  []string                  `json:"skipped"`
	Channels []analysis.ChannelFatigue `json:"channels"`
}

// batchDEL: GET /analysis/batches/{id}/del?exponents=3,4,10&channels=...
// Each run's bin speed is its mean of wind_channel (Wind1VelX) over the
// window; the lifetime DEL is the m-power mean with the distribution's
// bin probabilities (analysis brief §4.4).
func (s *Server) batchDEL(c echo.Context) error {
	var exps []float64
	for _, e := range queryList(c, "exponents") {
		m, err := strconv.ParseFloat(e, 64)
		if err != nil || !(m > 0) || m > 30 {
			return turbinesim.Errorf(turbinesim.EINVALID, "exponents: %q is not a number in (0, 30]", e)
		}
		exps = append(exps, m)
	}
	if len(exps) == 0 {
		return turbinesim.Errorf(turbinesim.EINVALID, "exponents: give at least one Wöhler exponent, e.g. exponents=3,4,10")
	}
	dist, err := windDistribution(c)
	if err != nil {
		return err
	}
	b, err := s.batchOf(c)
	if err != nil {
		return err
	}
	res, err := batchFatigue(c, b, queryList(c, "channels"), exps, dist)
	if err != nil {
		return err
	}
	if wantsCSV(c) {
		rows := [][]string{{"channel", "unit", "exponent", "lifetime_del", "arithmetic_mean"}}
		for _, cf := range res {
			for _, l := range cf.Lifetime {
				rows = append(rows, []string{cf.Channel, cf.Unit, num(l.Exponent), num(l.DEL), num(l.ArithmeticMean)})
			}
		}
		return writeCSV(c, "del-"+b.id+".csv", rows)
	}
	return c.JSON(http.StatusOK, BatchDELs{BatchID: b.id, Skipped: b.skipped, Channels: res})
}

// batchFatigue runs BatchDEL over the batch; each run's bin speed is its
// mean of wind_channel (default Wind1VelX) over the window.
func batchFatigue(c echo.Context, b *batchContext, channels []string, exps []float64, dist analysis.WindDistribution) ([]analysis.ChannelFatigue, error) {
	wind := c.QueryParam("wind_channel")
	if wind == "" {
		wind = "Wind1VelX"
	}
	inputs := make([]analysis.FatigueInput, 0, len(b.runs))
	for _, r := range b.runs {
		if err := checkChannels(r.Record, channels); err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "job %s: %s", r.JobID, turbinesim.ErrorMessage(err))
		}
		st, err := analysis.Statistics(r.Record, []string{wind}, b.window)
		if err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "job %s: wind speed: %v", r.JobID, err)
		}
		inputs = append(inputs, analysis.FatigueInput{ID: r.JobID, WindSpeed: st[0].Mean, Record: r.Record, Window: b.window})
	}
	if len(channels) == 0 {
		channels = b.runs[0].Record.Names
	}
	res, err := analysis.BatchDEL(inputs, channels, analysis.DELOptions{Exponents: exps}, dist)
	if err != nil {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "%v", err)
	}
	return res, nil
}

// BatchExtremes is the answer of GET /analysis/batches/{id}/extremes.
type BatchExtremes struct {
	BatchID  string             `json:"batch_id"`
	Skipped  []string           `json:"skipped"`
	Extremes []analysis.Extreme `json:"extremes"`
}

// batchExtremes: GET /analysis/batches/{id}/extremes?channels=...&concurrent=...
// Characteristic loads (γ_f = 1); each extreme names its run's DLC when the
// run name (batch_runs) carries one.
func (s *Server) batchExtremes(c echo.Context) error {
	b, err := s.batchOf(c)
	if err != nil {
		return err
	}
	ex, err := batchExtremeTable(b, analysis.ExtremeOptions{Channels: queryList(c, "channels"), Concurrent: queryList(c, "concurrent")})
	if err != nil {
		return err
	}
	if wantsCSV(c) {
		rows := [][]string{{"channel", "unit", "kind", "characteristic", "safety_factor", "design", "job_id", "dlc", "time", "concurrent"}}
		for _, e := range ex {
			var conc []string
			for _, cv := range e.Concurrent {
				conc = append(conc, cv.Channel+"="+num(cv.Value))
			}
			rows = append(rows, []string{e.Channel, e.Unit, e.Kind, num(e.Characteristic), num(e.SafetyFactor), num(e.Design),
				e.RunID, e.DLC, num(e.Time), strings.Join(conc, ";")})
		}
		return writeCSV(c, "extremes-"+b.id+".csv", rows)
	}
	return c.JSON(http.StatusOK, BatchExtremes{BatchID: b.id, Skipped: b.skipped, Extremes: ex})
}

func batchExtremeTable(b *batchContext, opt analysis.ExtremeOptions) ([]analysis.Extreme, error) {
	runs := make([]analysis.ExtremeRun, len(b.runs))
	for i, r := range b.runs {
		if err := checkChannels(r.Record, append(slicesClone(opt.Channels), opt.Concurrent...)); err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "job %s: %s", r.JobID, turbinesim.ErrorMessage(err))
		}
		runs[i] = analysis.ExtremeRun{ID: r.JobID, DLC: dlcOf(b.names[i]), Record: r.Record, Window: b.window}
	}
	ex, err := analysis.Extremes(runs, opt)
	if err != nil {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "%v", err)
	}
	return ex, nil
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// dlcOf reads the design load case from a DLC run name such as
// DLC1.2_V12.0_S3_Y+0 (the batch service's naming); "" otherwise.
func dlcOf(runName string) string {
	rest, ok := strings.CutPrefix(runName, "DLC")
	if !ok {
		return ""
	}
	dlc, _, _ := strings.Cut(rest, "_")
	return dlc
}
