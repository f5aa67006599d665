package bladed

import (
	"math"
	"strings"
	"testing"
)

// Records land at the Bladed record numbers, rounded to single precision.
func TestFillRecords(t *testing.T) {
	var s Swap
	m := Measurements{Time: 1.23456789, NumBlades: 3, BlPitch: [3]float64{0.1, 0.2, 0.3},
		GenSpeed: 122.9096, RotSpeed: 1.2671, GenTorque: 43093.55, ElecPower: 5e6, HubWind: 11.4,
		RootMyc: [3]float64{1, 2, 3}, NacYaw: 0.5, Azimuth: 4}
	Fill(&s, StatusRunning, m, InterfaceSettings{CommInterval: 0.00625, NacYawNorth: 0.2, PitchIndividual: true})
	want := map[int]float64{1: 1, 2: 1.23456789, 3: 0.00625, 4: 0.1, 33: 0.2, 34: 0.3, 20: 122.9096, 21: 1.2671,
		23: 43093.55, 15: 5e6, 27: 11.4, 30: 1, 31: 2, 32: 3, 37: 0.3, 60: 4, 61: 3, 28: 1, 129: 129}
	for rec, v := range want {
		if s[rec] != float64(float32(v)) {
			t.Errorf("record %d = %.9g, want %.9g (float32 of %g)", rec, s[rec], float64(float32(v)), v)
		}
	}
	if s[RecTime] == 1.23456789 {
		t.Error("time not rounded to single precision")
	}
}

func TestRetrieve(t *testing.T) {
	var s Swap
	s[RecGenTqDem], s[RecPitchDemColl], s[RecPitchDem2], s[RecYawRateDem] = 40000, 0.05, 0.07, 0.01
	c, err := Retrieve(&s)
	if err != nil {
		t.Fatal(err)
	}
	if c.GenTorque != 40000 || c.PitchCollective != 0.05 || c.BladePitch(1, true) != 0.07 || c.BladePitch(1, false) != 0.05 || c.YawRate != 0.01 {
		t.Errorf("commands %+v", c)
	}
	s[RecTorqueOverride] = 1
	if _, err := Retrieve(&s); err == nil || !strings.Contains(err.Error(), "torque override") {
		t.Errorf("override accepted: %v", err)
	}
	s[RecTorqueOverride] = 0
	s[RecGenTqDem] = math.NaN()
	if _, err := Retrieve(&s); err == nil {
		t.Error("NaN torque accepted")
	}
}
