package handlers

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/views"
)

// batchResultsPage: GET /analysis/batches/{id}, the curves of a batch and
// its DEL and extreme tables (same query parameters as the JSON family).
func (s *Server) batchResultsPage(c echo.Context) error {
	ra, err := s.resultAnalysis()
	if err != nil {
		return err
	}
	q, dist, err := energyQuery(c)
	if err != nil {
		return err
	}
	ctx, orgID := c.Request().Context(), authFrom(c).Organization.ID
	var batch *turbinesim.Batch
	if s.svc.Batches != nil {
		// Jobs sharing a batch id without a batches row have no kind.
		if batch, err = s.svc.Batches.FindBatch(ctx, orgID, c.Param("id")); err != nil {
			if code := turbinesim.ErrorCode(err); code != turbinesim.ENOTFOUND && code != turbinesim.EINVALID {
				return err
			}
		}
	}
	field, events := eventsField(c, batch)
	o, err := ra.BatchOverview(ctx, orgID, c.Param("id"), q, dist, events)
	if err != nil {
		return err
	}
	cv := o.Curve
	// The links carry the page's query, without a refused events_per_year.
	query := c.QueryParams()
	if field.Query == "" {
		query = maps.Clone(query)
		query.Del("events_per_year")
	}
	// include_flagged travels with the page's links (report, spectra,
	// CSV), so that they answer with the same runs as the page.
	if q.IncludeFlagged {
		field.Query = strings.TrimPrefix(field.Query+"&include_flagged=true", "&")
	}
	toggle := maps.Clone(c.QueryParams())
	if q.IncludeFlagged {
		toggle.Del("include_flagged")
	} else {
		toggle.Set("include_flagged", "true")
	}
	r := views.BatchResults{BatchID: o.BatchID, Runs: o.Runs, Skipped: o.Skipped, Query: query.Encode(), Bins: curvePageTable(cv), DELNote: o.LoadNote, Events: field,
		Excluded: o.Excluded, IncludeFlagged: q.IncludeFlagged, FlaggedToggleHref: "/analysis/batches/" + o.BatchID + "?" + toggle.Encode()}
	if batch != nil && batch.Kind == turbinesim.BatchDLC {
		r.ReportHref = "/reports/batches/" + batch.ID
	}
	r.CurveNote = o.CurveNote
	r.Window = o.Window.String()
	r.Partial, r.RunsFinished, r.RunsTotal = o.Complete.Partial, o.Complete.RunsFinished, o.Complete.RunsTotal
	add := func(id, title, unit string, pick func(analysis.CurveBin) float64) {
		r.Charts = append(r.Charts, views.ChartSpec{ID: id,
			Option: views.LineChartOption(title, "Wind speed (m/s)", unit, views.XYSeries{Name: title, Points: binnedPoints(cv.Bins, pick), Markers: true})})
	}
	add("curve-power", "Power", "kW", func(b analysis.CurveBin) float64 { return b.PowerKW })
	if cv.HasThrust {
		add("curve-thrust", "Thrust", "kN", func(b analysis.CurveBin) float64 { return b.ThrustKN })
	}
	if cv.RotorArea > 0 {
		add("curve-cp", "Cp", "-", func(b analysis.CurveBin) float64 { return b.Cp })
		if cv.HasThrust {
			add("curve-ct", "Ct", "-", func(b analysis.CurveBin) float64 { return b.Ct })
		}
	}
	if cv.HasPitch {
		add("curve-pitch", "Blade pitch", "deg", func(b analysis.CurveBin) float64 { return b.PitchDeg })
	}
	if cv.HasRotorSpeed {
		add("curve-rotor-speed", "Rotor speed", "rpm", func(b analysis.CurveBin) float64 { return b.RotorSpeedRPM })
	}
	if len(o.DELs) > 0 {
		// Every DEL is at f_eq = 1 Hz: N_eq = one cycle per second of
		// operation, 3.15e7 a year.
		r.DELs = [][]string{{"channel", "unit", "m", "lifetime DEL", "f_eq (Hz)", "N_eq (cycles per year)", "arithmetic mean (for comparison)"}}
		for _, cf := range o.DELs {
			for _, l := range cf.Lifetime {
				r.DELs = append(r.DELs, []string{cf.Channel, cf.Unit, num(l.Exponent), fmtLoad(l.DEL), "1", "3.1536e+07", fmtLoad(l.ArithmeticMean)})
			}
		}
	}
	if len(o.Extremes) > 0 {
		r.Extremes = [][]string{{"channel", "unit", "kind", "DLC", "γf", "characteristic", "design", "job", "time (s)"}}
		if o.ExtremesFromAll {
			r.ExtremesNote = "This batch has no DLC of type U: the extremes are taken over every run, each with its DLC's γf (at least 1)."
		}
		for _, e := range o.Extremes {
			run := views.RunLink{Name: e.RunID, Href: "/jobs/" + e.RunID}
			if name := o.RunNames[e.RunID]; name != "" {
				run.Name = name
			}
			gamma, design := "1.00", e.Characteristic
			if e.SafetyFactor > 0 {
				gamma, design = strconv.FormatFloat(e.SafetyFactor, 'f', 2, 64), e.Design
			}
			r.Extremes = append(r.Extremes, []string{e.Channel, e.Unit, e.Kind, e.DLC, gamma, fmtLoad(e.Characteristic), fmtLoad(design), run.Name, fmtLoad(e.Time)})
			r.ExtremeRuns = append(r.ExtremeRuns, run)
		}
	}
	// The fatigue section: lifetime LDD charts of the drivetrain torque,
	// the same runs and weights as the linked endpoints.
	ld, err := ra.BatchLoadDuration(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"),
		results.SpectrumQuery{BatchQuery: q.BatchQuery, Distribution: dist, LevelBins: pageLevelBins, EventsPerYear: events})
	if err != nil {
		if turbinesim.ErrorCode(err) != turbinesim.EINVALID {
			return err
		}
		r.SpectraNote = "No load-duration chart: " + turbinesim.ErrorMessage(err)
	} else {
		for i, ch := range ld.Channels {
			data := make([][2]float64, len(ch.Duration))
			for k := range ch.Duration {
				data[k] = [2]float64{(ch.Edges[k] + ch.Edges[k+1]) / 2, ch.Duration[k]}
			}
			title := "Load duration, " + ch.Channel
			r.LoadDuration = append(r.LoadDuration, views.ChartSpec{ID: fmt.Sprintf("ldd-%d", i),
				Option: views.LineChartOption(title, "Level ("+ch.Unit+")", ch.DurationUnit+" per lifetime", views.XYSeries{Name: title, Points: data})})
		}
	}
	p := s.page(c, "Batch results", "batches")
	p.Charts = true
	return render(c, http.StatusOK, views.BatchResultsPage(p, r))
}

// binnedPoints are a curve's bins as chart points, one marker per bin at
// its mean wind speed, with a NaN point between two bins that empty bins
// separate (IEC 61400-12-1 bins hold no data there): the chart breaks the
// line instead of drawing one across speeds no run measured.
func binnedPoints(bins []analysis.CurveBin, pick func(analysis.CurveBin) float64) [][2]float64 {
	var out [][2]float64
	for i, b := range bins {
		if i > 0 && b.Low > bins[i-1].High+1e-9*math.Max(1, b.Low) {
			out = append(out, [2]float64{(bins[i-1].High + b.Low) / 2, math.NaN()})
		}
		out = append(out, [2]float64{b.WindSpeed, pick(b)})
	}
	return out
}

// eventsField reads a page's events_per_year field (ParseEventsPerYear)
// and, for a DLC batch (b non-nil), checks that each DLC counted is one of
// the batch's: a refused value is shown next to the field and left out of
// the page's links and analyses (the map is nil), so the engineer sees
// why instead of an error page.
func eventsField(c echo.Context, b *turbinesim.Batch) (views.EventsField, map[string]float64) {
	value := strings.Join(queryList(c, "events_per_year"), ",")
	f := views.EventsField{Value: value}
	for name, vs := range c.QueryParams() {
		if name == "events_per_year" {
			continue
		}
		for _, v := range vs {
			f.Keep = append(f.Keep, [2]string{name, v})
		}
	}
	slices.SortFunc(f.Keep, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	events, err := results.ParseEventsPerYear(queryList(c, "events_per_year"))
	if err != nil {
		f.Problem = turbinesim.ErrorMessage(err)
		return f, nil
	}
	if b != nil && b.Kind == turbinesim.BatchDLC {
		var stored storedDLCRequest
		if json.Unmarshal(b.Request, &stored) == nil && len(stored.Request.DLCs) > 0 {
			for id := range events {
				if !slices.Contains(stored.Request.DLCs, id) {
					f.Problem = fmt.Sprintf("events_per_year: DLC %s is not in this batch (its DLCs are %s)", id, strings.Join(stored.Request.DLCs, ", "))
					return f, nil
				}
			}
		}
	}
	if len(events) > 0 {
		f.Query = url.Values{"events_per_year": {value}}.Encode()
	}
	return f, events
}

// pageLevelBins are the load levels of the results page's LDD charts:
// enough for the shape, few enough to read (the endpoints default to 100).
const pageLevelBins = 20

func fmtLoad(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
