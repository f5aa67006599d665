package deck

import (
	"errors"
	"fmt"
	"strings"

	"github.com/turbinesim/turbinesim/solver/internal/fortran"
)

func asError(err error, target **Error) bool { return errors.As(err, target) }

// Meta records where each variable of a typed structure was found. It is
// not part of the data: two structures read from differently laid-out files
// compare equal once their Meta is ignored.
type Meta struct {
	Path   string            // absolute path of the file
	Src    *Source           // every line of the file, as read
	Lines  map[string]int    // variable name → 1-based line number
	Absent []string          // variables not present in the file (default applied)
	Legacy map[string]string // legacy variables found and converted, with their values
}

// LineOf returns the line number where variable name was read, or 0.
func (m *Meta) LineOf(name string) int {
	if m == nil || m.Lines == nil {
		return 0
	}
	return m.Lines[normName(name)]
}

// Has reports whether the variable was present in the file.
func (m *Meta) Has(name string) bool { return m.LineOf(name) > 0 }

// reader walks a Source looking variables up by name. The search starts at
// the cursor and wraps around inside [lo,hi), so lines added, removed or
// moved between OpenFAST versions are tolerated while repeated names
// (several airfoil tables, two OutLists) are taken in file order.
type reader struct {
	src         *Source
	lo, hi, cur int
	meta        *Meta
}

func newReader(src *Source, meta *Meta) *reader {
	meta.Path = src.Path
	meta.Src = src
	if meta.Lines == nil {
		meta.Lines = map[string]int{}
	}
	return &reader{src: src, lo: 0, hi: len(src.Lines), cur: 0, meta: meta}
}

// skipHeader excludes the first two lines of the file (header and free-text
// title, which OpenFAST never parses) from the search.
func (r *reader) skipHeader() *reader {
	n := 0
	for n < len(r.src.Lines) && r.src.Lines[n].Num <= 2 && r.src.Lines[n].File == r.src.Path {
		n++
	}
	r.lo, r.cur = n, n
	return r
}

// sub returns a reader limited to lines [lo,hi) sharing the same Meta.
func (r *reader) sub(lo, hi int) *reader {
	return &reader{src: r.src, lo: lo, hi: hi, cur: lo, meta: r.meta}
}

func (r *reader) path() string { return r.src.Path }

// lineNum returns the 1-based line number of line index i (for errors).
func (r *reader) lineNum(i int) int {
	if i < 0 || i >= len(r.src.Lines) {
		if n := len(r.src.Lines); n > 0 {
			return r.src.Lines[n-1].Num
		}
		return 0
	}
	return r.src.Lines[i].Num
}

func (r *reader) errLine(i int, variable, format string, args ...any) *Error {
	file := r.src.Path
	if i >= 0 && i < len(r.src.Lines) {
		file = r.src.Lines[i].File
	}
	return &Error{File: file, Line: r.lineNum(i), Variable: variable, Msg: fmt.Sprintf(format, args...)}
}

// match tests one line against a normalised name and returns the value words.
func match(l *Line, name string) ([]Token, bool) {
	for _, k := range l.keys {
		if k.pos < 0 || k.name != name {
			continue
		}
		if k.pos == 0 {
			vals := l.toks[1:]
			if len(vals) > 0 && vals[0].Text == "-" && !vals[0].Quoted {
				vals = nil // "OutList  - description": a name with no value
			}
			return vals, true
		}
		return l.toks[:k.pos], true
	}
	return nil, false
}

// find looks up the first of names (already normalised) from the cursor,
// wrapping inside the scope. On success the cursor moves past the line.
func (r *reader) find(names ...string) (int, []Token, string, bool) {
	for pass := 0; pass < 2; pass++ {
		from, to := r.cur, r.hi
		if pass == 1 {
			from, to = r.lo, r.cur
		}
		for i := from; i < to; i++ {
			l := &r.src.Lines[i]
			if len(l.toks) == 0 {
				continue
			}
			for _, n := range names {
				if v, ok := match(l, n); ok {
					r.cur = i + 1
					r.meta.Lines[names[0]] = l.Num
					return i, v, n, true
				}
			}
		}
	}
	return -1, nil, "", false
}

// runTogether finds, in the reader's scope, a line whose first word is a
// value with one of names (normalised) run onto it ("17WaveNDir"): the
// line of a variable find cannot see. It returns the line's index and the
// word, or −1.
func (r *reader) runTogether(names []string) (int, string) {
	for i := r.lo; i < r.hi; i++ {
		l := &r.src.Lines[i]
		if len(l.toks) == 0 || l.toks[0].Quoted {
			continue
		}
		word := l.toks[0].Text
		w := normName(word)
		for _, n := range names {
			if len(w) <= len(n) || !strings.HasSuffix(w, n) {
				continue
			}
			prefix := word[:len(word)-len(n)]
			if _, isReal := parseReal(prefix); isReal {
				return i, word
			}
			if _, isLogical := fortran.Logical(prefix); isLogical {
				return i, word
			}
		}
	}
	return -1, ""
}

// has reports whether a variable is present, without moving the cursor.
func (r *reader) has(name string) bool {
	cur := r.cur
	_, _, _, ok := r.find(normName(name))
	r.cur = cur
	return ok
}

func (r *reader) absent(name string) {
	r.meta.Absent = append(r.meta.Absent, name)
}

// real reads a required real scalar.
func (r *reader) real(name string) (float64, error) {
	i, v, _, ok := r.find(normName(name))
	if !ok {
		return 0, r.errLine(r.cur, name, "line not found (expected a real number labelled %s)", name)
	}
	return r.parseRealTok(i, name, v)
}

func (r *reader) parseRealTok(i int, name string, v []Token) (float64, error) {
	if len(v) == 0 {
		return 0, r.errLine(i, name, "expected a real number, got nothing")
	}
	x, ok := parseReal(v[0].Text)
	if !ok {
		return 0, r.errLine(i, name, "expected a real number, got %q", v[0].Text)
	}
	return x, nil
}

// integer reads a required integer scalar.
func (r *reader) integer(name string) (int, error) {
	i, v, _, ok := r.find(normName(name))
	if !ok {
		return 0, r.errLine(r.cur, name, "line not found (expected an integer labelled %s)", name)
	}
	if len(v) == 0 {
		return 0, r.errLine(i, name, "expected an integer, got nothing")
	}
	n, ok := parseInt(v[0].Text)
	if !ok {
		return 0, r.errLine(i, name, "expected an integer, got %q", v[0].Text)
	}
	return n, nil
}

// isEnd reports whether a line ends an OutList (first three characters END).
func isEnd(raw string) bool {
	t := strings.TrimLeft(raw, " \t")
	return len(t) >= 3 && strings.EqualFold(t[:3], "END")
}

// outList reads an OutList block: the line labelled name, then channel lines
// until END. Quoted entries may hold several channels ("A, B"); an unquoted
// line contributes its first word only, as OpenFAST reads it.
func (r *reader) outList(name string) ([]string, bool, error) {
	i, _, _, ok := r.find(normName(name))
	if !ok {
		return nil, false, nil
	}
	var chans []string
	for j := i + 1; j < r.hi; j++ {
		l := &r.src.Lines[j]
		if isEnd(l.Raw) {
			r.cur = j + 1
			return chans, true, nil
		}
		if len(l.toks) == 0 {
			continue
		}
		t := l.toks[0]
		if t.Quoted {
			for _, w := range tokenize(t.Text) {
				chans = append(chans, w.Text)
			}
		} else {
			chans = append(chans, t.Text)
		}
	}
	return nil, true, r.errLine(r.hi-1, name, "OutList not terminated by a line starting with END")
}

// dataLines returns the indices of the next n lines carrying data, starting
// after line index after. Blank and comment-only lines are skipped.
func (r *reader) dataLines(after, n int, variable string) ([]int, error) {
	if n < 0 {
		return nil, r.errLine(after, variable, "row count must be >= 0, got %d", n)
	}
	// the count comes from the file: never allocate more than the lines left
	out := make([]int, 0, min(n, max(r.hi-after, 0)))
	for j := after + 1; j < r.hi && len(out) < n; j++ {
		if len(r.src.Lines[j].toks) > 0 {
			out = append(out, j)
		}
	}
	if len(out) < n {
		return nil, r.errLine(r.hi-1, variable, "table truncated: expected %d rows, found %d before end of file", n, len(out))
	}
	return out, nil
}

// rowFloats parses the first ncol words of line j as reals.
func (r *reader) rowFloats(j, ncol int, variable string, cols []string) ([]float64, error) {
	l := &r.src.Lines[j]
	if len(l.toks) < ncol {
		return nil, r.errLine(j, variable, "table row has %d columns, expected %d", len(l.toks), ncol)
	}
	row := make([]float64, ncol)
	for c := 0; c < ncol; c++ {
		x, ok := parseReal(l.toks[c].Text)
		if !ok {
			col := fmt.Sprintf("column %d", c+1)
			if c < len(cols) {
				col = cols[c]
			}
			if col == variable {
				return nil, r.errLine(j, variable, "expected a real number, got %q", l.toks[c].Text)
			}
			return nil, r.errLine(j, variable, "%s: expected a real number, got %q", col, l.toks[c].Text)
		}
		row[c] = x
	}
	return row, nil
}

// headerTable locates a table by a column name in its header line (searching
// from the cursor), skips a units line "(m) (-) ...", and reads n rows. It
// returns the header names and the rows (all header columns).
func (r *reader) headerTable(firstCol string, n int, variable string) ([]string, [][]float64, error) {
	cols, idx, err := r.tableRows(firstCol, n, variable)
	if err != nil {
		return nil, nil, err
	}
	rows := make([][]float64, n)
	for k, j := range idx {
		ncol := len(cols)
		if got := len(r.src.Lines[j].toks); got < ncol {
			ncol = got
		}
		row, err := r.rowFloats(j, ncol, variable, cols)
		if err != nil {
			return nil, nil, err
		}
		rows[k] = row
	}
	return cols, rows, nil
}

// tableRows finds the header line whose first word is firstCol (searching
// from the cursor, wrapping inside the scope), skips a units line, and
// returns the header words and the line indices of the n rows that follow.
// Each row must start with a number (a separator or text line ends the
// table early, which is an error). The cursor moves past the table.
func (r *reader) tableRows(firstCol string, n int, variable string) ([]string, []int, error) {
	want := normName(firstCol)
	hdr := -1
	for pass := 0; pass < 2 && hdr < 0; pass++ {
		from, to := r.cur, r.hi
		if pass == 1 {
			from, to = r.lo, r.cur
		}
		for i := from; i < to; i++ {
			t := r.src.Lines[i].toks
			if len(t) > 0 && !isNumber(t[0].Text) && normName(t[0].Text) == want {
				hdr = i
				break
			}
		}
	}
	if hdr < 0 {
		return nil, nil, r.errLine(r.cur, variable, "table header with column %s not found", firstCol)
	}
	var cols []string
	for _, t := range r.src.Lines[hdr].toks {
		cols = append(cols, t.Text)
	}
	start := hdr
	// units line: next data line whose first word is not a number
	for j := hdr + 1; j < r.hi; j++ {
		t := r.src.Lines[j].toks
		if len(t) == 0 {
			continue
		}
		if !isNumber(t[0].Text) {
			start = j
		}
		break
	}
	idx, err := r.dataLines(start, n, variable)
	if err != nil {
		return nil, nil, err
	}
	for k, j := range idx {
		if t := r.src.Lines[j].toks; isSeparator(t[0]) || !isNumber(t[0].Text) {
			return nil, nil, r.errLine(j, variable, "table truncated: expected %d rows, found %d before a line that is not a table row (%q)", n, k, strings.TrimSpace(r.src.Lines[j].Raw))
		}
	}
	if len(idx) > 0 {
		r.cur = idx[len(idx)-1] + 1
	} else {
		r.cur = start + 1
	}
	r.meta.Lines[normName(variable)] = r.lineNum(hdr)
	for _, c := range cols {
		if k := normName(c); r.meta.Lines[k] == 0 {
			r.meta.Lines[k] = r.lineNum(hdr)
		}
	}
	return cols, idx, nil
}

// colIndex returns the index of a column name in a header, or -1.
func colIndex(cols []string, name string) int {
	for i, c := range cols {
		if strings.EqualFold(c, name) {
			return i
		}
	}
	return -1
}

// positionalColumns reads a table whose first len(dst) columns are read by
// position (ElastoDyn's tower table, BeamDyn's key points), as OpenFAST
// does, into dst; header names the columns in an error. A short header
// or row is an error on the table's lines.
func (r *reader) positionalColumns(variable, header string, rows [][]float64, nCols int, dst ...*[]float64) error {
	if nCols < len(dst) {
		return r.errLine(r.cur-1, variable, "table needs %d columns (%s), header has %d", len(dst), header, nCols)
	}
	for k := range dst {
		out := make([]float64, len(rows))
		for i, row := range rows {
			if k >= len(row) {
				return r.errLine(r.cur-1, variable, "row %d has %d columns, expected %d", i+1, len(row), len(dst))
			}
			out[i] = row[k]
		}
		*dst[k] = out
	}
	return nil
}
