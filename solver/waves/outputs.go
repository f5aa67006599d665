package waves

import (
	"fmt"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// Outputs computes SeaState's output channels requested in the deck.
type Outputs struct {
	Names, Units []string
	fns          []func(t float64) float64
}

// Outputs resolves the SeaState OutList: WaveNElev at the NWaveElev points,
// WaveNVxi … WaveNAzi and WaveNDynP at the NWaveKin points. A leading "-",
// "_" or "m"/"M" negates a channel, as in OpenFAST. Names that are not
// SeaState channels are returned as warnings (SeaState drops them too).
func (s *Sea) Outputs(ss *deck.SeaState) (*Outputs, []string) {
	o := &Outputs{}
	var warn []string
	if ss == nil {
		return o, nil
	}
	elev := make([]func(float64) float64, len(ss.WaveElevxi))
	for i := range elev {
		elev[i] = s.elevationChannel(ss.WaveElevxi[i], ss.WaveElevyi[i])
	}
	kin := make([]*Probe, len(ss.WaveKinxi))
	for i := range kin {
		kin[i] = s.Probe(ss.WaveKinxi[i], ss.WaveKinyi[i], ss.WaveKinzi[i])
	}
	for _, raw := range ss.OutList {
		name, sign := raw, 1.0
		fn, unit := s.channel(name, elev, kin)
		if fn == nil && len(raw) > 1 && strings.ContainsRune("-_mM", rune(raw[0])) {
			if f2, u2 := s.channel(raw[1:], elev, kin); f2 != nil {
				fn, unit, sign = f2, u2, -1
			}
		}
		if fn == nil {
			warn = append(warn, fmt.Sprintf("SeaState output channel %q is not available; it is left out", raw))
			continue
		}
		if sign < 0 {
			f := fn
			fn = func(t float64) float64 { return -f(t) }
		}
		o.Names = append(o.Names, name)
		o.Units = append(o.Units, unit)
		o.fns = append(o.fns, fn)
	}
	return o, warn
}

func (s *Sea) channel(name string, elev []func(float64) float64, kin []*Probe) (func(float64) float64, string) {
	u := strings.ToUpper(name)
	if !strings.HasPrefix(u, "WAVE") || len(u) < 6 || u[4] < '1' || u[4] > '9' {
		return nil, ""
	}
	i := int(u[4] - '1')
	rest := u[5:]
	if rest == "ELEV" {
		if i >= len(elev) {
			return nil, ""
		}
		return elev[i], "m"
	}
	if i >= len(kin) {
		return nil, ""
	}
	p := kin[i]
	pick := map[string]struct {
		f    func(k Kin) float64
		unit string
	}{
		"VXI": {func(k Kin) float64 { return k.V[0] }, "m/s"}, "VYI": {func(k Kin) float64 { return k.V[1] }, "m/s"},
		"VZI": {func(k Kin) float64 { return k.V[2] }, "m/s"}, "AXI": {func(k Kin) float64 { return k.A[0] }, "m/s^2"},
		"AYI": {func(k Kin) float64 { return k.A[1] }, "m/s^2"}, "AZI": {func(k Kin) float64 { return k.A[2] }, "m/s^2"},
		"DYNP": {func(k Kin) float64 { return k.P }, "Pa"},
	}[rest]
	if pick.f == nil {
		return nil, ""
	}
	return func(t float64) float64 { return pick.f(p.At(t)) }, pick.unit
}

// Eval writes the channel values at time t into dst (len(Names)).
func (o *Outputs) Eval(t float64, dst []float64) {
	for i, f := range o.fns {
		dst[i] = f(t)
	}
}

// Value returns channel i at time t.
func (o *Outputs) Value(i int, t float64) float64 { return o.fns[i](t) }

// elevationChannel returns the wave elevation at (x, y) as SeaState outputs
// it: first order, plus the second-order difference- and sum-frequency
// terms the deck asks for (WvDiffQTF, WvSumQTF), sampled every WaveDT and
// interpolated in time with SeaState's periodic cubic (Catmull–Rom)
// interpolation of its wave grid — what a Probe does.
func (s *Sea) elevationChannel(x, y float64) func(float64) float64 {
	return s.Probe(x, y, 0).Elevation
}
