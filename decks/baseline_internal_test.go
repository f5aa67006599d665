package decks

import (
	"context"
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/solver/control/baseline"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// TestBaselineTuningReproducesNREL5MW tunes the baseline controller for the
// NREL 5 MW deck at its own rated point and compares with the report's
// constants (Jonkman et al. 2009 §7). The drive-train inertia integrated
// trapezoidally over the 49 ElastoDyn blade stations is 43,576,670 kg m^2,
// 0.48 % below the report's 43,784,725 (ElastoDyn's own discretisation of
// the blade differs), so inertia is held to 1 %; the scaled speeds, powers
// and torques to 1e-6. The pitch gains and PC_KK come from the rotor's own
// frozen-wake pitch sensitivity (perf.PitchSensitivityAt): −23.47 MW/rad at
// zero pitch and θK 5.49° against the report's −25.52 MW/rad and 6.30°, so
// PC_KP and PC_KI are held to the report within 10 % and PC_KK within 15 %
// (measured: +8.2 %, +8.2 %, −12.9 %).
func TestBaselineTuningReproducesNREL5MW(t *testing.T) {
	c, err := NewBundledDemos(turbines.FS)
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Model(BuildTemplateID)
	if err != nil {
		t.Fatal(err)
	}
	ed := m.ElastoDyn
	inertia, err := drivetrainInertia(ed)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("drive-train inertia %.0f kg m^2 (report 43,784,725)", inertia)
	if math.Abs(inertia/43784725-1) > 1e-2 {
		t.Errorf("drive-train inertia %.0f kg m^2, report 43,784,725", inertia)
	}
	// Rated rotor speed 12.1 rpm: PC_RefSpd 122.9096 rad/s / 97.
	rpm := baseline.DefaultParams().PitchRefSpeed / 97 * 30 / math.Pi
	d := &deck.Deck{Main: m.Main, ElastoDyn: ed, AeroDyn: m.AeroDyn, InflowWind: m.InflowWind, ServoDyn: m.ServoDyn}
	p, note, err := tuneBaselineController(context.Background(), d, m.ServoDyn.GenEff, 5000, rpm)
	t.Log(note.text)
	if err != nil {
		t.Fatal(err)
	}
	want := baseline.DefaultParams()
	got := baseline.EncodeParams(p)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"PC_KP", p.PitchKP, want.PitchKP}, {"PC_KI", p.PitchKI, want.PitchKI}, {"PC_RefSpd", p.PitchRefSpeed, want.PitchRefSpeed},
		{"VS_RtGnSp", p.RatedGenSpeed, want.RatedGenSpeed}, {"VS_Rgn2Sp", p.Rgn2Speed, want.Rgn2Speed}, {"VS_CtInSp", p.CutInSpeed, want.CutInSpeed},
		{"VS_RtPwr", p.RatedPower, want.RatedPower}, {"VS_MaxTq", p.MaxTorque, want.MaxTorque}, {"VS_MaxRat", p.MaxTorqueRate, want.MaxTorqueRate},
		{"VS_Rgn2K", p.Rgn2K, want.Rgn2K}, {"PC_KK", p.PitchKK, want.PitchKK},
	} {
		tol := 1e-6
		switch c.name {
		case "PC_KP", "PC_KI":
			tol = 0.10
		case "PC_KK":
			tol = 0.15
		}
		t.Logf("%s = %.6g, NREL 5 MW %.6g (%+.2f %%)", c.name, c.got, c.want, 100*(c.got/c.want-1))
		if math.Abs(c.got/c.want-1) > tol {
			t.Errorf("%s = %g, NREL 5 MW %g\n%s", c.name, c.got, c.want, got)
		}
	}
}
