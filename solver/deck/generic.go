package deck

import (
	"fmt"
	"strings"
)

// Generic is an input file read without a module-specific schema (HydroDyn,
// SeaState, SubDyn, MoorDyn, MAP++): every line is kept, and values can be
// looked up by the variable name on their line. Written back verbatim.
type Generic struct {
	Meta Meta
	Kind string // "HydroDyn", "SeaState", "SubDyn", "MoorDyn", "MAP++", ...
}

// ReadGeneric reads any OpenFAST-style text input file.
func ReadGeneric(path, kind string) (*Generic, error) {
	src, err := readSource(path, false)
	if err != nil {
		return nil, err
	}
	return parseGeneric(src, kind), nil
}

func parseGeneric(src *Source, kind string) *Generic {
	g := &Generic{Kind: kind}
	g.Meta = Meta{Path: src.Path, Src: src, Lines: map[string]int{}}
	return g
}

// Lookup returns the value words of the first line labelled name
// (value-then-name or name-then-value) and its line number.
func (g *Generic) Lookup(name string) ([]Token, int, bool) {
	r := newReader(g.Meta.Src, &Meta{})
	i, v, _, ok := r.find(normName(name))
	if !ok {
		return nil, 0, false
	}
	return v, g.Meta.Src.Lines[i].Num, true
}

// Float returns a real value by name.
func (g *Generic) Float(name string) (float64, bool, error) {
	v, line, ok := g.Lookup(name)
	if !ok {
		return 0, false, nil
	}
	if len(v) == 0 {
		return 0, true, errAt(g.Meta.Path, line, name, "expected a real number, got nothing")
	}
	if isDefault(v[0].Text) {
		return 0, true, errAt(g.Meta.Path, line, name, "value is \"default\"")
	}
	x, good := parseReal(v[0].Text)
	if !good {
		return 0, true, errAt(g.Meta.Path, line, name, "expected a real number, got %q", v[0].Text)
	}
	return x, true, nil
}

// Int returns an integer value by name.
func (g *Generic) Int(name string) (int, bool, error) {
	v, line, ok := g.Lookup(name)
	if !ok {
		return 0, false, nil
	}
	if len(v) == 0 {
		return 0, true, errAt(g.Meta.Path, line, name, "expected an integer, got nothing")
	}
	n, good := parseInt(v[0].Text)
	if !good {
		return 0, true, errAt(g.Meta.Path, line, name, "expected an integer, got %q", v[0].Text)
	}
	return n, true, nil
}

// String returns a string value by name.
func (g *Generic) String(name string) (string, bool) {
	v, _, ok := g.Lookup(name)
	if !ok || len(v) == 0 {
		return "", ok
	}
	return v[0].Text, true
}

// Table returns the n data rows (as words) that follow the header line
// whose first words are those of firstCol (e.g. "JointID" or "ID LineType"), skipping a units line "(m) (-) ..."; n < 0
// reads until the next section line (MoorDyn tables have no row count).
func (g *Generic) Table(firstCol string, n int) (header []string, rows [][]string, err error) {
	lines := g.Meta.Src.Lines
	want := strings.Fields(normName(firstCol))
	if len(want) == 0 {
		return nil, nil, errAt(g.Meta.Path, 0, "", "empty table header")
	}
	for i := range lines {
		t := lines[i].toks
		if len(t) < len(want) {
			continue
		}
		same := true
		for k, w := range want {
			same = same && normName(t[k].Text) == w
		}
		if !same {
			continue
		}
		for _, w := range t {
			header = append(header, w.Text)
		}
		j := i + 1
		for j < len(lines) && len(lines[j].toks) == 0 {
			j++
		}
		if j < len(lines) && strings.HasPrefix(lines[j].toks[0].Text, "(") {
			j++
		}
		for ; j < len(lines) && (n < 0 || len(rows) < n); j++ {
			t := lines[j].toks
			if len(t) == 0 {
				continue
			}
			if n < 0 && (isSeparator(t[0]) || isEnd(lines[j].Raw)) {
				break
			}
			row := make([]string, len(t))
			for k, w := range t {
				row[k] = w.Text
			}
			rows = append(rows, row)
		}
		if n >= 0 && len(rows) < n {
			return header, rows, errAt(g.Meta.Path, lines[i].Num, firstCol, "table truncated: expected %d rows, found %d", n, len(rows))
		}
		return header, rows, nil
	}
	return nil, nil, errAt(g.Meta.Path, 0, firstCol, "table header not found")
}

// raw returns the file content as read (lines joined with "\n"); include
// directives are not used by these modules.
func (g *Generic) raw() string {
	var b strings.Builder
	for _, l := range g.Meta.Src.Lines {
		b.WriteString(l.Raw)
		b.WriteByte('\n')
	}
	return b.String()
}

func fileExists(p string) bool {
	return (*Tree)(nil).isRegular(p)
}

// WithValues returns a copy of the file with the value of each named
// variable replaced ({name, value} pairs; the value written as given), the
// line rewritten as "value name" and every other line kept. A variable the
// file does not have is an error naming the file.
func (g *Generic) WithValues(values [][2]string) (*Generic, error) {
	lines := make([]string, len(g.Meta.Src.Lines))
	for i, l := range g.Meta.Src.Lines {
		lines[i] = l.Raw
	}
	for _, kv := range values {
		_, num, ok := g.Lookup(kv[0])
		if !ok {
			return nil, errAt(g.Meta.Path, 0, kv[0], "not in the file")
		}
		i := g.Meta.Src.indexOf(num)
		if i < 0 {
			return nil, errAt(g.Meta.Path, num, kv[0], "line not found")
		}
		lines[i] = fmt.Sprintf("%-22s %s", kv[1], kv[0])
	}
	src, err := sourceFromBytes(g.Meta.Path, []byte(strings.Join(lines, "\n")+"\n"), false)
	if err != nil {
		return nil, err
	}
	return parseGeneric(src, g.Kind), nil
}
