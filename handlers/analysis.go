package handlers

import (
	"context"
	"encoding/csv"
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// Result endpoints: per-job channels, time series, statistics,
// spectra and the raw output; per-batch curves, AEP, DELs and extremes.
// The questions are answered by results.ResultAnalysis; these handlers
// decode the request, call it and render JSON or CSV.

// Request and answer types of the JSON endpoints (the service's own).
type (
	ChannelInfo        = results.ChannelInfo
	TimeSeriesRequest  = results.TimeSeriesRequest
	Series             = results.Series
	TimeSeries         = results.TimeSeries
	StatisticsRequest  = results.StatisticsRequest
	ChannelStatistics  = results.ChannelStatistics
	StatisticsResponse = results.StatisticsResponse
	SpectrumRequest    = results.SpectrumRequest
	Spectrum           = results.Spectrum
	SpectrumResponse   = results.SpectrumResponse
)

// resultAnalysis is the analysis service over the configured result
// store, or 501 without one.
func (s *Server) resultAnalysis() (*results.ResultAnalysis, error) {
	if s.svc.Analyses == nil {
		return nil, notImplemented
	}
	return s.svc.Analyses, nil
}

// jobChannels: GET /analysis/jobs/{id}/channels.
func (s *Server) jobChannels(c echo.Context) error {
	ra, err := s.resultAnalysis()
	if err != nil {
		return err
	}
	chans, err := ra.Channels(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, chans)
}

// jobTimeSeries: POST /analysis/jobs/{id}/time-series; CSV with
// Accept: text/csv or ?format=csv.
func (s *Server) jobTimeSeries(c echo.Context) error {
	var req TimeSeriesRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ra, err := s.resultAnalysis()
	if err != nil {
		return err
	}
	resp, err := ra.TimeSeries(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), req)
	if err != nil {
		return err
	}
	if wantsCSV(c) {
		return writeCSV(c, "time-series-"+resp.JobID+".csv", timeSeriesTable(*resp))
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

// jobStatistics: POST /analysis/jobs/{id}/statistics; CSV with
// Accept: text/csv or ?format=csv.
func (s *Server) jobStatistics(c echo.Context) error {
	return jobAnalysis(s, c, (*results.ResultAnalysis).Statistics,
		func(req StatisticsRequest, resp *StatisticsResponse) (string, [][]string) {
			return "statistics-" + resp.JobID + ".csv", statisticsTable(*resp, req.WohlerExponents, len(req.UltimateLoads) > 0)
		})
}

// jobAnalysis answers one POST /analysis/jobs/{id}/... request: the
// optional JSON body, the service call for the caller's organization, and
// the answer as JSON, or as the CSV table csv builds when the caller asks
// for text/csv.
func jobAnalysis[Req, Resp any](s *Server, c echo.Context,
	run func(*results.ResultAnalysis, context.Context, string, string, Req) (*Resp, error),
	csv func(Req, *Resp) (filename string, rows [][]string)) error {
	return jobAnalysisQuery(s, c, nil, run, csv)
}

// jobAnalysisQuery is jobAnalysis for an endpoint that also answers GET,
// reading the request from the query string with fromQuery (so a page can
// link to it); a nil fromQuery is POST only.
func jobAnalysisQuery[Req, Resp any](s *Server, c echo.Context, fromQuery func(echo.Context) (Req, error),
	run func(*results.ResultAnalysis, context.Context, string, string, Req) (*Resp, error),
	csv func(Req, *Resp) (filename string, rows [][]string)) error {
	var req Req
	if fromQuery != nil && c.Request().Method == http.MethodGet {
		var err error
		if req, err = fromQuery(c); err != nil {
			return err
		}
	} else if c.Request().ContentLength != 0 {
		if err := decodeJSON(c, &req); err != nil {
			return err
		}
	}
	ra, err := s.resultAnalysis()
	if err != nil {
		return err
	}
	resp, err := run(ra, c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), req)
	if err != nil {
		return err
	}
	if wantsCSV(c) {
		name, rows := csv(req, resp)
		return writeCSV(c, name, rows)
	}
	return c.JSON(http.StatusOK, resp)
}

// statisticsTable is the statistics answer as CSV rows (header first);
// withUltimate adds the ultimate_load column (empty: DELs not
// Goodman-corrected).
func statisticsTable(r StatisticsResponse, exponents []float64, withUltimate bool) [][]string {
	head := []string{"channel", "unit", "n", "min", "max", "mean", "std"}
	var opt func(ChannelStatistics) []string
	// The optional columns are those of the first row with numbers.
	if i := slices.IndexFunc(r.Channels, func(cs ChannelStatistics) bool { return !cs.Invalid }); i >= 0 {
		first := r.Channels[i]
		if first.TimeOfMin != nil {
			head = append(head, "time_of_min", "time_of_max")
		}
		if first.Skewness != nil {
			head = append(head, "skewness", "kurtosis")
		}
		for _, m := range exponents {
			head = append(head, "del_m"+num(m))
		}
		if withUltimate {
			head = append(head, "ultimate_load")
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
			if withUltimate {
				su := ""
				if cs.UltimateLoad != nil {
					su = num(*cs.UltimateLoad)
				}
				out = append(out, su)
			}
			return out
		}
	}
	rows := [][]string{head}
	for _, cs := range r.Channels {
		if cs.Invalid {
			// No numbers for an INVALID channel: its zeros are not data.
			rows = append(rows, []string{cs.Name, cs.Unit, strconv.Itoa(cs.N)})
			continue
		}
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
	ra, err := s.resultAnalysis()
	if err != nil {
		return err
	}
	path, name, release, err := ra.Results.OpenOutputFile(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
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

// jobSpectrum: POST /analysis/jobs/{id}/spectrum; CSV with Accept:
// text/csv or ?format=csv.
func (s *Server) jobSpectrum(c echo.Context) error {
	var req SpectrumRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ra, err := s.resultAnalysis()
	if err != nil {
		return err
	}
	resp, err := ra.Spectrum(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), req)
	if err != nil {
		return err
	}
	if wantsCSV(c) {
		return writeCSV(c, "spectrum-"+resp.JobID+".csv", spectrumTable(*resp))
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

// jobExport: GET /analysis/jobs/{id}/export?format=out|csv|mat&channels=a,b
// &t_start=&t_end=&downsample_factor=, the selected channels of the window
// as a file: OpenFAST text (.out), CSV, or MATLAB Level 5 (.mat: Channels,
// ChanName, ChanUnit).
func (s *Server) jobExport(c echo.Context) error {
	req := results.ExportRequest{Format: c.QueryParam("format"), Channels: queryList(c, "channels")}
	var err error
	if req.TStart, err = queryFloat(c, "t_start"); err != nil {
		return err
	}
	if req.TEnd, err = queryFloat(c, "t_end"); err != nil {
		return err
	}
	if v := c.QueryParam("downsample_factor"); v != "" {
		if req.DownsampleFactor, err = strconv.Atoi(v); err != nil {
			return turbinesim.Errorf(turbinesim.EINVALID, "downsample_factor: %q is not an integer", v)
		}
	}
	ra, err := s.resultAnalysis()
	if err != nil {
		return err
	}
	f, name, err := ra.Export(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), req)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	switch req.Format {
	case "mat":
		h.Set(echo.HeaderContentType, "application/x-matlab-data")
		c.Response().WriteHeader(http.StatusOK)
		return outfile.WriteMAT(c.Response(), f, time.Now())
	case "out":
		h.Set(echo.HeaderContentType, "text/plain; charset=utf-8")
		c.Response().WriteHeader(http.StatusOK)
		return outfile.WriteText(c.Response(), f, outfile.TextOptions{ValueFormat: "ES15.6E3"})
	}
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	c.Response().WriteHeader(http.StatusOK)
	w := csv.NewWriter(c.Response())
	head := []string{f.TimeChannel.Name + " (" + f.TimeChannel.Unit + ")"}
	for _, ch := range f.Channels {
		head = append(head, ch.Name+" ("+ch.Unit+")")
	}
	if err := w.Write(head); err != nil {
		return err
	}
	row := make([]string, len(head))
	for r, t := range f.Time {
		row[0] = num(t)
		for c := range f.Channels {
			row[c+1] = num(f.Data[c][r])
		}
		if err := w.Write(row); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}
