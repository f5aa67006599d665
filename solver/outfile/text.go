package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// TextOptions chooses how a text .out file is written.
type TextOptions struct {
	// ValueFormat is OpenFAST's OutFmt for channel values, a Fortran edit
	// descriptor such as "ES10.3E2" (the default), "ES15.6E3", "E12.4" or
	// "F10.3". Values are converted to single precision first, as OpenFAST
	// does (FAST_Subs.f90 WrOutputLine: REAL(OutputAry, SiKi)).
	ValueFormat string
	// TMax sets the width of the time column, F<w>.4 with
	// w = max(10, int(log10(TMax))+7) (FAST_Subs.f90 TChanLen). Zero uses the
	// largest time in the file (streaming: width 10).
	TMax float64
	// SpaceDelimited pads names and values with blanks instead of TABs
	// (OpenFAST's TabDelim = False).
	SpaceDelimited bool
}

// ValueFormatter turns a Fortran edit descriptor into a function printing a
// float32 the way gfortran would (right-justified in the field width).
// Supported: ESw.d[Ee], Ew.d[Ee], Fw.d.
func ValueFormatter(desc string) (func(float32) string, error) {
	d := strings.ToUpper(strings.TrimSpace(desc))
	if d == "" {
		d = "ES10.3E2"
	}
	kind := ""
	switch {
	case strings.HasPrefix(d, "ES"):
		kind, d = "ES", d[2:]
	case strings.HasPrefix(d, "E"):
		kind, d = "E", d[1:]
	case strings.HasPrefix(d, "F"):
		kind, d = "F", d[1:]
	default:
		return nil, fmt.Errorf("output format %q: only ES, E and F edit descriptors are supported", desc)
	}
	expDigits := 2
	if i := strings.IndexByte(d, 'E'); i >= 0 {
		e, err := strconv.Atoi(d[i+1:])
		if err != nil || e < 1 || e > 4 {
			return nil, fmt.Errorf("output format %q: bad exponent width", desc)
		}
		expDigits, d = e, d[:i]
	}
	wd := strings.SplitN(d, ".", 2)
	if len(wd) != 2 {
		return nil, fmt.Errorf("output format %q: expected w.d", desc)
	}
	w, err1 := strconv.Atoi(wd[0])
	p, err2 := strconv.Atoi(wd[1])
	if err1 != nil || err2 != nil || w < 1 || p < 0 || w > 64 || p >= w {
		return nil, fmt.Errorf("output format %q: bad width or precision", desc)
	}
	field := func(s string) string {
		if len(s) > w {
			return strings.Repeat("*", w) // Fortran's overflow marker
		}
		return strings.Repeat(" ", w-len(s)) + s
	}
	special := func(x float32) (string, bool) {
		switch {
		case math.IsNaN(float64(x)):
			return field("NaN"), true
		case math.IsInf(float64(x), 1):
			return field("Infinity"), true
		case math.IsInf(float64(x), -1):
			return field("-Infinity"), true
		}
		return "", false
	}
	expo := func(mant string, e int) string {
		sign := '+'
		if e < 0 {
			sign, e = '-', -e
		}
		es := strconv.Itoa(e)
		if len(es) > expDigits {
			return strings.Repeat("*", w+1) // forces the overflow marker
		}
		return mant + "E" + string(sign) + strings.Repeat("0", expDigits-len(es)) + es
	}
	switch kind {
	case "F":
		return func(x float32) string {
			if s, ok := special(x); ok {
				return s
			}
			return field(strconv.FormatFloat(float64(x), 'f', p, 32))
		}, nil
	case "ES":
		return func(x float32) string {
			if s, ok := special(x); ok {
				return s
			}
			// Go's 'E' gives d.dddE±xx with the scientific normalisation ES uses.
			s := strconv.FormatFloat(float64(x), 'E', p, 32)
			i := strings.IndexByte(s, 'E')
			e, _ := strconv.Atoi(s[i+1:])
			return field(expo(s[:i], e))
		}, nil
	default: // E: 0.ddd mantissa
		return func(x float32) string {
			if s, ok := special(x); ok {
				return s
			}
			if x == 0 {
				z := "0." + strings.Repeat("0", p)
				if math.Signbit(float64(x)) {
					z = "-" + z
				}
				return field(expo(z, 0))
			}
			s := strconv.FormatFloat(float64(x), 'E', p-1, 32)
			i := strings.IndexByte(s, 'E')
			e, _ := strconv.Atoi(s[i+1:])
			m := s[:i]
			neg := strings.HasPrefix(m, "-")
			m = strings.TrimPrefix(m, "-")
			m = "0." + strings.Replace(m, ".", "", 1)
			if neg {
				m = "-" + m
			}
			return field(expo(m, e+1))
		}, nil
	}
}

// timeWidth is TChanLen of FAST_Subs.f90: max(10, int(log10(TMax))+7).
func timeWidth(tmax float64) int {
	if tmax <= 0 || math.IsNaN(tmax) || math.IsInf(tmax, 0) {
		return 10
	}
	return max(10, int(math.Log10(tmax))+7)
}

// splitDescription turns the .outb-style description "<line 1> linked with
// <modules>; Description from the FAST input file: <title>" back into the
// header lines of a text file (FAST_Subs.f90 writes FileDescLines 1-3 as
// line 2, line 3 with one leading blank, and line 5 after a blank line).
func splitDescription(desc string) []string {
	first, rest, hasRest := strings.Cut(desc, "; Description from")
	lines := []string{}
	if a, b, ok := strings.Cut(first, " linked with "); ok {
		lines = append(lines, a, " linked with "+b)
	} else {
		lines = append(lines, first)
	}
	if hasRest {
		lines = append(lines, "", "Description from"+rest)
	}
	return lines
}

// joinDescription is the inverse of splitDescription for the non-empty
// header lines of a text file.
func joinDescription(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		switch {
		case i == 0:
			b.WriteString(strings.TrimSpace(l))
		case strings.HasPrefix(strings.TrimSpace(l), "linked with"):
			b.WriteString(" " + strings.TrimSpace(l))
		default:
			b.WriteString("; " + strings.TrimSpace(l))
		}
	}
	return b.String()
}

// checkChannels refuses names and units a text file cannot carry: empty
// names, or blanks inside a name or unit.
func checkChannels(tc Channel, chans []Channel) error {
	for _, ch := range append([]Channel{tc}, chans...) {
		if ch.Name == "" || hasBlank(ch.Name) || hasBlank(ch.Unit) {
			return fmt.Errorf("out: channel %q (%s): names must be non-empty and names and units free of blanks", ch.Name, ch.Unit)
		}
	}
	return nil
}

func hasBlank(s string) bool { return strings.ContainsAny(s, " \t\r\n\v\f") }

// textEncoder formats header and rows of a text output file.
type textEncoder struct {
	delim  string
	tWidth int
	value  func(float32) string
	padTo  int // name/unit width when space-delimited
}

func newTextEncoder(opt TextOptions, tmax float64, timeCh Channel, chans []Channel) (*textEncoder, error) {
	vf, err := ValueFormatter(opt.ValueFormat)
	if err != nil {
		return nil, err
	}
	e := &textEncoder{delim: "\t", tWidth: timeWidth(tmax), value: vf}
	if opt.SpaceDelimited {
		e.delim = " "
		// ActualChanLen = max(10, value width, longest name or unit).
		e.padTo = max(10, len(vf(0)))
		for _, ch := range append([]Channel{timeCh}, chans...) {
			e.padTo = max(e.padTo, len(ch.Name), len(ch.Unit)+2)
		}
	}
	return e, nil
}

func (e *textEncoder) cell(s string) string {
	if e.padTo > 0 && len(s) < e.padTo {
		return s + strings.Repeat(" ", e.padTo-len(s))
	}
	return s
}

func (e *textEncoder) writeHeader(w *bufio.Writer, desc string, timeCh Channel, chans []Channel) error {
	w.WriteString("\n")
	for _, l := range splitDescription(desc) {
		w.WriteString(l + "\n")
	}
	w.WriteString("\n")
	w.WriteString(e.cell(timeCh.Name))
	for _, ch := range chans {
		w.WriteString(e.delim + e.cell(ch.Name))
	}
	w.WriteString("\n")
	w.WriteString(e.cell("(" + timeCh.Unit + ")"))
	for _, ch := range chans {
		w.WriteString(e.delim + e.cell("("+ch.Unit+")"))
	}
	_, err := w.WriteString("\n")
	return err
}

func (e *textEncoder) writeRow(w *bufio.Writer, t float64, row func(c int) float64, n int) error {
	ts := strconv.FormatFloat(t, 'f', 4, 64)
	if len(ts) < e.tWidth {
		ts = strings.Repeat(" ", e.tWidth-len(ts)) + ts
	} else if len(ts) > e.tWidth {
		ts = strings.Repeat("*", e.tWidth)
	}
	w.WriteString(ts)
	for c := 0; c < n; c++ {
		w.WriteString(e.delim + e.value(float32(row(c))))
	}
	_, err := w.WriteString("\n")
	return err
}

// WriteText writes f as an OpenFAST text output file.
func WriteText(w io.Writer, f *File, opt TextOptions) error {
	if err := f.Validate(); err != nil {
		return err
	}
	tmax := opt.TMax
	if tmax == 0 {
		for _, t := range f.Time {
			tmax = math.Max(tmax, t)
		}
	}
	tc := f.timeChannel()
	if err := checkChannels(tc, f.Channels); err != nil {
		return err
	}
	enc, err := newTextEncoder(opt, tmax, tc, f.Channels)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	if err := enc.writeHeader(bw, f.Description, tc, f.Channels); err != nil {
		return fmt.Errorf("out: %w", err)
	}
	for k, t := range f.Time {
		if err := enc.writeRow(bw, t, func(c int) float64 { return f.Data[c][k] }, len(f.Channels)); err != nil {
			return fmt.Errorf("out: row %d: %w", k, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("out: %w", err)
	}
	return nil
}

// WriteTextFile writes f to path atomically.
func WriteTextFile(path string, f *File, opt TextOptions) error {
	return writeAtomically(path, func(w io.Writer) error { return WriteText(w, f, opt) })
}

// maxHeaderLines bounds the search for the names row, as openfast_toolbox
// does (35 lines), with room for longer hand-written headers.
const maxHeaderLines = 100

// maxLineBytes bounds one text line: wide outputs of thousands of channels
// stay well below it.
const maxLineBytes = 64 << 20

// TextReader reads a text .out file row by row.
type TextReader struct {
	Description string
	TimeChannel Channel
	Channels    []Channel

	sc     *bufio.Scanner
	line   int
	closer io.Closer
	fields []string
}

// NewTextReader reads the header of a text output file: free text, then a
// names row whose first entry is the time channel, then a units row in
// parentheses. The names row is recognised as the first line followed by a
// line of parenthesised units with the same number of entries, or, failing
// that, the first line starting with "Time" (as openfast_toolbox does).
func NewTextReader(r io.Reader) (*TextReader, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLineBytes)
	tr := &TextReader{sc: sc}
	var header []string
	var prev string
	havePrev := false
	for n := 0; ; n++ {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return nil, fmt.Errorf("out: line %d: %w", tr.line+1, err)
			}
			return nil, fmt.Errorf("out: no names and units rows in the first %d lines", tr.line)
		}
		tr.line++
		l := strings.TrimRight(sc.Text(), "\r")
		if havePrev {
			names, units := splitCells(prev), splitCells(l)
			if len(names) > 0 && len(names) == len(units) &&
				(allParenthesised(units) || strings.EqualFold(names[0], "Time")) {
				if err := checkCells(names, units); err != nil {
					return nil, fmt.Errorf("out: line %d: %w", tr.line-1, err)
				}
				tr.setChannels(names, units)
				break
			}
			if strings.TrimSpace(prev) != "" {
				header = append(header, prev)
			}
		}
		prev, havePrev = l, true
		if n > maxHeaderLines {
			return nil, fmt.Errorf("out: no names and units rows in the first %d lines", maxHeaderLines)
		}
	}
	tr.Description = joinDescription(header)
	return tr, nil
}

func (tr *TextReader) setChannels(names, units []string) {
	tr.TimeChannel = Channel{Name: names[0], Unit: stripParens(units[0])}
	tr.Channels = make([]Channel, len(names)-1)
	for i := range tr.Channels {
		tr.Channels[i] = Channel{Name: names[i+1], Unit: stripParens(units[i+1])}
	}
}

// splitCells splits a names or units row at TABs when it has any (names are
// then trimmed), otherwise at runs of blanks.
func splitCells(l string) []string {
	if strings.Contains(l, "\t") {
		parts := strings.Split(l, "\t")
		out := parts[:0]
		for _, p := range parts {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out
	}
	return strings.Fields(l)
}

// checkCells rejects names and units with blanks inside: OpenFAST never
// writes them, and a file with them could not be split back unambiguously.
func checkCells(names, units []string) error {
	for i := range names {
		if hasBlank(names[i]) || hasBlank(units[i]) {
			return fmt.Errorf("channel %q (%s) has a blank inside its name or unit", names[i], units[i])
		}
	}
	return nil
}

func allParenthesised(cells []string) bool {
	for _, c := range cells {
		if len(c) < 2 || c[0] != '(' || c[len(c)-1] != ')' {
			return false
		}
	}
	return true
}

// OpenText opens a text output file for row-wise reading.
func OpenText(path string) (*TextReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("out: %w", err)
	}
	tr, err := NewTextReader(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tr.closer = f
	return tr, nil
}

// Close releases the file opened by OpenText.
func (tr *TextReader) Close() error {
	if tr.closer == nil {
		return nil
	}
	err := tr.closer.Close()
	tr.closer = nil
	return err
}

// Next parses the next data row into dst (one value per channel) and
// returns its time; io.EOF after the last row. Blank lines and lines that
// start with a letter (such as HydroDyn's closing "This output file was
// closed ..." line) are skipped. Fortran overflow fields ("*****") read as NaN.
func (tr *TextReader) Next(dst []float64) (float64, error) {
	if len(dst) != len(tr.Channels) {
		return 0, fmt.Errorf("out: row buffer has %d elements, file has %d channels", len(dst), len(tr.Channels))
	}
	for tr.sc.Scan() {
		tr.line++
		l := tr.sc.Text()
		tr.fields = appendFields(tr.fields[:0], l)
		if len(tr.fields) == 0 {
			continue
		}
		if c := tr.fields[0][0]; (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
			if _, err := parseValue(tr.fields[0]); err != nil {
				continue
			}
		}
		if len(tr.fields) != len(tr.Channels)+1 {
			return 0, fmt.Errorf("out: line %d has %d values, expected %d", tr.line, len(tr.fields), len(tr.Channels)+1)
		}
		t, err := parseValue(tr.fields[0])
		if err != nil {
			return 0, fmt.Errorf("out: line %d, time: %w", tr.line, err)
		}
		for c := range dst {
			v, err := parseValue(tr.fields[c+1])
			if err != nil {
				return 0, fmt.Errorf("out: line %d, channel %s: %w", tr.line, tr.Channels[c].Name, err)
			}
			dst[c] = v
		}
		return t, nil
	}
	if err := tr.sc.Err(); err != nil {
		return 0, fmt.Errorf("out: line %d: %w", tr.line+1, err)
	}
	return 0, io.EOF
}

// appendFields splits l at blanks and TABs without allocating new strings
// beyond the slice headers.
func appendFields(dst []string, l string) []string {
	start := -1
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c == ' ' || c == '\t' || c == '\r' {
			if start >= 0 {
				dst = append(dst, l[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		dst = append(dst, l[start:])
	}
	return dst
}

// parseValue reads a number as Fortran writes it, including gfortran's
// "Infinity"/"NaN" and the "*****" overflow marker (read as NaN); Fortran's
// exponent without "E" (e.g. "1.000-100") is accepted too.
func parseValue(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err == nil {
		return v, nil
	}
	if errors.Is(err, strconv.ErrRange) {
		return v, nil
	}
	if strings.Trim(s, "*") == "" {
		return math.NaN(), nil
	}
	// 1.234-105 / 1.234+105: mantissa and exponent without the letter.
	if i := strings.LastIndexAny(s, "+-"); i > 0 && s[i-1] != 'E' && s[i-1] != 'e' {
		if m, err1 := strconv.ParseFloat(s[:i], 64); err1 == nil {
			if e, err2 := strconv.Atoi(s[i:]); err2 == nil {
				return m * math.Pow(10, float64(e)), nil
			}
		}
	}
	return 0, fmt.Errorf("%q is not a number", s)
}

// ReadAll reads the remaining rows into a columnar File.
func (tr *TextReader) ReadAll() (*File, error) {
	f := &File{
		Description: tr.Description,
		TimeChannel: tr.TimeChannel,
		Channels:    append([]Channel(nil), tr.Channels...),
		Data:        make([][]float64, len(tr.Channels)),
	}
	row := make([]float64, len(tr.Channels))
	for {
		t, err := tr.Next(row)
		if errors.Is(err, io.EOF) {
			return f, nil
		}
		if err != nil {
			return nil, err
		}
		f.Time = append(f.Time, t)
		for c, v := range row {
			f.Data[c] = append(f.Data[c], v)
		}
	}
}

// ReadText reads a whole text output file from r.
func ReadText(r io.Reader) (*File, error) {
	tr, err := NewTextReader(r)
	if err != nil {
		return nil, err
	}
	return tr.ReadAll()
}

// ReadTextFile reads a whole text output file from disk.
func ReadTextFile(path string) (*File, error) {
	tr, err := OpenText(path)
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	f, err := tr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// ReadFile reads an output file of either kind, deciding by content: a
// .outb starts with an int16 FileID of 1-4 (bytes 01-04 00), which no text
// file does.
func ReadFile(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("outfile: %w", err)
	}
	var head [2]byte
	n, _ := io.ReadFull(fh, head[:])
	fh.Close()
	if n == 2 && head[1] == 0 && head[0] >= 1 && head[0] <= 4 {
		return ReadOutbFile(path)
	}
	return ReadTextFile(path)
}
