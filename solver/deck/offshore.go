package deck

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
)

// offshoreKeys are the variables Describe reports per kind (when present).
var offshoreKeys = map[string][]string{
	"HydroDyn": {"WtrDens", "WtrDpth", "MSL2SWL", "WaveMod", "WaveHs", "WaveTp", "WaveDir", "WaveTMax", "WaveDT", "CurrMod", "PotMod", "ExctnMod", "RdtnMod", "PotFile", "NBody", "PtfmVol0", "NJoints", "NMembers"},
	"SeaState": {"WtrDens", "WtrDpth", "MSL2SWL", "WaveMod", "WaveStMod", "WaveTMax", "WaveDT", "WaveHs", "WaveTp", "WaveDir", "CurrMod", "NWaveElev"},
	"SubDyn":   {"IntMethod", "SttcSolve", "FEMMod", "NDiv", "CBMod", "Nmodes", "JDampings", "GuyanDampMod", "NJoints", "NReact", "NInterf", "NMembers", "NPropSets"},
	"MoorDyn":  {"NTypes", "NConnects", "NLines", "dtM", "kbot", "cbot", "WtrDpth", "TmaxIC"},
	"MAP++":    {"LineType", "Option"},
}

// Describe returns "Name = value (line N)" for the main variables of an
// offshore-module file that are present, for display and upload checks.
func (g *Generic) Describe() []string {
	var out []string
	for _, k := range offshoreKeys[g.Kind] {
		v, line, ok := g.Lookup(k)
		if !ok || len(v) == 0 {
			continue
		}
		vals := make([]string, 0, len(v))
		for _, t := range v {
			vals = append(vals, t.Text)
		}
		out = append(out, fmt.Sprintf("%s = %s (line %d)", k, strings.Join(vals, " "), line))
	}
	return out
}

func validateOffshore(v *validator, d *Deck) {
	m := d.Main
	o := d.Offshore
	gint := func(g *Generic, name string, allowed ...int) {
		n, ok, err := g.Int(name)
		_, line, _ := g.Lookup(name)
		if !ok {
			return
		}
		if err != nil {
			v.probs = append(v.probs, Problem{File: g.Meta.Path, Line: line, Variable: name, Message: err.(*Error).Msg})
			return
		}
		for _, a := range allowed {
			if n == a {
				return
			}
		}
		v.probs = append(v.probs, Problem{File: g.Meta.Path, Line: line, Variable: name, Message: fmt.Sprintf("value %d not allowed (expected one of %v)", n, allowed)})
	}
	if (m.CompHydro == 1 || m.CompSub == 1 || m.CompMooring > 0) && m.WtrDpth <= 0 && m.MHK == 0 {
		v.add(&m.Meta, "WtrDpth", true, "offshore modules are on but WtrDpth=%g m", m.WtrDpth)
	}
	checkWaterDepth(v, d)
	if h := o.HydroDyn; h != nil {
		// OpenFAST v4 moved the wave, current and wave-elevation inputs out
		// of HydroDyn into SeaState, and v4+ reads HydroDyn by position. A
		// pre-v4 HydroDyn file under a v4+ primary file (one that has the
		// CompSeaSt switch) is therefore a mixed deck OpenFAST v5 stops at.
		// It is reported, not converted: the conversion needs SeaState
		// inputs (wave-kinematics grid) the old file does not have. Warning
		// only, since this package's solver refuses offshore decks anyway.
		if _, line, ok := h.Lookup("WaveMod"); ok && m.Meta.Has("CompSeaSt") {
			v.probs = append(v.probs, Problem{File: h.Meta.Path, Line: line, Variable: "WaveMod", Warning: true,
				Message: "HydroDyn file in the pre-v4 layout (waves and current defined here) under a v4+ primary file (CompSeaSt line present): OpenFAST v4 and later read waves from a SeaState file (CompSeaSt=1) and this HydroDyn layout is not accepted by OpenFAST v5"})
		}
		gint(h, "WaveMod", 0, 1, 2, 3, 4, 5, 6, 7)
		gint(h, "PotMod", 0, 1, 2)
		gint(h, "ExctnMod", 0, 1, 2)
		gint(h, "RdtnMod", 0, 1, 2)
	}
	if s := o.SeaState; s != nil {
		gint(s, "WaveMod", 0, 1, 2, 3, 4, 5, 6, 7)
	}
	if s := o.SubDyn; s != nil {
		// The typed reader reports what the tables hold wrong (file:line)
		// and what a pre-v5 file means in the v5 layout (warnings).
		if sd, err := parseSubDyn(s.Meta.Src); err != nil {
			var e *Error
			if asError(err, &e) {
				v.probs = append(v.probs, Problem{File: e.File, Line: e.Line, Variable: e.Variable, Message: e.Msg})
			}
		} else {
			v.probs = append(v.probs, sd.Warnings...)
		}
		gint(s, "IntMethod", 1, 2, 3, 4)
		if n, ok, err := s.Int("Nmodes"); ok && err == nil && n < 0 {
			_, line, _ := s.Lookup("Nmodes")
			v.probs = append(v.probs, Problem{File: s.Meta.Path, Line: line, Variable: "Nmodes", Message: fmt.Sprintf("must be >= 0, got %d", n)})
		}
	}
	if g := o.Mooring; g != nil && (o.MooringKind == "MoorDyn" || o.MooringKind == "MAP++") {
		// Malformed mooring files (bad numbers, undefined line types or
		// points) are errors OpenFAST would stop at; inputs it runs but
		// this solver does not (ErrNotRun) are not deck problems.
		var err error
		if o.MooringKind == "MoorDyn" {
			var md *MoorDyn
			if md, err = g.MoorDyn(); err == nil {
				v.probs = append(v.probs, md.Warnings...)
			}
		} else {
			_, err = g.MAP()
		}
		var e *Error
		if err != nil && !errors.Is(err, ErrNotRun) && errors.As(err, &e) {
			v.probs = append(v.probs, Problem{File: e.File, Line: e.Line, Variable: e.Variable, Message: e.Msg})
		}
	}
}

// checkWaterDepth reports a water depth that the offshore files state
// differently from the primary file, and SubDyn reaction joints that are
// not at the mudline (z = −WtrDpth). Both are defects of a deck, reported
// with file and line and not corrected: OpenFAST v5 takes the primary
// file's WtrDpth for SeaState's "default" and for SubDyn's mudline
// reference (ReactFXss … are about (0, 0, −WtrDpth)), earlier versions each
// module's own (the published IEA 22 MW decks state 300 m in the .fst and
// 34 m or 200 m in HydroDyn and MoorDyn).
func checkWaterDepth(v *validator, d *Deck) {
	m := d.Main
	if m.MHK != 0 || !(m.WtrDpth > 0) {
		return
	}
	fstLine := m.Meta.LineOf("WtrDpth")
	for _, g := range []*Generic{d.Offshore.SeaState, d.Offshore.HydroDyn, d.Offshore.Mooring} {
		if g == nil {
			continue
		}
		x, ok, err := g.Float("WtrDpth")
		if !ok || err != nil { // absent or "default" (the primary file's)
			continue
		}
		if math.Abs(x-m.WtrDpth) > 1e-6*m.WtrDpth {
			_, line, _ := g.Lookup("WtrDpth")
			v.probs = append(v.probs, Problem{File: g.Meta.Path, Line: line, Variable: "WtrDpth", Warning: true,
				Message: fmt.Sprintf("%g m here but %g m in the primary file (%s line %d); OpenFAST v5 uses the primary file's for the sea state's default and the substructure's mudline: state one depth", x, m.WtrDpth, filepath.Base(m.Meta.Path), fstLine)})
		}
	}
	if g := d.Offshore.SubDyn; g != nil && m.CompSub == 1 {
		sd, err := parseSubDyn(g.Meta.Src)
		if err != nil {
			return // reported by the SubDyn checks
		}
		z := map[int]float64{}
		for _, j := range sd.Joints {
			z[j.ID] = j.Z
		}
		for _, r := range sd.Reactions {
			jz, ok := z[r.JointID]
			if ok && math.Abs(jz+m.WtrDpth) > 0.01*m.WtrDpth {
				v.probs = append(v.probs, Problem{File: g.Meta.Path, Line: r.Line, Variable: "RJointID", Warning: true,
					Message: fmt.Sprintf("reaction joint %d is at z = %g m, not at the mudline z = −WtrDpth = %g m of the primary file (%s line %d): the base reactions are reported about (0, 0, %g)", r.JointID, jz, -m.WtrDpth, filepath.Base(m.Meta.Path), fstLine, -m.WtrDpth)})
			}
		}
	}
}
