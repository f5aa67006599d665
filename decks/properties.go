package decks

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/control"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// DetailedProperties are read from a turbine's stored input files
// (GET /turbines/{id}/detailed-properties).
type DetailedProperties struct {
	Blade      BladeStations      `json:"blade"`
	Tower      TowerStations      `json:"tower"`
	Airfoils   []AirfoilPolar     `json:"airfoils"`
	Controller ControllerSettings `json:"controller"`
}

// BladeStations are the AeroDyn blade nodes of blade 1: span along the
// pitch axis from the root (m), chord (m), aerodynamic twist (deg), and the
// 0-based index of each node's airfoil in Airfoils.
type BladeStations struct {
	BlSpn      []float64 `json:"bl_spn_m"`
	BlChord    []float64 `json:"bl_chord_m"`
	BlTwist    []float64 `json:"bl_twist_deg"`
	AirfoilIdx []int     `json:"airfoil_index"`
	// Thickness is the relative thickness t/c per node when the blade file
	// has a t_c column, else empty.
	Thickness []float64 `json:"thickness_ratio,omitempty"`
}

// TowerStations are the ElastoDyn tower stations: fractional height
// (0 base, 1 top), mass density (kg/m), fore-aft and side-to-side bending
// stiffness (N m^2); Heights is HtFract times the tower length (m).
type TowerStations struct {
	HtFract  []float64 `json:"ht_fract"`
	HeightM  []float64 `json:"height_m"`
	TMassDen []float64 `json:"t_mass_den_kg_m"`
	TwFAStif []float64 `json:"tw_fa_stif_nm2"`
	TwSSStif []float64 `json:"tw_ss_stif_nm2"`
}

// AirfoilPolar is the first polar table of one airfoil file: Cl, Cd and Cm
// against the angle of attack in degrees (Cm empty when the file has none).
type AirfoilPolar struct {
	Index    int       `json:"index"`
	Name     string    `json:"name"`
	Re       float64   `json:"re_millions"`
	AlphaDeg []float64 `json:"alpha_deg"`
	Cl       []float64 `json:"cl"`
	Cd       []float64 `json:"cd"`
	Cm       []float64 `json:"cm"`
}

// ControllerSettings are the parsed controller parameters: the ROSCO
// DISCON.IN entries when the deck runs ROSCO through the Bladed interface,
// the built-in NREL 5 MW baseline controller's constants (SI, from the
// baseline parameter file DLL_InFile names, else the 5 MW values) when it
// runs that one, otherwise the ServoDyn simple-controller settings.
type ControllerSettings struct {
	Kind       string              `json:"kind"` // "rosco", "baseline", "servodyn" or "none"
	Parameters []ControllerSetting `json:"parameters"`
}

// ControllerSetting is one named parameter; Values holds every number on
// its line (one for scalars), Text the words when they are not numbers.
type ControllerSetting struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values,omitempty"`
	Text   string    `json:"text,omitempty"`
}

// DetailedPropertiesOf extracts the detailed properties of a loaded deck.
func DetailedPropertiesOf(d *deck.Deck) (*DetailedProperties, error) {
	p := &DetailedProperties{Airfoils: []AirfoilPolar{}}
	if d.AeroDyn != nil && len(d.AeroDyn.Blades) > 0 && d.AeroDyn.Blades[0] != nil {
		b := d.AeroDyn.Blades[0]
		p.Blade = BladeStations{BlSpn: b.BlSpn, BlChord: b.BlChord, BlTwist: b.BlTwist, Thickness: b.Extra["t_c"]}
		for _, id := range b.BlAFID {
			p.Blade.AirfoilIdx = append(p.Blade.AirfoilIdx, id-1)
		}
		for i, af := range d.AeroDyn.Airfoils {
			if af == nil || len(af.Tables) == 0 {
				continue
			}
			name := ""
			if i < len(d.AeroDyn.AFNames) {
				name = filepath.Base(filepath.FromSlash(strings.ReplaceAll(d.AeroDyn.AFNames[i], `\`, "/")))
			}
			tab := af.Tables[0]
			p.Airfoils = append(p.Airfoils, AirfoilPolar{Index: i, Name: name, Re: tab.Re,
				AlphaDeg: tab.Alpha, Cl: tab.Cl, Cd: tab.Cd, Cm: orEmpty(tab.Cm)})
		}
	}
	if d.ElastoDyn != nil && d.ElastoDyn.Tower != nil {
		tw := d.ElastoDyn.Tower
		p.Tower = TowerStations{HtFract: tw.HtFract, TMassDen: tw.TMassDen, TwFAStif: tw.TwFAStif, TwSSStif: tw.TwSSStif}
		length := d.ElastoDyn.TowerHt - d.ElastoDyn.TowerBsHt
		for _, h := range tw.HtFract {
			// Rounded like the derived scalars (ParamsFromDeck), so that
			// 0.3 × 87.6 m reads 26.28, not 26.279999999999998.
			p.Tower.HeightM = append(p.Tower.HeightM, roundSignificant(d.ElastoDyn.TowerBsHt+h*length, 7))
		}
	}
	p.Controller = controllerOf(d)
	return p, nil
}

func orEmpty(v []float64) []float64 {
	if v == nil {
		return []float64{}
	}
	return v
}

func controllerOf(d *deck.Deck) ControllerSettings {
	if d.Controller != nil {
		c := ControllerSettings{Kind: "rosco"}
		for _, e := range d.Controller.Entries {
			s := ControllerSetting{Name: e.Name}
			var words []string
			numeric := true
			for _, tok := range e.Values {
				words = append(words, tok.Text)
				v, err := strconv.ParseFloat(strings.ReplaceAll(strings.ReplaceAll(tok.Text, "d", "e"), "D", "e"), 64)
				if err != nil || tok.Quoted {
					numeric = false
					continue
				}
				s.Values = append(s.Values, v)
			}
			if !numeric {
				s.Values, s.Text = nil, strings.Join(words, " ")
			}
			c.Parameters = append(c.Parameters, s)
		}
		return c
	}
	if sd := d.ServoDyn; sd != nil && sd.UsesDLL() {
		in := resolvedDLLInFile(sd)
		if kind, err := control.ClassifyController(sd.DLL_FileName, in); err == nil && kind == control.KindBaseline {
			if bp, _, err := control.BaselineParamsFrom(in); err == nil {
				c := ControllerSettings{Kind: "baseline"}
				for _, e := range bp.Entries() {
					c.Parameters = append(c.Parameters, ControllerSetting{Name: e.Name, Values: []float64{e.Value}})
				}
				return c
			}
		}
	}
	if d.ServoDyn != nil {
		sd := d.ServoDyn
		return ControllerSettings{Kind: "servodyn", Parameters: []ControllerSetting{
			{Name: "PCMode", Values: []float64{float64(sd.PCMode)}},
			{Name: "VSContrl", Values: []float64{float64(sd.VSContrl)}},
			{Name: "GenEff", Values: []float64{sd.GenEff}},
			{Name: "VS_RtGnSp", Values: []float64{sd.VS_RtGnSp}},
			{Name: "VS_RtTq", Values: []float64{sd.VS_RtTq}},
			{Name: "VS_Rgn2K", Values: []float64{sd.VS_Rgn2K}},
			{Name: "VS_SlPc", Values: []float64{sd.VS_SlPc}},
			{Name: "YCMode", Values: []float64{float64(sd.YCMode)}},
		}}
	}
	return ControllerSettings{Kind: "none", Parameters: []ControllerSetting{}}
}

// FSTParameter is one parameter of the Advanced Settings panel: the value
// the main input file gets, its OpenFAST default when the file omits it,
// and the file's own description.
type FSTParameter struct {
	Name        string `json:"name"`
	Section     string `json:"section"`
	Value       any    `json:"value"`
	Default     string `json:"default,omitempty"`
	Description string `json:"description"`
}

// AdvancedFSTParameters names the primary-file parameters exposed in the
// Advanced Settings panel: simulation control, environment and output.
// Module switches and file names are not, since changing them needs other
// files.
var advancedFSTParameters = []string{
	"TMax", "DT", "InterpOrder", "NumCrctn", "DT_UJac", "UJacSclFact",
	"Gravity", "AirDens", "WtrDens", "KinVisc", "SpdSound", "Patm", "Pvap", "WtrDpth", "MSL2SWL",
	"SumPrint", "SttsTime", "ChkptTime", "DT_Out", "TStart", "OutFileFmt", "TabDelim", "OutFmt",
}

// FSTDefaults returns the Advanced Settings parameters with the values of
// main (a primary file as read, or the zero Main when the turbine has no
// deck; then Value is the documented default where one exists).
func FSTDefaults(main *deck.Main) []FSTParameter {
	rt := reflect.TypeOf(*main)
	rv := reflect.ValueOf(*main)
	section := ""
	fields := map[string]FSTParameter{}
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		if s := f.Tag.Get("sec"); s != "" {
			section = s
		}
		name := f.Tag.Get("fst")
		if name == "" || name == "-" {
			continue
		}
		var value any = rv.Field(i).Interface()
		if dr, ok := value.(deck.DefReal); ok {
			if dr.Default {
				value = "default"
			} else {
				value = dr.Value
			}
		}
		fields[name] = FSTParameter{Name: name, Section: strings.ToLower(section), Value: value,
			Default: f.Tag.Get("opt"), Description: f.Tag.Get("desc")}
	}
	out := make([]FSTParameter, 0, len(advancedFSTParameters))
	for _, name := range advancedFSTParameters {
		if p, ok := fields[name]; ok {
			out = append(out, p)
		}
	}
	return out
}

// ParamsFromDeck derives the scalar parameters a deck states: rotor
// diameter, hub height, tilt and precone from ElastoDyn; rated rotor speed
// and rated power from the controller the deck runs (ratedFromController).
// The wind-speed band is not in a deck. Parameters the deck does not state
// stay nil. Derived lengths and speeds are rounded to 7 significant digits
// (hub height to 0.01 mm), so that a 90 m hub reads 90, not 90.0000034.
func ParamsFromDeck(d *deck.Deck) (turbinesim.TurbineParams, error) {
	s, err := deck.Summarize(d)
	if err != nil {
		return turbinesim.TurbineParams{}, fmt.Errorf("summarizing deck: %w", err)
	}
	var p turbinesim.TurbineParams
	pos := func(v float64) *float64 {
		if v > 0 {
			v = roundSignificant(v, 7)
			return &v
		}
		return nil
	}
	p.RotorDiameterM = pos(s.RotorDiameter)
	p.HubHeightM = pos(s.HubHeight)
	tilt, cone := s.ShaftTilt, s.PreCone
	p.ShaftTiltDeg, p.PreconeDeg = &tilt, &cone
	ratedRPM, ratedW := ratedFromController(d, s)
	p.RatedRotorSpeedRPM = pos(ratedRPM)
	p.RatedPowerKW = pos(ratedW / 1000)
	return p, nil
}

// ratedFromController returns the rated rotor speed (rpm) and rated
// electrical power (W) the deck's controller is tuned to, zero where the
// controller does not state one:
//   - ROSCO (a DISCON.IN is loaded): PC_RefSpd, the generator speed
//     set-point above rated (rad/s), and VS_RtPwr (ROSCO manual, DISCON.IN).
//   - the NREL 5 MW baseline DISCON, which solver/control runs built in:
//     its pitch set-point PC_RefSpd over the gearbox ratio and its rated
//     mechanical power VS_RtPwr times ServoDyn's GenEff, taken from the
//     baseline parameter file DLL_InFile names (a from-scratch build writes
//     one) or else the 5 MW constants (1173.7 rpm at the generator, 12.1 rpm
//     at the rotor; 5.297 MW x 94.4 % = 5 MW; Jonkman et al. 2009 §7 and
//     Table 1-1); an unreadable parameter file states neither.
//   - ServoDyn's simple variable-speed law (VSContrl = 1): VS_RtGnSp, its
//     rated generator speed. VS_RtTq is the region-3 torque cap (often the
//     maximum torque), so no rated power is derived from it.
//
// Without one of these the initial rotor speed (ElastoDyn RotSpeed) stands
// in for the rated speed, as before.
func ratedFromController(d *deck.Deck, s deck.Summary) (rotorRPM, powerW float64) {
	const radPerSecToRPM = 30 / math.Pi
	rotorRPM = s.RotorSpeed
	sd := d.ServoDyn
	switch {
	case d.Controller != nil:
		if ref, ok, err := d.Controller.Float("PC_RefSpd"); err == nil && ok && ref > 0 && s.GearboxRatio > 0 {
			rotorRPM = ref / s.GearboxRatio * radPerSecToRPM
		}
		powerW = s.RatedPower
	case sd != nil && (sd.PCMode == 5 || sd.VSContrl == 5):
		in := resolvedDLLInFile(sd)
		kind, err := control.ClassifyController(sd.DLL_FileName, in)
		if err != nil || kind != control.KindBaseline {
			break
		}
		bp, _, err := control.BaselineParamsFrom(in)
		if err != nil {
			break
		}
		if s.GearboxRatio > 0 {
			rotorRPM = bp.PitchRefSpeed / s.GearboxRatio * radPerSecToRPM
		}
		if sd.GenEff > 0 {
			powerW = bp.RatedPower * sd.GenEff / 100
		}
	case sd != nil && sd.VSContrl == 1 && sd.VS_RtGnSp > 0 && s.GearboxRatio > 0:
		rotorRPM = sd.VS_RtGnSp / s.GearboxRatio
	}
	return rotorRPM, powerW
}

// roundSignificant rounds v to n significant decimal digits.
func roundSignificant(v float64, n int) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	scale := math.Pow(10, float64(n-1)-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*scale) / scale
}
