package coupling

import (
	"errors"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/hydro"
	"github.com/turbinesim/turbinesim/solver/offshore"
	"github.com/turbinesim/turbinesim/solver/waves"
)

// CompSeaSt = 1 runs the sea state (solver/waves) and, with CompHydro = 1,
// the hydrodynamics (solver/hydro) as one module: HydroDyn reads its waves
// from SeaState, so both are built by the SeaState entry.
func init() {
	offshoreBuilders = append(offshoreBuilders,
		offshoreBuilder{
			Switch: "CompSeaSt", Value: 1, Module: "SeaState",
			Check: checkSeaState,
			Build: func(d *deck.Deck, env offshore.Env) (offshore.Module, error) {
				return hydro.NewModule(d, env)
			},
		},
		offshoreBuilder{
			Switch: "CompHydro", Value: 1, Module: "HydroDyn",
			Check: checkHydroDyn,
		})
}

// unsupportedAt turns a deck reading error into an *Unsupported at its file
// and line.
func unsupportedAt(err error, file, variable string) *Unsupported {
	var de *deck.Error
	if errors.As(err, &de) {
		f := de.File
		if f == "" {
			f = file
		}
		v := de.Variable
		if v == "" {
			v = variable
		}
		return &Unsupported{File: f, Line: de.Line, Variable: v, Message: de.Msg}
	}
	return &Unsupported{File: file, Variable: variable, Message: err.Error()}
}

func seaState(d *deck.Deck) (*deck.SeaState, *Unsupported) {
	g := d.Offshore.SeaState
	if g == nil {
		return nil, &Unsupported{Variable: "SeaStFile", Line: d.Main.Meta.LineOf("SeaStFile"), Message: "CompSeaSt = 1 but the SeaState file was not read"}
	}
	ss, err := g.SeaState()
	if err != nil {
		return nil, unsupportedAt(err, g.Meta.Path, "SeaState")
	}
	return ss, nil
}

func checkSeaState(d *deck.Deck) *Unsupported {
	ss, u := seaState(d)
	if u != nil {
		return u
	}
	if w := waves.Check(ss); w != nil {
		return &Unsupported{File: ss.Meta.Path, Line: ss.Meta.LineOf(w.Variable), Variable: w.Variable, Message: w.Message}
	}
	return nil
}

func checkHydroDyn(d *deck.Deck) *Unsupported {
	if d.Main.CompSeaSt != 1 {
		return &Unsupported{Variable: "CompSeaSt", Line: d.Main.Meta.LineOf("CompSeaSt"),
			Message: "HydroDyn takes its waves from SeaState: set CompSeaSt to 1 (with a SeaState file) when CompHydro is 1"}
	}
	ss, u := seaState(d)
	if u != nil {
		return u
	}
	mod, _, _, err := ss.WaveModel()
	if err != nil {
		return unsupportedAt(err, ss.Meta.Path, "WaveMod")
	}
	g := d.Offshore.HydroDyn
	if g == nil {
		return &Unsupported{Variable: "HydroFile", Line: d.Main.Meta.LineOf("HydroFile"), Message: "CompHydro = 1 but the HydroDyn file was not read"}
	}
	hd, err := g.HydroDyn()
	if err != nil {
		return unsupportedAt(err, g.Meta.Path, "HydroDyn")
	}
	if h := hydro.Check(hd, hydro.SeaOptions{WaveMod: mod, WaveStMod: ss.WaveStMod, SecondOrder: ss.WvDiffQTF || ss.WvSumQTF}); h != nil {
		line := h.Line
		if line == 0 {
			line = hd.Meta.LineOf(h.Variable)
		}
		return &Unsupported{File: hd.Meta.Path, Line: line, Variable: h.Variable, Message: h.Message}
	}
	return nil
}
