package turbinesim

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// TurbineCreate is the build-from-scratch payload of POST /turbines:
// name, description, the scalar parameters and the four configuration
// blobs. The blobs are stored as given; the keys listed in BladeSpec,
// TowerSpec, NacelleSpec and ControllerSpec also shape the generated deck.
type TurbineCreate struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	TurbineParams
	BladeConfig      ConfigBlob `json:"blade_config,omitempty"`
	TowerConfig      ConfigBlob `json:"tower_config,omitempty"`
	NacelleConfig    ConfigBlob `json:"nacelle_config,omitempty"`
	ControllerConfig ConfigBlob `json:"controller_config,omitempty"`
}

// BladeSpec are the keys of blade_config used for the deck: AeroDyn blade
// stations (span from the root along the pitch axis in m, chord in m,
// aerodynamic twist in degrees), all the same length, span increasing.
type BladeSpec struct {
	Stations *struct {
		SpanM    []float64 `json:"span_m"`
		ChordM   []float64 `json:"chord_m"`
		TwistDeg []float64 `json:"twist_deg"`
	} `json:"stations"`
}

// TowerSpec are the keys of tower_config used for the deck: ElastoDyn tower
// stations (fraction of the height from 0 to 1, mass density kg/m, fore-aft
// and side-to-side stiffness N m^2).
type TowerSpec struct {
	Stations *struct {
		HtFract    []float64 `json:"ht_fract"`
		MassDenKgM []float64 `json:"mass_density_kg_m"`
		FAStiffNm2 []float64 `json:"fa_stiffness_nm2"`
		SSStiffNm2 []float64 `json:"ss_stiffness_nm2"`
	} `json:"stations"`
}

// NacelleSpec are the keys of nacelle_config used for the deck.
type NacelleSpec struct {
	GearboxRatio *float64 `json:"gearbox_ratio"`
	OverhangM    *float64 `json:"overhang_m"`
	Twr2ShftM    *float64 `json:"twr2shft_m"`
}

// ControllerSpec are the keys of controller_config used for the deck.
type ControllerSpec struct {
	GeneratorEfficiencyPct *float64 `json:"generator_efficiency_pct"`
}

// BuildTemplateID is the bundled turbine whose deck a from-scratch build
// starts from: the NREL 5 MW land-based model. It runs the built-in NREL
// 5 MW baseline controller (ServoDyn Bladed interface, DISCON.dll); a build
// writes that controller a parameter file tuned to the requested rated
// power and speed (useBuiltBaseline) and also retunes ServoDyn's simple
// variable-speed law (tuneSimpleTorqueControl), which the deck carries but
// does not run.
const BuildTemplateID = "nrel-5mw-land"

// Build validates the payload and returns the row to store. When template
// is not nil a complete deck is generated from it into a scratch folder
// (dir; cleanup removes it): the payload's geometry and blobs replace the
// template's values, and t.Warnings says what the user should know about
// the generated deck (the controller tuning's fallback). Every validation
// error is EINVALID naming the field; a done ctx stops the controller
// tuning's sensitivity sweep and is returned.
func (r *TurbineCreate) Build(ctx context.Context, template *DeckModel) (t *Turbine, dir string, cleanup func(), err error) {
	nothing := func() {}
	if IsDemoDescription(r.Description) {
		return nil, "", nil, Errorf(EINVALID, "description: the prefix %q is reserved for bundled demo turbines", DemoPrefix)
	}
	t = &Turbine{Name: r.Name, Description: r.Description, TurbineParams: r.TurbineParams,
		BladeConfig: r.BladeConfig, TowerConfig: r.TowerConfig, NacelleConfig: r.NacelleConfig, ControllerConfig: r.ControllerConfig}
	if err := t.Validate(); err != nil {
		return nil, "", nil, err
	}
	if template == nil {
		return t, "", nothing, nil
	}
	m, warnings, err := r.deckModel(ctx, template)
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

func decodeSpec(field string, raw ConfigBlob, dst any) error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		if problem, ok := JSONTypeProblem(err); ok {
			return Errorf(EINVALID, "%s: %s", field, problem)
		}
		return Errorf(EINVALID, "%s: %v", field, err)
	}
	return nil
}

func positive(field string, v *float64) error {
	if v != nil && !(*v > 0) {
		return Errorf(EINVALID, "%s: must be positive", field)
	}
	return nil
}

// deckSpecs are the deck-shaping keys of the four configuration blobs.
type deckSpecs struct {
	blade   BladeSpec
	tower   TowerSpec
	nacelle NacelleSpec
	ctrl    ControllerSpec
}

// decodeDeckSpecs decodes the deck-shaping keys of the blobs and checks
// everything about them that does not depend on a deck (POST /turbines and
// PUT /turbines/{id} give the same 422 details). A blade's span must also
// end at the blade length, which only a deck knows (setBladeStations).
func decodeDeckSpecs(blade, tower, nacelle, ctrl ConfigBlob) (deckSpecs, error) {
	var s deckSpecs
	for _, b := range []struct {
		field string
		raw   ConfigBlob
		dst   any
	}{{"blade_config", blade, &s.blade}, {"tower_config", tower, &s.tower}, {"nacelle_config", nacelle, &s.nacelle}, {"controller_config", ctrl, &s.ctrl}} {
		if err := decodeSpec(b.field, b.raw, b.dst); err != nil {
			return s, err
		}
	}
	if err := positive("nacelle_config.gearbox_ratio", s.nacelle.GearboxRatio); err != nil {
		return s, err
	}
	if err := positive("nacelle_config.twr2shft_m", s.nacelle.Twr2ShftM); err != nil {
		return s, err
	}
	if e := s.ctrl.GeneratorEfficiencyPct; e != nil && !(*e > 0 && *e <= 100) {
		return s, Errorf(EINVALID, "controller_config.generator_efficiency_pct: must be in (0, 100]")
	}
	if st := s.blade.Stations; st != nil {
		n := len(st.SpanM)
		if n < 2 {
			return s, Errorf(EINVALID, "blade_config.stations.span_m: at least 2 stations")
		}
		if len(st.ChordM) != n || len(st.TwistDeg) != n {
			return s, Errorf(EINVALID, "blade_config.stations: span_m, chord_m and twist_deg must have the same length (%d, %d, %d)", n, len(st.ChordM), len(st.TwistDeg))
		}
		for i := range st.SpanM {
			if i > 0 && !(st.SpanM[i] > st.SpanM[i-1]) {
				return s, Errorf(EINVALID, "blade_config.stations.span_m[%d]: must increase", i)
			}
			if !(st.ChordM[i] > 0) {
				return s, Errorf(EINVALID, "blade_config.stations.chord_m[%d]: must be positive", i)
			}
			if math.Abs(st.TwistDeg[i]) > 90 {
				return s, Errorf(EINVALID, "blade_config.stations.twist_deg[%d]: within ±90 degrees", i)
			}
		}
	}
	if st := s.tower.Stations; st != nil {
		n := len(st.HtFract)
		if n < 2 || len(st.MassDenKgM) != n || len(st.FAStiffNm2) != n || len(st.SSStiffNm2) != n {
			return s, Errorf(EINVALID, "tower_config.stations: ht_fract, mass_density_kg_m, fa_stiffness_nm2 and ss_stiffness_nm2 need the same length of at least 2")
		}
		if st.HtFract[0] != 0 || st.HtFract[n-1] != 1 {
			return s, Errorf(EINVALID, "tower_config.stations.ht_fract: must run from 0 to 1")
		}
		for i := 0; i < n; i++ {
			if i > 0 && !(st.HtFract[i] > st.HtFract[i-1]) {
				return s, Errorf(EINVALID, "tower_config.stations.ht_fract[%d]: must increase", i)
			}
			if !(st.MassDenKgM[i] > 0) || !(st.FAStiffNm2[i] > 0) || !(st.SSStiffNm2[i] > 0) {
				return s, Errorf(EINVALID, "tower_config.stations[%d]: mass density and stiffnesses must be positive", i)
			}
		}
	}
	return s, nil
}

// deckModel applies the payload to a copy of the template and returns the
// controller tuning's warnings.
func (r *TurbineCreate) deckModel(ctx context.Context, template *DeckModel) (*DeckModel, []string, error) {
	for _, req := range []struct {
		name string
		v    *float64
	}{{"rotor_diameter_m", r.RotorDiameterM}, {"hub_height_m", r.HubHeightM}, {"rated_power_kw", r.RatedPowerKW}, {"rated_rotor_speed_rpm", r.RatedRotorSpeedRPM}} {
		if req.v == nil {
			return nil, nil, Errorf(EINVALID, "%s: required to build a deck", req.name)
		}
	}
	specs, err := decodeDeckSpecs(r.BladeConfig, r.TowerConfig, r.NacelleConfig, r.ControllerConfig)
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
	applyNacelle(ed, specs.nacelle)
	if err := setHubHeight(ed, *r.HubHeightM); err != nil {
		return nil, nil, err
	}
	ed.RotSpeed = *r.RatedRotorSpeedRPM

	// Blade stations: given, or the template's scaled to the new length.
	blade0 := ad.Blades[0]
	if st := specs.blade.Stations; st != nil {
		if err := setBladeStations(blade0, st.SpanM, st.ChordM, st.TwistDeg, ed); err != nil {
			return nil, nil, err
		}
	} else {
		scaleBladeSpan(blade0, ed.TipRad-ed.HubRad)
	}
	for i := range ad.Blades {
		ad.Blades[i] = blade0
	}
	if st := specs.tower.Stations; st != nil {
		setTowerStations(ed.Tower, st.HtFract, st.MassDenKgM, st.FAStiffNm2, st.SSStiffNm2)
	}
	if ctrl := specs.ctrl; ctrl.GeneratorEfficiencyPct != nil {
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
		return Errorf(EINVALID, "rotor_diameter_m: %g m leaves no blade beyond the %g m hub radius", diameter, ed.HubRad)
	}
	ed.TipRad = tip
	return nil
}

// applyNacelle sets the stated nacelle keys.
func applyNacelle(ed *deck.ElastoDyn, n NacelleSpec) {
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
		return Errorf(EINVALID, "hub_height_m: %g m leaves no tower above its base at %g m", hub, ed.TowerBsHt)
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
		return Errorf(EINVALID, "blade_config.stations.span_m: must run from 0 to the blade length %g m (rotor radius minus hub radius %g m)", bladeLen, ed.HubRad)
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
		return Errorf(EINVALID, "rated_power_kw: %g kW at %g rpm is below what the rotor's optimal-mode torque reaches at rated speed; raise the rated power or lower rated_rotor_speed_rpm", ratedPowerKW, ratedRotorRPM)
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
