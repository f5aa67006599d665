package handlers

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/analysis"
)

// Batch result endpoints: the query string becomes a results.BatchQuery
// (t_start, t_end, wind_channel, dlc), CurveQuery (binning, bin_width,
// rotor_radius, air_density) or WindDistributionSpec (distribution,
// mean_speed, k, a, class), and results.ResultAnalysis answers.

// Answer types of the batch endpoints (the service's own).
type (
	BatchCurves      = results.BatchCurves
	BatchAEP         = results.BatchAEP
	BatchDELs        = results.BatchDELs
	BatchExtremes    = results.BatchExtremes
	DistributionInfo = results.DistributionInfo
)

// batchQuery reads t_start, t_end, wind_channel and dlc.
func batchQuery(c echo.Context) (results.BatchQuery, error) {
	var start, end *float64
	if err := queryFloats(c, map[string]**float64{"t_start": &start, "t_end": &end}); err != nil {
		return results.BatchQuery{}, err
	}
	flagged, err := includeFlaggedQuery(c)
	if err != nil {
		return results.BatchQuery{}, err
	}
	return results.BatchQuery{Window: analysis.NewWindow(start, end), WindChannel: c.QueryParam("wind_channel"),
		DLCs: queryList(c, "dlc"), IncludeFlagged: flagged}, nil
}

// includeFlaggedQuery reads include_flagged (true or false, default
// false): whether runs that failed a plausibility check take part.
func includeFlaggedQuery(c echo.Context) (bool, error) {
	switch v := c.QueryParam("include_flagged"); v {
	case "", "false", "0":
		return false, nil
	case "true", "1", "on":
		return true, nil
	default:
		return false, turbinesim.Errorf(turbinesim.EINVALID, "include_flagged: %q is not true or false", v)
	}
}

// curveQuery reads a batchQuery plus binning, bin_width, rotor_radius and
// air_density.
func curveQuery(c echo.Context) (results.CurveQuery, error) {
	bq, err := batchQuery(c)
	if err != nil {
		return results.CurveQuery{}, err
	}
	q := results.CurveQuery{BatchQuery: bq, Binning: c.QueryParam("binning")}
	err = queryFloats(c, map[string]**float64{"bin_width": &q.BinWidth, "rotor_radius": &q.RotorRadius, "air_density": &q.AirDensity})
	return q, err
}

// windDistributionQuery reads distribution, mean_speed, k, a and class.
func windDistributionQuery(c echo.Context) (results.WindDistributionSpec, error) {
	d := results.WindDistributionSpec{Kind: c.QueryParam("distribution"), Class: c.QueryParam("class")}
	err := queryFloats(c, map[string]**float64{"mean_speed": &d.MeanSpeed, "k": &d.Shape, "a": &d.Scale})
	return d, err
}

// energyQuery reads a curveQuery and a windDistributionQuery: what the AEP
// and the batch page need.
func energyQuery(c echo.Context) (results.CurveQuery, results.WindDistributionSpec, error) {
	q, err := curveQuery(c)
	if err != nil {
		return q, results.WindDistributionSpec{}, err
	}
	dist, err := windDistributionQuery(c)
	return q, dist, err
}

// batchCurves: GET /analysis/batches/{id}/power-curve (withSeries false)
// and /curves (true).
func (s *Server) batchCurves(withSeries bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		ra, err := s.resultAnalysis()
		if err != nil {
			return err
		}
		q, err := curveQuery(c)
		if err != nil {
			return err
		}
		res, err := ra.BatchCurves(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), q, withSeries)
		if err != nil {
			return err
		}
		if wantsCSV(c) {
			name := "power-curve-"
			if withSeries {
				name = "curves-"
			}
			return writeCSV(c, name+res.BatchID+".csv", curveTable(res.Curve))
		}
		return c.JSON(http.StatusOK, res)
	}
}

func curveTable(cv analysis.Curve) [][]string {
	rows := [][]string{{"center", "low", "high", "n", "wind_speed", "power_kw", "thrust_kn", "pitch_deg", "rotor_speed_rpm", "cp", "ct"}}
	for _, b := range cv.Bins {
		rows = append(rows, []string{num(b.Center), num(b.Low), num(b.High), strconv.Itoa(b.N), num(b.WindSpeed),
			num(b.PowerKW), num(b.ThrustKN), num(b.PitchDeg), num(b.RotorSpeedRPM), num(b.Cp), num(b.Ct)})
	}
	return rows
}

// curvePageTable is the bin table of the batch results page: headers with
// units and values rounded for reading (the CSV keeps curveTable's full
// precision); the page showed "2.696340845493644" and snake_case keys, and
// the table ran past the page at 1400 px.
func curvePageTable(cv analysis.Curve) [][]string {
	f := func(v float64, decimals int) string { return strconv.FormatFloat(v, 'f', decimals, 64) }
	rows := [][]string{{"Bin (m/s)", "Runs", "Mean wind (m/s)", "Power (kW)", "Power std (kW)", "Thrust (kN)", "Thrust std (kN)", "Pitch (deg)", "Rotor speed (rpm)", "Cp (-)", "Ct (-)"}}
	for _, b := range cv.Bins {
		rows = append(rows, []string{f(b.Low, 2) + "–" + f(b.High, 2), strconv.Itoa(b.N), f(b.WindSpeed, 2),
			f(b.PowerKW, 1), f(b.PowerStdKW, 1), f(b.ThrustKN, 1), f(b.ThrustStdKN, 1), f(b.PitchDeg, 2), f(b.RotorSpeedRPM, 2), f(b.Cp, 3), f(b.Ct, 3)})
	}
	return rows
}

// batchAEP: GET /analysis/batches/{id}/aep.
func (s *Server) batchAEP(c echo.Context) error {
	ra, err := s.resultAnalysis()
	if err != nil {
		return err
	}
	q, dist, err := energyQuery(c)
	if err != nil {
		return err
	}
	availability, err := queryFloat(c, "availability")
	if err != nil {
		return err
	}
	res, err := ra.BatchAEP(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), q, dist, availability)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, res)
}

// batchDEL: GET /analysis/batches/{id}/del?exponents=3,4,10&channels=...&ultimate_loads=RootMyb1:2e4&events_per_year=3.1:1000,4.1:1000
func (s *Server) batchDEL(c echo.Context) error {
	ra, err := s.resultAnalysis()
	if err != nil {
		return err
	}
	var exps []float64
	for _, e := range queryList(c, "exponents") {
		m, err := strconv.ParseFloat(e, 64)
		if err != nil {
			return turbinesim.Errorf(turbinesim.EINVALID, "exponents: %q is not a number", e)
		}
		exps = append(exps, m)
	}
	dist, err := windDistributionQuery(c)
	if err != nil {
		return err
	}
	q, err := batchQuery(c)
	if err != nil {
		return err
	}
	ultimate, err := results.ParseUltimateLoads(queryList(c, "ultimate_loads"))
	if err != nil {
		return err
	}
	events, err := results.ParseEventsPerYear(queryList(c, "events_per_year"))
	if err != nil {
		return err
	}
	res, err := ra.BatchDELs(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), q, queryList(c, "channels"), exps, ultimate, dist, events)
	if err != nil {
		return err
	}
	if wantsCSV(c) {
		header := []string{"channel", "unit", "exponent", "lifetime_del", "arithmetic_mean", "goodman", "ultimate_load"}
		if len(events) > 0 {
			header = append(header, "time_weighted_del", "events")
		}
		rows := [][]string{header}
		for _, cf := range res.Channels {
			su := ""
			if cf.Goodman {
				su = num(cf.UltimateLoad)
			}
			for _, l := range cf.Lifetime {
				row := []string{cf.Channel, cf.Unit, num(l.Exponent), num(l.DEL), num(l.ArithmeticMean), strconv.FormatBool(cf.Goodman), su}
				if len(events) > 0 {
					parts := make([]string, len(l.Events))
					for i, e := range l.Events {
						parts[i] = fmt.Sprintf("%s:%s", e.DLC, num(e.EventsPerYear))
					}
					row = append(row, num(l.TimeWeightedDEL), strings.Join(parts, ";"))
				}
				rows = append(rows, row)
			}
		}
		return writeCSV(c, "del-"+res.BatchID+".csv", rows)
	}
	return c.JSON(http.StatusOK, res)
}

// batchExtremes: GET /analysis/batches/{id}/extremes?channels=...&concurrent=...&runs=ultimate|all&extrapolate=50y
func (s *Server) batchExtremes(c echo.Context) error {
	ra, err := s.resultAnalysis()
	if err != nil {
		return err
	}
	q, err := batchQuery(c)
	if err != nil {
		return err
	}
	switch v := c.QueryParam("runs"); v {
	case "", results.ExtremeRunsUltimate:
	case results.ExtremeRunsAll:
		q.AllRuns = true
	default:
		return turbinesim.Errorf(turbinesim.EINVALID, "runs: %q is not ultimate or all", v)
	}
	dist, err := windDistributionQuery(c)
	if err != nil {
		return err
	}
	res, err := ra.BatchExtremes(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), q,
		analysis.ExtremeOptions{Channels: queryList(c, "channels"), Concurrent: queryList(c, "concurrent")},
		results.SafetyFactorSpec(c.QueryParam("gamma_f")),
		results.ExtrapolationSpec{Period: c.QueryParam("extrapolate"), Distribution: dist})
	if err != nil {
		return err
	}
	if wantsCSV(c) {
		rows := [][]string{{"channel", "unit", "kind", "characteristic", "safety_factor", "design", "job_id", "dlc", "time", "concurrent"}}
		for _, e := range res.Extremes {
			var conc []string
			for _, cv := range e.Concurrent {
				conc = append(conc, cv.Channel+"="+num(cv.Value))
			}
			rows = append(rows, []string{e.Channel, e.Unit, e.Kind, num(e.Characteristic), num(e.SafetyFactor), num(e.Design),
				e.RunID, e.DLC, num(e.Time), strings.Join(conc, ";")})
		}
		// Extrapolated loads: no run, time or concurrent values; the job
		// column names the extrapolation.
		if x := res.Extrapolation; x != nil {
			for _, l := range x.Loads {
				rows = append(rows, []string{l.Channel, l.Unit, l.Kind, num(l.Characteristic), num(l.SafetyFactor), num(l.Design),
					"extrapolated-" + num(x.ReturnPeriodYears) + "y", x.DLC, "", ""})
			}
		}
		return writeCSV(c, "extremes-"+res.BatchID+".csv", rows)
	}
	return c.JSON(http.StatusOK, res)
}
