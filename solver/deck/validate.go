package deck

import (
	"fmt"
	"math"
	"path/filepath"
)

// Problem is one finding of Validate.
type Problem struct {
	File     string // absolute path of the file concerned
	Line     int    // 1-based line, 0 when not tied to a line
	Variable string
	Message  string
	Warning  bool // true: suspicious but OpenFAST would run; false: OpenFAST would reject it or the model is inconsistent
}

func (p Problem) String() string {
	kind := "error"
	if p.Warning {
		kind = "warning"
	}
	s := filepath.Base(p.File)
	if p.Line > 0 {
		s += fmt.Sprintf(":%d", p.Line)
	}
	if p.Variable != "" {
		s += ": " + p.Variable
	}
	return s + ": " + kind + ": " + p.Message
}

type validator struct {
	probs []Problem
}

func (v *validator) add(m *Meta, variable string, warn bool, format string, args ...any) {
	p := Problem{Variable: variable, Warning: warn, Message: fmt.Sprintf(format, args...)}
	if m != nil {
		p.File = m.Path
		p.Line = m.LineOf(variable)
	}
	v.probs = append(v.probs, p)
}

func (v *validator) oneOf(m *Meta, variable string, val int, allowed ...int) {
	for _, a := range allowed {
		if val == a {
			return
		}
	}
	v.add(m, variable, false, "value %d not allowed (expected one of %v)", val, allowed)
}

func (v *validator) positive(m *Meta, variable string, x float64) {
	if !(x > 0) {
		v.add(m, variable, false, "must be > 0, got %g", x)
	}
}

// increasing checks a table column is strictly increasing.
func (v *validator) increasing(m *Meta, variable string, xs []float64) {
	for i := 1; i < len(xs); i++ {
		if !(xs[i] > xs[i-1]) {
			v.add(m, variable, false, "must increase strictly: row %d is %g after %g", i+1, xs[i], xs[i-1])
			return
		}
	}
}

func (v *validator) allPositive(m *Meta, variable, col string, xs []float64) {
	for i, x := range xs {
		if !(x > 0) {
			v.add(m, variable, false, "%s must be > 0: row %d is %g", col, i+1, x)
			return
		}
	}
}

// modeSum checks that mode-shape coefficients of x^2..x^6 add up to 1
// (the shapes are normalised to unit tip deflection; ElastoDyn checks it).
func (v *validator) modeSum(m *Meta, name string, c [5]float64) {
	s := 0.0
	for _, x := range c {
		s += x
	}
	// 0.001 plus rounding slack: published decks sum to 0.999 and run
	if math.Abs(s-1) > 0.001+1e-9 {
		v.add(m, name+"(2)", true, "mode-shape coefficients of %s add up to %g, expected 1", name, s)
	}
}

// subStep checks a module time step against the glue step: OpenFAST needs
// the glue step to be an integer multiple of it (module sub-stepping).
func (v *validator) subStep(m *Meta, variable string, dt DefReal, glue float64) {
	if dt.Default || glue <= 0 {
		return
	}
	if !(dt.Value > 0) {
		v.add(m, variable, false, "must be > 0 or \"default\", got %g", dt.Value)
		return
	}
	r := glue / dt.Value
	if dt.Value > glue*(1+1e-9) || math.Abs(r-math.Round(r)) > 1e-6*r {
		v.add(m, variable, false, "%g s does not divide the glue-code DT=%g s into whole steps", dt.Value, glue)
	}
}

func (v *validator) length(m *Meta, variable string, n int, got int, what string) {
	if got != n {
		v.add(m, variable, false, "%s has %d entries, expected %d", what, got, n)
	}
}

// Validate checks switch ranges and consistency within and between the
// files of a deck. It reports; it never changes the deck. Parsing errors
// are not repeated here (Load already returned them).
func Validate(d *Deck) []Problem {
	v := &validator{}
	if d == nil || d.Main == nil {
		v.add(nil, "", false, "no primary file")
		return v.probs
	}
	m := d.Main
	mm := &m.Meta
	v.positive(mm, "TMax", m.TMax)
	v.positive(mm, "DT", m.DT)
	v.oneOf(mm, "InterpOrder", m.InterpOrder, 1, 2)
	v.oneOf(mm, "ModCoupling", m.ModCoupling, 1, 2, 3)
	v.oneOf(mm, "CompElast", m.CompElast, 1, 2, 3)
	v.oneOf(mm, "CompInflow", m.CompInflow, 0, 1, 2)
	v.oneOf(mm, "CompAero", m.CompAero, 0, 1, 2, 3)
	v.oneOf(mm, "CompServo", m.CompServo, 0, 1)
	v.oneOf(mm, "CompSeaSt", m.CompSeaSt, 0, 1)
	v.oneOf(mm, "CompHydro", m.CompHydro, 0, 1)
	v.oneOf(mm, "CompSub", m.CompSub, 0, 1, 2)
	v.oneOf(mm, "CompMooring", m.CompMooring, 0, 1, 2, 3, 4)
	v.oneOf(mm, "CompIce", m.CompIce, 0, 1, 2)
	v.oneOf(mm, "CompSoil", m.CompSoil, 0, 1)
	v.oneOf(mm, "MHK", m.MHK, 0, 1, 2)
	v.oneOf(mm, "OutFileFmt", m.OutFileFmt, 0, 1, 2, 3, 4, 5)
	if m.NRotors != 1 {
		v.add(mm, "NRotors", false, "only single-rotor turbines are supported, got %d", m.NRotors)
	}
	if !m.DT_Out.Default && m.DT > 0 {
		if r := m.DT_Out.Value / m.DT; m.DT_Out.Value < m.DT || math.Abs(r-math.Round(r)) > 1e-6 {
			v.add(mm, "DT_Out", false, "must be an integer multiple of DT=%g, got %g", m.DT, m.DT_Out.Value)
		}
	}
	if m.CompAero == 2 && m.CompInflow == 0 {
		v.add(mm, "CompInflow", true, "AeroDyn is on but inflow is still air")
	}
	if m.CompHydro == 1 && m.CompSeaSt == 0 {
		v.add(mm, "CompSeaSt", true, "HydroDyn is on without SeaState: OpenFAST v4+ needs CompSeaSt=1 and a SeaState file (this deck is in the pre-v4 layout)")
	}
	if m.CompInflow == 0 && m.CompAero == 0 {
		v.add(mm, "CompAero", true, "no aerodynamics")
	}
	for _, f := range d.Missing() {
		v.probs = append(v.probs, Problem{File: f.From, Line: f.Line, Variable: f.Var, Message: fmt.Sprintf("%s file %q not found", f.Role, f.Named)})
	}
	validateElastoDyn(v, d)
	validateAeroDyn(v, d)
	validateInflow(v, d)
	validateServo(v, d)
	validateOffshore(v, d)
	return v.probs
}

func validateElastoDyn(v *validator, d *Deck) {
	ed := d.ElastoDyn
	if ed == nil {
		return
	}
	m := &ed.Meta
	v.oneOf(m, "Method", ed.Method, 1, 2, 3)
	v.subStep(m, "DT", ed.DT, d.Main.DT)
	v.oneOf(m, "NumBl", ed.NumBl, 1, 2, 3)
	v.positive(m, "TipRad", ed.TipRad)
	if ed.HubRad < 0 || ed.HubRad >= ed.TipRad {
		v.add(m, "HubRad", false, "must be in [0, TipRad=%g), got %g", ed.TipRad, ed.HubRad)
	}
	if ed.TowerHt <= ed.TowerBsHt {
		v.add(m, "TowerHt", false, "must be above TowerBsHt=%g, got %g", ed.TowerBsHt, ed.TowerHt)
	}
	if ed.BldNodes < 1 {
		v.add(m, "BldNodes", false, "must be >= 1, got %d", ed.BldNodes)
	}
	if ed.TwrNodes < 1 {
		v.add(m, "TwrNodes", false, "must be >= 1, got %d", ed.TwrNodes)
	}
	v.positive(m, "GBRatio", ed.GBRatio)
	if ed.GBoxEff <= 0 || ed.GBoxEff > 100 {
		v.add(m, "GBoxEff", false, "must be in (0, 100] %%, got %g", ed.GBoxEff)
	}
	if ed.Furling {
		v.add(m, "Furling", false, "furling is not supported (must be False)")
	}
	if ed.NumBl == 3 && ed.TeetDOF {
		v.add(m, "TeetDOF", true, "teeter DOF is ignored for 3 blades")
	}
	if ed.NTwGages < 0 || ed.NTwGages > 9 {
		v.add(m, "NTwGages", false, "must be 0..9, got %d", ed.NTwGages)
	} else if len(ed.TwrGagNd) < ed.NTwGages {
		v.add(m, "TwrGagNd", false, "%d gauges but %d node numbers", ed.NTwGages, len(ed.TwrGagNd))
	} else {
		for _, n := range ed.TwrGagNd[:ed.NTwGages] {
			if n < 1 || n > ed.TwrNodes {
				v.add(m, "TwrGagNd", false, "node %d outside 1..TwrNodes=%d", n, ed.TwrNodes)
			}
		}
	}
	if ed.NBlGages < 0 || ed.NBlGages > 9 {
		v.add(m, "NBlGages", false, "must be 0..9, got %d", ed.NBlGages)
	} else if len(ed.BldGagNd) < ed.NBlGages {
		v.add(m, "BldGagNd", false, "%d gauges but %d node numbers", ed.NBlGages, len(ed.BldGagNd))
	} else {
		for _, n := range ed.BldGagNd[:ed.NBlGages] {
			if n < 1 || n > ed.BldNodes {
				v.add(m, "BldGagNd", false, "node %d outside 1..BldNodes=%d", n, ed.BldNodes)
			}
		}
	}
	if len(ed.Blades) != ed.NumBl {
		v.add(m, "NumBl", false, "%d blades but %d blade files loaded", ed.NumBl, len(ed.Blades))
	}
	seen := map[*EDBlade]bool{}
	for _, b := range ed.Blades {
		if b == nil || seen[b] {
			continue
		}
		seen[b] = true
		bm := &b.Meta
		v.length(bm, "BlFract", b.NBlInpSt, len(b.BlFract), "blade table")
		if b.NBlInpSt < 2 {
			v.add(bm, "NBlInpSt", false, "need at least 2 stations, got %d", b.NBlInpSt)
		}
		v.increasing(bm, "BlFract", b.BlFract)
		if n := len(b.BlFract); n > 0 && (b.BlFract[0] != 0 || b.BlFract[n-1] != 1) {
			v.add(bm, "BlFract", false, "must run from 0 to 1, runs from %g to %g", b.BlFract[0], b.BlFract[n-1])
		}
		v.allPositive(bm, "BlFract", "BMassDen", b.BMassDen)
		v.allPositive(bm, "BlFract", "FlpStff", b.FlpStff)
		v.allPositive(bm, "BlFract", "EdgStff", b.EdgStff)
		v.modeSum(bm, "BldFl1Sh", b.BldFl1Sh)
		v.modeSum(bm, "BldFl2Sh", b.BldFl2Sh)
		v.modeSum(bm, "BldEdgSh", b.BldEdgSh)
	}
	if t := ed.Tower; t != nil {
		tm := &t.Meta
		v.length(tm, "HtFract", t.NTwInpSt, len(t.HtFract), "tower table")
		v.increasing(tm, "HtFract", t.HtFract)
		if n := len(t.HtFract); n > 0 && (t.HtFract[0] != 0 || t.HtFract[n-1] != 1) {
			v.add(tm, "HtFract", false, "must run from 0 to 1, runs from %g to %g", t.HtFract[0], t.HtFract[n-1])
		}
		v.allPositive(tm, "HtFract", "TMassDen", t.TMassDen)
		v.allPositive(tm, "HtFract", "TwFAStif", t.TwFAStif)
		v.allPositive(tm, "HtFract", "TwSSStif", t.TwSSStif)
		v.modeSum(tm, "TwFAM1Sh", t.TwFAM1Sh)
		v.modeSum(tm, "TwFAM2Sh", t.TwFAM2Sh)
		v.modeSum(tm, "TwSSM1Sh", t.TwSSM1Sh)
		v.modeSum(tm, "TwSSM2Sh", t.TwSSM2Sh)
	}
}

func validateAeroDyn(v *validator, d *Deck) {
	ad := d.AeroDyn
	if ad == nil {
		return
	}
	m := &ad.Meta
	v.legacyOneOf(ad, "Wake_Mod", "WakeMod", ad.Wake_Mod, 0, 1, 3)
	v.oneOf(m, "BEM_Mod", ad.BEM_Mod, 1, 2)
	v.legacyOneOf(ad, "Skew_Mod", "SkewMod", ad.Skew_Mod, -1, 0, 1)
	v.oneOf(m, "DBEMT_Mod", ad.DBEMT_Mod, -1, 0, 1, 2, 3)
	v.legacyOneOf(ad, "UA_Mod", "UAMod", ad.UA_Mod, 0, 2, 3, 4, 5, 6, 7)
	v.oneOf(m, "TwrPotent", ad.TwrPotent, 0, 1, 2)
	v.oneOf(m, "TwrShadow", ad.TwrShadow, 0, 1, 2)
	v.oneOf(m, "AFTabMod", ad.AFTabMod, 1, 2, 3)
	v.subStep(m, "DTAero", ad.DTAero, d.Main.DT)
	if ad.UA_Mod > 0 && (ad.UAStartRad < 0 || ad.UAEndRad > 1 || ad.UAStartRad > ad.UAEndRad) {
		v.add(m, "UAStartRad", false, "UAStartRad=%g and UAEndRad=%g must satisfy 0 <= UAStartRad <= UAEndRad <= 1", ad.UAStartRad, ad.UAEndRad)
	}
	if ad.DBEMT_Mod == 1 || ad.DBEMT_Mod == 3 {
		v.positive(m, "tau1_const", ad.Tau1_const)
	}
	if ad.InCol_Alfa < 1 || ad.InCol_Cl < 1 || ad.InCol_Cd < 1 || ad.InCol_Cm < 0 || ad.InCol_Cpmin < 0 {
		v.add(m, "InCol_Alfa", false, "airfoil column numbers must be >= 1 (Cm, Cpmin >= 0)")
	}
	v.length(m, "NumAFfiles", ad.NumAFfiles, len(ad.AFNames), "AFNames")
	if ad.NumAFfiles < 1 {
		v.add(m, "NumAFfiles", false, "must be >= 1, got %d", ad.NumAFfiles)
	}
	if ad.NumTwrNds > 0 {
		v.length(m, "TwrElev", ad.NumTwrNds, len(ad.TwrElev), "tower table")
	}
	if ad.TwrPotent != 0 || ad.TwrShadow != 0 || ad.TwrAero {
		if ad.NumTwrNds < 2 {
			v.add(m, "NumTwrNds", false, "tower influence or loads are on but NumTwrNds=%d (need >= 2)", ad.NumTwrNds)
		}
		v.increasing(m, "TwrElev", ad.TwrElev)
		v.allPositive(m, "TwrElev", "TwrDiam", ad.TwrDiam)
	}
	ed := d.ElastoDyn
	if ed != nil && len(ad.TwrElev) > 0 {
		top := ad.TwrElev[len(ad.TwrElev)-1]
		if top > ed.TowerHt*1.001+0.01 {
			v.add(m, "TwrElev", true, "AeroDyn tower reaches %g m, above ElastoDyn TowerHt=%g m", top, ed.TowerHt)
		}
		if ad.TwrElev[0] > ed.TowerBsHt+0.01*(ed.TowerHt-ed.TowerBsHt) {
			v.add(m, "TwrElev", true, "AeroDyn tower starts at %g m, ElastoDyn tower base is at %g m", ad.TwrElev[0], ed.TowerBsHt)
		}
	}
	if ed != nil && len(ad.Blades) != ed.NumBl {
		v.add(m, "ADBlFile(1)", false, "%d AeroDyn blades for NumBl=%d", len(ad.Blades), ed.NumBl)
	}
	seen := map[*ADBlade]bool{}
	for _, b := range ad.Blades {
		if b == nil || seen[b] {
			continue
		}
		seen[b] = true
		bm := &b.Meta
		v.length(bm, "BlSpn", b.NumBlNds, len(b.BlSpn), "blade table")
		if b.NumBlNds < 2 {
			v.add(bm, "NumBlNds", false, "need at least 2 nodes, got %d", b.NumBlNds)
		}
		v.increasing(bm, "BlSpn", b.BlSpn)
		if len(b.BlSpn) > 0 && b.BlSpn[0] != 0 {
			v.add(bm, "BlSpn", false, "the first node must be at the blade root (0 m), got %g m", b.BlSpn[0])
		}
		v.allPositive(bm, "BlSpn", "BlChord", b.BlChord)
		for i, id := range b.BlAFID {
			if id < 1 || id > len(ad.AFNames) {
				v.add(bm, "BlAFID", false, "row %d: airfoil %d outside 1..NumAFfiles=%d", i+1, id, len(ad.AFNames))
				break
			}
		}
		if ed != nil && len(b.BlSpn) > 0 {
			span := ed.TipRad - ed.HubRad
			tip := b.BlSpn[len(b.BlSpn)-1]
			if math.Abs(tip-span) > 0.005*span {
				v.add(bm, "BlSpn", true, "last node at %g m, ElastoDyn blade length TipRad-HubRad = %g m", tip, span)
			}
		}
	}
	for i, a := range ad.Airfoils {
		if a == nil {
			continue
		}
		am := &a.Meta
		if a.NumCoords > 0 && len(a.Coords) != a.NumCoords {
			v.add(am, "NumCoords", false, "airfoil %d: %d coordinates for NumCoords=%d", i+1, len(a.Coords), a.NumCoords)
		}
		if len(a.Tables) != a.NumTabs {
			v.add(am, "NumTabs", false, "%d tables read, NumTabs=%d", len(a.Tables), a.NumTabs)
		}
		for t, tab := range a.Tables {
			name := fmt.Sprintf("NumAlf (table %d)", t+1)
			if tab.NumAlf < 2 {
				v.add(am, name, false, "airfoil %d: need at least 2 rows, got %d", i+1, tab.NumAlf)
				continue
			}
			for k := 1; k < len(tab.Alpha); k++ {
				if !(tab.Alpha[k] > tab.Alpha[k-1]) {
					v.add(am, name, false, "airfoil %d table %d: angle of attack must increase, row %d is %g after %g", i+1, t+1, k+1, tab.Alpha[k], tab.Alpha[k-1])
					break
				}
			}
			if n := len(tab.Alpha); n > 0 && (tab.Alpha[0] > -180+1e-6 || tab.Alpha[n-1] < 180-1e-6) {
				v.add(am, name, true, "airfoil %d table %d covers %g..%g deg, not -180..180", i+1, t+1, tab.Alpha[0], tab.Alpha[n-1])
			}
			if ad.UA_Mod > 0 && !tab.InclUAdata {
				v.add(am, name, true, "airfoil %d table %d has no UA data but UA_Mod=%d (OpenFAST computes defaults)", i+1, t+1, ad.UA_Mod)
			}
		}
	}
}

func validateInflow(v *validator, d *Deck) {
	w := d.InflowWind
	if w == nil {
		return
	}
	m := &w.Meta
	v.oneOf(m, "WindType", w.WindType, 1, 2, 3, 4, 5, 6, 7)
	if w.WindType == 1 {
		if w.HWindSpeed < 0 {
			v.add(m, "HWindSpeed", false, "must be >= 0, got %g", w.HWindSpeed)
		}
		v.positive(m, "RefHt", w.RefHt)
	}
	if w.NWindVel < 0 || w.NWindVel > 9 {
		v.add(m, "NWindVel", false, "must be 0..9, got %d", w.NWindVel)
	} else if len(w.WindVxiList) < w.NWindVel || len(w.WindVyiList) < w.NWindVel || len(w.WindVziList) < w.NWindVel {
		v.add(m, "WindVxiList", false, "NWindVel=%d but coordinate lists hold %d, %d, %d values", w.NWindVel, len(w.WindVxiList), len(w.WindVyiList), len(w.WindVziList))
	}
}

func validateServo(v *validator, d *Deck) {
	s := d.ServoDyn
	if s == nil {
		return
	}
	m := &s.Meta
	v.oneOf(m, "PCMode", s.PCMode, 0, 3, 4, 5)
	v.subStep(m, "DT", s.DT, d.Main.DT)
	if s.UsesDLL() && !s.DLL_DT.Default {
		step := s.DT.Or(d.Main.DT)
		if r := s.DLL_DT.Value / step; step > 0 && (s.DLL_DT.Value < step*(1-1e-9) || math.Abs(r-math.Round(r)) > 1e-6*r) {
			v.add(m, "DLL_DT", false, "%g s must be a whole multiple of the ServoDyn DT=%g s", s.DLL_DT.Value, step)
		}
	}
	v.oneOf(m, "VSContrl", s.VSContrl, 0, 1, 3, 4, 5)
	v.oneOf(m, "GenModel", s.GenModel, 1, 2, 3)
	v.oneOf(m, "YCMode", s.YCMode, 0, 3, 4, 5)
	v.oneOf(m, "HSSBrMode", s.HSSBrMode, 0, 1, 3, 4, 5)
	if s.GenEff <= 0 || s.GenEff > 100 {
		v.add(m, "GenEff", false, "must be in (0, 100] %%, got %g", s.GenEff)
	}
	if s.VSContrl == 1 {
		v.positive(m, "VS_RtGnSp", s.VS_RtGnSp)
		v.positive(m, "VS_RtTq", s.VS_RtTq)
		v.positive(m, "VS_SlPc", s.VS_SlPc)
	}
	if s.UsesDLL() && d.Controller == nil {
		v.add(m, "DLL_InFile", true, "Bladed-DLL control without a ROSCO DISCON.IN (%q): only the NREL 5 MW baseline DISCON runs built in, with its published constants or those of a baseline parameter file named here", s.DLL_InFile)
	}
	if c := d.Controller; c != nil {
		for _, n := range c.Stray {
			v.probs = append(v.probs, Problem{File: c.Meta.Path, Line: n, Warning: true, Message: "line has values but no \"! Name\": ROSCO ignores it"})
		}
	}
	if s.DLL_NumTrq < 0 {
		v.add(m, "DLL_NumTrq", false, "must be >= 0, got %d", s.DLL_NumTrq)
	}
	if c, ed := d.Controller, d.ElastoDyn; c != nil && ed != nil {
		if r, ok, err := c.Float("WE_BladeRadius"); ok && err == nil && math.Abs(r-ed.TipRad) > 0.01*ed.TipRad {
			v.probs = append(v.probs, Problem{File: c.Meta.Path, Line: c.Meta.LineOf("WE_BladeRadius"), Variable: "WE_BladeRadius", Warning: true,
				Message: fmt.Sprintf("%g m differs from ElastoDyn TipRad=%g m", r, ed.TipRad)})
		}
		if g, ok, err := c.Float("WE_GearboxRatio"); ok && err == nil && math.Abs(g-ed.GBRatio) > 1e-6*ed.GBRatio {
			v.probs = append(v.probs, Problem{File: c.Meta.Path, Line: c.Meta.LineOf("WE_GearboxRatio"), Variable: "WE_GearboxRatio", Warning: true,
				Message: fmt.Sprintf("%g differs from ElastoDyn GBRatio=%g", g, ed.GBRatio)})
		}
	}
}

// legacyOneOf checks a v4+ switch that may have come from a legacy line;
// the problem then points at the legacy line.
func (v *validator) legacyOneOf(ad *AeroDyn, name, legacy string, val int, allowed ...int) {
	n := len(v.probs)
	v.oneOf(&ad.Meta, name, val, allowed...)
	if len(v.probs) > n && !ad.Meta.Has(name) {
		if lv, ok := ad.Meta.Legacy[legacy]; ok {
			p := &v.probs[n]
			p.Variable = legacy
			p.Line = ad.LegacyLine(legacy)
			p.Message = fmt.Sprintf("legacy value %s gives %s=%d, not allowed (expected one of %v)", lv, name, val, allowed)
		}
	}
}
