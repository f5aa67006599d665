package control

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/solver/control/bladed"
)

// fixedDemand is a controller that always demands the same pitch and
// generator torque and states actuator limits, like the baseline and ROSCO.
type fixedDemand struct {
	pitch, torque float64
	lim           bladed.ActuatorLimits
}

func (c *fixedDemand) Name() string { return "fixed demand" }
func (c *fixedDemand) Call(s *bladed.Swap) error {
	s[bladed.RecGenContactor] = 1
	s[bladed.RecPitchDemColl] = c.pitch
	s[bladed.RecPitchDem1], s[bladed.RecPitchDem2], s[bladed.RecPitchDem3] = c.pitch, c.pitch, c.pitch
	s[bladed.RecGenTqDem] = c.torque
	return nil
}
func (c *fixedDemand) ActuatorLimits() bladed.ActuatorLimits { return c.lim }

// dllParams is a ServoDyn with pitch and torque from the controller,
// feathered neutral pitch, pitch control from TPCOn = 10 s and the
// generator switched on at TimGenOn = 20 s.
func dllParams() Params {
	p := nrel5MWSimpleVS()
	p.PCMode, p.VSContrl, p.TPCOn = ModeDLL, ModeDLL, 10
	p.TimGenOn = 20
	p.GenEff = 1
	p.BPCutoff = 9999.9
	for k := range p.PitNeut {
		p.PitNeut[k] = math.Pi / 2
	}
	return p
}

// TestPitchHandOverRampsAtTheActuatorRate: a controller that demands 0°
// while the blades are held feathered takes over at TPCOn. Hand
// calculation: the blades leave 90° at the controller's PC_MaxRat r and
// reach θ at t0 + (90° − θ)/r, with t0 = TPCOn − DT (the demand is first
// applied at the step ending at TPCOn, and the actuator moves during that
// step); at 8°/s and DT = 6.25 ms, 50° at 14.99375 s and 0° at
// 21.24375 s. On main the command stepped from 90° to 0° in one step.
func TestPitchHandOverRampsAtTheActuatorRate(t *testing.T) {
	rate := 8 * degToRad
	ctrl := &fixedDemand{pitch: 0, lim: bladed.ActuatorLimits{PitchRate: rate}}
	p := dllParams()
	s, err := New(p, ctrl)
	if err != nil {
		t.Fatal(err)
	}
	u := Inputs{BlPitch: [3]float64{math.Pi / 2, math.Pi / 2, math.Pi / 2}}
	y, err := s.Init(0, u)
	if err != nil {
		t.Fatal(err)
	}
	if y.BlPitchCom[0] != math.Pi/2 {
		t.Fatalf("before TPCOn the command is %g°, want PitNeut 90°", y.BlPitchCom[0]/degToRad)
	}
	t0 := p.TPCOn - p.DT
	hand := func(tt float64) float64 { return math.Max(0, 90-8*math.Max(0, tt-t0)) }
	check := map[float64]float64{}
	for _, at := range []float64{9, 10.5, 15, 20, 21.25, 25} {
		check[at] = hand(at)
	}
	var prev float64 = 90
	for n := 0; n < int(25/p.DT+0.5); n++ {
		tt := float64(n) * p.DT
		if err := s.UpdateStates(tt, u); err != nil {
			t.Fatal(err)
		}
		if y, err = s.CalcOutput(tt+p.DT, u); err != nil {
			t.Fatal(err)
		}
		com := y.BlPitchCom[0] / degToRad
		if d := math.Abs(com - prev); d > 8*p.DT*(1+1e-5) {
			t.Fatalf("t=%.5f s: the command moved %.4f° in one step (limit %.4f°)", tt+p.DT, d, 8*p.DT)
		}
		prev = com
		u.BlPitch = y.BlPitchCom // a stiff actuator follows the command
		for at, want := range check {
			if math.Abs(tt+p.DT-at) < p.DT/2 && math.Abs(com-want) > 1e-4 { // the limiter's 1e-6 relative slack per step
				t.Errorf("t=%g s: pitch command %.6f°, hand calculation %.6f°", at, com, want)
			}
		}
	}
}

// TestGeneratorConnectionRampsTheTorque: at the generator connection
// (TimGenOn = 20 s) a controller demanding 40 kN·m gets its torque at
// VS_MaxRat = 15 kN·m/s from zero: Q(t) = 15 kN·m/s·(t − t0) with
// t0 = TimGenOn − DT (connected at the step ending at TimGenOn), 40 kN·m
// at 22.66 s; a demand above VS_MaxTq is held at VS_MaxTq and a negative one
// (motoring) at zero. On main the torque stepped to the demand.
func TestGeneratorConnectionRampsTheTorque(t *testing.T) {
	ctrl := &fixedDemand{pitch: 0, torque: 40000, lim: bladed.ActuatorLimits{TorqueRate: 15000, TorqueMax: 47402.91}}
	p := dllParams()
	s, err := New(p, ctrl)
	if err != nil {
		t.Fatal(err)
	}
	u := Inputs{HSSSpd: 100}
	if _, err := s.Init(0, u); err != nil {
		t.Fatal(err)
	}
	var y Outputs
	step := func(until float64) {
		for n := int(math.Round(s.appliedTime / p.DT)); float64(n)*p.DT < until-p.DT/2; n++ {
			tt := float64(n) * p.DT
			if err := s.UpdateStates(tt, u); err != nil {
				t.Fatal(err)
			}
			var err error
			if y, err = s.CalcOutput(tt+p.DT, u); err != nil {
				t.Fatal(err)
			}
		}
	}
	t0 := p.TimGenOn - p.DT
	for _, c := range []struct{ t, want float64 }{{19.9, 0}, {20.5, 0}, {22, 0}, {22.5, 0}, {25, 40000}} {
		if c.t > t0 {
			c.want = math.Min(40000, 15000*(c.t-t0))
		}
		step(c.t)
		if math.Abs(y.GenTrq-c.want) > 1e-6*c.want+1e-6 {
			t.Errorf("t=%g s: generator torque %.3f N·m, hand calculation %.3f", c.t, y.GenTrq, c.want)
		}
	}
	ctrl.torque = 60000
	step(28)
	if y.GenTrq != 47402.91 {
		t.Errorf("demand 60 kN·m: torque %g N·m, want VS_MaxTq 47402.91", y.GenTrq)
	}
	ctrl.torque = -5000
	step(40)
	if y.GenTrq != 0 {
		t.Errorf("motoring demand: torque %g N·m, want 0", y.GenTrq)
	}
}
