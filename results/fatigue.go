package results

import (
	"context"
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/analysis"
)

// Fatigue of one run: the rainflow count of each channel (ASTM E1049
// §5.4.4, half cycles of the residue counted as ½), its range histogram
// and its short-term damage-equivalent loads for chosen Wöhler exponents
// at a chosen equivalent count N_eq:
//
//	DEL = ( Σᵢ nᵢ·Sᵢᵐ / N_eq )^(1/m),  N_eq = f_eq·T (f_eq = 1 Hz unless given) or given directly,
//
// optionally Goodman-corrected (analysis.DELOptions). The Markov matrix
// and the load-duration distribution of a run are their own questions
// (Markov, LoadDuration in spectra.go).

// DefaultWohlerExponents are the exponents of a fatigue request that names
// none: welded steel (3, 4, 5) and composite blades (10).
func DefaultWohlerExponents() []float64 { return []float64{3, 4, 5, 10} }

// FatigueRequest asks for the rainflow counts and DELs of a run's channels.
type FatigueRequest struct {
	Channels        []string  `json:"channels"`
	WohlerExponents []float64 `json:"wohler_exponents"`
	// EquivalentCycles N_eq, or EquivalentFrequency f_eq (Hz, N_eq =
	// f_eq·T); neither: f_eq = 1 Hz.
	EquivalentCycles    *float64           `json:"equivalent_cycles"`
	EquivalentFrequency *float64           `json:"equivalent_frequency"`
	RangeBins           int                `json:"range_bins"`
	UltimateLoads       map[string]float64 `json:"ultimate_loads"`
	TStart              *float64           `json:"t_start"`
	TEnd                *float64           `json:"t_end"`
}

// RainflowHistogram counts cycles by range: Counts[i] cycles (½ for a
// half cycle) with range in [RangeEdges[i], RangeEdges[i+1]) (the last
// bin closed), from 0 to the largest range.
type RainflowHistogram struct {
	RangeEdges []float64 `json:"range_edges"`
	Counts     []float64 `json:"counts"`
}

// ChannelFatigue is the fatigue answer for one channel.
type ChannelFatigue struct {
	Channel string `json:"channel"`
	Unit    string `json:"unit"`
	// Cycles is the count (half cycles as ½); HalfCycles of them are
	// half cycles of the residue.
	Cycles     float64           `json:"cycles"`
	HalfCycles int               `json:"half_cycles"`
	MaxRange   float64           `json:"max_range"`
	DELs       []analysis.DEL    `json:"dels"`
	Goodman    bool              `json:"goodman"`
	Ultimate   *float64          `json:"ultimate_load,omitempty"`
	Rainflow   RainflowHistogram `json:"rainflow"`
	Invalid    bool              `json:"invalid,omitempty"`
}

// FatigueResponse is the answer to a FatigueRequest.
type FatigueResponse struct {
	JobID            string           `json:"-"`
	Start            float64          `json:"t_start"`  // first sample used, s
	End              float64          `json:"t_end"`    // last sample used, s
	Duration         float64          `json:"duration"` // T = t_end − t_start, s
	EquivalentCycles float64          `json:"equivalent_cycles"`
	RangeBins        int              `json:"range_bins"`
	Channels         []ChannelFatigue `json:"channels"`
	// Window is the part of the run counted (the start-up transient left
	// out unless t_start was given).
	Window AnalysisWindow `json:"analysis_window"`
}

// Fatigue counts each channel's cycles over the window and answers its
// range histogram and DELs; channels default to the main load channels the
// output records. An INVALID channel is answered marked, without counts.
func (a *ResultAnalysis) Fatigue(ctx context.Context, orgID, jobID string, req FatigueRequest) (*FatigueResponse, error) {
	exps := req.WohlerExponents
	if len(exps) == 0 {
		exps = DefaultWohlerExponents()
	}
	for _, m := range exps {
		if !(m > 0) || m > maxWohlerExponent {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "wohler_exponents: %g is not in (0, %d]", m, maxWohlerExponent)
		}
	}
	if req.EquivalentCycles != nil && req.EquivalentFrequency != nil {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "equivalent_cycles: give either equivalent_cycles or equivalent_frequency")
	}
	opt := analysis.DELOptions{Exponents: exps}
	if v := req.EquivalentCycles; v != nil {
		if !(*v > 0) || math.IsInf(*v, 0) {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "equivalent_cycles: %g is not a positive count", *v)
		}
		opt.EquivalentCycles = *v
	}
	if v := req.EquivalentFrequency; v != nil {
		if !(*v > 0) || math.IsInf(*v, 0) {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "equivalent_frequency: %g Hz is not positive", *v)
		}
		opt.EquivalentFrequency = *v
	}
	rb, err := spectrumBins("range_bins", req.RangeBins, DefaultRangeBins)
	if err != nil {
		return nil, err
	}
	if err := checkUltimateLoads(req.UltimateLoads); err != nil {
		return nil, err
	}
	out, err := a.Results.JobOutput(ctx, orgID, jobID)
	if err != nil {
		return nil, err
	}
	rec := out.Record
	names, err := spectrumChannels(rec, req.Channels, MainLoadChannels(), "load")
	if err != nil {
		return nil, err
	}
	if err := checkUltimateChannels(req.UltimateLoads, names); err != nil {
		return nil, err
	}
	w := runWindow(out, req.TStart, req.TEnd)
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return nil, invalidAnalysis(err)
	}
	resp := &FatigueResponse{JobID: out.JobID, Start: rec.Time[lo], End: rec.Time[hi-1], Duration: rec.Time[hi-1] - rec.Time[lo], RangeBins: rb,
		Window: describeRunWindow(out, lo, hi, req.TStart)}
	for _, n := range names {
		idx, _ := rec.Index(n)
		cf := ChannelFatigue{Channel: n, Unit: rec.Unit(idx)}
		if InvalidChannel(cf.Unit) {
			cf.Invalid = true
			resp.Channels = append(resp.Channels, cf)
			continue
		}
		y, _ := rec.Channel(n)
		cycles, err := analysis.Rainflow(y[lo:hi])
		if err != nil {
			return nil, invalidAnalysis(fmt.Errorf("channel %s: %w", n, err))
		}
		o := opt
		if su, ok := req.UltimateLoads[n]; ok {
			o.UltimateLoad, cf.Goodman, cf.Ultimate = su, true, &su
		}
		if cf.DELs, err = analysis.ShortTermDEL(cycles, resp.Duration, o); err != nil {
			return nil, goodmanInvalid(fmt.Errorf("DEL of %s: %w", n, err))
		}
		resp.EquivalentCycles = cf.DELs[0].EquivalentCycles
		for _, c := range cycles {
			cf.Cycles += c.Count
			if c.Count < 1 {
				cf.HalfCycles++
			}
			cf.MaxRange = max(cf.MaxRange, c.Range)
		}
		if len(cycles) == 0 {
			// A constant channel has no cycles: DELs of 0, no histogram.
			cf.Rainflow = RainflowHistogram{RangeEdges: []float64{}, Counts: []float64{}}
			resp.Channels = append(resp.Channels, cf)
			continue
		}
		// The range histogram is the Markov matrix with one mean class.
		mk, err := analysis.MarkovMatrix(cycles, rb, 1)
		if err != nil {
			return nil, invalidAnalysis(fmt.Errorf("channel %s: %w", n, err))
		}
		cf.Rainflow = RainflowHistogram{RangeEdges: mk.RangeEdges, Counts: make([]float64, len(mk.Counts))}
		for i, row := range mk.Counts {
			cf.Rainflow.Counts[i] = row[0]
		}
		resp.Channels = append(resp.Channels, cf)
	}
	return resp, nil
}
