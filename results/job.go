package results

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/outputs"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/structure"
)

// Result analysis: the questions engineers ask of a finished job's output
// — channels, time series, statistics with DELs, spectra — and of a batch
// (batch.go). The maths is solver/analysis; this layer
// validates the request, finds the organization's output through
// ResultService and shapes the answer. The JSON endpoints and the results
// pages both call it.

// Limits of the result questions, documented in the OpenAPI entries.
const (
	// MaxSeriesPoints bounds channels × points of one time-series answer
	// (an envelope counts two points per bucket).
	MaxSeriesPoints = 400_000
	// MaxSpectrumChannels bounds the channels of one spectrum request.
	MaxSpectrumChannels = 10
	// maxWohlerExponent bounds a Wöhler exponent: composites reach about
	// 14, welded steel 3–5; beyond 30 the m-th powers overflow long records.
	maxWohlerExponent = 30
)

// ResultAnalysis answers result questions over an organization's stored
// outputs. It holds no state of its own: Results is the data access.
type ResultAnalysis struct {
	Results outputs.ResultService
	// Batches and Turbines, when set, let the batch curves default the
	// rotor radius of Cp and Ct to the batch turbine's (sweptRadius).
	Batches  turbinesim.BatchService
	Turbines turbinesim.TurbineService
	// Jobs, when set, lets a comparison read each run's settings from its
	// job, recipe and input deck (SettingsDifferences) and a spectrum mark
	// the natural frequencies of the run's structural model.
	Jobs RunInputs
}

// invalidAnalysis turns an error of solver/analysis about the request's
// values (empty window, segment longer than the record, ...) into
// EINVALID; errors that already carry a code keep it.
func invalidAnalysis(err error) error {
	if err == nil {
		return nil
	}
	var te *turbinesim.Error
	if errors.As(err, &te) {
		return err
	}
	return turbinesim.Errorf(turbinesim.EINVALID, "%s", err.Error())
}

// CheckChannels is EINVALID listing every requested channel the record does
// not have.
func CheckChannels(rec *analysis.Record, names []string) error {
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

// JobOutput returns the job's output (see ResultService.JobOutput).
func (a *ResultAnalysis) JobOutput(ctx context.Context, orgID, jobID string) (*outputs.JobOutput, error) {
	return a.Results.JobOutput(ctx, orgID, jobID)
}

// ChannelInfo is one output channel: its name, unit, module group
// (ChannelGroup) and whether OpenFAST marked it INVALID (zeros written in
// place of a channel the model does not have).
type ChannelInfo struct {
	Name    string `json:"name"`
	Unit    string `json:"unit"`
	Group   string `json:"group"`
	Invalid bool   `json:"invalid,omitempty"`
}

// NewChannelInfo describes column c of rec.
func NewChannelInfo(rec *analysis.Record, c int) ChannelInfo {
	u := rec.Unit(c)
	return ChannelInfo{Name: rec.Names[c], Unit: u, Group: ChannelGroup(rec.Names[c]), Invalid: InvalidChannel(u)}
}

// Channels lists the names and units of a job's output channels.
func (a *ResultAnalysis) Channels(ctx context.Context, orgID, jobID string) ([]ChannelInfo, error) {
	out, err := a.Results.JobOutput(ctx, orgID, jobID)
	if err != nil {
		return nil, err
	}
	chans := make([]ChannelInfo, len(out.Record.Names))
	for i := range out.Record.Names {
		chans[i] = NewChannelInfo(out.Record, i)
	}
	return chans, nil
}

// CheckJobChannels is EINVALID when one of the named channels is not in the
// job's output (e.g. before a comparison page is drawn).
func (a *ResultAnalysis) CheckJobChannels(ctx context.Context, orgID, jobID string, names []string) error {
	out, err := a.Results.JobOutput(ctx, orgID, jobID)
	if err != nil {
		return err
	}
	if err := CheckChannels(out.Record, names); err != nil {
		return turbinesim.Errorf(turbinesim.EINVALID, "job %s: %s", jobID, turbinesim.ErrorMessage(err))
	}
	return nil
}

// TimeSeriesRequest is a request for samples of some channels.
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

// TimeSeries is the answer to a TimeSeriesRequest.
type TimeSeries struct {
	JobID            string    `json:"-"`
	Method           string    `json:"method"`
	DownsampleFactor int       `json:"downsample_factor"`
	Rows             int       `json:"rows"` // samples of the window before downsampling
	Time             []float64 `json:"time,omitempty"`
	Series           []Series  `json:"series"`
}

// TimeSeries samples channels of a job's output: method decimate (every
// k-th sample, no low-pass filter) or envelope (the minimum and maximum of
// each bucket of k samples in time order, so peaks survive). The answer is
// bounded to MaxSeriesPoints; over it the error names the smallest
// sufficient downsample_factor.
func (a *ResultAnalysis) TimeSeries(ctx context.Context, orgID, jobID string, req TimeSeriesRequest) (*TimeSeries, error) {
	if len(req.Channels) == 0 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "channels: name at least one channel")
	}
	if req.DownsampleFactor == 0 {
		req.DownsampleFactor = 1
	}
	if req.DownsampleFactor < 1 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "downsample_factor: must be at least 1")
	}
	if req.Method == "" {
		req.Method = "decimate"
	}
	if req.Method != "decimate" && req.Method != "envelope" {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "method: %q is not decimate or envelope", req.Method)
	}
	out, err := a.Results.JobOutput(ctx, orgID, jobID)
	if err != nil {
		return nil, err
	}
	rec := out.Record
	if err := CheckChannels(rec, req.Channels); err != nil {
		return nil, err
	}
	w := analysis.NewWindow(req.TStart, req.TEnd)
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return nil, invalidAnalysis(err)
	}
	rows := hi - lo
	k := req.DownsampleFactor
	perPoint := 1
	if req.Method == "envelope" {
		perPoint = 2
	}
	if points := (rows + k - 1) / k * perPoint; points*len(req.Channels) > MaxSeriesPoints {
		need := (rows*perPoint*len(req.Channels) + MaxSeriesPoints - 1) / MaxSeriesPoints
		return nil, turbinesim.Errorf(turbinesim.EINVALID,
			"downsample_factor: %d channels × %d samples exceed %d points; use downsample_factor ≥ %d or a shorter window",
			len(req.Channels), rows, MaxSeriesPoints, need)
	}
	var traces []analysis.Trace
	if req.Method == "envelope" {
		traces, err = analysis.Envelope(rec, req.Channels, w, (rows+k-1)/k)
	} else {
		traces, err = analysis.Decimate(rec, req.Channels, w, k)
	}
	if err != nil {
		return nil, invalidAnalysis(err)
	}
	resp := &TimeSeries{JobID: out.JobID, Method: req.Method, DownsampleFactor: k, Rows: rows, Series: make([]Series, len(traces))}
	for i, tr := range traces {
		resp.Series[i] = Series{Name: tr.Name, Unit: tr.Unit, Values: tr.Values}
		if req.Method == "envelope" {
			resp.Series[i].Time = tr.Time
		}
	}
	if req.Method == "decimate" && len(traces) > 0 {
		resp.Time = traces[0].Time
	}
	return resp, nil
}

// StatisticsRequest is a request for per-channel statistics.
type StatisticsRequest struct {
	Channels             []string  `json:"channels"`
	TStart               *float64  `json:"t_start"`
	TEnd                 *float64  `json:"t_end"`
	WohlerExponents      []float64 `json:"wohler_exponents"`
	IncludeExtremeTimes  bool      `json:"include_extreme_times"`
	IncludeHigherMoments bool      `json:"include_higher_moments"`
	// UltimateLoads give channels an ultimate load S_u (channel units) for
	// the Goodman mean-load correction of their DELs; channels not named are
	// uncorrected.
	UltimateLoads map[string]float64 `json:"ultimate_loads"`
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
	// Goodman (with DELs) says whether the DELs are Goodman-corrected
	// against UltimateLoad.
	Goodman      *bool    `json:"goodman,omitempty"`
	UltimateLoad *float64 `json:"ultimate_load,omitempty"`
	// Invalid marks a channel OpenFAST wrote as INVALID: its zeros are
	// not data, so its row carries no statistics and no DELs.
	Invalid bool `json:"invalid,omitempty"`
}

// StatisticsResponse is the answer to a StatisticsRequest.
type StatisticsResponse struct {
	JobID    string              `json:"-"`
	Start    float64             `json:"t_start"` // first sample used, s
	End      float64             `json:"t_end"`   // last sample used, s
	Channels []ChannelStatistics `json:"channels"`
	// Window is the part of the run analysed (the start-up transient
	// left out unless t_start was given).
	Window AnalysisWindow `json:"analysis_window"`
}

// Statistics computes min, max, mean and standard deviation per channel
// (every channel when none is named), optionally the times of the
// extremes, skewness and kurtosis, and short-term DELs (rainflow per ASTM
// E1049, f_eq = 1 Hz) for the given Wöhler exponents, Goodman-corrected
// for the channels given an ultimate load.
func (a *ResultAnalysis) Statistics(ctx context.Context, orgID, jobID string, req StatisticsRequest) (*StatisticsResponse, error) {
	for _, m := range req.WohlerExponents {
		if !(m > 0) || m > maxWohlerExponent {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "wohler_exponents: %g is not in (0, %d]", m, maxWohlerExponent)
		}
	}
	if len(req.UltimateLoads) > 0 && len(req.WohlerExponents) == 0 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "ultimate_loads: they correct DELs; give wohler_exponents too")
	}
	if err := checkUltimateLoads(req.UltimateLoads); err != nil {
		return nil, err
	}
	out, err := a.Results.JobOutput(ctx, orgID, jobID)
	if err != nil {
		return nil, err
	}
	rec := out.Record
	if err := CheckChannels(rec, req.Channels); err != nil {
		return nil, err
	}
	analysed := req.Channels
	if len(analysed) == 0 {
		analysed = rec.Names
	}
	if err := checkUltimateChannels(req.UltimateLoads, analysed); err != nil {
		return nil, err
	}
	w := runWindow(out, req.TStart, req.TEnd)
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return nil, invalidAnalysis(err)
	}
	stats, err := analysis.Statistics(rec, req.Channels, w)
	if err != nil {
		return nil, invalidAnalysis(err)
	}
	resp := &StatisticsResponse{JobID: out.JobID, Channels: make([]ChannelStatistics, len(stats)), Window: describeRunWindow(out, lo, hi, req.TStart)}
	for i, st := range stats {
		resp.Start, resp.End = st.Start, st.End
		if InvalidChannel(st.Unit) {
			// The samples are OpenFAST's placeholder zeros: the row says
			// so instead of reporting a mean of 0.
			resp.Channels[i] = ChannelStatistics{Name: st.Name, Unit: st.Unit, N: st.N, Invalid: true}
			continue
		}
		row := ChannelStatistics{Name: st.Name, Unit: st.Unit, N: st.N, Min: st.Min, Max: st.Max, Mean: st.Mean, Std: st.Std}
		if req.IncludeExtremeTimes {
			row.TimeOfMin, row.TimeOfMax = &st.TimeOfMin, &st.TimeOfMax
		}
		if req.IncludeHigherMoments {
			row.Skewness, row.Kurtosis = &st.Skewness, &st.Kurtosis
		}
		if len(req.WohlerExponents) > 0 {
			dels, err := analysis.ChannelDEL(rec, st.Name, w, analysis.DELOptions{Exponents: req.WohlerExponents, UltimateLoads: req.UltimateLoads})
			if err != nil {
				return nil, goodmanInvalid(fmt.Errorf("DEL of %s: %w", st.Name, err))
			}
			row.DELs = dels
			su, applied := req.UltimateLoads[st.Name]
			row.Goodman = &applied
			if applied {
				row.UltimateLoad = &su
			}
		}
		resp.Channels[i] = row
	}
	return resp, nil
}

// SpectrumRequest is a request for the spectra of some channels.
type SpectrumRequest struct {
	Channel       string   `json:"channel"`
	Channels      []string `json:"channels"`
	Method        string   `json:"method"`         // "welch" (default) or "fft"
	Window        string   `json:"window"`         // welch: hann (default), hamming, blackman, rectangular
	SegmentLength int      `json:"segment_length"` // welch: samples; 0 = automatic
	Overlap       *float64 `json:"overlap"`        // welch: fraction in [0, 0.95]; default 0.5
	Detrend       string   `json:"detrend"`        // none, mean (default), linear
	// Resolution (welch, Hz) asks for segments of 1/Resolution seconds
	// instead of naming segment_length.
	Resolution *float64 `json:"resolution"`
	// FMin and FMax (Hz) keep the frequencies in [FMin, FMax] of the
	// answer; default 0 to the Nyquist frequency.
	FMin   *float64 `json:"f_min"`
	FMax   *float64 `json:"f_max"`
	TStart *float64 `json:"t_start"`
	TEnd   *float64 `json:"t_end"`
	// NaturalFrequencies asks for the first tower and blade natural
	// frequencies of the run's structural model (read from its deck).
	NaturalFrequencies bool `json:"natural_frequencies"`
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

// SpectrumResponse is the answer to a SpectrumRequest.
type SpectrumResponse struct {
	JobID             string              `json:"-"`
	Method            string              `json:"method"`
	Window            string              `json:"window,omitempty"`
	Detrend           string              `json:"detrend"`
	Spectra           []Spectrum          `json:"spectra"`
	MeanRotorSpeedRPM *float64            `json:"mean_rotor_speed_rpm,omitempty"`
	Harmonics         []analysis.Harmonic `json:"harmonics"`
	// Nyquist is half the output's sampling rate, Hz: the highest
	// frequency a spectrum of it can hold.
	Nyquist float64 `json:"nyquist"`
	// NaturalFrequencies (when asked for) are the run's first tower and
	// blade natural frequencies; NaturalFrequenciesNote says why they are
	// missing when the deck cannot give them.
	NaturalFrequencies     *structure.NaturalFrequencies `json:"natural_frequencies,omitempty"`
	NaturalFrequenciesNote string                        `json:"natural_frequencies_note,omitempty"`
	// AnalysisWindow is the part of the run transformed (the start-up
	// transient left out unless t_start was given); Window above is the
	// Welch taper.
	AnalysisWindow AnalysisWindow `json:"analysis_window"`
}

// Spectrum computes Welch power spectral densities (default) or the
// single-sided FFT amplitude spectrum of 1 to MaxSpectrumChannels
// channels over one window, with the rotor harmonics 1P, 3P, 6P from the
// mean RotSpeed when the output records it.
func (a *ResultAnalysis) Spectrum(ctx context.Context, orgID, jobID string, req SpectrumRequest) (*SpectrumResponse, error) {
	names := req.Channels
	if req.Channel != "" {
		names = append([]string{req.Channel}, names...)
	}
	if len(names) == 0 || len(names) > MaxSpectrumChannels {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "channel/channels: name 1 to %d channels", MaxSpectrumChannels)
	}
	if req.Method == "" {
		req.Method = "welch"
	}
	if req.Method != "welch" && req.Method != "fft" {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "method: %q is not fft or welch", req.Method)
	}
	if req.Detrend == "" {
		req.Detrend = "mean"
	}
	detrend, err := analysis.ParseDetrend(req.Detrend)
	if err != nil {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "detrend: %v", err)
	}
	opt := analysis.DefaultWelchOptions()
	opt.Detrend = detrend
	if req.Window != "" {
		if opt.Window, err = analysis.ParseSpectralWindow(req.Window); err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "window: %v", err)
		}
	}
	if req.SegmentLength < 0 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "segment_length: must not be negative")
	}
	if req.Resolution != nil && (req.SegmentLength > 0 || req.Method == "fft") {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "resolution: give either resolution or segment_length, for method welch")
	}
	if req.Resolution != nil && !(*req.Resolution > 0) {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "resolution: %g Hz is not positive", *req.Resolution)
	}
	for _, f := range []struct {
		name string
		v    *float64
	}{{"f_min", req.FMin}, {"f_max", req.FMax}} {
		if f.v != nil && (*f.v < 0 || math.IsNaN(*f.v) || math.IsInf(*f.v, 0)) {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "%s: %g Hz is not a frequency", f.name, *f.v)
		}
	}
	if req.FMin != nil && req.FMax != nil && *req.FMin >= *req.FMax {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "f_min: %g Hz is not below f_max %g Hz", *req.FMin, *req.FMax)
	}
	opt.SegmentLength = req.SegmentLength
	if req.Overlap != nil {
		if *req.Overlap < 0 || *req.Overlap > 0.95 {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "overlap: %g is not in [0, 0.95]", *req.Overlap)
		}
		opt.Overlap = *req.Overlap
	}
	out, err := a.Results.JobOutput(ctx, orgID, jobID)
	if err != nil {
		return nil, err
	}
	rec := out.Record
	if err := CheckChannels(rec, names); err != nil {
		return nil, err
	}
	w := runWindow(out, req.TStart, req.TEnd)
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return nil, invalidAnalysis(err)
	}
	resp := &SpectrumResponse{JobID: out.JobID, Method: req.Method, Detrend: req.Detrend, Harmonics: []analysis.Harmonic{},
		AnalysisWindow: describeRunWindow(out, lo, hi, req.TStart)}
	if hi-lo > 1 {
		// The output's sampling interval (OpenFAST writes at DT_Out).
		dt := (rec.Time[hi-1] - rec.Time[lo]) / float64(hi-lo-1)
		resp.Nyquist = 1 / (2 * dt)
		if req.Resolution != nil {
			// A segment of 1/resolution seconds; Welch refuses one longer
			// than the window, naming both.
			opt.SegmentLength = int(math.Round(1 / (*req.Resolution * dt)))
			if opt.SegmentLength > hi-lo {
				return nil, turbinesim.Errorf(turbinesim.EINVALID, "resolution: %g Hz needs %g s of samples; the window holds %g s (the finest is %.3g Hz)",
					*req.Resolution, 1 / *req.Resolution, rec.Time[hi-1]-rec.Time[lo], 1/(float64(hi-lo)*dt))
			}
			opt.SegmentLength = max(opt.SegmentLength, 2)
		}
	}
	for _, n := range names {
		idx, _ := rec.Index(n)
		sp := Spectrum{Name: n, Unit: rec.Unit(idx)}
		if req.Method == "fft" {
			amp, err := analysis.ChannelAmplitude(rec, n, w, detrend)
			if err != nil {
				return nil, invalidAnalysis(fmt.Errorf("spectrum of %s: %w", n, err))
			}
			sp.Frequency, sp.Values, sp.Resolution = amp.Frequency, amp.Amplitude, amp.Resolution
		} else {
			p, err := analysis.ChannelWelch(rec, n, w, opt)
			if err != nil {
				return nil, invalidAnalysis(fmt.Errorf("spectrum of %s: %w", n, err))
			}
			sp.Frequency, sp.Values, sp.Resolution = p.Frequency, p.Density, p.Resolution
			sp.SegmentLength, sp.Segments = p.SegmentLength, p.Segments
			resp.Window = p.Window
		}
		sp.Frequency, sp.Values = frequencyRange(sp.Frequency, sp.Values, req.FMin, req.FMax)
		resp.Spectra = append(resp.Spectra, sp)
	}
	if req.NaturalFrequencies {
		resp.NaturalFrequencies, resp.NaturalFrequenciesNote = a.naturalFrequencies(ctx, orgID, out.JobID)
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
	return resp, nil
}

// frequencyRange keeps the points with fMin ≤ f ≤ fMax (either nil: no
// bound on that side).
func frequencyRange(f, v []float64, fMin, fMax *float64) ([]float64, []float64) {
	if fMin == nil && fMax == nil {
		return f, v
	}
	lo, hi := 0, len(f)
	for lo < hi && fMin != nil && f[lo] < *fMin {
		lo++
	}
	for hi > lo && fMax != nil && f[hi-1] > *fMax {
		hi--
	}
	return f[lo:hi], v[lo:hi]
}
