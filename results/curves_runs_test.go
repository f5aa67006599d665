package results_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// Power curves come from normal power production only: a batch of gust
// events (DLC 1.4) has no power curve, on the API (422 saying why) and in
// the report (no curve, no AEP, a problem saying why); a batch of DLC 1.3
// and 1.4 takes its curve from the 1.3 runs alone. Before, a batch of one
// DLC binned every run, events included (a transient batch's "power curve"
// showed −24 000 kW), and the report fell back to the gust runs.
func TestPowerCurvesComeFromNormalProductionOnly(t *testing.T) {
	ctx := context.Background()
	zero := func(dlc.Run) float64 { return 0 }
	power := func(v float64) float64 { return 100 * v }

	batches, resultStore, _ := reportBatch(t, reportRequest("1.4"), zero, power)
	ra := &results.ResultAnalysis{Results: resultStore, Batches: batches}
	_, err := ra.BatchCurves(ctx, "org", "batch", results.CurveQuery{}, false)
	if turbinesim.ErrorCode(err) != turbinesim.EINVALID || !strings.Contains(turbinesim.ErrorMessage(err), "no normal power production run") {
		t.Fatalf("curves of a DLC 1.4 batch: %v; want EINVALID saying it has no normal power production", err)
	}
	o, err := ra.BatchOverview(ctx, "org", "batch", results.CurveQuery{}, results.WindDistributionSpec{}, nil)
	if err != nil || !strings.Contains(o.CurveNote, "no normal power production run") || len(o.Curve.Bins) != 0 || len(o.Extremes) == 0 {
		t.Fatalf("results page of a DLC 1.4 batch: %v; note %q, %d bins, %d extremes; want the loads and a note instead of a curve", err, o.CurveNote, len(o.Curve.Bins), len(o.Extremes))
	}
	rep, err := (&results.CertificationReports{Batches: batches, Results: resultStore}).Build(ctx, "org", "batch", results.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Curve != nil || rep.AEP != nil || !slices.ContainsFunc(rep.Problems, func(p string) bool { return strings.Contains(p, "no normal power production run") }) {
		t.Fatalf("report of a DLC 1.4 batch: curve %v, AEP %v, problems %q", rep.Curve != nil, rep.AEP != nil, rep.Problems)
	}

	batches, resultStore, _ = reportBatch(t, reportRequest("1.3", "1.4"), zero, power)
	ra = &results.ResultAnalysis{Results: resultStore, Batches: batches}
	cv, err := ra.BatchCurves(ctx, "org", "batch", results.CurveQuery{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cv.DLCs, []string{"1.3"}) {
		t.Fatalf("curves of a 1.3 + 1.4 batch from DLC %v, want 1.3 only", cv.DLCs)
	}
}
