package coupling

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/moorings"
	"github.com/turbinesim/turbinesim/solver/offshore"
	"github.com/turbinesim/turbinesim/solver/substructure"
)

// Unsupported says which input of a deck this solver cannot run: the file
// (relative to the folder of the .fst, slash-separated, so that no server
// path reaches a user), the 1-based line (0 when not tied to one), the
// variable and why.
type Unsupported struct {
	File     string
	Line     int
	Variable string
	Message  string
}

func (u *Unsupported) Error() string {
	loc := u.File
	if u.Line > 0 {
		loc = fmt.Sprintf("%s:%d", u.File, u.Line)
	}
	return fmt.Sprintf("%s: %s: %s", loc, u.Variable, u.Message)
}

// offshoreBuilder builds the offshore module one value of a primary-file
// switch selects (e.g. CompMooring = 3: MoorDyn).
type offshoreBuilder struct {
	Switch string // the .fst switch: CompSeaSt, CompHydro, CompSub, CompMooring, CompIce, CompSoil
	Value  int
	Module string // OpenFAST's name of the module
	// Check reports an option of the module's input this solver cannot
	// run (nil: everything the deck can say is supported).
	Check func(d *deck.Deck) *Unsupported
	// Build creates the module; nil when the switch value is handled
	// inside another module's builder (SeaState inside the hydrodynamics).
	Build func(d *deck.Deck, env offshore.Env) (offshore.Module, error)
}

// offshoreBuilders lists the offshore modules this solver runs, in
// OpenFAST's output-file order (SeaState, HydroDyn, SubDyn, MAP++, MoorDyn).
// A switch value without an entry is refused by Supported.
var offshoreBuilders = []offshoreBuilder{
	{
		// the SubDyn-equivalent substructure, its transition piece at the
		// platform reference point
		Switch: "CompSub", Value: 1, Module: "SubDyn",
		Check: func(d *deck.Deck) *Unsupported {
			if path, err := substructure.Check(d); err != nil {
				return &Unsupported{File: path, Variable: "SubDyn", Message: err.Error()}
			}
			return nil
		},
		Build: func(d *deck.Deck, env offshore.Env) (offshore.Module, error) {
			return substructure.NewModule(d, env)
		},
	},
	{
		// the MAP++-equivalent quasi-static elastic catenaries
		Switch: "CompMooring", Value: 1, Module: "MAP++", Check: checkMooring,
		Build: func(d *deck.Deck, env offshore.Env) (offshore.Module, error) {
			return moorings.NewQuasiStaticModule(d, env)
		},
	},
	{
		// the MoorDyn-equivalent lumped-mass lines
		Switch: "CompMooring", Value: 3, Module: "MoorDyn", Check: checkMooring,
		Build: func(d *deck.Deck, env offshore.Env) (offshore.Module, error) {
			return moorings.NewModule(d, env)
		},
	},
}

// checkMooring reports what the mooring input (MoorDyn or MAP++ file) has
// that solver/moorings does not run.
func checkMooring(d *deck.Deck) *Unsupported {
	err := moorings.Check(d)
	if err == nil {
		return nil
	}
	var e *deck.Error
	if errors.As(err, &e) {
		msg := e.Msg
		if errors.Is(err, deck.ErrNotRun) {
			msg += ": not supported by this solver"
		}
		return &Unsupported{File: e.File, Line: e.Line, Variable: e.Variable, Message: msg}
	}
	return &Unsupported{Variable: "MooringFile", Message: err.Error()}
}

// offshoreSwitches are the primary-file switches of modules that load the
// platform or substructure, in OpenFAST's order.
var offshoreSwitches = []struct {
	name  string
	value func(m *deck.Main) int
	what  string
}{
	{"CompSeaSt", func(m *deck.Main) int { return m.CompSeaSt }, "sea state (SeaState)"},
	{"CompHydro", func(m *deck.Main) int { return m.CompHydro }, "hydrodynamics (HydroDyn)"},
	{"CompSub", func(m *deck.Main) int { return m.CompSub }, "substructure (1 = SubDyn, 2 = ExtPtfm)"},
	{"CompMooring", func(m *deck.Main) int { return m.CompMooring }, "moorings (1 = MAP++, 2 = FEAMooring, 3 = MoorDyn, 4 = OrcaFlex)"},
	{"CompIce", func(m *deck.Main) int { return m.CompIce }, "ice loads (IceFloe, IceDyn)"},
	{"CompSoil", func(m *deck.Main) int { return m.CompSoil }, "soil-structure interaction (SoilDyn)"},
}

func builderFor(name string, value int) *offshoreBuilder {
	for i := range offshoreBuilders {
		if b := &offshoreBuilders[i]; b.Switch == name && b.Value == value {
			return b
		}
	}
	return nil
}

// Supported reports the first input of a loaded deck that this solver
// cannot run, as an *Unsupported naming the file, line and option; nil when
// the deck can run. It reads the deck only (no simulation), so a service can
// call it before accepting and charging a job.
func Supported(d *deck.Deck) error {
	if d == nil || d.Main == nil {
		return errors.New("coupling: no deck")
	}
	m := d.Main
	root := filepath.Dir(d.Path)
	at := func(meta *deck.Meta, variable, format string, a ...any) *Unsupported {
		u := &Unsupported{Variable: variable, Message: fmt.Sprintf(format, a...)}
		if meta != nil {
			u.File = relFile(root, meta.Path)
			u.Line = meta.LineOf(variable)
		}
		return u
	}
	fst := &m.Meta
	switch {
	case m.CompElast != 1:
		return at(fst, "CompElast", "%d is not supported: this solver models the structure with ElastoDyn only (%s)", m.CompElast, elastoDynBladesHint(d))
	case m.CompAero != 0 && m.CompAero != 2:
		return at(fst, "CompAero", "%d is not supported (0 = none, 2 = AeroDyn)", m.CompAero)
	case m.CompInflow != 0 && m.CompInflow != 1:
		return at(fst, "CompInflow", "%d is not supported (0 = still air, 1 = InflowWind)", m.CompInflow)
	case m.CompServo != 0 && m.CompServo != 1:
		return at(fst, "CompServo", "%d is not supported (0 = none, 1 = ServoDyn)", m.CompServo)
	case m.MHK != 0:
		return at(fst, "MHK", "%d: marine hydrokinetic turbines are not supported (set MHK to 0)", m.MHK)
	case m.NRotors > 1:
		return at(fst, "NRotors", "%d: only one rotor is supported", m.NRotors)
	}
	for _, sw := range offshoreSwitches {
		v := sw.value(m)
		if v == 0 {
			continue
		}
		b := builderFor(sw.name, v)
		if b == nil {
			return at(fst, sw.name, "%d: %s is not supported yet by this solver (set %s to 0 to run without it)", v, sw.what, sw.name)
		}
		if b.Check != nil {
			if u := b.Check(d); u != nil {
				if u.File == "" {
					u.File = relFile(root, d.Path)
				} else if filepath.IsAbs(u.File) {
					u.File = relFile(root, u.File)
				}
				return u
			}
		}
	}
	if ed := d.ElastoDyn; ed != nil {
		switch {
		case ed.Furling:
			return at(&ed.Meta, "Furling", "True is not supported (rotor and tail furl are not modelled; set Furling to False)")
		case ed.PitchDOF:
			return at(&ed.Meta, "PitchDOF", "True is not supported (the blade-pitch DOF is not modelled; set PitchDOF to False)")
		case ed.NumBl != 3:
			return at(&ed.Meta, "NumBl", "%d: only 3-bladed rotors are supported", ed.NumBl)
		case ed.YawFrctMod != 0 && ed.YawDOF:
			// With the yaw DOF locked the friction torque moves nothing
			// (only ElastoDyn's YawFri* channels, INVALID here, would show it).
			return at(&ed.Meta, "YawFrctMod", "%d with YawDOF True is not supported (yaw-bearing friction is not modelled; set YawFrctMod to 0)", ed.YawFrctMod)
		}
	}
	return nil
}

// relFile is path relative to root with forward slashes, or the base name
// when it lies outside root (never an absolute server path).
func relFile(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil && !filepath.IsAbs(r) && r != ".." && !startsWithDotDot(r) {
		return filepath.ToSlash(r)
	}
	return filepath.Base(path)
}

func startsWithDotDot(r string) bool {
	return len(r) >= 3 && r[:3] == ".."+string(filepath.Separator)
}

// elastoDynBladesHint says what to change to run a CompElast = 2 (BeamDyn
// blades) or 3 deck: CompElast 1, and the ElastoDyn blade files the deck
// already names when it does (the published IEA 22 MW decks name
// IEA-22-280-RWT_ElastoDyn_blade.dat beside their BeamDyn files).
func elastoDynBladesHint(d *deck.Deck) string {
	if ed := d.ElastoDyn; ed != nil {
		var names []string
		for _, f := range ed.BldFile {
			base := path.Base(strings.ReplaceAll(strings.TrimSpace(f), `\`, "/"))
			if strings.TrimSpace(f) != "" && !slices.Contains(names, base) {
				names = append(names, base)
			}
		}
		if len(names) > 0 {
			return fmt.Sprintf("set CompElast to 1 to run the blades from the ElastoDyn blade files BldFile1-3 already name: %s", strings.Join(names, ", "))
		}
	}
	return "set CompElast to 1 and name ElastoDyn blade files in BldFile1-3 of the ElastoDyn file"
}
