package waves

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// FromDeck builds the sea state of a deck with a SeaState file
// (CompSeaSt = 1): "default" water properties come from the primary file as
// OpenFAST does. root is the deck's root directory, inside which a
// WaveMod 5 elevation file (WvKinFile + ".Elev") must lie (read through
// deck.ReadDataFile; "" means the deck's Root from LoadIn). Without a
// SeaState file the sea is still water of the primary file's depth.
func FromDeck(d *deck.Deck, root string) (*Sea, *deck.SeaState, error) {
	m := d.Main
	cfg := Config{Gravity: m.Gravity, WtrDens: m.WtrDens, WtrDpth: m.WtrDpth, MSL2SWL: m.MSL2SWL}
	if root == "" {
		root = d.Root
	}
	g := d.Offshore.SeaState
	if g == nil {
		s, err := New(cfg)
		return s, nil, err
	}
	ss, err := g.SeaState()
	if err != nil {
		return nil, nil, fmt.Errorf("waves: %w", err)
	}
	cfg.WtrDens = ss.WtrDens.Or(m.WtrDens)
	cfg.WtrDpth = ss.WtrDpth.Or(m.WtrDpth)
	cfg.MSL2SWL = ss.MSL2SWL.Or(m.MSL2SWL)
	mod, phase, hasPhase, err := ss.WaveModel()
	if err != nil {
		return nil, nil, fmt.Errorf("waves: %w", err)
	}
	at := func(v string) string {
		return fmt.Sprintf("%s:%d: %s", g.Meta.Path[strings.LastIndexAny(g.Meta.Path, `/\`)+1:], ss.Meta.LineOf(v), v)
	}
	if u := Check(ss); u != nil {
		return nil, nil, fmt.Errorf("waves: %s: %s", at(u.Variable), u.Message)
	}
	cfg.WaveMod = mod
	cfg.WaveStMod = ss.WaveStMod
	cfg.WaveTMax, cfg.WaveDT = ss.WaveTMax, ss.WaveDT
	cfg.WaveHs, cfg.WaveTp = ss.WaveHs, ss.WaveTp
	cfg.WavePkShp, cfg.PkShpDflt = ss.WavePkShp.Value, ss.WavePkShp.Default
	cfg.WvLowCOff, cfg.WvHiCOff = ss.WvLowCOff, ss.WvHiCOff
	cfg.WvLowCOffD, cfg.WvHiCOffD = ss.WvLowCOffD, ss.WvHiCOffD
	cfg.WvLowCOffS, cfg.WvHiCOffS = ss.WvLowCOffS, ss.WvHiCOffS
	cfg.WvDiffQTF, cfg.WvSumQTF = ss.WvDiffQTF, ss.WvSumQTF
	cfg.WaveDir = ss.WaveDir
	cfg.WaveDirMod, cfg.WaveDirSpr, cfg.WaveNDir, cfg.WaveDirRng = ss.WaveDirMod, ss.WaveDirSpr, ss.WaveNDir, ss.WaveDirRng
	cfg.WaveNDAmp = ss.WaveNDAmp
	if hasPhase {
		cfg.RegularPhase = &phase
	}
	if mod != StillWater && mod != UserElev { // checked by Check
		cfg.WaveSeed[0], _ = strconv.ParseInt(strings.TrimSpace(ss.WaveSeed1), 10, 64)
		if strings.EqualFold(strings.TrimSpace(ss.WaveSeed2), "RANLUX") {
			cfg.RanLux = true
		} else {
			cfg.WaveSeed[1], _ = strconv.ParseInt(strings.TrimSpace(ss.WaveSeed2), 10, 64)
		}
	}
	if mod == UserElev {
		b, err := deck.ReadDataFile(root, g.Meta.Path, ss.WvKinFile+".Elev", 0)
		if err != nil {
			return nil, nil, fmt.Errorf("waves: %s: %w", at("WvKinFile"), err)
		}
		elev, err := parseElev(b, ss.WaveDT)
		if err != nil {
			return nil, nil, fmt.Errorf("waves: %s: %s.Elev: %w", at("WvKinFile"), ss.WvKinFile, err)
		}
		cfg.Elev = elev
	}
	if ss.CurrMod == 1 {
		cfg.Current = Current{Mod: 1, SSV0: ss.CurrSSV0, SSDir: ss.CurrSSDir.Or(ss.WaveDir), NSRef: ss.CurrNSRef,
			NSV0: ss.CurrNSV0, NSDir: ss.CurrNSDir, DIV: ss.CurrDIV, DIDir: ss.CurrDIDir}
	}
	s, err := New(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (%s)", err, at("WaveMod"))
	}
	for _, n := range s.spreadNotes {
		s.Warnings = append(s.Warnings, at(n.Variable)+": "+n.Message)
	}
	return s, ss, nil
}

// parseElev reads a WaveMod 5 elevation file: two columns, time (from 0)
// and elevation at the origin; lines not starting with a number are
// headers. The time step must be WaveDT.
func parseElev(b []byte, dt float64) ([]float64, error) {
	var out []float64
	sc := bufio.NewScanner(bytes.NewReader(b))
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		tm, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue // header
		}
		if len(f) < 2 {
			return nil, fmt.Errorf("line %d: expected time and elevation", line)
		}
		e, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: elevation %q is not a number", line, f[1])
		}
		if want := float64(len(out)) * dt; abs(tm-want) > 1e-6*max(1, want) {
			return nil, fmt.Errorf("line %d: time %g, expected %g (steps of WaveDT = %g s from 0)", line, tm, want, dt)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
