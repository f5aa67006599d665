package coupling

import (
	"context"
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// TestPitchAppliedOneStepLate checks the timing of ServoDyn's pitch demand
// against OpenFAST v5.0.0 over the first 0.1 s of iea15_onshore_steady13_rosco,
// where ROSCO's demand ramps at its 2°/s rate limit (0.01° per step).
// ElastoDyn's BldPitch1 must be ElastoDyn's initial pitch at t = 0 and the
// ServoDyn demand (BlPitchC1) of the previous step afterwards, and it must
// reproduce the reference BldPitch1 sample by sample within 0.001° (the
// reference's int16 quantum is 0.0002°; applying the demand in its own step
// is off by the 0.01° ramp increment).
func TestPitchAppliedOneStepLate(t *testing.T) {
	dir := testshared.Path(t, "reference-outputs", "iea15_onshore_steady13_rosco", "IEA-15-240-RWT-Onshore")
	ref, err := outfile.ReadOutbFile(dir + "/IEA-15-240-RWT-Onshore.outb")
	if err != nil {
		t.Fatal(err)
	}
	refPitch, ok := ref.Column("BldPitch1")
	if !ok {
		t.Fatal("reference has no BldPitch1")
	}
	res, err := RunPath(context.Background(), dir+"/IEA-15-240-RWT-Onshore.fst",
		Options{OutPath: "-", TMax: 0.1, Channels: []string{"BldPitch1", "BlPitchC1"}, KeepData: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) []float64 {
		for i, c := range res.Channels {
			if c.Name == name {
				return res.Data[i]
			}
		}
		t.Fatalf("no channel %s", name)
		return nil
	}
	pitch, demand := col("BldPitch1"), col("BlPitchC1")
	if len(pitch) != 21 {
		t.Fatalf("got %d rows, want 21", len(pitch))
	}
	if pitch[0] != 0 {
		t.Errorf("BldPitch1(0) = %g°, want the initial pitch 0°", pitch[0])
	}
	for i := 1; i < len(pitch); i++ {
		if math.Abs(pitch[i]-demand[i-1]) > 1e-9 {
			t.Errorf("t=%.3f: BldPitch1 %.6f° is not the previous demand %.6f°", res.Time[i], pitch[i], demand[i-1])
		}
		if d := demand[i] - demand[i-1]; d < 0.009 || d > 0.011 {
			t.Errorf("t=%.3f: demand step %.5f°, want the 0.01° rate-limited ramp this test relies on", res.Time[i], d)
		}
	}
	for i := range pitch {
		if math.Abs(res.Time[i]-ref.Time[i]) > 1e-9 {
			t.Fatalf("time mismatch at row %d: %g vs %g", i, res.Time[i], ref.Time[i])
		}
		if d := pitch[i] - refPitch[i]; math.Abs(d) > 0.001 {
			t.Errorf("t=%.3f: BldPitch1 %.5f° vs OpenFAST %.5f° (Δ %.5f°)", res.Time[i], pitch[i], refPitch[i], d)
		}
	}
}
