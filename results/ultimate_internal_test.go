package results

import (
	"testing"

	"github.com/turbinesim/turbinesim/outputs"
	"github.com/turbinesim/turbinesim/solver/analysis"
)

// The batch page's ultimate loads come from the runs of type-U DLCs with
// their γf, as the report's do: of a DLC 1.2 + 1.4 batch only the 1.4 runs
// (γf 1.35); a batch of DLC 1.2 alone keeps every run with γf 1 and says so.
func TestBatchUltimateRunsAreTypeUWithGamma(t *testing.T) {
	mk := func(names ...string) *batchRuns {
		b := &batchRuns{}
		for i, n := range names {
			b.runs = append(b.runs, &outputs.JobOutput{JobID: string(rune('a' + i))})
			b.names = append(b.names, n)
			b.windows = append(b.windows, analysis.After(0))
		}
		return b
	}
	u, g, all := mk("DLC1.2_V10.0_S1_Y+0", "DLC1.4_V11.4_ECD+R", "DLC1.2_V12.0_S1_Y+0", "DLC1.4_V13.4_ECD-R").ultimate()
	if all || len(u.names) != 2 || u.names[0] != "DLC1.4_V11.4_ECD+R" || u.names[1] != "DLC1.4_V13.4_ECD-R" {
		t.Errorf("1.2 + 1.4: runs %v, from all %v", u.names, all)
	}
	if len(g) != 1 || g["1.4"] != 1.35 {
		t.Errorf("1.2 + 1.4: γf %v, want 1.4: 1.35", g)
	}
	u, g, all = mk("DLC1.2_V10.0_S1_Y+0", "DLC1.2_V12.0_S1_Y+0").ultimate()
	if !all || len(u.names) != 2 || g["1.2"] != 1 {
		t.Errorf("1.2 only: runs %v, γf %v, from all %v", u.names, g, all)
	}
}
