package deck

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
)

// MaxFileSize bounds what the reader accepts for a single input file; real
// OpenFAST input files (airfoil polars included) are far below it.
const MaxFileSize = 16 << 20

// maxIncludeBytes bounds the total size of the files one file pulls in
// through "@" includes (airfoil coordinate files are a few kB each).
const maxIncludeBytes = 8 << 20

// maxIncludeDepth bounds nested "@file" includes (guards include cycles).
const maxIncludeDepth = 8

// Token is one word of a line, after comment stripping.
type Token struct {
	Text   string // text without surrounding quotes
	Quoted bool   // the word was written in quotes
}

// Line is one physical line of an input file. Lines pulled in by an
// "@file" include keep the file and line number they came from.
type Line struct {
	File string // file the line was read from
	Num  int    // 1-based line number in File
	Raw  string // the line as written, without the line terminator

	toks []Token // words of the comment-stripped content
	keys [3]key  // candidate labels (see labelCandidates)
}

// key is a candidate label of a line: the normalised name and the token
// index it sits at.
type key struct {
	name string
	pos  int
}

// Tokens returns the words of the line with comments removed.
func (l *Line) Tokens() []Token { return l.toks }

// IsBlank reports whether the line carries no data (empty or only a comment).
func (l *Line) IsBlank() bool { return len(l.toks) == 0 }

// Source is a file read into lines, includes expanded. It is kept beside each
// typed structure so that nothing in the original file is lost.
type Source struct {
	Path  string // absolute path of the file
	Lines []Line

	tree  *Tree    // confines includes to the deck's tree (nil: anywhere)
	read  int      // bytes read through includes (bounded by maxIncludeBytes)
	stack []string // files being read (include cycle detection)
}

// readSource reads a file and splits it into lines. includes=true expands
// lines starting with '@' (the AirfoilInfo include directive), relative to
// the including file.
func readSource(path string, includes bool) (*Source, error) {
	return readSourceIn(nil, path, includes)
}

// readSourceIn is readSource confined to tree t (nil: anywhere).
func readSourceIn(t *Tree, path string, includes bool) (*Source, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	src := &Source{Path: abs, tree: t}
	if err := appendFile(src, abs, includes, 0); err != nil {
		return nil, err
	}
	src.tree = nil // the tree may be closed once loading ends
	return src, nil
}

// sourceFromBytes builds a Source from text already in memory (uploads,
// tests). Includes are resolved relative to name when includes is true.
func sourceFromBytes(name string, b []byte, includes bool) (*Source, error) {
	if len(b) > MaxFileSize {
		return nil, errAt(name, 0, "", "input is %d bytes, larger than the %d-byte limit", len(b), MaxFileSize)
	}
	if err := checkText(name, b); err != nil {
		return nil, err
	}
	src := &Source{Path: name}
	if err := appendText(src, name, b, includes, 0); err != nil {
		return nil, err
	}
	return src, nil
}

// checkText rejects binary content: NUL bytes or many control characters.
// Latin-1 text (not valid UTF-8) is accepted, as OpenFAST accepts it.
func checkText(path string, b []byte) error {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return errAt(path, 1+bytes.Count(b[:i], []byte{'\n'}), "", "binary data (NUL byte), expected a text input file")
	}
	ctl := 0
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != 0x1a {
			ctl++
		}
	}
	if ctl > 16 && ctl*100 > len(b) {
		return errAt(path, 0, "", "binary data (%d control characters), expected a text input file", ctl)
	}
	return nil
}

func appendFile(src *Source, path string, includes bool, depth int) error {
	for _, p := range src.stack {
		if filepath.Clean(p) == filepath.Clean(path) {
			return errAt(path, 0, "@include", "include cycle: %s includes itself", filepath.Base(path))
		}
	}
	b, err := src.tree.ReadFile(path)
	if err != nil {
		return err
	}
	if len(src.stack) > 0 {
		src.read += len(b)
		if src.read > maxIncludeBytes {
			return errAt(path, 0, "@include", "included files exceed %d bytes in total", maxIncludeBytes)
		}
	}
	if err := checkText(path, b); err != nil {
		return err
	}
	return appendText(src, path, b, includes, depth)
}

func appendText(src *Source, path string, b []byte, includes bool, depth int) error {
	src.stack = append(src.stack, path)
	defer func() { src.stack = src.stack[:len(src.stack)-1] }()
	num := 0
	for len(b) > 0 {
		var raw []byte
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			raw, b = b[:i], b[i+1:]
		} else {
			raw, b = b, nil
		}
		num++
		raw = bytes.TrimRight(raw, "\r")
		text := string(raw)
		if includes {
			if t := strings.TrimLeft(text, " \t"); strings.HasPrefix(t, "@") {
				if depth >= maxIncludeDepth {
					return errAt(path, num, "", "includes nested deeper than %d levels (include cycle?)", maxIncludeDepth)
				}
				name := includeName(t[1:])
				if name == "" {
					return errAt(path, num, "", "'@' include without a file name")
				}
				inc := name
				if !filepath.IsAbs(inc) {
					inc = filepath.Join(filepath.Dir(path), inc)
				}
				if err := appendFile(src, inc, includes, depth+1); err != nil {
					var e *Error
					if ok := asError(err, &e); ok && e.Line == 0 && e.File == inc {
						return &Error{File: path, Line: num, Variable: "@include", Msg: fmt.Sprintf("included file %q: %s", name, e.Msg), Err: e.Err}
					}
					return err
				}
				continue
			}
		}
		l := Line{File: path, Num: num, Raw: text}
		l.toks = tokenize(stripComment(text))
		l.keys = labelCandidates(l.toks)
		src.Lines = append(src.Lines, l)
	}
	return nil
}

// includeName extracts the file name of an "@" include directive (quoted or
// the first bare word).
func includeName(s string) string {
	t := tokenize(s)
	if len(t) == 0 {
		return ""
	}
	return t[0].Text
}

// stripComment removes everything from the first '!', '#' or '%' that is not
// inside quotes (OpenFAST's CommChars; unlike OpenFAST the strip here is
// quote-aware so that such characters inside file names survive).
func stripComment(s string) string {
	if i := indexOutsideQuotes(s, "!#%"); i >= 0 {
		return s[:i]
	}
	return s
}

// indexOutsideQuotes returns the position of the first byte of chars that
// is not inside single or double quotes, or -1.
func indexOutsideQuotes(s, chars string) int {
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case strings.IndexByte(chars, c) >= 0:
			return i
		}
	}
	return -1
}

// tokenize splits a line into words separated by blanks, tabs, commas and
// semicolons (NWTC GetWords); quoted text is one word.
func tokenize(s string) []Token {
	var out []Token
	if len(s) > 0 {
		out = make([]Token, 0, 8) // typical lines: a value, a name and a few description words
	}
	i := 0
	for i < len(s) {
		c := s[i]
		if c == ' ' || c == '\t' || c == ',' || c == ';' || c == '\f' || c == '\v' {
			i++
			continue
		}
		if c == '"' || c == '\'' {
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				out = append(out, Token{Text: s[i+1:], Quoted: true})
				return out
			}
			out = append(out, Token{Text: s[i+1 : i+1+j], Quoted: true})
			i += j + 2
			continue
		}
		j := i
		for j < len(s) {
			d := s[j]
			if d == ' ' || d == '\t' || d == ',' || d == ';' || d == '"' || d == '\'' || d == '\f' || d == '\v' {
				break
			}
			j++
		}
		out = append(out, Token{Text: s[i:j]})
		i = j
	}
	return out
}

// normName lower-cases a variable name and drops parentheses so that
// "BldFile(1)" and "BldFile1" are the same label.
func normName(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		c := s[i]
		clean = c != '(' && c != ')' && !(c >= 'A' && c <= 'Z')
	}
	if clean {
		return s // already normal: no allocation
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '(' || c == ')':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

// labelCandidates finds the words that may be the variable name of a line:
// the second word (value-then-name), the first bare word after a run of
// numbers (array-then-name, "30, 60  LinTimes"), and the first word
// (name-then-value, or a name alone such as "OutList").
func labelCandidates(t []Token) [3]key {
	var k [3]key
	for i := range k {
		k[i].pos = -1
	}
	if len(t) == 0 || isSeparator(t[0]) {
		return k
	}
	if len(t) > 1 && !t[1].Quoted {
		k[0] = key{normName(labelText(t[1].Text)), 1}
	}
	if len(t) > 2 && isNumber(t[0].Text) && isNumber(t[1].Text) {
		for i := 2; i < len(t); i++ {
			if t[i].Quoted {
				break
			}
			if !isNumber(t[i].Text) {
				k[1] = key{normName(labelText(t[i].Text)), i}
				break
			}
		}
	}
	if !t[0].Quoted && !isNumber(t[0].Text) {
		k[2] = key{normName(labelText(t[0].Text)), 0}
	}
	return k
}

// labelText drops dashes glued to the end of a label, as in
// "tngt_stf_difftol- Maximum ..." (published IEA 15 MW BeamDyn file):
// OpenFAST accepts a label that starts with the expected name (NWTC
// ChkParseData), so such a line carries that variable.
func labelText(s string) string {
	if t := strings.TrimRight(s, "-"); t != "" {
		return t
	}
	return s
}

// isNumber reports whether s has the syntax of a Fortran real number (a
// value out of float64 range still counts: parseReal then rejects it).
func isNumber(s string) bool {
	ok, _ := realSyntax(s)
	return ok
}

// realSyntax checks s against the syntax of a real number,
// [+-] digits [. digits] [(e|E|d|D) [+-] digits], with at least one digit
// in the mantissa, and reports whether it has a 'd'/'D' exponent.
func realSyntax(s string) (ok, dExp bool) {
	i, n := 0, len(s)
	if i < n && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < n && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < n && s[i] == '.' {
		i++
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false, false
	}
	if i < n {
		switch s[i] {
		case 'e', 'E':
		case 'd', 'D':
			dExp = true
		default:
			return false, false
		}
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		ed := 0
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
			ed++
		}
		if ed == 0 || i != n {
			return false, false
		}
	}
	return true, dExp
}

// parseReal parses a number as Fortran list-directed input does: accepts a
// 'D' or 'd' exponent and a trailing or leading '.', rejects words starting
// with T/F (logicals), overflow, Inf and NaN.
func parseReal(s string) (float64, bool) {
	ok, dExp := realSyntax(s)
	if !ok {
		return 0, false
	}
	if dExp {
		s = strings.Map(func(r rune) rune {
			if r == 'd' || r == 'D' {
				return 'e'
			}
			return r
		}, s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// parseInt parses an integer; an integral real ("3.0") is accepted.
func parseInt(s string) (int, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	v, ok := parseReal(s)
	if !ok || v != float64(int64(v)) || v > 1<<53 || v < -(1<<53) {
		return 0, false
	}
	return int(v), true
}

// isDefault reports whether a value word selects the default ("DEFAULT" at
// the start, case-insensitive, as ParseVarWDefault).
func isDefault(s string) bool {
	return len(s) >= 7 && strings.EqualFold(s[:7], "default")
}

// isSeparator reports whether a first word starts a section line
// ("------ TITLE ----" or "====== Title ====").
func isSeparator(t Token) bool {
	if t.Quoted || len(t.Text) < 2 {
		return false
	}
	return strings.HasPrefix(t.Text, "--") || strings.HasPrefix(t.Text, "==")
}
