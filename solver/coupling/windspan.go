package coupling

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/inflow"
	"github.com/turbinesim/turbinesim/solver/windfile"
)

// CheckWindDuration compares the span of the deck's full-field wind file
// with a run of tMax seconds (the deck's TMax when tMax ≤ 0) before
// anything is simulated, so a service can refuse the run at submission:
//
//   - a non-periodic TurbSim (WindType 3) or Bladed (WindType 4) box must
//     hold the wind the rotor sees up to tMax. InflowWind starts such a box
//     InitXPosition = half its width upstream and carries it downwind at
//     URef (Taylor's frozen turbulence), and the rotor apex sits |OverHang|
//     upwind of the yaw axis, so the run needs
//     tMax + (InitXPosition + |OverHang|)/URef ≤ (NT − 1)·DT;
//     a shorter box is an *Unsupported naming the InflowWind file, the line
//     of the file variable and what would fit;
//   - a periodic box is wrapped by InflowWind (time modulo NT·DT): a run
//     longer than one period is not refused, the warning states the repeat
//     period;
//   - steady wind never runs out, and a uniform wind file (WindType 2)
//     holds its last row beyond its end in InflowWind: neither is checked.
func CheckWindDuration(d *deck.Deck, tMax float64) (warning string, err error) {
	if d == nil || d.Main == nil || d.InflowWind == nil || d.Main.CompInflow != 1 {
		return "", nil
	}
	if !(tMax > 0) {
		tMax = d.Main.TMax
	}
	iw := d.InflowWind
	var variable, name string
	var box *windfile.FullField
	switch iw.WindType {
	case 3:
		variable, name = "FileName_BTS", iw.FileName_BTS
		box, err = windfile.ReadBTSHeaderFile(inflow.WindFilePath(d, name))
	case 4:
		variable, name = "FileNameRoot", iw.FileNameRoot
		// The header and the files' sizes give the span; no velocity is read.
		var s *windfile.BladedStream
		if s, err = windfile.OpenBladedStream(inflow.WindFilePath(d, name), name, false, windfile.StreamOptions{BlockBytes: 1, Blocks: 2}); err == nil {
			box = s.Box
			s.Close()
		}
	default:
		return "", nil
	}
	shown := name
	if filepath.IsAbs(shown) {
		shown = filepath.Base(shown) // never a server path in a message
	}
	at := &Unsupported{File: relFile(filepath.Dir(d.Path), iw.Meta.Path), Line: iw.Meta.LineOf(variable), Variable: variable}
	if err != nil {
		// The reader's message names the file as resolved; keep only what
		// the deck says.
		at.Message = fmt.Sprintf("the wind file %q cannot be read as a full-field box", shown)
		return "", at
	}
	if !(box.URef > 0) || !(box.DT > 0) {
		at.Message = fmt.Sprintf("the wind file %q has URef %g m/s and time step %g s; both must be positive", shown, box.URef, box.DT)
		return "", at
	}
	span := box.Duration()
	if box.Periodic {
		if tMax > span {
			return fmt.Sprintf("%s: the wind file %q (%s) is periodic: its %.4g s of wind repeat every %.4g s, %.1f times over the %.4g-s run",
				at.File, shown, variable, span, span, tMax/span, tMax), nil
		}
		return "", nil
	}
	overhang := 0.0
	if d.ElastoDyn != nil {
		overhang = math.Abs(d.ElastoDyn.OverHang)
	}
	lead := (box.InitXPosition() + overhang) / box.URef
	if tMax+lead > span*(1+1e-9) {
		at.Message = fmt.Sprintf("the wind file %q holds %.4g s of wind (%d steps of %.4g s, not periodic), but a %.4g-s run needs %.4g s: the box starts %.4g m upstream and reaches the rotor after %.3g s at %g m/s; generate a box of at least %.4g s or set TMax to at most %.4g s",
			shown, span, box.NT, box.DT, tMax, tMax+lead, box.InitXPosition()+overhang, lead, box.URef, tMax+lead, span-lead)
		return "", at
	}
	return "", nil
}
