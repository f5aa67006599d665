package decks

import (
	"path"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// RunSetupOf says what a run deck simulates, for the job's record: the
// time step, InflowWind's wind (WindType: steady with its power-law
// profile, or the wind file it names) and, for an offshore deck, the
// waves of SeaState (or of HydroDyn, in decks before SeaState was split
// out) and whether the turbine floats (dlc.FloatingPlatform). Values the
// deck does not set are left out. File names are the
// base names as the deck writes them, never a path of the server.
func RunSetupOf(d *deck.Deck) *turbinesim.RunSetup {
	s := &turbinesim.RunSetup{}
	if d.Main != nil && d.Main.DT > 0 {
		s.DT = d.Main.DT
	}
	if iw := d.InflowWind; iw != nil {
		switch iw.WindType {
		case 1:
			s.Wind = turbinesim.RunWind{Kind: "steady", Speed: new(iw.HWindSpeed), Shear: new(iw.PLExp)}
		case 2:
			s.Wind = turbinesim.RunWind{Kind: "file", File: baseName(iw.FileName_Uni)}
		case 3:
			s.Wind = turbinesim.RunWind{Kind: "file", File: baseName(iw.FileName_BTS)}
		case 4, 7:
			s.Wind = turbinesim.RunWind{Kind: "file", File: baseName(iw.FileNameRoot)}
		case 5:
			s.Wind = turbinesim.RunWind{Kind: "file", File: baseName(iw.FileName_u)}
		default:
			s.Wind = turbinesim.RunWind{Kind: "file"}
		}
	}
	s.Waves = wavesOf(d)
	s.Floating = dlc.FloatingPlatform(d)
	return s
}

// baseName is the last element of a file name as a deck writes it
// (either separator), unquoted.
func baseName(name string) string {
	name = strings.Trim(strings.TrimSpace(name), `"'`)
	if name == "" {
		return ""
	}
	return path.Base(strings.ReplaceAll(name, `\`, "/"))
}

// waveModels names SeaState/HydroDyn's WaveMod values (OpenFAST SeaState
// input file documentation).
var waveModels = map[int]string{
	0: "still water",
	1: "regular (Airy)",
	2: "JONSWAP/Pierson-Moskowitz spectrum",
	3: "white-noise spectrum",
	4: "user-defined spectrum",
	5: "externally generated elevation",
	6: "externally generated kinematics",
	7: "user-defined wave components",
}

// wavesOf reads the waves of an offshore deck; nil for a deck on land.
func wavesOf(d *deck.Deck) *turbinesim.RunWaves {
	g := d.Offshore.SeaState
	if g == nil {
		g = d.Offshore.HydroDyn
	}
	if g == nil {
		return nil
	}
	mod, ok, err := g.Int("WaveMod")
	if !ok || err != nil {
		return nil
	}
	w := &turbinesim.RunWaves{Model: waveModels[mod]}
	if w.Model == "" {
		w.Model = "WaveMod " + strconv.Itoa(mod)
	}
	if mod == 0 {
		return w
	}
	if v, ok, err := g.Float("WaveHs"); ok && err == nil {
		w.Hs = &v
	}
	if v, ok, err := g.Float("WaveTp"); ok && err == nil {
		w.Tp = &v
	}
	if v, ok, err := g.Float("WaveDir"); ok && err == nil {
		w.Direction = &v
	}
	return w
}
