package handlers

import (
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/analysis"
)

// Result endpoints (issue 9): per-job channels, time series, statistics,
// spectra and the raw output; per-batch curves, AEP, DELs and extremes.
// The maths is solver/analysis; these handlers parse, call and render.

// Limits of the result endpoints, documented in the OpenAPI entries.
const (
	// maxSeriesPoints bounds channels × points of one time-series answer
	// (an envelope counts two points per bucket).
	maxSeriesPoints = 400_000
	// maxSpectrumChannels bounds the channels of one spectrum request.
	maxSpectrumChannels = 10
)

// analysisRoutes registers the result endpoints.
func (s *Server) analysisRoutes(authed []echo.MiddlewareFunc) {
	e := s.echo
	e.GET("/analysis/jobs/:id/channels", s.jobChannels, authed...)
	e.POST("/analysis/jobs/:id/time-series", s.jobTimeSeries, authed...)
	e.POST("/analysis/jobs/:id/statistics", s.jobStatistics, authed...)
	e.GET("/analysis/jobs/:id/output/download", s.jobOutputDownload, authed...)
	e.POST("/analysis/jobs/:id/spectrum", s.jobSpectrum, authed...)
	e.GET("/analysis/batches/:id/power-curve", s.batchPowerCurve, authed...)
	e.GET("/analysis/batches/:id/curves", s.batchCurves, authed...)
	e.GET("/analysis/batches/:id/aep", s.batchAEP, authed...)
	e.GET("/analysis/batches/:id/del", s.batchDEL, authed...)
	e.GET("/analysis/batches/:id/extremes", s.batchExtremes, authed...)
	// Pages (handlers/analysis_pages.go), listed in htmlOnlyRoutes.
	e.GET("/analysis/jobs/:id", s.jobResultsPage, authed...)
	e.GET("/analysis/compare", s.compareJobsPage, authed...)
	e.GET("/analysis/batches/:id", s.batchResultsPage, authed...)
}

func (s *Server) results() (turbinesim.ResultService, error) {
	if s.svc.Results == nil {
		return nil, notImplemented
	}
	return s.svc.Results, nil
}

func (s *Server) jobOutputOf(c echo.Context) (*turbinesim.JobOutput, error) {
	rs, err := s.results()
	if err != nil {
		return nil, err
	}
	return rs.JobOutput(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
}

// invalidAnalysis turns an error of solver/analysis about the request's
// values (empty window, segment longer than the record, ...) into 422.
func invalidAnalysis(err error) error {
	if err == nil || turbinesim.ErrorCode(err) != turbinesim.EINTERNAL {
		return err
	}
	var te *turbinesim.Error
	if errors.As(err, &te) {
		return err
	}
	return turbinesim.Errorf(turbinesim.EINVALID, "%s", err.Error())
}

// checkChannels returns 422 listing every requested channel the record
// does not have.
func checkChannels(rec *analysis.Record, names []string) error {
	var unknown []string
	for _, n := range names {
		if !slices.Contains(rec.Names, n) {
			unknown = append(unknown, strconv.Quote(n))
		}
	}
	if len(unknown) > 0 {
		return turbinesim.Errorf(turbinesim.EINVALID, "unknown channels: %s", strings.Join(unknown, ", "))
	}
	return nil
}

// ChannelInfo is one output channel.
type ChannelInfo struct {
	Name string `json:"name"`
	Unit string `json:"unit"`
}

// jobChannels: GET /analysis/jobs/{id}/channels.
func (s *Server) jobChannels(c echo.Context) error {
	out, err := s.jobOutputOf(c)
	if err != nil {
		return err
	}
	chans := make([]ChannelInfo, len(out.Record.Names))
	for i, n := range out.Record.Names {
		chans[i] = ChannelInfo{Name: n, Unit: out.Record.Unit(i)}
	}
	return c.JSON(http.StatusOK, chans)
}

// TimeSeriesRequest is the body of POST /analysis/jobs/{id}/time-series.
type TimeSeriesRequest struct {
	Channels         []string `json:"channels"`
	DownsampleFactor int      `json:"downsample_factor"`
	Method           string   `json:"method"`
	TStart           *float64 `json:"t_start"`
	TEnd             *float64 `json:"t_end"`
}

// Series is one channel of a time-series answer; Time is set only by the
// envelope method, where each channel keeps its peaks at its own instants.
type Series struct {
	Name   string    `json:"name"`
	Unit   string    `json:"unit"`
	Time   []float64 `json:"time,omitempty"`
	Values []float64 `json:"values"`
}

// TimeSeries is the answer of POST /analysis/jobs/{id}/time-series.
type TimeSeries struct {
	Method           string    `json:"method"`
	DownsampleFactor int       `json:"downsample_factor"`
	Rows             int       `json:"rows"` // samples of the window before downsampling
	Time             []float64 `json:"time,omitempty"`
	Series           []Series  `json:"series"`
}

// jobTimeSeries: POST /analysis/jobs/{id}/time-series.
func (s *Server) jobTimeSeries(c echo.Context) error {
	var req TimeSeriesRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if len(req.Channels) == 0 {
		return turbinesim.Errorf(turbinesim.EINVALID, "channels: name at least one channel")
	}
	if req.DownsampleFactor == 0 {
		req.DownsampleFactor = 1
	}
	if req.DownsampleFactor < 1 {
		return turbinesim.Errorf(turbinesim.EINVALID, "downsample_factor: must be at least 1")
	}
	if req.Method == "" {
		req.Method = "decimate"
	}
	if req.Method != "decimate" && req.Method != "envelope" {
		return turbinesim.Errorf(turbinesim.EINVALID, "method: %q is not decimate or envelope", req.Method)
	}
	out, err := s.jobOutputOf(c)
	if err != nil {
		return err
	}
	rec := out.Record
	if err := checkChannels(rec, req.Channels); err != nil {
		return err
	}
	w := analysis.NewWindow(req.TStart, req.TEnd)
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return invalidAnalysis(err)
	}
	rows := hi - lo
	k := req.DownsampleFactor
	points := (rows + k - 1) / k
	if req.Method == "envelope" {
		points *= 2
	}
	if points*len(req.Channels) > maxSeriesPoints {
		perPoint := 1
		if req.Method == "envelope" {
			perPoint = 2
		}
		need := (rows*perPoint*len(req.Channels) + maxSeriesPoints - 1) / maxSeriesPoints
		return turbinesim.Errorf(turbinesim.EINVALID,
			"downsample_factor: %d channels × %d samples exceed %d points; use downsample_factor ≥ %d or a shorter window",
			len(req.Channels), rows, maxSeriesPoints, need)
	}
	var traces []analysis.Trace
	if req.Method == "envelope" {
		traces, err = analysis.Envelope(rec, req.Channels, w, (rows+k-1)/k)
	} else {
		traces, err = analysis.Decimate(rec, req.Channels, w, k)
	}
	if err != nil {
		return invalidAnalysis(err)
	}
	resp := TimeSeries{Method: req.Method, DownsampleFactor: k, Rows: rows, Series: make([]Series, len(traces))}
	for i, tr := range traces {
		resp.Series[i] = Series{Name: tr.Name, Unit: tr.Unit, Values: tr.Values}
		if req.Method == "envelope" {
			resp.Series[i].Time = tr.Time
		}
	}
	if req.Method == "decimate" && len(traces) > 0 {
		resp.Time = traces[0].Time
	}
	if wantsCSV(c) {
		return writeCSV(c, "time-series-"+out.JobID+".csv", timeSeriesTable(resp))
	}
	return c.JSON(http.StatusOK, resp)
}

// timeSeriesTable is a time-series answer as CSV rows. Decimated series
// share one time column, so the table is wide (Time, then one column per
// channel, headed "name (unit)", as a spreadsheet plots it); an envelope
// gives each series its own times, so it is long: channel, unit, time,
// value.
func timeSeriesTable(r TimeSeries) [][]string {
	if r.Time != nil {
		head := []string{"Time (s)"}
		for _, s := range r.Series {
			head = append(head, s.Name+" ("+s.Unit+")")
		}
		rows := [][]string{head}
		for i, t := range r.Time {
			row := []string{num(t)}
			for _, s := range r.Series {
				row = append(row, num(s.Values[i]))
			}
			rows = append(rows, row)
		}
		return rows
	}
	rows := [][]string{{"channel", "unit", "time", "value"}}
	for _, s := range r.Series {
		for i, v := range s.Values {
			rows = append(rows, []string{s.Name, s.Unit, num(s.Time[i]), num(v)})
		}
	}
	return rows
}

// StatisticsRequest is the body of POST /analysis/jobs/{id}/statistics.
type StatisticsRequest struct {
	Channels             []string  `json:"channels"`
	TStart               *float64  `json:"t_start"`
	TEnd                 *float64  `json:"t_end"`
	WohlerExponents      []float64 `json:"wohler_exponents"`
	IncludeExtremeTimes  bool      `json:"include_extreme_times"`
	IncludeHigherMoments bool      `json:"include_higher_moments"`
}

// ChannelStatistics is one row of the statistics table. Std is the
// population standard deviation (divide by N).
type ChannelStatistics struct {
	Name      string         `json:"name"`
	Unit      string         `json:"unit"`
	N         int            `json:"n"`
	Min       float64        `json:"min"`
	Max       float64        `json:"max"`
	Mean      float64        `json:"mean"`
	Std       float64        `json:"std"`
	TimeOfMin *float64       `json:"time_of_min,omitempty"`
	TimeOfMax *float64       `json:"time_of_max,omitempty"`
	Skewness  *float64       `json:"skewness,omitempty"`
	Kurtosis  *float64       `json:"kurtosis,omitempty"`
	DELs      []analysis.DEL `json:"dels,omitempty"`
}

// StatisticsResponse is the answer of POST /analysis/jobs/{id}/statistics.
type StatisticsResponse struct {
	Start    float64             `json:"t_start"` // first sample used, s
	End      float64             `json:"t_end"`   // last sample used, s
	Channels []ChannelStatistics `json:"channels"`
}

// jobStatistics: POST /analysis/jobs/{id}/statistics; CSV with
// Accept: text/csv or ?format=csv.
func (s *Server) jobStatistics(c echo.Context) error {
	var req StatisticsRequest
	if c.Request().ContentLength != 0 {
		if err := decodeJSON(c, &req); err != nil {
			return err
		}
	}
	for _, m := range req.WohlerExponents {
		if !(m > 0) || m > 30 {
			return turbinesim.Errorf(turbinesim.EINVALID, "wohler_exponents: %g is not in (0, 30]", m)
		}
	}
	out, err := s.jobOutputOf(c)
	if err != nil {
		return err
	}
	rec := out.Record
	if err := checkChannels(rec, req.Channels); err != nil {
		return err
	}
	w := analysis.NewWindow(req.TStart, req.TEnd)
	stats, err := analysis.Statistics(rec, req.Channels, w)
	if err != nil {
		return invalidAnalysis(err)
	}
	resp := StatisticsResponse{Channels: make([]ChannelStatistics, len(stats))}
	for i, st := range stats {
		row := ChannelStatistics{Name: st.Name, Unit: st.Unit, N: st.N, Min: st.Min, Max: st.Max, Mean: st.Mean, Std: st.Std}
		if req.IncludeExtremeTimes {
			row.TimeOfMin, row.TimeOfMax = &st.TimeOfMin, &st.TimeOfMax
		}
		if req.IncludeHigherMoments {
			row.Skewness, row.Kurtosis = &st.Skewness, &st.Kurtosis
		}
		if len(req.WohlerExponents) > 0 {
			dels, err := analysis.ChannelDEL(rec, st.Name, w, analysis.DELOptions{Exponents: req.WohlerExponents})
			if err != nil {
				return invalidAnalysis(fmt.Errorf("DEL of %s: %w", st.Name, err))
			}
			row.DELs = dels
		}
		resp.Channels[i] = row
		resp.Start, resp.End = st.Start, st.End
	}
	if wantsCSV(c) {
		return writeCSV(c, "statistics-"+out.JobID+".csv", statisticsTable(resp, req.WohlerExponents))
	}
	return c.JSON(http.StatusOK, resp)
}

// statisticsTable is the statistics answer as CSV rows (header first).
func statisticsTable(r StatisticsResponse, exponents []float64) [][]string {
	head := []string{"channel", "unit", "n", "min", "max", "mean", "std"}
	var opt func(ChannelStatistics) []string
	if len(r.Channels) > 0 {
		first := r.Channels[0]
		if first.TimeOfMin != nil {
			head = append(head, "time_of_min", "time_of_max")
		}
		if first.Skewness != nil {
			head = append(head, "skewness", "kurtosis")
		}
		for _, m := range exponents {
			head = append(head, "del_m"+num(m))
		}
		opt = func(cs ChannelStatistics) []string {
			var out []string
			if cs.TimeOfMin != nil {
				out = append(out, num(*cs.TimeOfMin), num(*cs.TimeOfMax))
			}
			if cs.Skewness != nil {
				out = append(out, num(*cs.Skewness), num(*cs.Kurtosis))
			}
			for _, d := range cs.DELs {
				out = append(out, num(d.Value))
			}
			return out
		}
	}
	rows := [][]string{head}
	for _, cs := range r.Channels {
		row := []string{cs.Name, cs.Unit, strconv.Itoa(cs.N), num(cs.Min), num(cs.Max), num(cs.Mean), num(cs.Std)}
		rows = append(rows, append(row, opt(cs)...))
	}
	return rows
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// wantsCSV: ?format=csv or an Accept header naming text/csv.
func wantsCSV(c echo.Context) bool {
	return c.QueryParam("format") == "csv" || strings.Contains(c.Request().Header.Get("Accept"), "text/csv")
}

func writeCSV(c echo.Context, filename string, rows [][]string) error {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	h.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": filename}))
	c.Response().WriteHeader(http.StatusOK)
	w := csv.NewWriter(c.Response())
	for _, r := range rows {
		// Cells starting with a formula character are prefixed so that a
		// spreadsheet shows channel names rather than evaluating them.
		for i, cell := range r {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				if _, err := strconv.ParseFloat(cell, 64); err != nil {
					r[i] = "'" + cell
				}
			}
		}
		if err := w.Write(r); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

// jobOutputDownload: GET /analysis/jobs/{id}/output/download, the original
// .outb/.out as an attachment.
func (s *Server) jobOutputDownload(c echo.Context) error {
	rs, err := s.results()
	if err != nil {
		return err
	}
	path, name, release, err := rs.OpenOutputFile(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	defer release()
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("opening output: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("opening output: %w", err)
	}
	base := filepath.Base(filepath.FromSlash(name))
	h := c.Response().Header()
	h.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": base}))
	h.Set(echo.HeaderContentType, "application/octet-stream")
	http.ServeContent(c.Response(), c.Request(), base, st.ModTime(), f)
	return nil
}

// SpectrumRequest is the body of POST /analysis/jobs/{id}/spectrum.
type SpectrumRequest struct {
	Channel       string   `json:"channel"`
	Channels      []string `json:"channels"`
	Method        string   `json:"method"`         // "welch" (default) or "fft"
	Window        string   `json:"window"`         // welch: hann (default), hamming, blackman, rectangular
	SegmentLength int      `json:"segment_length"` // welch: samples; 0 = automatic
	Overlap       *float64 `json:"overlap"`        // welch: fraction in [0, 0.95]; default 0.5
	Detrend       string   `json:"detrend"`        // none, mean (default), linear
	TStart        *float64 `json:"t_start"`
	TEnd          *float64 `json:"t_end"`
}

// Spectrum is one channel's spectrum; Values are amplitudes (channel
// units, fft) or power spectral density (unit²/Hz, welch).
type Spectrum struct {
	Name          string    `json:"name"`
	Unit          string    `json:"unit"`
	Frequency     []float64 `json:"frequency"`
	Values        []float64 `json:"values"`
	Resolution    float64   `json:"resolution"`
	SegmentLength int       `json:"segment_length,omitempty"`
	Segments      int       `json:"segments,omitempty"`
}

// SpectrumResponse is the answer of POST /analysis/jobs/{id}/spectrum.
type SpectrumResponse struct {
	Method            string              `json:"method"`
	Window            string              `json:"window,omitempty"`
	Detrend           string              `json:"detrend"`
	Spectra           []Spectrum          `json:"spectra"`
	MeanRotorSpeedRPM *float64            `json:"mean_rotor_speed_rpm,omitempty"`
	Harmonics         []analysis.Harmonic `json:"harmonics"`
}

// jobSpectrum: POST /analysis/jobs/{id}/spectrum.
func (s *Server) jobSpectrum(c echo.Context) error {
	var req SpectrumRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	names := req.Channels
	if req.Channel != "" {
		names = append([]string{req.Channel}, names...)
	}
	if len(names) == 0 || len(names) > maxSpectrumChannels {
		return turbinesim.Errorf(turbinesim.EINVALID, "channel/channels: name 1 to %d channels", maxSpectrumChannels)
	}
	if req.Method == "" {
		req.Method = "welch"
	}
	if req.Method != "welch" && req.Method != "fft" {
		return turbinesim.Errorf(turbinesim.EINVALID, "method: %q is not fft or welch", req.Method)
	}
	if req.Detrend == "" {
		req.Detrend = "mean"
	}
	detrend, err := analysis.ParseDetrend(req.Detrend)
	if err != nil {
		return turbinesim.Errorf(turbinesim.EINVALID, "detrend: %v", err)
	}
	opt := analysis.DefaultWelchOptions()
	opt.Detrend = detrend
	if req.Window != "" {
		if opt.Window, err = analysis.ParseSpectralWindow(req.Window); err != nil {
			return turbinesim.Errorf(turbinesim.EINVALID, "window: %v", err)
		}
	}
	if req.SegmentLength < 0 {
		return turbinesim.Errorf(turbinesim.EINVALID, "segment_length: must not be negative")
	}
	opt.SegmentLength = req.SegmentLength
	if req.Overlap != nil {
		if *req.Overlap < 0 || *req.Overlap > 0.95 {
			return turbinesim.Errorf(turbinesim.EINVALID, "overlap: %g is not in [0, 0.95]", *req.Overlap)
		}
		opt.Overlap = *req.Overlap
	}
	out, err := s.jobOutputOf(c)
	if err != nil {
		return err
	}
	rec := out.Record
	if err := checkChannels(rec, names); err != nil {
		return err
	}
	w := analysis.NewWindow(req.TStart, req.TEnd)
	resp := SpectrumResponse{Method: req.Method, Detrend: req.Detrend, Harmonics: []analysis.Harmonic{}}
	for _, n := range names {
		idx, _ := rec.Index(n)
		sp := Spectrum{Name: n, Unit: rec.Unit(idx)}
		if req.Method == "fft" {
			a, err := analysis.ChannelAmplitude(rec, n, w, detrend)
			if err != nil {
				return invalidAnalysis(fmt.Errorf("spectrum of %s: %w", n, err))
			}
			sp.Frequency, sp.Values, sp.Resolution = a.Frequency, a.Amplitude, a.Resolution
		} else {
			p, err := analysis.ChannelWelch(rec, n, w, opt)
			if err != nil {
				return invalidAnalysis(fmt.Errorf("spectrum of %s: %w", n, err))
			}
			sp.Frequency, sp.Values, sp.Resolution = p.Frequency, p.Density, p.Resolution
			sp.SegmentLength, sp.Segments = p.SegmentLength, p.Segments
			resp.Window = p.Window
		}
		resp.Spectra = append(resp.Spectra, sp)
	}
	// Rotor harmonics from the mean rotor speed (OpenFAST's RotSpeed, rpm)
	// over the same window; absent when the output has no RotSpeed.
	if slices.Contains(rec.Names, "RotSpeed") {
		if st, err := analysis.Statistics(rec, []string{"RotSpeed"}, w); err == nil && st[0].Mean > 0 && !math.IsNaN(st[0].Mean) {
			if h, err := analysis.RotorHarmonics(st[0].Mean, 1, 3, 6); err == nil {
				mean := st[0].Mean
				resp.MeanRotorSpeedRPM, resp.Harmonics = &mean, h
			}
		}
	}
	if wantsCSV(c) {
		return writeCSV(c, "spectrum-"+out.JobID+".csv", spectrumTable(resp))
	}
	return c.JSON(http.StatusOK, resp)
}

// spectrumTable is a spectrum answer as CSV rows: Frequency, then one column
// per channel headed with its quantity and unit (PSD in unit²/Hz for
// welch, amplitude in the channel's unit for fft). Every spectrum of one
// request is taken over the same window with the same options, so they
// share one frequency grid.
func spectrumTable(r SpectrumResponse) [][]string {
	head := []string{"Frequency (Hz)"}
	for _, sp := range r.Spectra {
		if r.Method == "fft" {
			head = append(head, sp.Name+" amplitude ("+sp.Unit+")")
		} else {
			head = append(head, sp.Name+" PSD (("+sp.Unit+")^2/Hz)")
		}
	}
	rows := [][]string{head}
	if len(r.Spectra) == 0 {
		return rows
	}
	for i, f := range r.Spectra[0].Frequency {
		row := []string{num(f)}
		for _, sp := range r.Spectra {
			row = append(row, num(sp.Values[i]))
		}
		rows = append(rows, row)
	}
	return rows
}
