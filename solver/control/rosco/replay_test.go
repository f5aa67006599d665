package rosco

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/control/bladed"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// replay drives the controller with the signals OpenFAST recorded at every
// step (DT_Out = DT = 0.005 s) and returns the largest deviations of its
// demands from the GenTq and BldPitch1 channels over t ≥ tFrom, and of the
// pitch demand over the rate-limited start-up ramp t < rampEnd. ElastoDyn
// (PitchDOF = False) applies the pitch demand of the call at t_i at t_i.
// ServoDyn calls the controller at t with inputs extrapolated from the three
// previous steps (InterpOrder 2).
func replay(t *testing.T, caseName string, tFrom, rampEnd float64) (maxTqErr, maxPitchErr, maxRampErr, tqRange float64) {
	t.Helper()
	dir := testshared.Path(t, "reference-outputs", caseName, "IEA-15-240-RWT-Onshore")
	p, err := LoadParams(dir + "/IEA-15-240-RWT-Onshore_DISCON.IN")
	if err != nil {
		t.Fatal(err)
	}
	f, err := outfile.ReadOutbFile(dir + "/IEA-15-240-RWT-Onshore.outb")
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) []float64 {
		c, ok := f.Column(name)
		if !ok {
			t.Fatalf("channel %s missing", name)
		}
		return c
	}
	gen, rot, pit, tq, pwr, wind := col("GenSpeed"), col("RotSpeed"), col("BldPitch1"), col("GenTq"), col("GenPwr"), col("Wind1VelX")
	c, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	rpm := math.Pi / 30
	ext := func(x []float64, i int) float64 {
		if i < 3 {
			return x[i]
		}
		return 3*x[i-1] - 3*x[i-2] + x[i-3]
	}
	var sw bladed.Swap
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range f.Time {
		status := bladed.StatusRunning
		if i == 0 {
			status = bladed.StatusFirst
		}
		prev := i - 1
		if prev < 0 {
			prev = 0
		}
		pitch := pit[0] * math.Pi / 180
		m := bladed.Measurements{
			Time: f.Time[i], NumBlades: 3, BlPitch: [3]float64{pitch, pitch, pitch},
			GenSpeed: ext(gen, i) * rpm, RotSpeed: ext(rot, i) * rpm,
			GenTorque: tq[prev] * 1000, ElecPower: pwr[prev] * 1000, HubWind: wind[i],
		}
		bladed.Fill(&sw, status, m, bladed.InterfaceSettings{CommInterval: 0.005})
		if err := c.Call(&sw); err != nil {
			t.Fatal(err)
		}
		cmd, _ := bladed.Retrieve(&sw)
		pitchDeg := cmd.PitchCollective * 180 / math.Pi
		if debugReplay && (i%200 == 0 && f.Time[i] < 30 || i < 6) {
			d := c.Diagnostics()
			t.Logf("t=%.3f pitch %.4f ref %.4f | tq %.1f ref %.1f | gsF %.5f  Vw %.3f VwF %.3f minpit %.4f ss %.5f we_op %v", f.Time[i], cmd.PitchCollective*180/math.Pi, pit[i], cmd.GenTorque/1000, tq[i], d.GenSpeedF, d.WindEstimate, d.WindEstimateF, d.PCMinPit*180/math.Pi, d.SetpointShift, d.EstimatorOperating)
		}
		if f.Time[i] >= tFrom {
			maxTqErr = math.Max(maxTqErr, math.Abs(cmd.GenTorque/1000-tq[i]))
			maxPitchErr = math.Max(maxPitchErr, math.Abs(pitchDeg-pit[i]))
			lo, hi = math.Min(lo, tq[i]), math.Max(hi, tq[i])
		}
		if f.Time[i] < rampEnd {
			maxRampErr = math.Max(maxRampErr, math.Abs(pitchDeg-pit[i]))
		}
	}
	return maxTqErr, maxPitchErr, maxRampErr, hi - lo
}

const debugReplay = false

// TestReplayAgainstROSCO checks the controller step by step against ROSCO
// 2.9.4 inside OpenFAST: fed the recorded measurements, its torque demand
// must reproduce the GenTq channel and its pitch demand the BldPitch1 channel
// over the whole 120 s (start-up transient included). Tolerances: 0.1 kN·m
// on torque (2.5 int16 quantisation steps of the 10 m/s GenTq channel,
// 5e-6 of rated torque) and 0.001° on pitch (five quanta of the BldPitch1
// channel); measured 0.034 kN·m / 0.0000° at 10 m/s and 0.047 kN·m /
// 0.0001° at 13 m/s.
//
// The 13 m/s pitch check is what pins the set-point smoother's first call:
// ROSCO leaves VS_LastGenPwr at 0 until the torque controller has run once,
// so the smoother's filter starts at −SS_PCGain·PC_RefSpd. Starting it from
// the measured power instead leaves the pitch speed reference 1e-4 rad/s low
// at 3.6 s, and the pitch, leaving its peak-shaving minimum there, runs
// 0.011° ahead of OpenFAST's until the rate-limited ramp ends at 9 s.
//
// Over the 13 m/s start-up (t < 3.5 s) ROSCO ramps the pitch from 0° at its
// 2°/s rate limit (0.01° per step), and the demand of each call must match
// the pitch of the same step within 0.001° (five int16 quanta of the
// channel): ROSCO's rate limiters return their reset value (the measured
// pitch) on the first call, so the ramp starts at the measured 0° at t = 0.
// A first call that already takes a rate step puts every sample of the ramp
// 0.01° ahead (the one-step "lag" earlier read into OpenFAST's coupling).
func TestReplayAgainstROSCO(t *testing.T) {
	for _, name := range []string{"iea15_onshore_steady10_rosco", "iea15_onshore_steady13_rosco"} {
		tqErr, pitchErr, rampErr, tqRange := replay(t, name, 0, 3.5)
		t.Logf("%s: max |ΔGenTq| %.3f kN·m (channel range %.1f), max |Δpitch| %.4f°, over t < 3.5 s %.5f°", name, tqErr, tqRange, pitchErr, rampErr)
		if tqErr > 0.1 {
			t.Errorf("%s: torque demand deviates from ROSCO by %.3f kN·m > 0.1", name, tqErr)
		}
		if pitchErr > 0.001 {
			t.Errorf("%s: pitch demand deviates from ROSCO by %.4f° > 0.001°", name, pitchErr)
		}
		if rampErr > 0.001 {
			t.Errorf("%s: pitch demand over the start-up (t < 3.5 s) deviates from ROSCO by %.5f° > 0.001°", name, rampErr)
		}
	}
}
