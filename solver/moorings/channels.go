package moorings

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// Channel is one output column: OpenFAST's (upper-case) name and unit.
type Channel struct {
	Name string
	Unit string
}

type channel struct {
	Channel
	eval func() float64
}

// parseChannels resolves the OUTPUTS list: FairTen#/AnchTen# (the magnitude
// of the net force on the fairlead / anchor end node of line #), and
// Con#/Point# with a suffix Fx/Fy/Fz (net force on the point), Px/Py/Pz
// (position), Vx/Vy/Vz (velocity) or T/Ten (force magnitude), as named in
// MoorDyn's documentation ("Outputs"). OpenFAST writes the names in upper
// case.
func parseChannels(md *deck.MoorDyn, s *System) ([]channel, error) {
	var out []channel
	notRun := func(o deck.MDOutput, why string) error {
		return &deck.Error{File: md.Path, Line: o.Line, Variable: o.Name, Msg: "output channel " + why, Err: deck.ErrNotRun}
	}
	for _, o := range md.Outputs {
		name := strings.ToUpper(o.Name)
		switch {
		case strings.HasPrefix(name, "FAIRTEN"), strings.HasPrefix(name, "ANCHTEN"):
			id, err := strconv.Atoi(name[7:])
			ln := s.lineByID(id)
			if err != nil || ln == nil {
				return nil, &deck.Error{File: md.Path, Line: o.Line, Variable: o.Name, Msg: "no such line"}
			}
			end := 1
			if name[0] == 'A' {
				end = 0
			}
			out = append(out, channel{Channel{name, "N"}, func() float64 { return norm(ln.endForce(end)) }})
		case strings.HasPrefix(name, "CON"), strings.HasPrefix(name, "POINT"):
			rest := strings.TrimPrefix(strings.TrimPrefix(name, "CON"), "POINT")
			k := 0
			for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
				k++
			}
			id, err := strconv.Atoi(rest[:k])
			pt := s.pointByID(id)
			if err != nil || pt == nil {
				return nil, &deck.Error{File: md.Path, Line: o.Line, Variable: o.Name, Msg: "no such point"}
			}
			suffix := rest[k:]
			var f func() float64
			unit := ""
			switch suffix {
			case "FX", "FY", "FZ":
				c := int(suffix[1] - 'X')
				f, unit = func() float64 { return pt.f[c] }, "N"
			case "PX", "PY", "PZ":
				c := int(suffix[1] - 'X')
				f, unit = func() float64 { return pt.r[c] }, "m"
			case "VX", "VY", "VZ":
				c := int(suffix[1] - 'X')
				f, unit = func() float64 { return pt.v[c] }, "m/s"
			case "T", "TEN":
				f, unit = func() float64 { return norm(pt.f) }, "N"
			default:
				return nil, notRun(o, fmt.Sprintf("quantity %q", suffix))
			}
			out = append(out, channel{Channel{name, unit}, f})
		default:
			return nil, notRun(o, "(this solver outputs FairTen#, AnchTen# and Con#/Point# with Fx/Fy/Fz, Px/Py/Pz, Vx/Vy/Vz, T)")
		}
	}
	return out, nil
}

func (s *System) lineByID(id int) *line {
	for _, ln := range s.lines {
		if ln.id == id {
			return ln
		}
	}
	return nil
}

func (s *System) pointByID(id int) *point {
	for _, pt := range s.points {
		if pt.id == id {
			return pt
		}
	}
	return nil
}

func (s *System) fillChannels() {
	for i, c := range s.chans {
		s.values[i] = c.eval()
	}
}

// Channels returns the output channels in the order of the OUTPUTS list.
func (s *System) Channels() []Channel {
	out := make([]Channel, len(s.chans))
	for i, c := range s.chans {
		out[i] = c.Channel
	}
	return out
}

// Values returns the channel values of the last CalcOutput (shared slice;
// copy to keep).
func (s *System) Values() []float64 { return s.values }

// FairleadTension returns the magnitude of the net force on the fairlead
// (end B) node of the i-th line of the input file, as FAIRTEN reports it.
func (s *System) FairleadTension(i int) float64 { return norm(s.lines[i].endForce(1)) }

// AnchorTension returns the same at the anchor (end A) node.
func (s *System) AnchorTension(i int) float64 { return norm(s.lines[i].endForce(0)) }

// NodePositions returns a copy of the node positions of the i-th line
// (3(N+1) values, end A first).
func (s *System) NodePositions(i int) []float64 {
	return append([]float64(nil), s.lines[i].r...)
}
