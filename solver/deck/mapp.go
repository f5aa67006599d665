package deck

import (
	"fmt"
	"strings"
)

// MAPFile is a MAP++ input file (MAP++ documentation, "Input File"): the
// line dictionary, node and line properties and solver options of a
// quasi-static multi-segment catenary mooring. Entries keep their line
// numbers.
type MAPFile struct {
	Path      string
	LineTypes []MAPLineType
	Nodes     []MAPNode
	Lines     []MAPLine
	// Repeat lists the angles (deg, about the vertical axis) by which the
	// whole line set is copied ("repeat" option); RepeatLine is its line.
	Repeat     []float64
	RepeatLine int
}

// MAPLineType is one row of the LINE DICTIONARY.
type MAPLineType struct {
	Name    string
	Diam    float64 // m
	MassDen float64 // mass per unit length in air, kg/m
	EA      float64 // N
	CB      float64 // seabed friction coefficient
	Line    int
}

// MAPNode is one row of NODE PROPERTIES. Type is "fix" or "vessel"
// (connect nodes are refused). ZDepth is true when Z is written "depth"
// (the node is on the seabed, at the glue code's water depth).
type MAPNode struct {
	ID      int
	Type    string
	X, Y, Z float64
	ZDepth  bool
	M, B    float64 // point mass (kg) and displaced volume (m³)
	Line    int
}

// MAPLine is one row of LINE PROPERTIES.
type MAPLine struct {
	ID          int
	Type        string
	UnstrLen    float64
	NodeAnch    int
	NodeFair    int
	OmitContact bool
	Line        int
}

func mapSection(raw string) (string, bool) {
	t := strings.TrimSpace(raw)
	if !strings.HasPrefix(t, "---") {
		return "", false
	}
	u := strings.ToUpper(t)
	switch {
	case strings.Contains(u, "LINE DICTIONARY"):
		return "types", true
	case strings.Contains(u, "NODE PROPERTIES"):
		return "nodes", true
	case strings.Contains(u, "LINE PROPERTIES"):
		return "lines", true
	case strings.Contains(u, "SOLVER OPTIONS"):
		return "options", true
	}
	return "other", true
}

// MAP reads the file as a MAP++ input file. Errors are *Error with the line
// and the table or option concerned; what MAP++ runs but this solver does
// not (connect nodes, line output flags, the lumped-mass and wave options,
// a shifted reference position) wraps ErrNotRun.
func (g *Generic) MAP() (*MAPFile, error) {
	m := &MAPFile{Path: g.Meta.Path}
	path := g.Meta.Path
	notRun := func(line int, variable, format string, args ...any) error {
		return &Error{File: path, Line: line, Variable: variable, Msg: fmt.Sprintf(format, args...), Err: ErrNotRun}
	}
	section, row := "", 0
	for i := range g.Meta.Src.Lines {
		l := &g.Meta.Src.Lines[i]
		if s, ok := mapSection(l.Raw); ok {
			section, row = s, 0
			continue
		}
		toks := l.toks
		if len(toks) == 0 || section == "" || section == "other" {
			continue
		}
		row++
		if row <= 2 {
			continue // column names and units
		}
		switch section {
		case "types":
			if len(toks) < 5 {
				return nil, errAt(path, l.Num, "LINE DICTIONARY", "row has %d columns, expected 9 (LineType Diam MassDenInAir EA CB CIntDamp Ca Cdn Cdt)", len(toks))
			}
			v, err := mdReals(path, l.Num, "LINE DICTIONARY", []string{"Diam", "MassDenInAir", "EA", "CB"}, toks[1:5])
			if err != nil {
				return nil, err
			}
			if !(v[0] > 0) || !(v[1] > 0) || !(v[2] > 0) || v[3] < 0 {
				return nil, errAt(path, l.Num, "LINE DICTIONARY", "line type %q: Diam, MassDenInAir and EA must be > 0 and CB >= 0", toks[0].Text)
			}
			m.LineTypes = append(m.LineTypes, MAPLineType{Name: toks[0].Text, Diam: v[0], MassDen: v[1], EA: v[2], CB: v[3], Line: l.Num})
		case "nodes":
			if len(toks) < 7 {
				return nil, errAt(path, l.Num, "NODE PROPERTIES", "row has %d columns, expected 10 (Node Type X Y Z M B FX FY FZ)", len(toks))
			}
			id, ok := parseInt(toks[0].Text)
			if !ok {
				return nil, errAt(path, l.Num, "NODE PROPERTIES Node", "expected an integer, got %q", toks[0].Text)
			}
			n := MAPNode{ID: id, Type: strings.ToLower(toks[1].Text), Line: l.Num}
			switch n.Type {
			case "fix", "fixed", "vessel":
			case "connect":
				return nil, notRun(l.Num, "NODE PROPERTIES Type", "node %d: connect nodes (multi-segment MAP++ lines)", id)
			default:
				return nil, errAt(path, l.Num, "NODE PROPERTIES Type", "node %d: unknown type %q (fix, vessel or connect)", id, toks[1].Text)
			}
			for k, dst := range []*float64{&n.X, &n.Y, &n.Z, &n.M, &n.B} {
				txt := toks[2+k].Text
				if k == 2 && strings.EqualFold(txt, "depth") {
					n.ZDepth = true
					continue
				}
				x, ok := parseReal(strings.TrimPrefix(txt, "#"))
				if !ok {
					return nil, errAt(path, l.Num, "NODE PROPERTIES", "node %d: expected a number, got %q", id, txt)
				}
				*dst = x
			}
			if n.M != 0 || n.B != 0 {
				return nil, notRun(l.Num, "NODE PROPERTIES", "node %d: point mass or buoyancy on a %s node", id, n.Type)
			}
			m.Nodes = append(m.Nodes, n)
		case "lines":
			if len(toks) < 5 {
				return nil, errAt(path, l.Num, "LINE PROPERTIES", "row has %d columns, expected 6 (Line LineType UnstrLen NodeAnch NodeFair Flags)", len(toks))
			}
			id, ok1 := parseInt(toks[0].Text)
			ul, ok2 := parseReal(toks[2].Text)
			na, ok3 := parseInt(toks[3].Text)
			nf, ok4 := parseInt(toks[4].Text)
			if !ok1 || !ok2 || !ok3 || !ok4 || !(ul > 0) {
				return nil, errAt(path, l.Num, "LINE PROPERTIES", "expected Line (integer), UnstrLen (> 0), NodeAnch and NodeFair (integers)")
			}
			ln := MAPLine{ID: id, Type: toks[1].Text, UnstrLen: ul, NodeAnch: na, NodeFair: nf, Line: l.Num}
			for _, f := range toks[5:] {
				switch strings.ToLower(f.Text) {
				case "-", "plot":
				case "omit_contact":
					ln.OmitContact = true
				default:
					return nil, notRun(l.Num, "LINE PROPERTIES Flags", "line %d: flag %q (MAP++ output and model flags other than plot and omit_contact)", id, f.Text)
				}
			}
			m.Lines = append(m.Lines, ln)
		case "options":
			switch key := strings.ToLower(toks[0].Text); key {
			case "help", "inner_ftol", "inner_gtol", "inner_xtol", "inner_max_its", "outer_max_its", "outer_tol", "outer_epsilon",
				"outer_bd", "outer_cd", "outer_fd", "pg_cooked", "krylov_accelerator", "powell", "integration_dt", "kb_default", "cb_default":
				// Solver tolerances and lumped-mass defaults: this solver
				// solves each catenary to machine precision.
			case "repeat":
				for _, t := range toks[1:] {
					a, ok := parseReal(t.Text)
					if !ok {
						return nil, errAt(path, l.Num, "repeat", "expected angles in degrees, got %q", t.Text)
					}
					m.Repeat = append(m.Repeat, a)
				}
				m.RepeatLine = l.Num
			case "ref_position":
				for _, t := range toks[1:] {
					if x, ok := parseReal(t.Text); !ok || x != 0 {
						return nil, notRun(l.Num, "ref_position", "a reference position other than 0 0 0")
					}
				}
			default:
				return nil, notRun(l.Num, toks[0].Text, "MAP++ option (lumped-mass model, wave kinematics or unknown)")
			}
		}
	}
	if len(m.Lines) == 0 {
		return nil, errAt(path, 0, "LINE PROPERTIES", "no mooring lines defined")
	}
	for _, ln := range m.Lines {
		if m.LineType(ln.Type) == nil {
			return nil, errAt(path, ln.Line, "LINE PROPERTIES LineType", "line %d: line type %q is not in the LINE DICTIONARY", ln.ID, ln.Type)
		}
		a, f := m.Node(ln.NodeAnch), m.Node(ln.NodeFair)
		if a == nil || f == nil {
			return nil, errAt(path, ln.Line, "LINE PROPERTIES", "line %d: node %d or %d is not in NODE PROPERTIES", ln.ID, ln.NodeAnch, ln.NodeFair)
		}
		if a.Type == "vessel" || f.Type != "vessel" {
			return nil, notRun(ln.Line, "LINE PROPERTIES", "line %d: this solver runs lines from a fix node (NodeAnch) to a vessel node (NodeFair)", ln.ID)
		}
	}
	return m, nil
}

// LineType returns the dictionary entry named name, or nil.
func (m *MAPFile) LineType(name string) *MAPLineType {
	for i := range m.LineTypes {
		if strings.EqualFold(m.LineTypes[i].Name, name) {
			return &m.LineTypes[i]
		}
	}
	return nil
}

// Node returns the node with the given ID, or nil.
func (m *MAPFile) Node(id int) *MAPNode {
	for i := range m.Nodes {
		if m.Nodes[i].ID == id {
			return &m.Nodes[i]
		}
	}
	return nil
}
