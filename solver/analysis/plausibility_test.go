package analysis

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// nrel5MWLimits are the NREL 5 MW's bounds (Jonkman et al. 2009): rated
// rotor speed 12.1 rpm with a 20 % overspeed margin, blade pitch rate
// 8 deg/s, yaw rate 0.3 deg/s, 61.5-m blades, 87.6-m tower.
var nrel5MWLimits = PlausibilityLimits{MaxRotorSpeedRPM: 1.2 * 12.1, MaxPitchRateDegS: 8, MaxYawRateDegS: 0.3,
	MaxBladeDeflectionM: 61.5, MaxTowerDeflectionM: 87.6}

// A run in which the blade pitch jumps from 90° to 0° in one step and the
// rotor runs away to 31 rpm (a start-up event with no actuator model) is
// flagged for overspeed and pitch rate; NaN and INVALID channels are
// flagged over the whole record; a growing tower oscillation is flagged
// as divergence.
func TestPlausibilityFlagsNonPhysicalRuns(t *testing.T) {
	n := 400
	rec := &Record{Names: []string{"RotSpeed", "BldPitch1", "NacYaw", "TTDspFA", "TipDxc1", "Spn1MLxb1", "GenPwr"},
		Units: []string{"(rpm)", "(deg)", "(deg)", "(m)", "(m)", "INVALID", "(kW)"}}
	rec.Time = make([]float64, n)
	rec.Channels = make([][]float64, len(rec.Names))
	for c := range rec.Channels {
		rec.Channels[c] = make([]float64, n)
	}
	for i := range n {
		tt := float64(i) * 0.1
		rec.Time[i] = tt
		rec.Channels[0][i] = 12 + 19*math.Max(0, math.Min(1, (tt-20)/5))
		if tt < 20 {
			rec.Channels[1][i] = 90
		}
		rec.Channels[2][i] = 179.9 + 0.2*tt/40 // wraps past 180°: 0.005 deg/s, not a jump
		if rec.Channels[2][i] > 180 {
			rec.Channels[2][i] -= 360
		}
		rec.Channels[3][i] = 0.5 * math.Exp(tt/5) * math.Sin(tt)
		rec.Channels[4][i] = 5
	}
	rec.Channels[6][300] = math.NaN()
	checks, err := Plausibility(rec, After(5), nrel5MWLimits)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Check{}
	for _, c := range checks {
		got[c.Kind+" "+c.Channel] = c
		t.Log(c.Message)
	}
	for _, want := range []string{"overspeed RotSpeed", "pitch_rate BldPitch1", "invalid_channel Spn1MLxb1", "non_finite GenPwr", "divergence TTDspFA", "deflection TTDspFA"} {
		if _, ok := got[want]; !ok {
			t.Errorf("no %s check", want)
		}
	}
	if len(checks) != 6 {
		t.Errorf("%d checks, want 6 (no yaw-rate or blade-deflection check)", len(checks))
	}
	if c := got["pitch_rate BldPitch1"]; math.Abs(c.Value-900) > 1e-9 || c.Time != 20 {
		t.Errorf("pitch rate %g deg/s at %g s, want 900 at 20", c.Value, c.Time)
	}
	b, err := json.Marshal(checks)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"kind":"invalid_channel","channel":"Spn1MLxb1","time":null`) {
		t.Errorf("JSON %s", b)
	}
}

// OpenFAST's own NREL 5 MW runs (steady 8 m/s and turbulent 12 m/s, full
// deck) pass every physical check: the bounds do not flag normal
// operation. Their OutList does name strain-gage and clearance channels
// OpenFAST wrote as INVALID (Spn1MLxb1…, B1N3Clrnc), and those are flagged.
func TestPlausibilityPassesReferenceRuns(t *testing.T) {
	for _, cs := range []string{"nrel5mw_steady8_full", "nrel5mw_turb12_full"} {
		rec := readReference(t, cs)
		checks, err := Plausibility(rec, After(30), nrel5MWLimits)
		if err != nil {
			t.Fatal(err)
		}
		invalid := 0
		for _, c := range checks {
			if c.Kind == CheckInvalid {
				invalid++
				continue
			}
			t.Errorf("%s: %s", cs, c.Message)
		}
		if invalid == 0 {
			t.Errorf("%s: its INVALID channels are not flagged", cs)
		}
	}
}
