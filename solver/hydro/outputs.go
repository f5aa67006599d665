package hydro

import (
	"fmt"
	"strings"
)

// Outputs maps HydroDyn output channel names to the loads of one step.
type Outputs struct {
	Names, Units []string
	pick         []func(s *Step) float64
}

// Step holds what the channels are computed from: the platform loads and
// motion, and the Morison resultant about the reference point (zero
// without members), both excluding the implicit added-mass terms, and the
// Morison added-mass load −M q̈ summed about the reference point.
type Step struct {
	Platform    PlatformLoads
	Motion      Motion
	Morison     [6]float64
	MorisonMass [6]float64
}

var dofNames = []string{"Fxi", "Fyi", "Fzi", "Mxi", "Myi", "Mzi"}

// Outputs resolves the deck's HydroDyn OutList; names that are not
// available are returned as warnings (HydroDyn drops unknown names too).
func (m *Model) Outputs() (*Outputs, []string) {
	o := &Outputs{}
	var warn []string
	ainf := [6][6]float64{}
	if m.Platform != nil {
		ainf = m.Platform.AInf()
	}
	for _, raw := range m.HD.OutList {
		name := raw
		sign := 1.0
		f, unit := channel(strings.ToUpper(name), ainf)
		if f == nil && len(raw) > 1 && strings.ContainsRune("-_mM", rune(raw[0])) {
			if f2, u2 := channel(strings.ToUpper(raw[1:]), ainf); f2 != nil {
				f, unit, sign = f2, u2, -1
			}
		}
		if f == nil {
			warn = append(warn, fmt.Sprintf("HydroDyn output channel %q is not available; it is left out", raw))
			continue
		}
		if sign < 0 {
			g := f
			f = func(s *Step) float64 { return -g(s) }
		}
		o.Names = append(o.Names, name)
		o.Units = append(o.Units, unit)
		o.pick = append(o.pick, f)
	}
	return o, warn
}

func channel(u string, ainf [6][6]float64) (func(s *Step) float64, string) {
	for d, n := range dofNames {
		unit := "N"
		if d >= 3 {
			unit = "N-m"
		}
		n = strings.ToUpper(n)
		switch u {
		case "HYDRO" + n:
			return func(s *Step) float64 {
				v := s.Platform.Total[d] + s.Morison[d] + s.MorisonMass[d]
				for j := 0; j < 6; j++ {
					v -= ainf[d][j] * s.Motion.QDD[j]
				}
				return v
			}, unit
		case "B1WVS" + n[:1] + "1" + n[1:]:
			return func(s *Step) float64 { return s.Platform.Excitation[d] }, unit
		case "B1WVS" + n[:1] + "2" + n[1:]:
			return func(s *Step) float64 { return s.Platform.SecondOrder[d] }, unit
		case "B1HDS" + n:
			return func(s *Step) float64 { return s.Platform.Hydrostat[d] }, unit
		case "B1RDT" + n:
			// HydroDyn's radiation channels include the infinite-frequency
			// added-mass load −A∞ q̈ (checked against OpenFAST's pitch decay)
			return func(s *Step) float64 {
				v := s.Platform.Radiation[d]
				for j := 0; j < 6; j++ {
					v -= ainf[d][j] * s.Motion.QDD[j]
				}
				return v
			}, unit
		}
	}
	return nil, ""
}

// Eval writes the channel values of step s into dst (len(Names)).
func (o *Outputs) Eval(s *Step, dst []float64) {
	for i, f := range o.pick {
		dst[i] = f(s)
	}
}

// Value returns channel i for step s.
func (o *Outputs) Value(i int, s *Step) float64 { return o.pick[i](s) }
