package decks_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/solver/deck"
)

func f64(v float64) *float64 { return &v }

func buildTemplate(t *testing.T) *decks.DeckModel {
	t.Helper()
	c, err := decks.NewBundledDemos(turbines.FS)
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Model(decks.BuildTemplateID)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestTurbineCreateBuildsValidDeck builds a 6 MW, 140 m rotor from scratch
// and checks the written deck against hand calculations.
func TestTurbineCreateBuildsValidDeck(t *testing.T) {
	req := turbinesim.TurbineCreate{Name: "Scratch", TurbineParams: turbinesim.TurbineParams{
		RatedPowerKW: f64(6000), RotorDiameterM: f64(140), HubHeightM: f64(100), RatedRotorSpeedRPM: f64(11),
		ShaftTiltDeg: f64(6), PreconeDeg: f64(-3)},
		BladeConfig:   turbinesim.ConfigBlob(`{"stations":{"span_m":[0,20,40,68.5],"chord_m":[4,4.5,3,1.2],"twist_deg":[13,10,3,0]}}`),
		TowerConfig:   turbinesim.ConfigBlob(`{"stations":{"ht_fract":[0,0.5,1],"mass_density_kg_m":[6000,5000,4000],"fa_stiffness_nm2":[6e11,4e11,2e11],"ss_stiffness_nm2":[6e11,4e11,2e11]}}`),
		NacelleConfig: turbinesim.ConfigBlob(`{"gearbox_ratio":100}`),
	}
	tb, dir, cleanup, err := decks.BuildTurbine(context.Background(), &req, buildTemplate(t))
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	d, err := deck.Load(filepath.Join(dir, filepath.FromSlash(*tb.MainFile)))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range deck.Validate(d) {
		if !p.Warning {
			t.Errorf("validation: %s", p)
		}
	}
	ed, sd := d.ElastoDyn, d.ServoDyn
	if ed.TipRad != 70 || ed.ShftTilt != 6 || ed.PreCone[2] != -3 || ed.GBRatio != 100 {
		t.Fatalf("rotor: TipRad %g tilt %g precone %g GB %g", ed.TipRad, ed.ShftTilt, ed.PreCone[2], ed.GBRatio)
	}
	// Hub height by hand: TowerHt + Twr2Shft + OverHang sin(tilt).
	hub := ed.TowerHt + ed.Twr2Shft + ed.OverHang*math.Sin(6*math.Pi/180)
	if math.Abs(hub-100) > 1e-9 {
		t.Fatalf("hub height %g, want 100", hub)
	}
	s, err := deck.Summarize(d)
	if err != nil || math.Abs(s.HubHeight-100) > 1e-6 || math.Abs(s.RotorDiameter-140) > 1e-9 {
		t.Fatalf("summary %+v %v", s, err)
	}
	b := d.AeroDyn.Blades[0]
	if len(b.BlSpn) != 4 || b.BlSpn[3] != 68.5 || b.BlChord[1] != 4.5 || b.BlTwist[0] != 13 {
		t.Fatalf("blade stations %v %v %v", b.BlSpn, b.BlChord, b.BlTwist)
	}
	// Rated torque: P = eta T omega_gen at 11 rpm x 100.
	omega := 11 * 100 * 2 * math.Pi / 60
	if p := sd.GenEff / 100 * sd.VS_RtTq * omega; math.Abs(p-6e6) > 1 {
		t.Fatalf("rated power from torque %g W", p)
	}
	if tw := ed.Tower; len(tw.HtFract) != 3 || tw.TMassDen[1] != 5000 {
		t.Fatalf("tower %v %v", tw.HtFract, tw.TMassDen)
	}
	// This blade (twist 13° to 0° over four stations) gains power when
	// pitched from zero at rated: the region-3 fit of its pitch
	// sensitivity is positive at zero pitch (+2.13 MW/rad), so the pitch
	// gains fall back to the 5 MW sensitivity scaled with rated power and
	// the parameter file says so.
	src, err := os.ReadFile(filepath.Join(filepath.Dir(sd.Meta.Path), sd.DLL_InFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "pitch gains from the 5 MW dP/dtheta") || !strings.Contains(string(src), "does not fall with pitch") {
		t.Fatalf("parameter file does not state the fallback:\n%s", src)
	}
	// The user is told too: the build's warnings, and the same sentence
	// read back from the stored deck (the turbine page's source).
	if len(tb.Warnings) != 1 || !strings.HasPrefix(tb.Warnings[0], "controller: the pitch controller's gains") ||
		!strings.Contains(tb.Warnings[0], "does not fall with pitch") {
		t.Fatalf("build warnings %q, want the pitch-gain fallback", tb.Warnings)
	}
	if got := decks.Warnings(dir, d); !slices.Equal(got, tb.Warnings) {
		t.Fatalf("Warnings of the written deck %q, want the build's %q", got, tb.Warnings)
	}
}

// TestTurbineCreateStopsWhenCancelled: a build whose context is done stops
// in the controller tuning's pitch-sensitivity sweep and returns the
// context's error; before, the sweep ran on context.Background() and the
// build could not be stopped.
func TestTurbineCreateStopsWhenCancelled(t *testing.T) {
	req := turbinesim.TurbineCreate{Name: "Cancelled", TurbineParams: turbinesim.TurbineParams{
		RatedPowerKW: f64(6000), RotorDiameterM: f64(140), HubHeightM: f64(100), RatedRotorSpeedRPM: f64(11)}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tb, _, cleanup, err := decks.BuildTurbine(ctx, &req, buildTemplate(t))
	if err == nil {
		cleanup()
		t.Fatalf("cancelled build returned a turbine (warnings %q)", tb.Warnings)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled build: %v, want context.Canceled", err)
	}
}

func TestTurbineCreateErrorsNameTheField(t *testing.T) {
	tpl := buildTemplate(t)
	base := func() turbinesim.TurbineCreate {
		return turbinesim.TurbineCreate{Name: "X", TurbineParams: turbinesim.TurbineParams{
			RatedPowerKW: f64(5000), RotorDiameterM: f64(126), HubHeightM: f64(90), RatedRotorSpeedRPM: f64(12.1)}}
	}
	cases := map[string]func(*turbinesim.TurbineCreate){
		"rotor_diameter_m":      func(r *turbinesim.TurbineCreate) { r.RotorDiameterM = nil },
		"rated_rotor_speed_rpm": func(r *turbinesim.TurbineCreate) { r.RatedRotorSpeedRPM = nil },
		"hub_height_m":          func(r *turbinesim.TurbineCreate) { r.HubHeightM = f64(2) },
		"blade_config.stations": func(r *turbinesim.TurbineCreate) {
			r.BladeConfig = turbinesim.ConfigBlob(`{"stations":{"span_m":[0,61.5],"chord_m":[3],"twist_deg":[1,0]}}`)
		},
		"blade_config.stations.span_m": func(r *turbinesim.TurbineCreate) {
			r.BladeConfig = turbinesim.ConfigBlob(`{"stations":{"span_m":[0,50],"chord_m":[3,1],"twist_deg":[1,0]}}`)
		},
		"tower_config.stations.ht_fract": func(r *turbinesim.TurbineCreate) {
			r.TowerConfig = turbinesim.ConfigBlob(`{"stations":{"ht_fract":[0,0.9],"mass_density_kg_m":[1,1],"fa_stiffness_nm2":[1,1],"ss_stiffness_nm2":[1,1]}}`)
		},
		"nacelle_config.gearbox_ratio": func(r *turbinesim.TurbineCreate) { r.NacelleConfig = turbinesim.ConfigBlob(`{"gearbox_ratio":-1}`) },
		"nacelle_config":               func(r *turbinesim.TurbineCreate) { r.NacelleConfig = turbinesim.ConfigBlob(`{"gearbox_ratio":"x"}`) },
		"rated_power_kw":               func(r *turbinesim.TurbineCreate) { r.RatedPowerKW = f64(10) },
		"controller_config.generator_efficiency_pct": func(r *turbinesim.TurbineCreate) {
			r.ControllerConfig = turbinesim.ConfigBlob(`{"generator_efficiency_pct":120}`)
		},
	}
	for field, mutate := range cases {
		r := base()
		mutate(&r)
		_, _, _, err := decks.BuildTurbine(context.Background(), &r, tpl)
		if turbinesim.ErrorCode(err) != turbinesim.EINVALID || !strings.HasPrefix(turbinesim.ErrorMessage(err), field) {
			t.Errorf("%s: got %v", field, err)
		}
	}
	// A blob value of the wrong type is named by its JSON path and type,
	// not by Go's decoder ("cannot unmarshal string into Go struct field
	// .stations.span_m of type []float64").
	for blob, want := range map[string]string{
		`{"stations":{"span_m":"x"}}`: "blade_config: stations.span_m: expected an array",
		`{"stations":[1]}`:            "blade_config: stations: expected an object",
	} {
		r := base()
		r.BladeConfig = turbinesim.ConfigBlob(blob)
		_, _, _, err := decks.BuildTurbine(context.Background(), &r, tpl)
		if turbinesim.ErrorCode(err) != turbinesim.EINVALID || turbinesim.ErrorMessage(err) != want {
			t.Errorf("blade_config %s: got %v, want %q", blob, err, want)
		}
	}
}
