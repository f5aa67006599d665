package deck

import (
	"fmt"
	"strconv"
	"strings"
)

// Discon is a ROSCO controller input file (DISCON.IN): lines of
// "value(s) ! Name - description". ROSCO finds each parameter by the word
// after the '!' anywhere in the file, so entries are kept by name, with
// their line, in file order. Units are ROSCO's (rad, rad/s, N m, W, ...).
type Discon struct {
	Meta    Meta
	Entries []DisconEntry
	index   map[string]int // normalised name → index in Entries
	tail    []string       // comment lines after the last entry
	// Stray lists lines that carry data but no "! Name" (ignored by ROSCO).
	Stray []int
}

// DisconEntry is one parameter line.
type DisconEntry struct {
	Name   string
	Values []Token // value words before the '!'
	Desc   string  // text after the name
	Line   int
	// Before holds the comment and section lines that precede the entry in
	// the file (kept so that a written file keeps ROSCO's layout).
	Before []string
}

// ReadDiscon reads a DISCON.IN file.
func ReadDiscon(path string) (*Discon, error) {
	src, err := readSource(path, false)
	if err != nil {
		return nil, err
	}
	return parseDiscon(src)
}

func parseDiscon(src *Source) (*Discon, error) {
	d := &Discon{index: map[string]int{}}
	d.Meta = Meta{Path: src.Path, Src: src, Lines: map[string]int{}}
	var before []string
	for i := range src.Lines {
		l := &src.Lines[i]
		cut := commentIndex(l.Raw)
		if cut < 0 {
			if len(l.toks) > 0 {
				// ROSCO looks parameters up by name and never reads such a
				// line; it is kept (as a comment when written) and reported
				// by Validate
				d.Stray = append(d.Stray, l.Num)
			}
			before = append(before, strings.TrimSpace(l.Raw))
			continue
		}
		vals := tokenize(l.Raw[:cut])
		if len(vals) == 0 {
			before = append(before, strings.TrimSpace(l.Raw)) // comment or section line
			continue
		}
		rest := strings.TrimLeft(l.Raw[cut+1:], " \t")
		name := rest
		if j := strings.IndexAny(rest, " \t"); j >= 0 {
			name = rest[:j]
		}
		if name == "" {
			return nil, errAt(l.File, l.Num, "", "parameter value without a name after '!'")
		}
		desc := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest[len(name):]), "-"))
		d.add(DisconEntry{Name: name, Values: vals, Desc: desc, Line: l.Num, Before: before})
		before = nil
	}
	d.tail = before
	return d, nil
}

func (d *Discon) add(e DisconEntry) {
	if d.index == nil {
		d.index = map[string]int{}
	}
	k := strings.ToLower(e.Name)
	if _, dup := d.index[k]; !dup {
		d.index[k] = len(d.Entries)
	}
	d.Entries = append(d.Entries, e)
	if d.Meta.Lines == nil {
		d.Meta.Lines = map[string]int{}
	}
	d.Meta.Lines[normName(e.Name)] = e.Line
}

// commentIndex returns the position of the first '!' outside quotes, or -1
// (ROSCO's DISCON.IN comments start with '!' only).
func commentIndex(s string) int { return indexOutsideQuotes(s, "!") }

// Entry returns the parameter (case-insensitive name; first occurrence).
func (d *Discon) Entry(name string) (DisconEntry, bool) {
	i, ok := d.index[strings.ToLower(name)]
	if !ok {
		return DisconEntry{}, false
	}
	return d.Entries[i], true
}

func (d *Discon) bad(e DisconEntry, want string) error {
	got := "nothing"
	if len(e.Values) > 0 {
		got = strconv.Quote(e.Values[0].Text)
	}
	return &Error{File: d.Meta.Path, Line: e.Line, Variable: e.Name, Msg: fmt.Sprintf("expected %s, got %s", want, got)}
}

// Float returns a real parameter. ok is false when the name is absent.
func (d *Discon) Float(name string) (v float64, ok bool, err error) {
	e, ok := d.Entry(name)
	if !ok {
		return 0, false, nil
	}
	if len(e.Values) == 0 {
		return 0, true, d.bad(e, "a real number")
	}
	x, good := parseReal(e.Values[0].Text)
	if !good {
		return 0, true, d.bad(e, "a real number")
	}
	return x, true, nil
}

// Int returns an integer parameter.
func (d *Discon) Int(name string) (v int, ok bool, err error) {
	e, ok := d.Entry(name)
	if !ok {
		return 0, false, nil
	}
	if len(e.Values) == 0 {
		return 0, true, d.bad(e, "an integer")
	}
	n, good := parseInt(e.Values[0].Text)
	if !good {
		return 0, true, d.bad(e, "an integer")
	}
	return n, true, nil
}

// Floats returns an array parameter (all values on the line).
func (d *Discon) Floats(name string) (v []float64, ok bool, err error) {
	e, ok := d.Entry(name)
	if !ok {
		return nil, false, nil
	}
	out := make([]float64, len(e.Values))
	for i, t := range e.Values {
		x, good := parseReal(t.Text)
		if !good {
			return nil, true, &Error{File: d.Meta.Path, Line: e.Line, Variable: e.Name, Msg: fmt.Sprintf("value %d: expected a real number, got %q", i+1, t.Text)}
		}
		out[i] = x
	}
	return out, true, nil
}

// String returns a string parameter (quotes removed).
func (d *Discon) String(name string) (v string, ok bool) {
	e, ok := d.Entry(name)
	if !ok || len(e.Values) == 0 {
		return "", ok
	}
	return e.Values[0].Text, true
}

// Set replaces (or appends) a parameter's values; strings are quoted when
// written if quoted is true.
func (d *Discon) Set(name string, quoted bool, values ...string) {
	toks := make([]Token, len(values))
	for i, v := range values {
		toks[i] = Token{Text: v, Quoted: quoted}
	}
	if i, ok := d.index[strings.ToLower(name)]; ok {
		d.Entries[i].Values = toks
		return
	}
	d.add(DisconEntry{Name: name, Values: toks})
}

func (d *Discon) encode() string {
	var b strings.Builder
	if len(d.Entries) == 0 || len(d.Entries[0].Before) == 0 {
		b.WriteString("! Controller parameter input file (ROSCO DISCON.IN format, written by turbinesim)\n")
	}
	for _, e := range d.Entries {
		for _, c := range e.Before {
			b.WriteString(commentOnly(c))
			b.WriteByte('\n')
		}
		parts := make([]string, len(e.Values))
		for i, t := range e.Values {
			if t.Quoted {
				parts[i] = quote(t.Text)
			} else {
				parts[i] = t.Text
			}
		}
		fmt.Fprintf(&b, "%-20s ! %-18s - %s\n", strings.Join(parts, " "), e.Name, e.Desc)
	}
	for _, c := range d.tail {
		b.WriteString(commentOnly(c))
		b.WriteByte('\n')
	}
	return b.String()
}

// commentOnly makes sure a kept line cannot be read as data.
func commentOnly(s string) string {
	if s == "" || strings.HasPrefix(s, "!") {
		return s
	}
	return "! " + s
}
