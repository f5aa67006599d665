package control

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/solver/control/bladed"
)

// scriptedController returns fixed demands and records the calls it gets.
type scriptedController struct {
	calls    []float64 // times
	statuses []int
	pitch    float64
	yawRate  float64
	brake    float64
	torque   float64
}

func (c *scriptedController) Name() string { return "scripted" }

func (c *scriptedController) Call(s *bladed.Swap) error {
	c.calls = append(c.calls, s[bladed.RecTime])
	c.statuses = append(c.statuses, int(s[bladed.RecStatus]))
	s[bladed.RecGenContactor] = 1
	s[bladed.RecGenTqDem] = c.torque
	s[bladed.RecPitchDemColl] = c.pitch
	s[bladed.RecYawRateDem] = c.yawRate
	s[bladed.RecBrakeTorqueDem] = c.brake
	return nil
}

// DLL_DT = 4·DT: the controller is called at t0 (status 0) and then every
// fourth step at t+DT (status 1), and once more at the end (status −1).
// BPCutoff 1 Hz filters the pitch demand with α = exp(−2π·1·DT) per step.
// YCMode 5 integrates the demanded yaw rate into the yaw command; HSSBrMode 5
// applies the demanded brake torque.
func TestControllerExchangeTiming(t *testing.T) {
	p := nrel5MWSimpleVS()
	p.DT, p.TimGenOn = 0.01, 0
	p.PCMode, p.VSContrl, p.YCMode, p.HSSBrMode = 5, 5, 5, 5
	p.DLLDT, p.BPCutoff, p.HSSBrTqF, p.YawSpr = 0.04, 1, 20000, 1e6
	c := &scriptedController{pitch: 0.1, yawRate: 0.02, brake: 5000, torque: 30000}
	s, err := New(p, c)
	if err != nil {
		t.Fatal(err)
	}
	u := Inputs{HSSSpd: 100}
	if _, err := s.Init(0, u); err != nil {
		t.Fatal(err)
	}
	var y Outputs
	for i := 0; i < 12; i++ {
		tm := float64(i) * p.DT
		if err := s.UpdateStates(tm, u); err != nil {
			t.Fatal(err)
		}
		if y, err = s.CalcOutput(tm+p.DT, u); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.End(0.12, u); err != nil {
		t.Fatal(err)
	}
	wantTimes := []float64{0, 0.04, 0.08, 0.12, 0.12}
	wantStatus := []int{0, 1, 1, 1, -1}
	if len(c.calls) != len(wantTimes) {
		t.Fatalf("calls at %v, want %v", c.calls, wantTimes)
	}
	for i := range wantTimes {
		if math.Abs(c.calls[i]-wantTimes[i]) > 1e-6 || c.statuses[i] != wantStatus[i] {
			t.Errorf("call %d at t=%g status %d, want t=%g status %d", i, c.calls[i], c.statuses[i], wantTimes[i], wantStatus[i])
		}
	}
	// The demand is constant from the first call, so the filtered pitch
	// after 12 steps from the initial 0.1 stays 0.1; check a step change.
	if math.Abs(y.BlPitchCom[0]-0.1) > 1e-9 {
		t.Errorf("pitch %g, want 0.1", y.BlPitchCom[0])
	}
	if math.Abs(y.GenTrq-30000) > 1e-9 || math.Abs(y.HSSBrTrqC-5000) > 1e-9 {
		t.Errorf("torque %g, brake %g", y.GenTrq, y.HSSBrTrqC)
	}
	if want := 0.02 * 12 * p.DT; math.Abs(y.YawPosCom-want) > 1e-12 {
		t.Errorf("yaw command %g, want %g", y.YawPosCom, want)
	}
	// Step the pitch demand: one step later the filtered command has moved
	// by (1−α) of the jump.
	c.pitch = 0.2
	tm := 12 * p.DT
	for i := 0; i < 4; i++ { // reach the next controller call at 0.16
		if err := s.UpdateStates(tm+float64(i)*p.DT, u); err != nil {
			t.Fatal(err)
		}
	}
	y, _ = s.CalcOutput(tm+4*p.DT, u)
	alpha := math.Exp(-2 * math.Pi * p.DT)
	if want := 0.1 + (1-alpha)*0.1; math.Abs(y.BlPitchCom[0]-want) > 1e-9 {
		t.Errorf("filtered pitch %g, want %g", y.BlPitchCom[0], want)
	}
}

// DLL_Ramp: between calls (DLL_DT = 4·DT) the pitch command moves linearly
// from the previous demand to the latest one, reaching it one DLL_DT after
// the call (ServoDyn's documented time shift).
func TestDLLRamp(t *testing.T) {
	p := nrel5MWSimpleVS()
	p.DT, p.TimGenOn = 0.01, 0
	p.PCMode, p.VSContrl, p.DLLDT, p.DLLRamp = 5, 5, 0.04, true
	c := &scriptedController{pitch: 0}
	s, err := New(p, c)
	if err != nil {
		t.Fatal(err)
	}
	u := Inputs{HSSSpd: 100}
	if _, err := s.Init(0, u); err != nil {
		t.Fatal(err)
	}
	c.pitch = 0.08 // demanded from the call at t = 0.04 on
	want := map[int]float64{4: 0, 5: 0.02, 6: 0.04, 7: 0.06, 8: 0.08}
	for i := 0; i < 8; i++ {
		if err := s.UpdateStates(float64(i)*p.DT, u); err != nil {
			t.Fatal(err)
		}
		y, _ := s.CalcOutput(float64(i+1)*p.DT, u)
		if w, ok := want[i+1]; ok && math.Abs(y.BlPitchCom[0]-w) > 1e-9 {
			t.Errorf("t=%.2f: pitch %g, want %g", float64(i+1)*p.DT, y.BlPitchCom[0], w)
		}
	}
}
