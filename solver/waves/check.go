package waves

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// Unsupported names an input of a SeaState file this package does not run:
// the variable (its line is ss.Meta.LineOf(Variable)) and why.
type Unsupported struct {
	Variable, Message string
}

// Check reports the first input of a SeaState file that this package
// cannot run, without building the sea (cheap: for accepting a job before
// it is charged); nil when the sea can be built.
func Check(ss *deck.SeaState) *Unsupported {
	mod, _, _, err := ss.WaveModel()
	if err != nil {
		return &Unsupported{"WaveMod", err.(*deck.Error).Msg}
	}
	bad := func(v, f string, a ...any) *Unsupported { return &Unsupported{v, fmt.Sprintf(f, a...)} }
	switch mod {
	case StillWater, Regular, JONSWAPSea, UserElev:
	case 3:
		return bad("WaveMod", "3 (white-noise spectrum) is not supported; use 0, 1, 2 or 5")
	case 4:
		return bad("WaveMod", "4 (user spectrum compiled into OpenFAST) is not supported; use 0, 1, 2 or 5")
	case 6:
		return bad("WaveMod", "6 (externally generated full kinematics) is not supported; use 0, 1, 2 or 5")
	case 7:
		return bad("WaveMod", "7 (user wave components) is not supported; use 0, 1, 2 or 5")
	default:
		return bad("WaveMod", "%d is not a wave model (0, 1, 2 or 5)", mod)
	}
	if mod != StillWater {
		switch {
		case ss.WaveStMod == 3:
			return bad("WaveStMod", "3 (Wheeler stretching) is not supported; use 0, 1 or 2")
		case ss.WaveStMod < 0 || ss.WaveStMod > 3:
			return bad("WaveStMod", "%d is not a stretching model (0, 1 or 2)", ss.WaveStMod)
		case ss.WaveTMax <= 0 || ss.WaveDT <= 0:
			return bad("WaveTMax", "WaveTMax (%g s) and WaveDT (%g s) must be > 0", ss.WaveTMax, ss.WaveDT)
		case ss.WaveTMax/ss.WaveDT > 1<<22:
			return bad("WaveDT", "WaveTMax/WaveDT = %g steps is too many (limit %d)", ss.WaveTMax/ss.WaveDT, 1<<22)
		case mod == JONSWAPSea && ss.ConstWaveMod != 0:
			return bad("ConstWaveMod", "%d: constrained waves are not supported; set ConstWaveMod 0", ss.ConstWaveMod)
		case ss.WvCrntMod != 0 && ss.CurrMod != 0:
			return bad("WvCrntMod", "%d: wave-current interaction is not supported; set WvCrntMod 0", ss.WvCrntMod)
		}
		// Spreading as SeaState checks and adjusts it (spreading.go),
		// including a WaveNDir SeaState cannot fit to the frequencies.
		half := seriesSteps(mod, ss.WaveTMax, ss.WaveDT) / 2
		if n, rng, _, u := spreadSettings(mod, ss.WaveDirMod, ss.WaveDirSpr, ss.WaveNDir, ss.WaveDirRng, half); u != nil {
			return u
		} else if n > 1 {
			if _, err := equalEnergyDirections(ss.WaveDirSpr, rng, n); err != nil {
				return bad("WaveDirSpread", "%g: %v", ss.WaveDirSpr, err)
			}
		}
		if mod != UserElev {
			// OpenFAST reads the seeds as 4-byte integers
			if _, err := strconv.ParseInt(strings.TrimSpace(ss.WaveSeed1), 10, 32); err != nil {
				return bad("WaveSeed(1)", "expected an integer within ±2147483647, got %q", ss.WaveSeed1)
			}
			s2 := strings.TrimSpace(ss.WaveSeed2)
			if _, err := strconv.ParseInt(s2, 10, 32); err != nil && !strings.EqualFold(s2, "RANLUX") {
				return bad("WaveSeed(2)", "expected an integer within ±2147483647 or RANLUX, got %q", ss.WaveSeed2)
			}
		}
	}
	if ss.MCFD > 0 {
		return bad("MCFD", "%g: MacCamy-Fuchs diffraction is not supported; set MCFD 0", ss.MCFD)
	}
	if ss.CurrMod != 0 && ss.CurrMod != 1 {
		return bad("CurrMod", "%d (user current) is not supported; use 0 or 1", ss.CurrMod)
	}
	return nil
}
