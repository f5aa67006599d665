package handlers

import (
	"context"
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/views"
)

// Read-only key results of a shared study's linked jobs on the reviewer's
// page: for each succeeded job with an output, statistics and a chart of
// the first few key channels present. Jobs are labelled "Run n"; no job id
// reaches the page.

// keyChannels are the OpenFAST channels a reviewer looks at first, in the
// order they are shown.
var keyChannels = []string{"Wind1VelX", "GenPwr", "RotSpeed", "BldPitch1", "GenTq", "RootMyc1", "TwrBsMyt", "TipDxc1"}

const (
	maxKeyChannels = 4
	// maxChartPoints bounds each chart's series (strided decimation).
	maxChartPoints = 400
)

// publicRuns loads the key results of st's linked jobs. A job without an
// output (running, failed, deleted) is listed with its reason and no data;
// only an unreachable dependency fails the page.
func (s *Server) publicRuns(ctx context.Context, st *turbinesim.Study) ([]views.PublicRun, error) {
	if s.svc.Results == nil {
		return nil, nil
	}
	var runs []views.PublicRun
	for i, jobID := range st.JobIDs {
		run := views.PublicRun{Label: fmt.Sprintf("Run %d", i+1)}
		out, err := s.svc.Results.JobOutput(ctx, st.OrganizationID, jobID)
		switch turbinesim.ErrorCode(err) {
		case "":
		case turbinesim.ENOTFOUND, turbinesim.ECONFLICT:
			run.Note = "no results available"
			runs = append(runs, run)
			continue
		default:
			return nil, err
		}
		run.File = out.File
		rec := out.Record
		for _, name := range keyChannels {
			if len(run.Channels) == maxKeyChannels {
				break
			}
			c, err := rec.Index(name)
			if err != nil {
				continue
			}
			ch := keyChannel(name, rec.Unit(c), rec.Time, rec.Channels[c])
			ch.ChartID = fmt.Sprintf("run%d-%s", i+1, name)
			run.Channels = append(run.Channels, ch)
		}
		runs = append(runs, run)
	}
	return runs, nil
}

// keyChannel computes min, mean and max over the finite samples and a
// chart option with at most maxChartPoints samples (every k-th sample and
// the last).
func keyChannel(name, unit string, t, v []float64) views.PublicChannel {
	ch := views.PublicChannel{Name: name, Unit: unit, Min: math.Inf(1), Max: math.Inf(-1)}
	n := 0
	sum := 0.0
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		ch.Min, ch.Max = math.Min(ch.Min, x), math.Max(ch.Max, x)
		sum += x
		n++
	}
	if n == 0 {
		ch.Min, ch.Max = math.NaN(), math.NaN()
	} else {
		ch.Mean = sum / float64(n)
	}
	stride := max(1, (len(v)+maxChartPoints-1)/maxChartPoints)
	points := make([][2]float64, 0, len(v)/stride+1)
	for i := 0; i < len(v); i += stride {
		if !math.IsNaN(v[i]) && !math.IsInf(v[i], 0) {
			points = append(points, [2]float64{t[i], v[i]})
		}
	}
	if last := len(v) - 1; last >= 0 && last%stride != 0 && !math.IsNaN(v[last]) && !math.IsInf(v[last], 0) {
		points = append(points, [2]float64{t[last], v[last]})
	}
	ch.Points = len(points)
	ch.Option = views.LineChartOption(name+" "+unit, "Time (s)", "", views.XYSeries{Name: name, Points: points})
	return ch
}

// publicBatches summarises st's linked batches for the reviewer's page:
// name, kind, runs and the binned curves of their succeeded runs as a
// table and charts. A batch that is gone, or whose runs have no results
// yet, is listed with a note; only an unreachable dependency fails the
// page. Batches are labelled "Batch n"; no id reaches the page.
func (s *Server) publicBatches(ctx context.Context, st *turbinesim.Study) ([]views.PublicBatch, error) {
	if s.svc.Batches == nil || len(st.BatchIDs) == 0 {
		return nil, nil
	}
	ra, raErr := s.resultAnalysis()
	var out []views.PublicBatch
	for i, id := range st.BatchIDs {
		pb := views.PublicBatch{Label: fmt.Sprintf("Batch %d", i+1), ChartID: fmt.Sprintf("batch%d", i+1)}
		b, err := s.svc.Batches.FindBatch(ctx, st.OrganizationID, id)
		if turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
			pb.Note = "this batch no longer exists"
			out = append(out, pb)
			continue
		} else if err != nil {
			return nil, err
		}
		pb.Name, pb.Kind, pb.Runs = b.Name, string(b.Kind), b.RunCount
		if raErr != nil {
			pb.Note = "results are not available"
			out = append(out, pb)
			continue
		}
		cv, err := ra.BatchCurves(ctx, st.OrganizationID, id, results.CurveQuery{}, false)
		switch turbinesim.ErrorCode(err) {
		case "":
		case turbinesim.ENOTFOUND, turbinesim.ECONFLICT, turbinesim.EINVALID:
			pb.Note = "no curves yet: " + turbinesim.ErrorMessage(err)
			out = append(out, pb)
			continue
		default:
			return nil, err
		}
		pb.DLCs, pb.Bins, pb.HasThrust = cv.DLCs, cv.Curve.Bins, cv.Curve.HasThrust
		var ws, p, th []float64
		for _, bin := range cv.Curve.Bins {
			ws, p, th = append(ws, bin.WindSpeed), append(p, bin.PowerKW), append(th, bin.ThrustKN)
		}
		pb.PowerChart = views.LineChartOption("Power curve", "Wind speed (m/s)", "Power (kW)", views.XYSeries{Name: "Power", Points: views.XYPoints(ws, p)})
		if cv.Curve.HasThrust {
			pb.ThrustChart = views.LineChartOption("Thrust curve", "Wind speed (m/s)", "Thrust (kN)", views.XYSeries{Name: "Thrust", Points: views.XYPoints(ws, th)})
		}
		out = append(out, pb)
	}
	return out, nil
}
