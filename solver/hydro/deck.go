package hydro

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/waves"
)

// Model is the hydrodynamics of a deck: the potential-flow platform body
// (nil when PotMod is 0) and the strip-theory members (nil without members
// outside potential flow).
type Model struct {
	HD       *deck.HydroDyn
	Platform *Platform
	Morison  *Morison
	// Warnings lists inputs that are read but not modelled (file:line:
	// variable: message).
	Warnings []string
}

// FromDeck builds the hydrodynamics of a deck with a HydroDyn file: the
// WAMIT files of PotFile are read inside root (the deck's root directory,
// through deck.ReadDataFile: confined and bounded; "" means the deck's Root
// from LoadIn), dimensionalised with the water density and gravity of
// the sea; RdtnDT "default" is the glue-code step dt.
func FromDeck(d *deck.Deck, root string, sea *waves.Sea, dt float64) (*Model, error) {
	g := d.Offshore.HydroDyn
	if g == nil {
		return nil, fmt.Errorf("hydro: the deck has no HydroDyn file (CompHydro = 1)")
	}
	if root == "" {
		root = d.Root
	}
	hd, err := g.HydroDyn()
	if err != nil {
		return nil, fmt.Errorf("hydro: %w", err)
	}
	cfg := sea.Config()
	file := filepath.Base(g.Meta.Path)
	at := func(v string) string { return fmt.Sprintf("%s:%d: %s", file, hd.Meta.LineOf(v), v) }
	m := &Model{HD: hd}
	for _, v := range []struct {
		name string
		val  int
	}{{"MnDrift", hd.MnDrift}, {"NewmanApp", hd.NewmanApp}, {"SumQTF", hd.SumQTF}} {
		if v.val != 0 && hd.PotMod == 1 && cfg.WaveMod != waves.StillWater {
			m.Warnings = append(m.Warnings, at(v.name)+": this second-order potential-flow load is not modelled (first order and DiffQTF only)")
		}
	}
	if u := Check(hd, SeaOptions{WaveMod: cfg.WaveMod, WaveStMod: cfg.WaveStMod, SecondOrder: cfg.WvDiffQTF || cfg.WvSumQTF}); u != nil {
		loc := at(u.Variable)
		if u.Line > 0 {
			loc = fmt.Sprintf("%s:%d: %s", file, u.Line, u.Variable)
		}
		return nil, fmt.Errorf("hydro: %s: %s", loc, u.Message)
	}
	if w := coarseGridNote(d, hd, cfg); w != "" {
		m.Warnings = append(m.Warnings, w)
	}
	if hd.PotMod == 1 {
		read := func(ext string) ([]byte, error) {
			b, err := deck.ReadDataFile(root, g.Meta.Path, hd.PotFile+ext, 0)
			if err != nil {
				return nil, fmt.Errorf("hydro: %s: %w", at("PotFile"), err)
			}
			return b, nil
		}
		pc := PlatformConfig{Rho: cfg.WtrDens, G: cfg.Gravity, Vol0: hd.PtfmVol0, COB: [2]float64{hd.PtfmCOBxt, hd.PtfmCOByt},
			RdtnMod: hd.RdtnMod, RdtnTMax: hd.RdtnTMax, RdtnDT: hd.RdtnDT.Or(dt),
			ExctnDisp: hd.ExctnDisp, ExctnCutOff: hd.ExctnCutOff,
			AddF0: hd.AddF0, AddCLin: hd.AddCLin, AddBLin: hd.AddBLin, AddBQuad: hd.AddBQuad}
		name := filepath.Base(hd.PotFile)
		b, err := read(".hst")
		if err != nil {
			return nil, err
		}
		if pc.Hst, err = ParseHST(b, pc.Rho, pc.G, hd.WAMITULEN, name+".hst"); err != nil {
			return nil, fmt.Errorf("hydro: %w", err)
		}
		if b, err = read(".1"); err != nil {
			return nil, err
		}
		if pc.Rad, err = ParseWAMIT1(b, pc.Rho, hd.WAMITULEN, name+".1"); err != nil {
			return nil, fmt.Errorf("hydro: %w", err)
		}
		if hd.RdtnMod == 2 {
			if b, err = read(".ss"); err != nil {
				return nil, err
			}
			if pc.SSRad, err = ParseSSRadiation(b, name+".ss"); err != nil {
				return nil, fmt.Errorf("hydro: %s: %w", at("PotFile"), err)
			}
		}
		if hd.ExctnMod == 2 && cfg.WaveMod != waves.StillWater {
			if b, err = read(".ssexctn"); err != nil {
				return nil, err
			}
			if pc.SSExc, err = ParseSSExcitation(b, name+".ssexctn"); err != nil {
				return nil, fmt.Errorf("hydro: %s: %w", at("PotFile"), err)
			}
			if err := fitHeading(pc.SSExc, sea); err != nil {
				return nil, fmt.Errorf("%w (%s)", err, at("ExctnMod"))
			}
			pc.ExcDT = dt
		}
		if hd.ExctnMod == 1 && cfg.WaveMod != waves.StillWater {
			if b, err = read(".3"); err != nil {
				return nil, err
			}
			if pc.Exc, err = ParseWAMIT3(b, pc.Rho, pc.G, hd.WAMITULEN, name+".3"); err != nil {
				return nil, fmt.Errorf("hydro: %w", err)
			}
		}
		if hd.DiffQTF != 0 && cfg.WaveMod != waves.StillWater {
			switch hd.ExctnDisp {
			case 1:
				// HydroDyn user documentation, ExctnDisp: the QTF already
				// holds the first-order motion's share of the second-order
				// load, which the unfiltered displaced position adds again
				m.Warnings = append(m.Warnings, at("ExctnDisp")+": 1 with the second-order load (DiffQTF) counts the first-order motion's contribution twice; HydroDyn's documentation advises ExctnDisp 2 with ExctnCutOff below the wave frequencies. The second-order load stays at the undisplaced position")
			case 2:
				m.Warnings = append(m.Warnings, at("ExctnDisp")+": the first-order excitation follows the filtered displaced position; the second-order load (DiffQTF) stays at the undisplaced position")
			}
			ext := fmt.Sprintf(".%dd", hd.DiffQTF)
			if b, err = read(ext); err != nil {
				return nil, err
			}
			if pc.DiffQTF, err = ParseQTF(b, pc.Rho, pc.G, hd.WAMITULEN, cfg.WaveDir, name+ext); err != nil {
				return nil, fmt.Errorf("hydro: %w", err)
			}
		}
		if pc.RdtnMod == 1 && hd.RdtnTMax == 0 {
			pc.RdtnMod = 0 // RdtnTMax 0 disables the memory effect
		}
		if m.Platform, err = NewPlatform(pc, sea); err != nil {
			return nil, fmt.Errorf("%w (%s)", err, at("RdtnMod"))
		}
	}
	mor, err := NewMorison(hd, sea, file)
	if err != nil {
		return nil, fmt.Errorf("hydro: %w", err)
	}
	if len(mor.Nodes) > 0 {
		m.Morison = mor
	}
	return m, nil
}

// coarseGridNote warns when the loads follow the displaced position
// (ExctnDisp 1 or 2, or WaveDisp 1 on strip-theory members) and SeaState's
// wave grid is coarse for the sea's peak wavelength. This solver evaluates
// the waves at the exact displaced position; OpenFAST interpolates them
// linearly between the grid's points (its SeaState documentation: the grid
// "should also be fine enough to resolve the shortest wave of interest"),
// and on a coarse grid its answer differs: the IEA 15 MW semi's 60-m grid
// in 10-s waves moves OpenFAST's parked surge, heave and pitch standard
// deviations by 6-9 % against a 1-m grid, on which ours agree with it
// within 0.25 % (docs/validation.md §10.6). The bound is a twentieth of
// the peak wavelength along the waves' direction, where linear
// interpolation keeps the amplitude within 0.5 %.
func coarseGridNote(d *deck.Deck, hd *deck.HydroDyn, cfg waves.Config) string {
	displaced := (hd.PotMod == 1 && hd.ExctnMod == 1 && hd.ExctnDisp > 0) || (hd.WaveDisp == 1 && len(hd.Members) > 0)
	if !displaced || cfg.WaveMod == waves.StillWater || cfg.WaveTp <= 0 || d.Offshore.SeaState == nil {
		return ""
	}
	ss, err := d.Offshore.SeaState.SeaState()
	if err != nil || ss.NX < 2 || ss.NY < 2 {
		return ""
	}
	dx, dy := ss.XHalfWidth/float64(ss.NX-1), ss.YHalfWidth/float64(ss.NY-1)
	// The spacing the waves cross: along their heading, or both ways for
	// a spread sea.
	beta := cfg.WaveDir * math.Pi / 180
	along := math.Hypot(dx*math.Cos(beta), dy*math.Sin(beta))
	if cfg.WaveDirMod != 0 {
		along = math.Max(dx, dy)
	}
	lambda := 2 * math.Pi / waves.WaveNumber(2*math.Pi/cfg.WaveTp, cfg.Gravity, cfg.WtrDpth)
	if along <= lambda/20 {
		return ""
	}
	file := filepath.Base(d.Offshore.SeaState.Meta.Path)
	return fmt.Sprintf("%s:%d: NX: the wave grid's spacing (dX %.3g m, dY %.3g m) is coarse for the peak wavelength (%.3g m at WaveTp %g s): "+
		"the loads at the displaced position are evaluated here at the exact position, while OpenFAST interpolates them over this grid and will differ; "+
		"a spacing of at most %.2g m along the waves makes the two agree", file, ss.Meta.LineOf("NX"), dx, dy, lambda, cfg.WaveTp, lambda/20)
}
