package results_test

import (
	"context"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/dlc"
	"github.com/turbinesim/turbinesim/views"
)

// overspeed is the failed check of a run whose rotor ran away.
func overspeed() []turbinesim.RunCheck {
	v, lim, at := 31.0, 15.73, 42.0
	return []turbinesim.RunCheck{{Kind: "overspeed", Severity: turbinesim.CheckError, Channel: "RotSpeed", Time: &at, Value: &v, Limit: &lim,
		Message: "RotSpeed reaches 31 at t = 42 s, beyond the overspeed limit (rpm) of 15.73"}}
}

// A run that failed a plausibility check (its rotor ran away to 31 rpm)
// is left out of the batch's extremes and of the certification report's
// loads, and both say which run and why; include_flagged keeps it, and
// then it governs. A run with only an INVALID channel (a warning) stays.
// Before, the flagged run's spike of 30 000 kN·m was the design load.
func TestFlaggedRunsAreLeftOutOfDesignLoads(t *testing.T) {
	batches, resultStore, runs := reportBatch(t, reportRequest("1.3"), func(dlc.Run) float64 { return 0 }, func(v float64) float64 { return 100 * v })
	flagged := runs[len(runs)-1].ID
	warned := runs[0].ID
	for i := range resultStore.runs {
		r := &resultStore.runs[i]
		switch r.JobID {
		case flagged:
			r.Checks = overspeed()
			rec := r.Output.Record
			spike := make([]float64, len(rec.Time))
			copy(spike, rec.Channels[2])
			spike[len(spike)-10] = 30000
			rec.Channels[2] = spike
		case warned:
			r.Checks = []turbinesim.RunCheck{{Kind: "invalid_channel", Severity: turbinesim.CheckWarning, Channel: "Spn1MLxb1", Message: "Spn1MLxb1 is not an output of this deck"}}
		default:
			r.Checks = []turbinesim.RunCheck{}
		}
	}
	for _, j := range batches.jobs {
		for _, r := range resultStore.runs {
			if r.JobID == j.Job.ID {
				j.Job.Checks = r.Checks
			}
		}
	}
	ra := &results.ResultAnalysis{Results: resultStore, Batches: batches}
	ctx := context.Background()
	opt := analysis.ExtremeOptions{Channels: []string{"RootMyb1"}}
	ex, err := ra.BatchExtremes(ctx, "org", "batch", results.BatchQuery{}, opt, "dlc", results.ExtrapolationSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Excluded) != 1 || ex.Excluded[0].JobID != flagged || len(ex.Excluded[0].Reasons) != 1 || !strings.Contains(ex.Excluded[0].Reasons[0], "RotSpeed reaches 31") {
		t.Fatalf("excluded %+v; want the overspeed run %s", ex.Excluded, flagged)
	}
	for _, e := range ex.Extremes {
		if e.RunID == flagged || e.Characteristic > 20000 {
			t.Errorf("extreme %+v comes from the flagged run", e)
		}
	}
	ex, err = ra.BatchExtremes(ctx, "org", "batch", results.BatchQuery{IncludeFlagged: true}, opt, "dlc", results.ExtrapolationSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Excluded) != 0 || ex.Extremes[0].Kind != "max" || ex.Extremes[0].RunID != flagged || ex.Extremes[0].Characteristic != 30000 {
		t.Fatalf("include_flagged: excluded %+v, extremes %+v; want the flagged run's 30000 to govern", ex.Excluded, ex.Extremes)
	}

	reports := &results.CertificationReports{Batches: batches, Results: resultStore}
	rep, err := reports.Build(ctx, "org", "batch", results.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Excluded) != 1 || rep.Excluded[0].JobID != flagged || rep.Excluded[0].Run != flagged {
		t.Fatalf("report excluded %+v; want %s", rep.Excluded, flagged)
	}
	if rep.Succeeded != len(runs)-1 {
		t.Errorf("report uses %d runs, want %d", rep.Succeeded, len(runs)-1)
	}
	for _, e := range rep.Extremes {
		if e.RunID == flagged {
			t.Errorf("report extreme %+v from the flagged run", e)
		}
	}
	var html strings.Builder
	if err := views.ReportPage(rep).Render(ctx, &html); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="excluded-note"`, flagged, "RotSpeed reaches 31 at t = 42 s"} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("report page lacks %q", want)
		}
	}
	rep, err = reports.Build(ctx, "org", "batch", results.ReportOptions{IncludeFlagged: true})
	if err != nil {
		t.Fatal(err)
	}
	governs := false
	for _, e := range rep.Extremes {
		governs = governs || e.RunID == flagged && e.Channel == "RootMyb1" && e.Kind == "max"
	}
	if len(rep.Excluded) != 0 || len(rep.Flagged) != 1 || !governs {
		t.Fatalf("include_flagged report: excluded %+v, flagged %+v, flagged run governs %v", rep.Excluded, rep.Flagged, governs)
	}
}
