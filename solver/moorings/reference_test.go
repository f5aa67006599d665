package moorings

import (
	"context"
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// Driven by the platform motion OpenFAST computed in the pitch free-decay
// case (six DOFs at 0.025 s, velocities by central differences), the
// lumped-mass lines reproduce OpenFAST's fairlead and anchor tensions:
// the mean of FAIRTEN1..3 and ANCHTEN1..3 over the 200 s within 0.1 %, the
// standard deviation within 0.5 % of the channel's range, and every sample
// within 1 % of the channel's mean (measured: 0.001 %, 0.13 %, 0.67 %).
func TestTensionsUnderOpenFASTMotion(t *testing.T) {
	d, md, ref := decayCase(t)
	s, err := New(md, EnvFromDeck(d), [3]float64{})
	if err != nil {
		t.Fatal(err)
	}
	var dof [6][]float64
	for i, n := range []string{"PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw"} {
		c, ok := ref.Column(n)
		if !ok {
			t.Fatalf("no %s", n)
		}
		dof[i] = c
	}
	dt := ref.Time[1] - ref.Time[0]
	nRows := len(ref.Time)
	motion := func(k int) Motion {
		var u Motion
		for i := 0; i < 6; i++ {
			sc := 1.0
			if i >= 3 {
				sc = math.Pi / 180
			}
			u.Disp[i] = dof[i][k] * sc
			lo, hi := max(k-1, 0), min(k+1, len(ref.Time)-1)
			u.Vel[i] = (dof[i][hi] - dof[i][lo]) * sc / (ref.Time[hi] - ref.Time[lo])
		}
		return u
	}
	if err := s.Init(context.Background(), motion(0)); err != nil {
		t.Fatal(err)
	}
	names := []string{"FAIRTEN1", "FAIRTEN2", "FAIRTEN3", "ANCHTEN1", "ANCHTEN2", "ANCHTEN3"}
	col := map[string]int{}
	for i, c := range s.Channels() {
		col[c.Name] = i
	}
	got := make([][]float64, len(names))
	record := func() {
		for i, n := range names {
			got[i] = append(got[i], s.Values()[col[n]])
		}
	}
	record()
	ctx := context.Background()
	for k := 0; k+1 < nRows; k++ {
		u0, u1 := motion(k), motion(k+1)
		if err := s.UpdateStates(ctx, ref.Time[k], dt, u0, &u1); err != nil {
			t.Fatal(err)
		}
		if err := s.CalcOutput(ref.Time[k+1], u1, nil); err != nil {
			t.Fatal(err)
		}
		record()
	}
	for i, n := range names {
		want, _ := ref.Column(n)
		want = want[:nRows]
		mg, sg := meanStd(got[i])
		mw, sw := meanStd(want)
		lo, hi := want[0], want[0]
		worst := 0.0
		for k, w := range want {
			lo, hi = math.Min(lo, w), math.Max(hi, w)
			worst = math.Max(worst, math.Abs(got[i][k]-w))
		}
		t.Logf("%s mean %.6g vs %.6g (%+.3f %%), std %.4g vs %.4g (%+.2f %% of range %.4g), worst sample %.3g N (%.2f %% of mean)",
			n, mg, mw, 100*(mg/mw-1), sg, sw, 100*(sg-sw)/(hi-lo), hi-lo, worst, 100*worst/mw)
		if rel(mg, mw) > 0.001 || math.Abs(sg-sw) > 0.005*(hi-lo) || worst > 0.01*mw {
			t.Errorf("%s: mean %.6g vs %.6g, std %.4g vs %.4g, worst %.3g N", n, mg, mw, sg, sw, worst)
		}
	}
}

// decayCase loads OpenFAST's IEA 15 MW semi pitch-decay case: the deck,
// its MoorDyn file and the reference output.
func decayCase(t *testing.T) (*deck.Deck, *deck.MoorDyn, *outfile.File) {
	t.Helper()
	dir := testshared.Path(t, "reference-outputs", "iea15_semi_decay_pitch", "IEA-15-240-RWT-UMaineSemi")
	d, err := deck.Load(dir + "/IEA-15-240-RWT-UMaineSemi.fst")
	if err != nil {
		t.Fatal(err)
	}
	md, err := d.Offshore.Mooring.MoorDyn()
	if err != nil {
		t.Fatal(err)
	}
	ref, err := outfile.ReadOutbFile(dir + "/IEA-15-240-RWT-UMaineSemi.outb")
	if err != nil {
		t.Fatal(err)
	}
	return d, md, ref
}

func meanStd(x []float64) (float64, float64) {
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	s := 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return m, math.Sqrt(s / float64(len(x)))
}
