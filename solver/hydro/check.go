package hydro

import (
	"fmt"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/waves"
)

// Unsupported names an input of a HydroDyn file this package does not run:
// the variable (its line is hd.Meta.LineOf(Variable), or Line for a table
// row) and why.
type Unsupported struct {
	Variable, Message string
	Line              int // a table row's line, 0 otherwise
}

// SeaOptions is what Check needs of the SeaState file: the wave model
// (WaveMod), the stretching (WaveStMod) and whether second-order wave
// kinematics are on (WvDiffQTF or WvSumQTF).
type SeaOptions struct {
	WaveMod, WaveStMod int
	SecondOrder        bool
}

// Check reports the first input of a HydroDyn file that this package
// cannot run with the sea sea, without reading the WAMIT files or building
// anything; nil when it can run.
func Check(hd *deck.HydroDyn, sea SeaOptions) *Unsupported {
	waveMod, waveStMod := sea.WaveMod, sea.WaveStMod
	bad := func(v, f string, a ...any) *Unsupported {
		return &Unsupported{Variable: v, Message: fmt.Sprintf(f, a...)}
	}
	switch hd.PotMod {
	case 0:
	case 1:
		switch {
		case hd.NBody != 1:
			return bad("NBody", "%d WAMIT bodies: only 1 is supported", hd.NBody)
		case hd.NAddDOF != 0:
			return bad("NAddDOF", "%d: generalised body modes are not supported; set NAddDOF 0", hd.NAddDOF)
		case hd.ExctnMod < 0 || hd.ExctnMod > 2:
			return bad("ExctnMod", "%d is not an excitation model (0, 1 or 2)", hd.ExctnMod)
		case hd.ExctnMod == 2 && hd.ExctnDisp != 0:
			return bad("ExctnDisp", "%d with state-space excitation (ExctnMod 2): the excitation at the displaced position is modelled for ExctnMod 1 only; set ExctnDisp 0", hd.ExctnDisp)
		case hd.ExctnMod == 2 && (hd.MnDrift != 0 || hd.NewmanApp != 0 || hd.DiffQTF != 0 || hd.SumQTF != 0):
			// OpenFAST v5.0.0's HydroDyn refuses every second-order
			// load with the state-space excitation (its input checks for
			// ExctnMod 2); a deck OpenFAST will not run is not run here.
			v, n := "DiffQTF", hd.DiffQTF
			switch {
			case hd.MnDrift != 0:
				v, n = "MnDrift", hd.MnDrift
			case hd.NewmanApp != 0:
				v, n = "NewmanApp", hd.NewmanApp
			case hd.SumQTF != 0 && hd.DiffQTF == 0:
				v, n = "SumQTF", hd.SumQTF
			}
			return bad(v, "%d with state-space excitation (ExctnMod 2): OpenFAST's HydroDyn does not combine second-order wave loads with it either; set %s 0 or ExctnMod 1", n, v)
		case hd.ExctnMod == 2 && sea.SecondOrder:
			return bad("ExctnMod", "2 (state-space excitation) with second-order wave kinematics (SeaState WvDiffQTF or WvSumQTF True): OpenFAST's HydroDyn refuses this combination too; set ExctnMod 1 or turn WvDiffQTF and WvSumQTF off")
		case hd.ExctnMod == 1 && (hd.ExctnDisp < 0 || hd.ExctnDisp > 2):
			return bad("ExctnDisp", "%d is not an excitation position (0 undisplaced, 1 displaced, 2 low-pass filtered displaced)", hd.ExctnDisp)
		case hd.ExctnMod == 1 && hd.ExctnDisp == 2 && !(hd.ExctnCutOff > 0):
			return bad("ExctnCutOff", "%g Hz: the corner frequency of the position filter must be > 0 with ExctnDisp 2", hd.ExctnCutOff)
		case hd.RdtnMod < 0 || hd.RdtnMod > 2:
			return bad("RdtnMod", "%d is not a radiation model (0, 1 or 2)", hd.RdtnMod)
		case hd.RdtnMod == 1 && hd.RdtnTMax < 0:
			return bad("RdtnTMax", "%g: must be ≥ 0", hd.RdtnTMax)
		case hd.RdtnMod == 1 && hd.RdtnTMax > 0 && !hd.RdtnDT.Default && hd.RdtnDT.Value <= 0:
			return bad("RdtnDT", "%g: must be > 0 or DEFAULT", hd.RdtnDT.Value)
		case hd.PtfmYMod != 0:
			return bad("PtfmYMod", "%d: a dynamic yaw offset is not supported; set PtfmYMod 0", hd.PtfmYMod)
		case hd.PtfmRefY != 0:
			return bad("PtfmRefY", "%g: a yaw offset of the WAMIT body is not supported; set PtfmRefY 0", hd.PtfmRefY)
		case hd.PtfmRefxt != 0 || hd.PtfmRefyt != 0 || hd.PtfmRefzt != 0 || hd.PtfmRefztRot != 0:
			return bad("PtfmRefxt", "a WAMIT reference point off the origin is not supported; set PtfmRefxt, PtfmRefyt, PtfmRefzt and PtfmRefztRot to 0")
		case hd.WAMITULEN <= 0:
			return bad("WAMITULEN", "%g: must be > 0", hd.WAMITULEN)
		case deckNoFile(hd.PotFile):
			return bad("PotFile", "PotMod 1 needs the root name of the WAMIT files")
		}
	case 2:
		return bad("PotMod", "2 (fluid-impulse theory) is not supported; use 0 or 1")
	default:
		return bad("PotMod", "%d is not a potential-flow model (0 or 1)", hd.PotMod)
	}
	switch {
	case hd.WaveDisp != 0 && hd.WaveDisp != 1:
		return bad("WaveDisp", "%d is not a kinematics position (0 undisplaced, 1 displaced)", hd.WaveDisp)
	case hd.WaveDisp == 1 && len(hd.Members) > 0 && waveMod != waves.StillWater && waveStMod != 0:
		// With stretching, HydroDyn moves the nodes vertically too and
		// smooths the loads of nodes crossing the free surface (HydroDyn
		// user documentation, WaveDisp); only the horizontal displacement
		// of WaveStMod 0 is modelled.
		return bad("WaveDisp", "1 with wave stretching (SeaState WaveStMod %d): the vertical node displacement and HydroDyn's load smoothing at the free surface are not modelled; set WaveDisp 0 or WaveStMod 0", waveStMod)
	case hd.WaveDisp == 1 && len(hd.Members) > 0 && waveMod != waves.StillWater && sea.SecondOrder:
		// the displaced kinematics are summed over the components at each
		// step (waves.Layer); the second-order pair terms, some 10⁵ for an
		// irregular sea, are only precomputed at rest positions (Probe)
		return bad("WaveDisp", "1 with second-order wave kinematics (SeaState WvDiffQTF or WvSumQTF): the second-order kinematics at the displaced position are not modelled; set WaveDisp 0 or turn WvDiffQTF and WvSumQTF off")
	case hd.AMMod != 0 && waveMod != waves.StillWater:
		return bad("AMMod", "%d: added mass up to the instantaneous free surface is not supported; set AMMod 0", hd.AMMod)
	case hd.HstMod != 0 && waveMod != waves.StillWater:
		return bad("HstMod", "%d: hydrostatics up to the instantaneous free surface are not supported; set HstMod 0", hd.HstMod)
	}
	for _, m := range hd.Members {
		if m.SecGeom != 1 {
			return &Unsupported{Variable: "MSecGeom", Line: m.Line, Message: fmt.Sprintf("member %d: rectangular members are not supported", m.ID)}
		}
		if m.CoefMod < 1 || m.CoefMod > 3 {
			return &Unsupported{Variable: "MCoefMod", Line: m.Line, Message: fmt.Sprintf("member %d: %d is not a coefficient model (1, 2 or 3)", m.ID, m.CoefMod)}
		}
		if m.DivSize <= 0 {
			return &Unsupported{Variable: "MDivSize", Line: m.Line, Message: fmt.Sprintf("member %d: must be > 0", m.ID)}
		}
	}
	for _, j := range hd.Joints {
		if j.Ovrlp != 0 {
			return bad("JointOvrlp", "joint %d: %d: joint overlap elimination is not supported; set JointOvrlp 0", j.ID, j.Ovrlp)
		}
	}
	return nil
}

func deckNoFile(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "unused", "none":
		return true
	}
	return false
}
