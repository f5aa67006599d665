package handlers

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim/results"
)

// Load-spectrum endpoints: rainflow Markov matrices and load-duration /
// load-revolution distributions of a job (JSON body) and of a batch
// (query string, lifetime-weighted). results.ResultAnalysis answers.

// Request and answer types of the load-spectrum endpoints (the service's
// own).
type (
	MarkovRequest        = results.MarkovRequest
	MarkovResponse       = results.MarkovResponse
	LoadDurationRequest  = results.LoadDurationRequest
	LoadDurationResponse = results.LoadDurationResponse
	BatchMarkov          = results.BatchMarkov
	BatchLoadDuration    = results.BatchLoadDuration
	FatigueRequest       = results.FatigueRequest
	FatigueResponse      = results.FatigueResponse
)

// jobFatigue: POST /analysis/jobs/{id}/fatigue, the rainflow counts,
// range histograms and DELs of a run's channels; CSV with Accept:
// text/csv or ?format=csv (one row per channel and exponent).
func (s *Server) jobFatigue(c echo.Context) error {
	return jobAnalysis(s, c, (*results.ResultAnalysis).Fatigue,
		func(_ FatigueRequest, resp *FatigueResponse) (string, [][]string) {
			rows := [][]string{{"channel", "unit", "m", "del", "equivalent_cycles", "cycles", "half_cycles", "max_range", "goodman"}}
			for _, ch := range resp.Channels {
				if ch.Invalid {
					rows = append(rows, []string{ch.Channel, ch.Unit})
					continue
				}
				for _, d := range ch.DELs {
					rows = append(rows, []string{ch.Channel, ch.Unit, num(d.Exponent), num(d.Value), num(d.EquivalentCycles),
						num(ch.Cycles), strconv.Itoa(ch.HalfCycles), num(ch.MaxRange), strconv.FormatBool(ch.Goodman)})
				}
			}
			return "fatigue-" + resp.JobID + ".csv", rows
		})
}

// jobMarkov: POST /analysis/jobs/{id}/markov; CSV with Accept: text/csv
// or ?format=csv.
// GET takes the same fields as query parameters (channels=a,b, range_bins,
// mean_bins, t_start, t_end), so a page can link to a run's matrix.
func (s *Server) jobMarkov(c echo.Context) error {
	return jobAnalysisQuery(s, c, markovRequestQuery, (*results.ResultAnalysis).Markov,
		func(_ MarkovRequest, resp *MarkovResponse) (string, [][]string) {
			return "markov-" + resp.JobID + ".csv", markovTable(resp.Channels)
		})
}

// jobLoadDuration: POST /analysis/jobs/{id}/load-duration.
// GET takes the fields as query parameters (channels=a,b, bins,
// speed_channel, t_start, t_end).
func (s *Server) jobLoadDuration(c echo.Context) error {
	return jobAnalysisQuery(s, c, loadDurationRequestQuery, (*results.ResultAnalysis).LoadDuration,
		func(_ LoadDurationRequest, resp *LoadDurationResponse) (string, [][]string) {
			return "load-duration-" + resp.JobID + ".csv", loadDurationTable(resp.Channels)
		})
}

// markovRequestQuery is the GET form of a MarkovRequest.
func markovRequestQuery(c echo.Context) (MarkovRequest, error) {
	var req MarkovRequest
	var err error
	if req.TStart, req.TEnd, err = windowQuery(c); err != nil {
		return req, err
	}
	req.Channels = queryList(c, "channels")
	return req, queryInts(c, map[string]*int{"range_bins": &req.RangeBins, "mean_bins": &req.MeanBins})
}

// loadDurationRequestQuery is the GET form of a LoadDurationRequest
// (speed_channel present but empty: no revolutions).
func loadDurationRequestQuery(c echo.Context) (LoadDurationRequest, error) {
	var req LoadDurationRequest
	var err error
	if req.TStart, req.TEnd, err = windowQuery(c); err != nil {
		return req, err
	}
	req.Channels = queryList(c, "channels")
	if _, ok := c.QueryParams()["speed_channel"]; ok {
		sc := c.QueryParam("speed_channel")
		req.SpeedChannel = &sc
	}
	return req, queryInts(c, map[string]*int{"bins": &req.Bins})
}

// windowQuery reads t_start and t_end (s), each optional.
func windowQuery(c echo.Context) (start, end *float64, err error) {
	if start, err = queryFloat(c, "t_start"); err != nil {
		return nil, nil, err
	}
	end, err = queryFloat(c, "t_end")
	return start, end, err
}

// spectrumQuery reads a batchQuery, a windDistributionQuery, channels,
// range_bins, mean_bins, bins, lifetime_years, speed_channel and
// events_per_year.
func spectrumQuery(c echo.Context) (results.SpectrumQuery, error) {
	bq, err := batchQuery(c)
	if err != nil {
		return results.SpectrumQuery{}, err
	}
	dist, err := windDistributionQuery(c)
	if err != nil {
		return results.SpectrumQuery{}, err
	}
	q := results.SpectrumQuery{BatchQuery: bq, Distribution: dist, Channels: queryList(c, "channels")}
	if err := queryInts(c, map[string]*int{"range_bins": &q.RangeBins, "mean_bins": &q.MeanBins, "bins": &q.LevelBins}); err != nil {
		return q, err
	}
	if q.LifetimeYears, err = queryFloat(c, "lifetime_years"); err != nil {
		return q, err
	}
	if q.EventsPerYear, err = results.ParseEventsPerYear(queryList(c, "events_per_year")); err != nil {
		return q, err
	}
	if _, ok := c.QueryParams()["speed_channel"]; ok {
		sc := c.QueryParam("speed_channel")
		q.SpeedChannel = &sc
	}
	return q, nil
}

// batchMarkov: GET /analysis/batches/{id}/markov.
func (s *Server) batchMarkov(c echo.Context) error {
	return batchSpectrum(s, c, (*results.ResultAnalysis).BatchMarkov,
		func(res *BatchMarkov) (string, [][]string) {
			return "markov-" + res.BatchID + ".csv", markovTable(res.Channels)
		})
}

// batchLoadDuration: GET /analysis/batches/{id}/load-duration.
func (s *Server) batchLoadDuration(c echo.Context) error {
	return batchSpectrum(s, c, (*results.ResultAnalysis).BatchLoadDuration,
		func(res *BatchLoadDuration) (string, [][]string) {
			return "load-duration-" + res.BatchID + ".csv", loadDurationTable(res.Channels)
		})
}

// batchSpectrum answers one lifetime spectrum of a batch: the query
// (spectrumQuery), the service call for the caller's organization, and
// the answer as JSON, or as the CSV table csv builds when the caller asks
// for text/csv.
func batchSpectrum[Resp any](s *Server, c echo.Context,
	run func(*results.ResultAnalysis, context.Context, string, string, results.SpectrumQuery) (*Resp, error),
	csv func(*Resp) (filename string, rows [][]string)) error {
	ra, err := s.resultAnalysis()
	if err != nil {
		return err
	}
	q, err := spectrumQuery(c)
	if err != nil {
		return err
	}
	res, err := run(ra, c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), q)
	if err != nil {
		return err
	}
	if wantsCSV(c) {
		name, rows := csv(res)
		return writeCSV(c, name, rows)
	}
	return c.JSON(http.StatusOK, res)
}

// markovTable is Markov matrices as long CSV rows, one per non-empty cell:
// channel, unit, range_low, range_high, mean_low, mean_high, count,
// count_unit (the layout of a spreadsheet pivot or a fatigue tool's
// import; empty cells are left out).
func markovTable(chans []results.ChannelMarkov) [][]string {
	rows := [][]string{{"channel", "unit", "range_low", "range_high", "mean_low", "mean_high", "count", "count_unit"}}
	for _, ch := range chans {
		for i, row := range ch.Counts {
			for j, n := range row {
				if n == 0 {
					continue
				}
				rows = append(rows, []string{ch.Channel, ch.Unit, num(ch.RangeEdges[i]), num(ch.RangeEdges[i+1]),
					num(ch.MeanEdges[j]), num(ch.MeanEdges[j+1]), num(n), ch.CountUnit})
			}
		}
	}
	return rows
}

// loadDurationTable is LDD/LRD bins as CSV rows: channel, unit, level_low,
// level_high, duration, duration_unit, revolutions (empty without a speed
// channel).
func loadDurationTable(chans []results.ChannelLoadDuration) [][]string {
	rows := [][]string{{"channel", "unit", "level_low", "level_high", "duration", "duration_unit", "revolutions"}}
	for _, ch := range chans {
		for i, d := range ch.Duration {
			rev := ""
			if ch.Revolutions != nil {
				rev = num(ch.Revolutions[i])
			}
			rows = append(rows, []string{ch.Channel, ch.Unit, num(ch.Edges[i]), num(ch.Edges[i+1]), num(d), ch.DurationUnit, rev})
		}
	}
	return rows
}
