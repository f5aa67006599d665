package results

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// Statistical extrapolation of DLC 1.1's extreme loads to a 50-year
// recurrence (IEC 61400-1 ed.3 §7.6.2 and Annex F: DLC 1.1 is NTM,
// ultimate loads by statistical extrapolation). The
// maths is analysis.ExtrapolateExtremes; here the batch's DLC 1.1 runs are
// chosen, binned by their nominal speed, checked against the standard's
// number of runs and given the extrapolated loads' γ_f = 1.25.

// DesignReturnPeriodYears is the recurrence of DLC 1.1's characteristic
// load (IEC 61400-1: 50 years).
const DesignReturnPeriodYears = 50

// maxReturnPeriodYears bounds extrapolate=<N>y.
const maxReturnPeriodYears = 1000

// Minimum numbers of 10-min simulations per wind-speed bin for the
// extrapolation: IEC 61400-1 ed.3 asks for at least 15 for each speed from
// V_r − 2 m/s to V_out (as summarised in Burton et al., Wind Energy
// Handbook, 2nd ed., §5.4.1, load case 1.1). Below V_r − 2 m/s the
// standard's general six 10-min realisations per speed apply (the DLC
// table's 6 seeds).
const (
	extrapolationMinRunsNearRated = 15
	extrapolationMinRunsBelow     = 6
)

// ExtrapolationSpec asks the batch extremes for DLC 1.1's loads
// extrapolated to a return period.
type ExtrapolationSpec struct {
	// Period is "" (no extrapolation) or "<years>y", e.g. "50y".
	Period string
	// Distribution of the 10-min mean wind speed; with neither a kind
	// nor a class, BatchWindDistribution's (the batch's class), as the
	// lifetime DEL's.
	Distribution WindDistributionSpec
}

// years parses Period: 0 without extrapolation.
func (s ExtrapolationSpec) years() (float64, error) {
	if s.Period == "" {
		return 0, nil
	}
	num, ok := strings.CutSuffix(s.Period, "y")
	v, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || !(v >= 1) || v > maxReturnPeriodYears {
		return 0, turbinesim.Errorf(turbinesim.EINVALID, "extrapolate: %q is not a return period in years from 1y to %dy, e.g. %dy",
			s.Period, maxReturnPeriodYears, DesignReturnPeriodYears)
	}
	return v, nil
}

// BatchExtrapolation is DLC 1.1's extrapolated extreme-load table.
type BatchExtrapolation struct {
	DLC          string           `json:"dlc"`
	Method       string           `json:"method"`
	Distribution DistributionInfo `json:"distribution"`
	// ReturnPeriodYears, and the exceedance probability per 10 min it
	// means: 1 / (years · 52 596 ten-minute periods a year).
	ReturnPeriodYears     float64 `json:"return_period_years"`
	ExceedanceProbability float64 `json:"exceedance_probability"`
	TenMinutePeriods      float64 `json:"ten_minute_periods"`
	// MinRunsRule says how each bin's minimum number of runs was chosen.
	MinRunsRule string                      `json:"min_runs_rule"`
	Bins        []analysis.ExtrapolationBin `json:"bins"`
	Loads       []ExtrapolatedLoad          `json:"loads"`
	// Sufficient: every bin has the standard's minimum number of runs.
	Sufficient bool     `json:"sufficient"`
	Warnings   []string `json:"warnings"`
}

// ExtrapolatedLoad is one channel's extrapolated max or min with its
// design value, γ_f · characteristic, γ_f the DLC 1.1 table's 1.25 for
// extrapolated loads.
type ExtrapolatedLoad struct {
	analysis.ExtrapolatedExtreme
	SafetyFactor float64 `json:"safety_factor"`
	Design       float64 `json:"design"`
}

// extrapolationMethod describes the fit for the answer.
const extrapolationMethod = "per wind-speed bin (the runs' nominal speeds), a Gumbel distribution of the 10-min maximum fitted by the method of moments to each run's block maximum " +
	"(fit of −min for minima; runs of T ≠ 600 s converted by F_600 = F_T^(600/T)); long-term P(F > f) = Σ P(F > f | V_i)·P(V_i) with the bins' wind-distribution probabilities; " +
	"characteristic load where it equals 1/(years·52596) (IEC 61400-1 ed.3 Annex F)"

// extrapolatedGamma is γ_f of DLC 1.1's extrapolated loads (1.25).
func extrapolatedGamma() float64 {
	if d, ok := dlc.Lookup(extrapolatedDLC); ok {
		return d.Gamma
	}
	return 1.25
}

// extrapolateLoads extrapolates the channels of DLC 1.1 runs; vRated
// (m/s, 0 when unknown) sets each bin's minimum number of runs.
func extrapolateLoads(runs []analysis.ExtrapolationRun, channels []string, years float64, dist analysis.WindDistribution, info DistributionInfo, vRated float64) (*BatchExtrapolation, error) {
	minRuns := func(float64) int { return extrapolationMinRunsNearRated }
	rule := fmt.Sprintf("the turbine's rated speed is unknown: every bin is held to the %d runs IEC 61400-1 ed.3 asks for from V_r − 2 m/s to V_out", extrapolationMinRunsNearRated)
	if vRated > 0 {
		minRuns = func(v float64) int {
			if v < vRated-2-1e-6 {
				return extrapolationMinRunsBelow
			}
			return extrapolationMinRunsNearRated
		}
		rule = fmt.Sprintf("IEC 61400-1 ed.3: at least %d 10-min runs per bin from V_r − 2 = %g m/s to V_out, %d below; every run of a bin (seeds × yaw angles) counts",
			extrapolationMinRunsNearRated, vRated-2, extrapolationMinRunsBelow)
	}
	ex, err := analysis.ExtrapolateExtremes(runs, analysis.ExtrapolationOptions{Channels: channels, ReturnPeriodYears: years, Distribution: dist, MinRuns: minRuns})
	if err != nil {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "extrapolate: %v", err)
	}
	gamma := extrapolatedGamma()
	out := &BatchExtrapolation{DLC: extrapolatedDLC, Method: extrapolationMethod, Distribution: info,
		ReturnPeriodYears: ex.ReturnPeriodYears, ExceedanceProbability: ex.ExceedanceProbability, TenMinutePeriods: ex.TenMinutePeriods,
		MinRunsRule: rule, Bins: ex.Bins, Sufficient: ex.Sufficient, Warnings: []string{}}
	for _, c := range ex.Channels {
		out.Loads = append(out.Loads, ExtrapolatedLoad{ExtrapolatedExtreme: c, SafetyFactor: gamma, Design: gamma * c.Characteristic})
	}
	for _, b := range ex.Bins {
		if !b.Sufficient {
			out.Warnings = append(out.Warnings, fmt.Sprintf("DLC %s, %g m/s: %d runs, fewer than the %d IEC 61400-1 asks for; the fit of this bin is uncertain",
				extrapolatedDLC, b.Speed, b.Runs, b.MinRuns))
		}
	}
	return out, nil
}

// storedDLCRequest is the stored request of a DLC batch, nil for other
// batches and for jobs sharing a batch id without a batches row.
func (a *ResultAnalysis) storedDLCRequest(ctx context.Context, orgID, batchID string) (*batches.StoredDLCRequest, error) {
	if a.Batches == nil {
		return nil, nil
	}
	batch, err := a.Batches.FindBatch(ctx, orgID, batchID)
	if turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
		return nil, nil
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
	return &stored, nil
}

// extrapolate answers extrapolate=<N>y of the batch extremes from b's
// DLC 1.1 runs.
func (a *ResultAnalysis) extrapolate(ctx context.Context, orgID string, b *batchRuns, channels []string, spec ExtrapolationSpec, years float64) (*BatchExtrapolation, error) {
	stored, err := a.storedDLCRequest(ctx, orgID, b.id)
	if err != nil {
		return nil, err
	}
	vRated, class := 0.0, ""
	if stored != nil {
		vRated, class = stored.Request.Turbine.VRated, stored.Request.Class
	}
	dist, info, err := BatchWindDistribution(spec.Distribution, class)
	if err != nil {
		return nil, err
	}
	var runs []analysis.ExtrapolationRun
	for i, r := range b.runs {
		if DLCOfRunName(b.names[i]) != extrapolatedDLC {
			continue
		}
		v, ok := NominalWindSpeedOfRunName(b.names[i])
		if !ok {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "extrapolate: run %q (job %s) names no wind speed", b.names[i], r.JobID)
		}
		if err := CheckChannels(r.Record, channels); err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "job %s: %s", r.JobID, turbinesim.ErrorMessage(err))
		}
		runs = append(runs, analysis.ExtrapolationRun{ID: r.JobID, WindSpeed: v, Record: r.Record, Window: b.windows[i]})
	}
	if len(runs) == 0 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "extrapolate: statistical extrapolation is for DLC %s; the batch has no finished DLC %s run (its runs are of DLC %s)",
			extrapolatedDLC, extrapolatedDLC, strings.Join(b.dlcs(), ", "))
	}
	return extrapolateLoads(runs, channels, years, dist, info, vRated)
}

// extrapolatedRow is an extreme-table row of an extrapolated load: no run,
// time or concurrent values (the load was never simulated).
func extrapolatedRow(l ExtrapolatedLoad) analysis.Extreme {
	return analysis.Extreme{Channel: l.Channel, Unit: l.Unit, Kind: l.Kind, Characteristic: l.Characteristic,
		SafetyFactor: l.SafetyFactor, Design: l.Design, DLC: extrapolatedDLC, Time: math.NaN(), Concurrent: []analysis.ConcurrentValue{}}
}
