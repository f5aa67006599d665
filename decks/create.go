package decks

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// BuildTemplateID is the bundled turbine whose deck a from-scratch build
// starts from: the NREL 5 MW land-based model. It runs the built-in NREL
// 5 MW baseline controller (ServoDyn Bladed interface, DISCON.dll); a build
// writes that controller a parameter file tuned to the requested rated
// power and speed (useBuiltBaseline) and also retunes ServoDyn's simple
// variable-speed law (tuneSimpleTorqueControl), which the deck carries but
// does not run.
const BuildTemplateID = "nrel-5mw-land"

// BuildTurbine validates the payload r and returns the row to store. When
// template is not nil a complete deck is generated from it into a scratch
// folder (dir; cleanup removes it): the payload's geometry and blobs replace
// the template's values, and t.Warnings says what the user should know about
// the generated deck (the controller tuning's fallback). Every validation
// error is EINVALID naming the field; a done ctx stops the controller
// tuning's sensitivity sweep and is returned.
func BuildTurbine(ctx context.Context, r *turbinesim.TurbineCreate, template *DeckModel) (t *turbinesim.Turbine, dir string, cleanup func(), err error) {
	nothing := func() {}
	if turbinesim.IsDemoDescription(r.Description) {
		return nil, "", nil, turbinesim.Errorf(turbinesim.EINVALID, "description: the prefix %q is reserved for bundled demo turbines", turbinesim.DemoPrefix)
	}
	t = &turbinesim.Turbine{Name: r.Name, Description: r.Description, TurbineParams: r.TurbineParams,
		BladeConfig: r.BladeConfig, TowerConfig: r.TowerConfig, NacelleConfig: r.NacelleConfig, ControllerConfig: r.ControllerConfig}
	if err := t.Validate(); err != nil {
		return nil, "", nil, err
	}
	if template == nil {
		return t, "", nothing, nil
	}
	m, warnings, err := deckModel(ctx, r, template)
	if err != nil {
		return nil, "", nil, err
	}
	t.Warnings = warnings
	dir, err = os.MkdirTemp("", "turbine-build-")
	if err != nil {
		return nil, "", nil, fmt.Errorf("build: %w", err)
	}
	cleanup = func() { os.RemoveAll(dir) }
	mainRel, err := m.WriteDeck(dir)
	if err != nil {
		cleanup()
		return nil, "", nil, fmt.Errorf("build: %w", err)
	}
	t.MainFile = &mainRel
	return t, dir, cleanup, nil
}

// deckModel applies the payload to a copy of the template and returns the
// controller tuning's warnings.
func deckModel(ctx context.Context, r *turbinesim.TurbineCreate, template *DeckModel) (*DeckModel, []string, error) {
	for _, req := range []struct {
		name string
		v    *float64
	}{{"rotor_diameter_m", r.RotorDiameterM}, {"hub_height_m", r.HubHeightM}, {"rated_power_kw", r.RatedPowerKW}, {"rated_rotor_speed_rpm", r.RatedRotorSpeedRPM}} {
		if req.v == nil {
			return nil, nil, turbinesim.Errorf(turbinesim.EINVALID, "%s: required to build a deck", req.name)
		}
	}
	specs, err := turbinesim.DecodeDeckSpecs(r.BladeConfig, r.TowerConfig, r.NacelleConfig, r.ControllerConfig)
	if err != nil {
		return nil, nil, err
	}

	// Deep copy through JSON: the template stays untouched.
	b, err := json.Marshal(template)
	if err != nil {
		return nil, nil, fmt.Errorf("build: %w", err)
	}
	var m DeckModel
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, nil, fmt.Errorf("build: %w", err)
	}
	ed, ad, sd := m.ElastoDyn, m.AeroDyn, m.ServoDyn
	if ed == nil || ad == nil || sd == nil || ed.Tower == nil || len(ad.Blades) == 0 {
		return nil, nil, fmt.Errorf("build: template lacks ElastoDyn, AeroDyn or ServoDyn")
	}
	r0, g0 := ed.TipRad, ed.GBRatio

	if err := setRotorDiameter(ed, *r.RotorDiameterM); err != nil {
		return nil, nil, err
	}
	if r.ShaftTiltDeg != nil {
		ed.ShftTilt = *r.ShaftTiltDeg
	}
	if r.PreconeDeg != nil {
		for i := range ed.PreCone {
			ed.PreCone[i] = *r.PreconeDeg
		}
	}
	applyNacelle(ed, specs.Nacelle)
	if err := setHubHeight(ed, *r.HubHeightM); err != nil {
		return nil, nil, err
	}
	ed.RotSpeed = *r.RatedRotorSpeedRPM

	// Blade stations: given, or the template's scaled to the new length.
	blade0 := ad.Blades[0]
	if st := specs.Blade.Stations; st != nil {
		if err := setBladeStations(blade0, st.SpanM, st.ChordM, st.TwistDeg, ed); err != nil {
			return nil, nil, err
		}
	} else {
		scaleBladeSpan(blade0, ed.TipRad-ed.HubRad)
	}
	for i := range ad.Blades {
		ad.Blades[i] = blade0
	}
	if st := specs.Tower.Stations; st != nil {
		setTowerStations(ed.Tower, st.HtFract, st.MassDenKgM, st.FAStiffNm2, st.SSStiffNm2)
	}
	if ctrl := specs.Controller; ctrl.GeneratorEfficiencyPct != nil {
		sd.GenEff = *ctrl.GeneratorEfficiencyPct
	}
	if err := tuneSimpleTorqueControl(sd, ed, r0, g0, *r.RatedPowerKW, *r.RatedRotorSpeedRPM); err != nil {
		return nil, nil, err
	}
	// The template runs the built-in baseline controller (Bladed
	// interface), not the simple law above: give it constants tuned to the
	// requested rated point in its own parameter file.
	warnings, err := useBuiltBaseline(ctx, &m, *r.RatedPowerKW, *r.RatedRotorSpeedRPM)
	if err != nil {
		return nil, nil, err
	}
	return &m, warnings, nil
}

// setRotorDiameter sets TipRad from the diameter; the AeroDyn span (root
// to tip along the pitch axis) runs over TipRad - HubRad.
func setRotorDiameter(ed *deck.ElastoDyn, diameter float64) error {
	tip := diameter / 2
	if tip <= ed.HubRad+1 {
		return turbinesim.Errorf(turbinesim.EINVALID, "rotor_diameter_m: %g m leaves no blade beyond the %g m hub radius", diameter, ed.HubRad)
	}
	ed.TipRad = tip
	return nil
}

// applyNacelle sets the stated nacelle keys.
func applyNacelle(ed *deck.ElastoDyn, n turbinesim.NacelleSpec) {
	if n.OverhangM != nil {
		ed.OverHang = *n.OverhangM
	}
	if n.Twr2ShftM != nil {
		ed.Twr2Shft = *n.Twr2ShftM
	}
	if n.GearboxRatio != nil {
		ed.GBRatio = *n.GearboxRatio
	}
}

// hubHeightOf is the hub height of the ElastoDyn geometry: TowerHt +
// Twr2Shft + OverHang sin(ShftTilt) (the sign convention makes a negative
// overhang upwind); deck.Summarize uses the same relation.
func hubHeightOf(ed *deck.ElastoDyn) float64 {
	return ed.TowerHt + ed.Twr2Shft + ed.OverHang*math.Sin(ed.ShftTilt*math.Pi/180)
}

// setHubHeight sizes the tower so that the hub is at hub (m).
func setHubHeight(ed *deck.ElastoDyn, hub float64) error {
	towerHt := hub - (hubHeightOf(ed) - ed.TowerHt)
	if towerHt <= ed.TowerBsHt+1 {
		return turbinesim.Errorf(turbinesim.EINVALID, "hub_height_m: %g m leaves no tower above its base at %g m", hub, ed.TowerBsHt)
	}
	ed.TowerHt = towerHt
	return nil
}

// setBladeStations gives an AeroDyn blade the stations (already checked by
// decodeDeckSpecs); the span must run from 0 to the blade length of ed.
// Each new station gets the blade's old airfoil at the same relative span.
func setBladeStations(b *deck.ADBlade, span, chord, twist []float64, ed *deck.ElastoDyn) error {
	n := len(span)
	bladeLen := ed.TipRad - ed.HubRad
	if span[0] != 0 || math.Abs(span[n-1]-bladeLen) > 1e-6*bladeLen+1e-6 {
		return turbinesim.Errorf(turbinesim.EINVALID, "blade_config.stations.span_m: must run from 0 to the blade length %g m (rotor radius minus hub radius %g m)", bladeLen, ed.HubRad)
	}
	oldLen := b.BlSpn[len(b.BlSpn)-1]
	afid := make([]int, n)
	for i, s := range span {
		afid[i] = b.BlAFID[nearestIndex(b.BlSpn, s/bladeLen*oldLen)]
	}
	b.NumBlNds = n
	b.BlSpn, b.BlChord, b.BlTwist, b.BlAFID = span, chord, twist, afid
	b.BlCrvAC, b.BlSwpAC, b.BlCrvAng = make([]float64, n), make([]float64, n), make([]float64, n)
	b.Extra, b.ExtraCols = nil, nil
	return nil
}

// scaleBladeSpan scales a blade's stations (span, chord, curvature and
// sweep offsets) to a new length, keeping its shape.
func scaleBladeSpan(b *deck.ADBlade, bladeLen float64) {
	oldLen := b.BlSpn[len(b.BlSpn)-1]
	scale := bladeLen / oldLen
	for i := range b.BlSpn {
		b.BlSpn[i] *= scale
		b.BlChord[i] *= scale
		b.BlCrvAC[i] *= scale
		b.BlSwpAC[i] *= scale
	}
}

// setTowerStations replaces the ElastoDyn tower stations (checked by
// decodeDeckSpecs).
func setTowerStations(tw *deck.EDTower, htFract, massDen, faStif, ssStif []float64) {
	tw.NTwInpSt = len(htFract)
	tw.HtFract, tw.TMassDen, tw.TwFAStif, tw.TwSSStif = htFract, massDen, faStif, ssStif
}

// tuneSimpleTorqueControl retunes ServoDyn's simple variable-speed torque
// law (VSContrl 1) for the rotor of ed, which had tip radius r0 and gearbox
// ratio g0 when the law was tuned: rated generator speed from the rotor
// speed and gearbox, rated torque from P = eta T omega at the high-speed
// shaft.
func tuneSimpleTorqueControl(sd *deck.ServoDyn, ed *deck.ElastoDyn, r0, g0, ratedPowerKW, ratedRotorRPM float64) error {
	// The region-2 gain k = pi rho R^5 Cp / (2 lambda^3 G^3) (optimal
	// tip-speed ratio tracking, Jonkman et al. 2009 §7.1) scales with
	// R^5 / G^3 for the same blade aerodynamics.
	genRPM := ratedRotorRPM * ed.GBRatio
	sd.VS_Rgn2K *= math.Pow(ed.TipRad/r0, 5) * math.Pow(g0/ed.GBRatio, 3)
	sd.VS_RtGnSp = 0.99 * genRPM // region 2 1/2 ends just below rated speed, as in the template (1161.963 of 1173.7 rpm)
	sd.VS_RtTq = ratedPowerKW * 1000 / (sd.GenEff / 100) / (genRPM * 2 * math.Pi / 60)
	if sd.VS_Rgn2K*sd.VS_RtGnSp*sd.VS_RtGnSp >= sd.VS_RtTq {
		return turbinesim.Errorf(turbinesim.EINVALID, "rated_power_kw: %g kW at %g rpm is below what the rotor's optimal-mode torque reaches at rated speed; raise the rated power or lower rated_rotor_speed_rpm", ratedPowerKW, ratedRotorRPM)
	}
	return nil
}

func nearestIndex(xs []float64, x float64) int {
	best := 0
	for i, v := range xs {
		if math.Abs(v-x) < math.Abs(xs[best]-x) {
			best = i
		}
	}
	return best
}
