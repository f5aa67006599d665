package baseline

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/solver/control/bladed"
)

// Hand calculation from Jonkman et al. 2009 §7.3 numbers:
//
//	VS_SySp  = 121.6805/1.1                         = 110.618636 rad/s
//	slope1½  = 2.332287·91.21091²/(91.21091−70.16224) = 921.830153 N·m/(rad/s)
//	slope2½  = (5296610/121.6805)/(121.6805−110.618636) = 3935.036002 N·m/(rad/s)
//	VS_TrGnSp = (s − √(s(s − 4K·SySp)))/(2K)         = 119.013772 rad/s (1136.5 rpm)
func TestTorqueLawHandValues(t *testing.T) {
	p := DefaultParams()
	cases := []struct {
		name         string
		omega, pitch float64
		want         float64
	}{
		{"region 1 below cut-in", 60, 0, 0},
		{"region 1½ ramp", 80, 0, 921.830153 * (80 - 70.16224)},               // 9068.74
		{"region 2 K·ω²", 100, 0, 2.332287 * 100 * 100},                       // 23322.87
		{"region 2½ slip line", 120.5, 0, 3935.036002 * (120.5 - 110.618636)}, // 38883.52
		{"region 3 at rated speed", 121.6805, 0, 5296610 / 121.6805},          // 43528.83
		{"region 3 above rated", 125, 0, 5296610.0 / 125},                     // 42372.88
		{"region 3 forced by pitch ≥ 1°", 100, 0.02, 5296610.0 / 100},
	}
	for _, c := range cases {
		got, err := p.TorqueLaw(c.omega, c.pitch)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-c.want) > 1e-6*math.Max(1, c.want) {
			t.Errorf("%s: ω=%g: torque %.4f, want %.4f", c.name, c.omega, got, c.want)
		}
	}
	// Continuity at the 2/2½ transition (the quadratic root).
	tr := 119.013772
	lo, _ := p.TorqueLaw(tr-1e-6, 0)
	hi, _ := p.TorqueLaw(tr+1e-6, 0)
	if math.Abs(lo-hi) > 0.05 {
		t.Errorf("torque jumps at VS_TrGnSp: %g vs %g", lo, hi)
	}
}

func call(t *testing.T, c *Controller, status int, time, genSpeed, pitch, genTq float64) bladed.Commands {
	t.Helper()
	var s bladed.Swap
	bladed.Fill(&s, status, bladed.Measurements{
		Time: time, NumBlades: 3, BlPitch: [3]float64{pitch, pitch, pitch},
		GenSpeed: genSpeed, RotSpeed: genSpeed / 97, GenTorque: genTq,
	}, bladed.InterfaceSettings{CommInterval: 0.00625})
	if err := c.Call(&s); err != nil {
		t.Fatal(err)
	}
	cmd, err := bladed.Retrieve(&s)
	if err != nil {
		t.Fatal(err)
	}
	return cmd
}

// The torque demand is rate-limited to 15000 N·m/s and the filter starts at
// the measurement: from 20000 N·m at ω=100 rad/s (law: 23322.87 N·m) one
// 0.00625 s step may add only 93.75 N·m.
func TestTorqueRateLimitAndFirstCall(t *testing.T) {
	c, err := New(DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	cmd := call(t, c, bladed.StatusFirst, 0, 100, 0, 20000)
	// First call: elapsed time VS_DT (0.00125 s) → 18.75 N·m step.
	if want := 20000 + 15000*0.00125; math.Abs(cmd.GenTorque-want) > 0.01 {
		t.Errorf("first call torque %.3f, want %.3f", cmd.GenTorque, want)
	}
	prev := cmd.GenTorque
	cmd = call(t, c, bladed.StatusRunning, 0.00625, 100, 0, prev)
	if want := prev + 15000*0.00625; math.Abs(cmd.GenTorque-want) > 0.01 {
		t.Errorf("second call torque %.3f, want %.3f", cmd.GenTorque, want)
	}
	if cmd.PitchCollective != 0 {
		t.Errorf("below rated the pitch must stay at 0, got %g", cmd.PitchCollective)
	}
}

// Above rated the PI raises the pitch at the rate limit 8°/s when the speed
// error is large: ω = 140 rad/s, PC_KP·GK·Δω = 0.0188·17 = 0.32 rad ≫ 8°/s·Δt.
func TestPitchRateLimitAboveRated(t *testing.T) {
	c, err := New(DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	pitch := 0.1
	call(t, c, bladed.StatusFirst, 0, 140, pitch, 43000)
	cmd := call(t, c, bladed.StatusRunning, 0.00625, 140, pitch, 43000)
	if want := pitch + 0.1396263*0.00625; math.Abs(cmd.PitchCollective-want) > 1e-6 {
		t.Errorf("pitch %.7f, want rate-limited %.7f", cmd.PitchCollective, want)
	}
}

// A turbine waiting to start: the controller is initialised with the
// blades feathered (PC_MaxPit = 90°) and the rotor standing, and the
// supervisor holds the blades there for 40 s (ServoDyn's neutral pitch
// before TPCOn) while the controller sees a speed error of −PC_RefSpd.
// Released (the measured pitch then follows the demand; the rotor still
// stands in this test), the PI starts from feather. Hand calculation: the
// integral term sits at its upper limit PC_MaxPit, so the PI asks for
// θ* = 90° + GK(θ*)·PC_KP·(−PC_RefSpd) (eq. 7-15: 80.3°, the fixed point
// below); the blades leave feather at the actuator limit 8°/s (82° after
// 1 s) until they meet θ* after (90° − θ*)/8°/s = 1.2 s, and from there
// follow the PI, which the integral of the speed error brings down more
// slowly (2.2°/s): at 5 s between 70° and θ*. Before, the integrator had
// integrated the standing rotor's error down to fine pitch during the hold
// and the blades left feather at 8°/s all the way to 0° (50° at 5 s),
// whatever the rotor did; the start-up at cut-out then reached 1.56 ×
// rated speed.
func TestStartUpFromFeatherStartsThePIAtFeather(t *testing.T) {
	p := DefaultParams()
	c, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	const dt, feather = 0.00625, 1.570796
	call(t, c, bladed.StatusFirst, 0, 0, feather, 0)
	var tt float64
	for k := 1; tt < 40; k++ {
		tt = float64(k) * dt
		cmd := call(t, c, bladed.StatusRunning, tt, 0, feather, 0)
		if d := feather - cmd.PitchCollective; d < 0 || d > p.PitchMaxRate*dt+1e-6 {
			t.Fatalf("held at feather: demand %.9f rad at t=%.3f s, more than one 8°/s step below feather", cmd.PitchCollective, tt)
		}
	}
	// θ* = PC_MaxPit + GK(θ*)·PC_KP·(−PC_RefSpd), by fixed-point iteration.
	thStar := feather
	for range 50 {
		thStar = feather - p.PitchKP*p.PitchRefSpeed/(1+thStar/p.PitchKK)
	}
	deg := 180 / math.Pi
	pitch := feather
	at := map[int]float64{}
	for k := 1; k <= 800; k++ {
		tt += dt
		pitch = call(t, c, bladed.StatusRunning, tt, 0, pitch, 0).PitchCollective
		at[k] = pitch * deg
	}
	t.Logf("θ* = %.2f°; pitch at t0 + 1, 2, 5 s: %.2f°, %.2f°, %.2f°", thStar*deg, at[160], at[320], at[800])
	if want := (feather - p.PitchMaxRate) * deg; math.Abs(at[160]-want) > 0.01 {
		t.Errorf("pitch %.3f° 1 s after the release, want %.3f° (out of feather at the actuator limit)", at[160], want)
	}
	if at[320] > thStar*deg || at[320] < thStar*deg-0.8*2.2 {
		t.Errorf("pitch %.2f° 2 s after the release, want the PI's θ* = %.2f° less its slow descent", at[320], thStar*deg)
	}
	if at[800] > thStar*deg || at[800] < 70 {
		t.Errorf("pitch %.2f° 5 s after the release, hand calculation between 70° and θ* = %.2f° (50° if the blades keep the actuator limit)", at[800], thStar*deg)
	}
}
