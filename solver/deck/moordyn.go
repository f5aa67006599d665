package deck

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNotRun is wrapped by errors about inputs that are valid for OpenFAST
// but that this solver does not run (MoorDyn rods and bodies, wave
// kinematics in the mooring model, ...). Submission refuses such decks;
// test with errors.Is.
var ErrNotRun = errors.New("not supported by this solver")

// MoorDyn is a MoorDyn v2 input file (the format OpenFAST v4 and v5 read,
// described in MoorDyn's documentation, "The v2 Input File"): line types,
// points, lines, solver options and the output list. Every entry keeps the
// line number it was read from so that the physics can report problems
// where they are.
type MoorDyn struct {
	Path      string
	LineTypes []MDLineType
	Points    []MDPoint
	Lines     []MDLine
	Options   MDOptions
	Outputs   []MDOutput
	// Warnings are what MoorDyn would not read as written but this reader
	// could (a section separator without its name).
	Warnings []Problem
}

// MDLineType is one row of the LINE TYPES table.
type MDLineType struct {
	Name    string
	Diam    float64 // volume-equivalent diameter, m
	MassDen float64 // mass per unit length in air, kg/m
	EA      float64 // axial stiffness, N
	// BA is the internal (axial) damping in N·s; a negative value is the
	// damping ratio of each segment's axial mode, as a fraction of
	// critical (MoorDyn documentation, "Model Stability and Segment
	// Damping": BA = ζ (L/N) √(EA·w)).
	BA   float64
	EI   float64 // bending stiffness, N·m² (only 0 is run)
	Cd   float64 // transverse drag coefficient on the frontal area d·l
	Ca   float64 // transverse added-mass coefficient
	CdAx float64 // tangential drag coefficient on the surface area π·d·l
	CaAx float64 // tangential added-mass coefficient
	Line int
}

// Point attachment kinds.
const (
	MDFixed  = "Fixed"  // anchored to the seabed or the earth
	MDVessel = "Vessel" // moves with the platform (coordinates in the platform frame)
	MDFree   = "Free"   // free point with its own 3 DOF (clump weights, buoys, line junctions)
)

// MDPoint is one row of the POINTS (CONNECTION PROPERTIES) table.
type MDPoint struct {
	ID         int
	Attachment string  // MDFixed, MDVessel or MDFree
	X, Y, Z    float64 // m; platform frame for vessel points, earth frame otherwise
	M          float64 // point mass, kg
	V          float64 // point displaced volume, m³
	CdA        float64 // drag coefficient × area, m²
	CA         float64 // added-mass coefficient (with V)
	Line       int
}

// MDLine is one row of the LINES table.
type MDLine struct {
	ID       int
	Type     string // line-type name
	AttachA  int    // point ID of end A (the anchor end by convention)
	AttachB  int    // point ID of end B (the fairlead end)
	UnstrLen float64
	NumSegs  int
	Outputs  string // per-line output flags (written to MoorDyn's own files; not used)
	Line     int
}

// MDOutput is one requested output channel, as written.
type MDOutput struct {
	Name string
	Line int
}

// MDOptions holds the solver options. Absent options keep MoorDyn's
// documented defaults; Set records which were given (lower-case name → line).
type MDOptions struct {
	DtM       float64 // mooring time step, s
	KBot      float64 // seabed stiffness, Pa/m
	CBot      float64 // seabed damping, Pa·s/m
	DtIC      float64 // interval between convergence checks of the initial-condition solve, s
	TmaxIC    float64 // longest initial-condition solve, s
	CdScaleIC float64 // drag scale during the initial-condition solve
	ThreshIC  float64 // relative change of the fairlead tensions that ends it
	// WtrDpth, Gravity and WtrDens are taken from the primary file unless
	// given here (MoorDyn-F uses the glue code's values by default).
	WtrDpth, Gravity, WtrDens float64
	// Seabed friction (MoorDyn v2): kinetic coefficients transverse and
	// axial to the line, and the velocity scale FricDamp (s/m) over which
	// friction ramps from zero to its full value.
	MuKT, MuKA, FricDamp float64
	Set                  map[string]int
}

func defaultMDOptions() MDOptions {
	return MDOptions{DtM: 0.001, KBot: 3.0e6, CBot: 3.0e5, DtIC: 1, TmaxIC: 120, CdScaleIC: 5, ThreshIC: 0.001, FricDamp: 200, Set: map[string]int{}}
}

// Has reports whether option name (case-insensitive) was in the file.
func (o *MDOptions) Has(name string) bool { return o.Set[strings.ToLower(name)] > 0 }

// mdSection classifies a MoorDyn section header line ("---- LINE TYPES ----").
func mdSection(raw string) (string, bool) {
	t := strings.TrimSpace(raw)
	if !strings.HasPrefix(t, "---") && !strings.HasPrefix(t, "===") {
		return "", false
	}
	u := strings.ToUpper(strings.Trim(t, "-= \t"))
	switch {
	case strings.Contains(u, "ROD TYPE"):
		return "rodtypes", true
	case strings.Contains(u, "LINE TYPE"), strings.Contains(u, "LINE DICTIONARY"):
		return "linetypes", true
	case strings.Contains(u, "BODIES"), strings.Contains(u, "BODY LIST"):
		return "bodies", true
	case strings.Contains(u, "RODS"), strings.Contains(u, "ROD LIST"), strings.Contains(u, "ROD PROPERTIES"):
		return "rods", true
	case strings.Contains(u, "POINT"), strings.Contains(u, "CONNECTION"), strings.Contains(u, "NODE PROPERTIES"):
		return "points", true
	case strings.Contains(u, "LINE PROPERTIES"), u == "LINES", strings.HasPrefix(u, "LINES "), strings.Contains(u, "LINE LIST"):
		return "lines", true
	case strings.Contains(u, "OPTIONS"):
		return "options", true
	case strings.Contains(u, "OUTPUT"):
		return "outputs", true
	case strings.Contains(u, "FAILURE"):
		return "failure", true
	case strings.Contains(u, "EXTERNAL LOADS"):
		return "externalloads", true
	}
	return "other", true
}

// mdSectionTitle names the sections in warnings.
var mdSectionTitle = map[string]string{"linetypes": "LINE TYPES", "points": "POINTS", "lines": "LINES", "options": "OPTIONS", "outputs": "OUTPUTS", "rods": "RODS", "bodies": "BODIES", "rodtypes": "ROD TYPES"}

// mdInferSection tells the section from the first non-blank line after a
// separator: the column names of a table, an option line ("value name") or
// an output channel.
func mdInferSection(rest []Line) string {
	for _, l := range rest {
		if len(l.toks) == 0 {
			continue
		}
		if _, sep := mdSection(l.Raw); sep {
			return ""
		}
		has := map[string]bool{}
		for _, t := range l.toks {
			has[strings.ToLower(t.Text)] = true
		}
		switch {
		case has["roddiam"] || has["rodtype"] && has["xa"]:
			return "rods"
		case has["rodtype"] || has["cdend"]:
			return "rodtypes"
		case has["x0"] || has["r0"]:
			return "bodies"
		case has["diam"] && (has["massden"] || has["mass/m"] || has["massdeninair"]):
			return "linetypes"
		case has["linetype"] && (has["attacha"] || has["nodea"] || has["nodeanch"] || has["unstrlen"]):
			return "lines"
		case has["x"] && has["y"] && has["z"]:
			return "points"
		case len(l.toks) >= 2:
			if _, num := parseReal(l.toks[0].Text); num {
				return "options"
			}
		case len(l.toks) == 1:
			return "outputs"
		}
		return ""
	}
	return ""
}

// MoorDyn reads the file as a MoorDyn v2 input file. Errors are *Error with
// the line and the table or option concerned; inputs OpenFAST would run but
// this solver does not (rods, bodies, bending stiffness, wave kinematics,
// other time schemes, unknown options) wrap ErrNotRun.
func (g *Generic) MoorDyn() (*MoorDyn, error) {
	md := &MoorDyn{Path: g.Meta.Path, Options: defaultMDOptions()}
	lines := g.Meta.Src.Lines
	path := g.Meta.Path
	notRun := func(line int, variable, format string, args ...any) error {
		return &Error{File: path, Line: line, Variable: variable, Msg: fmt.Sprintf(format, args...), Err: ErrNotRun}
	}
	section := ""
	rowInSection := 0 // data lines seen in the current table section, headers included
	outputsEnded := false
	for i := range lines {
		l := &lines[i]
		if l.File != path { // no includes in MoorDyn files; be safe
			continue
		}
		if s, ok := mdSection(l.Raw); ok {
			if s == "other" && i > 0 {
				// A separator without a section name: MoorDyn needs
				// the name, but the table header that follows says
				// which section it is.
				if inferred := mdInferSection(g.Meta.Src.Lines[i+1:]); inferred != "" {
					s = inferred
					md.Warnings = append(md.Warnings, Problem{File: path, Line: l.Num, Warning: true,
						Message: fmt.Sprintf("section separator without its name; read as the %s section from the line after it (MoorDyn itself needs the name, e.g. \"---- %s ----\")", mdSectionTitle[s], mdSectionTitle[s])})
				}
			}
			section, rowInSection = s, 0
			switch s {
			case "rodtypes", "rods":
				return nil, notRun(l.Num, "RODS", "MoorDyn rod objects")
			case "bodies":
				return nil, notRun(l.Num, "BODIES", "MoorDyn body objects")
			case "failure":
				return nil, notRun(l.Num, "FAILURE", "MoorDyn line failure")
			case "externalloads":
				return nil, notRun(l.Num, "EXTERNAL LOADS", "MoorDyn external loads")
			}
			continue
		}
		toks := l.toks
		if len(toks) == 0 {
			continue
		}
		switch section {
		case "", "other":
			continue // front matter (title, Echo) and unknown free text
		case "outputs":
			if outputsEnded {
				continue
			}
			if isEnd(l.Raw) {
				outputsEnded = true
				continue
			}
			for _, t := range toks {
				for _, name := range strings.FieldsFunc(t.Text, func(r rune) bool { return r == ',' || r == ';' }) {
					md.Outputs = append(md.Outputs, MDOutput{Name: name, Line: l.Num})
				}
			}
			continue
		case "options":
			if err := md.Options.set(path, l.Num, toks); err != nil {
				return nil, err
			}
			continue
		}
		// Table sections: a column-name line, a units line, then rows.
		rowInSection++
		if rowInSection == 1 && len(toks) == 2 && strings.HasPrefix(strings.ToUpper(toks[1].Text), "N") {
			if _, ok := parseInt(toks[0].Text); ok {
				return nil, notRun(l.Num, toks[1].Text, "MoorDyn v1 input layout (tables preceded by a row count); this solver reads the MoorDyn v2 layout OpenFAST v4 and v5 use")
			}
		}
		if rowInSection <= 2 {
			continue
		}
		var err error
		switch section {
		case "linetypes":
			err = md.addLineType(path, l.Num, toks)
		case "points":
			err = md.addPoint(path, l.Num, toks)
		case "lines":
			err = md.addLine(path, l.Num, toks)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := md.check(); err != nil {
		return nil, err
	}
	return md, nil
}

func mdReals(path string, line int, table string, cols []string, toks []Token) ([]float64, error) {
	out := make([]float64, len(cols))
	for k, c := range cols {
		if k >= len(toks) {
			return nil, errAt(path, line, table, "row has %d columns, expected %d (%s)", len(toks), len(cols), strings.Join(cols, " "))
		}
		x, ok := parseReal(toks[k].Text)
		if !ok {
			if c0 := toks[k].Text[0]; (c0 < '0' || c0 > '9') && c0 != '-' && c0 != '+' && c0 != '.' && strings.ContainsAny(toks[k].Text, "./\\") {
				return nil, &Error{File: path, Line: line, Variable: table + " " + c, Msg: fmt.Sprintf("non-linear %s from a file (%q)", c, toks[k].Text), Err: ErrNotRun}
			}
			return nil, errAt(path, line, table+" "+c, "expected a real number, got %q", toks[k].Text)
		}
		out[k] = x
	}
	return out, nil
}

func (md *MoorDyn) addLineType(path string, line int, toks []Token) error {
	if len(toks) < 10 {
		return errAt(path, line, "LINE TYPES", "row has %d columns, expected 10 (Name Diam MassDen EA BA/-zeta EI Cd Ca CdAx CaAx)", len(toks))
	}
	v, err := mdReals(path, line, "LINE TYPES", []string{"Diam", "MassDen", "EA", "BA/-zeta", "EI", "Cd", "Ca", "CdAx", "CaAx"}, toks[1:])
	if err != nil {
		return err
	}
	lt := MDLineType{Name: toks[0].Text, Diam: v[0], MassDen: v[1], EA: v[2], BA: v[3], EI: v[4], Cd: v[5], Ca: v[6], CdAx: v[7], CaAx: v[8], Line: line}
	switch {
	case !(lt.Diam > 0):
		return errAt(path, line, "LINE TYPES Diam", "line type %q: must be > 0, got %g", lt.Name, lt.Diam)
	case !(lt.MassDen > 0):
		return errAt(path, line, "LINE TYPES MassDen", "line type %q: must be > 0, got %g", lt.Name, lt.MassDen)
	case !(lt.EA > 0):
		return errAt(path, line, "LINE TYPES EA", "line type %q: must be > 0, got %g", lt.Name, lt.EA)
	case lt.EI != 0:
		return &Error{File: path, Line: line, Variable: "LINE TYPES EI", Msg: fmt.Sprintf("line type %q: bending stiffness EI=%g (only EI=0 is run)", lt.Name, lt.EI), Err: ErrNotRun}
	case lt.Cd < 0 || lt.Ca < 0 || lt.CdAx < 0 || lt.CaAx < 0:
		return errAt(path, line, "LINE TYPES", "line type %q: hydrodynamic coefficients must be >= 0", lt.Name)
	}
	for _, o := range md.LineTypes {
		if strings.EqualFold(o.Name, lt.Name) {
			return errAt(path, line, "LINE TYPES Name", "line type %q defined twice (first at line %d)", lt.Name, o.Line)
		}
	}
	md.LineTypes = append(md.LineTypes, lt)
	return nil
}

func (md *MoorDyn) addPoint(path string, line int, toks []Token) error {
	if len(toks) < 9 {
		return errAt(path, line, "POINTS", "row has %d columns, expected 9 (ID Attachment X Y Z M V CdA CA)", len(toks))
	}
	id, ok := parseInt(toks[0].Text)
	if !ok {
		return errAt(path, line, "POINTS ID", "expected an integer, got %q", toks[0].Text)
	}
	var kind string
	switch a := strings.ToLower(toks[1].Text); a {
	case "fixed", "fix", "anchor":
		kind = MDFixed
	case "vessel", "vessel1", "coupled", "fairlead", "fair":
		kind = MDVessel
	case "free", "connect", "con", "point":
		kind = MDFree
	default:
		return &Error{File: path, Line: line, Variable: "POINTS Attachment", Msg: fmt.Sprintf("point %d attached to %q (this solver runs Fixed, Vessel/Coupled and Free/Connect points)", id, toks[1].Text), Err: ErrNotRun}
	}
	v, err := mdReals(path, line, "POINTS", []string{"X", "Y", "Z", "M", "V", "CdA", "CA"}, toks[2:])
	if err != nil {
		return err
	}
	for _, o := range md.Points {
		if o.ID == id {
			return errAt(path, line, "POINTS ID", "point %d defined twice (first at line %d)", id, o.Line)
		}
	}
	if v[3] < 0 || v[4] < 0 || v[5] < 0 || v[6] < 0 {
		return errAt(path, line, "POINTS", "point %d: M, V, CdA and CA must be >= 0", id)
	}
	md.Points = append(md.Points, MDPoint{ID: id, Attachment: kind, X: v[0], Y: v[1], Z: v[2], M: v[3], V: v[4], CdA: v[5], CA: v[6], Line: line})
	return nil
}

func (md *MoorDyn) addLine(path string, line int, toks []Token) error {
	if len(toks) < 6 {
		return errAt(path, line, "LINES", "row has %d columns, expected 7 (ID LineType AttachA AttachB UnstrLen NumSegs Outputs)", len(toks))
	}
	id, ok := parseInt(toks[0].Text)
	if !ok {
		return errAt(path, line, "LINES ID", "expected an integer, got %q", toks[0].Text)
	}
	ints := [2]int{}
	for k, c := range []string{"AttachA", "AttachB"} {
		n, ok := parseInt(toks[2+k].Text)
		if !ok {
			return &Error{File: path, Line: line, Variable: "LINES " + c, Msg: fmt.Sprintf("line %d attached to %q (this solver attaches lines to points only)", id, toks[2+k].Text), Err: ErrNotRun}
		}
		ints[k] = n
	}
	ul, ok := parseReal(toks[4].Text)
	if !ok || !(ul > 0) {
		return errAt(path, line, "LINES UnstrLen", "line %d: expected a length > 0, got %q", id, toks[4].Text)
	}
	ns, ok := parseInt(toks[5].Text)
	if !ok || ns < 1 || ns > 10000 {
		return errAt(path, line, "LINES NumSegs", "line %d: expected an integer in [1, 10000], got %q", id, toks[5].Text)
	}
	out := ""
	if len(toks) > 6 {
		out = toks[6].Text
	}
	for _, o := range md.Lines {
		if o.ID == id {
			return errAt(path, line, "LINES ID", "line %d defined twice (first at line %d)", id, o.Line)
		}
	}
	md.Lines = append(md.Lines, MDLine{ID: id, Type: toks[1].Text, AttachA: ints[0], AttachB: ints[1], UnstrLen: ul, NumSegs: ns, Outputs: out, Line: line})
	return nil
}

// set reads one "value name [- description]" option line.
func (o *MDOptions) set(path string, line int, toks []Token) error {
	if len(toks) < 2 {
		return errAt(path, line, "OPTIONS", "expected \"value name\", got %q", toks[0].Text)
	}
	val, name := toks[0].Text, toks[1].Text
	key := strings.ToLower(name)
	num := func(dst *float64, positive bool) error {
		x, ok := parseReal(val)
		if !ok {
			return errAt(path, line, name, "expected a real number, got %q", val)
		}
		if positive && !(x > 0) {
			return errAt(path, line, name, "must be > 0, got %g", x)
		}
		if x < 0 {
			return errAt(path, line, name, "must be >= 0, got %g", x)
		}
		*dst = x
		return nil
	}
	var err error
	switch key {
	case "echo", "writelog", "dtout", "writeunits", "outswitch":
		// Echo and MoorDyn's own log and output files: not written.
	case "dtm", "dt":
		err = num(&o.DtM, true)
	case "kbot", "kb":
		err = num(&o.KBot, false)
	case "cbot", "cb":
		err = num(&o.CBot, false)
	case "dtic":
		err = num(&o.DtIC, true)
	case "tmaxic", "ictmax":
		err = num(&o.TmaxIC, false)
	case "cdscaleic", "icdfac":
		err = num(&o.CdScaleIC, true)
	case "threshic", "icthresh":
		err = num(&o.ThreshIC, true)
	case "wtrdpth", "depth", "wtrdepth":
		err = num(&o.WtrDpth, true)
	case "g", "gravity":
		err = num(&o.Gravity, true)
	case "rho", "rhow", "wtrdnsty", "wtrdens":
		err = num(&o.WtrDens, true)
	case "frictioncoefficient", "mu":
		if err = num(&o.MuKT, false); err == nil {
			o.MuKA = o.MuKT
		}
	case "mu_kt":
		err = num(&o.MuKT, false)
	case "mu_ka":
		err = num(&o.MuKA, false)
	case "fricdamp", "cv":
		err = num(&o.FricDamp, true)
	case "statdynfricscale", "mc":
		var x float64
		if err = num(&x, true); err == nil && x != 1 {
			return &Error{File: path, Line: line, Variable: name, Msg: fmt.Sprintf("static/dynamic friction ratio %g (only 1 is run)", x), Err: ErrNotRun}
		}
	case "tscheme":
		if !strings.EqualFold(val, "RK2") {
			return &Error{File: path, Line: line, Variable: name, Msg: fmt.Sprintf("time scheme %q (this solver integrates with RK2, MoorDyn's default)", val), Err: ErrNotRun}
		}
	case "wavekin", "currents", "seafloorfile", "icgendynamic":
		if x, ok := parseReal(val); ok && x == 0 {
			break
		}
		return &Error{File: path, Line: line, Variable: name, Msg: fmt.Sprintf("%s=%s (wave/current kinematics, seabed files and dynamic IC generation in the mooring model)", name, val), Err: ErrNotRun}
	default:
		return &Error{File: path, Line: line, Variable: name, Msg: "unknown MoorDyn option", Err: ErrNotRun}
	}
	if err != nil {
		return err
	}
	o.Set[key] = line
	return nil
}

// check resolves the references between the tables.
func (md *MoorDyn) check() error {
	if len(md.Lines) == 0 {
		return errAt(md.Path, 0, "LINES", "no mooring lines defined")
	}
	for _, ln := range md.Lines {
		if md.LineType(ln.Type) == nil {
			return errAt(md.Path, ln.Line, "LINES LineType", "line %d: line type %q is not defined in LINE TYPES", ln.ID, ln.Type)
		}
		for _, id := range []int{ln.AttachA, ln.AttachB} {
			if md.Point(id) == nil {
				return errAt(md.Path, ln.Line, "LINES", "line %d: point %d is not defined in POINTS", ln.ID, id)
			}
		}
		if ln.AttachA == ln.AttachB {
			return errAt(md.Path, ln.Line, "LINES", "line %d: both ends attached to point %d", ln.ID, ln.AttachA)
		}
	}
	for _, p := range md.Points {
		if p.Attachment != MDFree {
			continue
		}
		n := 0
		for _, ln := range md.Lines {
			if ln.AttachA == p.ID || ln.AttachB == p.ID {
				n++
			}
		}
		if n == 0 && p.M == 0 && p.V == 0 {
			return errAt(md.Path, p.Line, "POINTS", "free point %d has no line, mass or volume", p.ID)
		}
	}
	return nil
}

// LineType returns the line type named name (case-insensitive), or nil.
func (md *MoorDyn) LineType(name string) *MDLineType {
	for i := range md.LineTypes {
		if strings.EqualFold(md.LineTypes[i].Name, name) {
			return &md.LineTypes[i]
		}
	}
	return nil
}

// Point returns the point with the given ID, or nil.
func (md *MoorDyn) Point(id int) *MDPoint {
	for i := range md.Points {
		if md.Points[i].ID == id {
			return &md.Points[i]
		}
	}
	return nil
}

// MoorDynSectionLine returns the section line of a MoorDyn file written
// with its section's name ("---------------------- LINE TYPES ---…"), for a
// separator line raw followed by the lines rest: MoorDyn finds its sections
// by these names. A separator without a name gets the one its table header
// shows. ok is false when raw is not a separator.
func MoorDynSectionLine(raw string, rest []Line) (line string, ok bool) {
	s, ok := mdSection(raw)
	if !ok {
		return "", false
	}
	if s == "other" {
		s = mdInferSection(rest)
	}
	title := mdSectionTitle[s]
	if title == "" {
		return "----------------------------------------------------------------------", true
	}
	return "---------------------- " + title + " ----------------------", true
}
