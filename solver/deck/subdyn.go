package deck

import (
	"fmt"
	"strings"

	"github.com/turbinesim/turbinesim/solver/internal/fortran"
)

// SubDyn is a SubDyn primary input file (OpenFAST's multi-member
// substructure module) read into typed tables. Both the v5 layout (TPID
// column, MType 1c/1r/2/3/4/5, NPropSetsCyl/NPropSetsRec, spring
// properties, initial rigid-body position) and the earlier v1.01 layout
// (GuyanLoadCorrection, CBMod, MType 1/2/3, NPropSets, no TPID) are read;
// what the older layout means in the newer one is recorded in Warnings.
//
// Table and variable meanings follow the SubDyn User's Guide (Damiani,
// Jonkman & Hayman 2015, NREL/TP-5000-63062) and OpenFAST's SubDyn input
// documentation (docs/source/user/subdyn/input_files.rst).
type SubDyn struct {
	Meta   Meta
	Layout string // "v5" or "v1.01" (pre-v5: GuyanLoadCorrection/CBMod lines)

	SDdeltaT     float64 // s; 0 when "default" (the glue time step)
	IntMethod    int     // 1 RK4, 2 AB4, 3 ABM4, 4 AM2
	SttcSolve    bool    // static improvement of the outputs
	FEMMod       int     // 1 Euler-Bernoulli, 3 Timoshenko (2, 4 tapered: unavailable)
	NDiv         int     // elements per beam member
	Nmodes       int     // fixed-interface (Craig-Bampton) modes kept; -1: all (v1.01 CBMod=False)
	JDampings    []float64
	GuyanDampMod int        // 0 none, 1 Rayleigh, 2 user 6x6
	RayleighDamp [2]float64 // mass- and stiffness-proportional coefficients (GuyanDampMod 1)
	GuyanDamp    [6][6]float64
	RigidBody    [6]float64 // initial rigid-body position (m, deg), floating only

	Joints     []SDJoint
	Reactions  []SDReaction
	Interfaces []SDInterface
	Members    []SDMember
	PropsCyl   []SDCylProp
	PropsRec   []SDRecProp
	PropsArb   []SDArbProp
	Cables     []SDCableProp
	Rigids     []SDRigidProp
	Springs    []SDSpringProp
	CMasses    []SDCMass

	SumPrint bool
	OutAll   bool
	OutSwtch int
	// Output-file options SubDyn's own .SD.out uses (kept to write the file
	// back): Echo, OutCBModes, OutFEMModes, OutCOSM, TabDelim, OutDec,
	// OutFmt, OutSFmt, and the free-text title (line 2).
	Title                   string
	Echo, OutCOSM, TabDelim bool
	OutCBModes, OutFEMModes int
	OutDec                  int
	OutFmt, OutSFmt         string
	// COSMs are the direction-cosine rows (COSMID, COSM11 … COSM33), read
	// and written back but not used.
	COSMs [][10]float64
	// MemberOutputs are the members whose nodes give the MαNβ channels,
	// α = 1-based position in this list.
	MemberOutputs []SDMemberOutput
	OutList       []string

	// Warnings: v1.01 inputs converted to their v5 meaning, and inputs read
	// but not used by OpenFAST v5.
	Warnings []Problem
}

// SDJoint is one row of STRUCTURE JOINTS.
type SDJoint struct {
	ID      int
	X, Y, Z float64 // m, global (substructure) coordinates
	Type    int     // 1 cantilever, 2 universal, 3 pin, 4 ball
	Dir     [3]float64
	Stiff   float64 // N·m/rad, for non-cantilever joints
	Line    int
}

// SDReaction is one row of BASE REACTION JOINTS.
type SDReaction struct {
	JointID int
	Fixed   [6]bool // TDX TDY TDZ RDX RDY RDZ: true = locked
	SSIFile string  // soil-structure interaction file, "" when none
	Line    int
	// Soil is the content of SSIFile (read by ReadSubDyn and Deck.SubDyn),
	// nil when there is none.
	Soil *SDSoil
}

// SDSoil is a soil-structure interaction file: up to 21 entries each of a
// symmetric 6×6 stiffness and mass at a reaction joint, global axes, DOF
// order x y z θx θy θz, one "value label" per line with labels such as
// Kxx, Kxty, Ktxtx, Mzz (SubDyn User's Guide, "SSI Input File").
type SDSoil struct {
	Path   string // absolute path of the file
	K, M   [6][6]float64
	KGiven [6][6]bool // entries present in the file (K and M alike)
	MGiven [6][6]bool
}

// SDInterface is one row of INTERFACE JOINTS.
type SDInterface struct {
	JointID int
	TPID    int // transition piece the joint is locked to (1 when absent)
	Locked  [6]bool
	Line    int
}

// SDMember is one row of MEMBERS.
type SDMember struct {
	ID       int
	J1, J2   int // joint IDs
	P1, P2   int // property-set IDs at the two ends
	Type     string
	Spin     float64 // deg, rotation of a rectangular section about its axis
	COSMID   int     // direction-cosine set (v1.01), 0 when none
	Line     int
	typeText string
}

// SubDyn member types (v5 MType column).
const (
	SDBeamCircular  = "1c"
	SDBeamRect      = "1r"
	SDCable         = "2"
	SDRigidLink     = "3"
	SDBeamArbitrary = "4"
	SDSpring        = "5"
)

// SDCylProp is a circular tube section: E, G (Pa), density (kg/m³),
// outer diameter and wall thickness (m).
type SDCylProp struct {
	ID        int
	E, G, Rho float64
	D, T      float64
	Line      int
}

// SDRecProp is a rectangular tube section (sides Sa, Sb and wall T, m).
type SDRecProp struct {
	ID        int
	E, G, Rho float64
	Sa, Sb, T float64
	Line      int
}

// SDArbProp is a section given by its properties.
type SDArbProp struct {
	ID               int
	E, G, Rho        float64
	A, Asx, Asy      float64
	Jxx, Jyy, J0, Jt float64
	Line             int
}

// SDCableProp is a pretensioned cable: EA (N), mass per length (kg/m),
// pretension T0 (N).
type SDCableProp struct {
	ID      int
	EA, Rho float64
	T0      float64
	Line    int
}

// SDRigidProp is a rigid link's mass per length (kg/m).
type SDRigidProp struct {
	ID   int
	Rho  float64
	Line int
}

// SDSpringProp is a 6x6 symmetric spring stiffness (upper triangle k11..k66).
type SDSpringProp struct {
	ID   int
	K    [6][6]float64
	Line int
}

// SDCMass is a concentrated mass at a joint: mass (kg), inertia about the
// mass's centre (kg·m²) and the centre's offset from the joint (m).
type SDCMass struct {
	JointID                      int
	M                            float64
	Jxx, Jyy, Jzz, Jxy, Jxz, Jyz float64
	CG                           [3]float64
	Line                         int
}

// SDMemberOutput selects nodes of one member for output (1-based node
// counts along the member, 1 … NDiv+1).
type SDMemberOutput struct {
	MemberID int
	Nodes    []int
	Line     int
}

// ReadSubDyn reads a SubDyn primary input file and the SSI files it names
// (relative to it), every read bounded like every input. Load and LoadIn
// read a deck's SSI files with it, confined to its tree; use Deck.SubDyn
// for those.
func ReadSubDyn(path string) (*SubDyn, error) {
	src, err := readSource(path, false)
	if err != nil {
		return nil, err
	}
	return subDynWithSoil(src, func(name string) (*Source, error) {
		return readSource(resolvePath(src.Path, name), false)
	})
}

// SubDyn returns the typed SubDyn file (with its SSI files, as read with
// the deck) of a deck read with Load, or nil when the deck has no SubDyn
// file (CompSub=0).
func (d *Deck) SubDyn() (*SubDyn, error) {
	if d == nil || d.Offshore.SubDyn == nil {
		return nil, nil
	}
	return subDynWithSoil(d.Offshore.SubDyn.Meta.Src, func(name string) (*Source, error) {
		if s := d.Offshore.SubDynSSI[name]; s != nil {
			return s, nil
		}
		return nil, &Error{Msg: "file not found", Err: ErrMissingFile}
	})
}

// subDynWithSoil parses a SubDyn file and the SSI files open returns for
// the names its reactions give.
func subDynWithSoil(src *Source, open func(name string) (*Source, error)) (*SubDyn, error) {
	sd, err := parseSubDyn(src)
	if err != nil {
		return nil, err
	}
	for k := range sd.Reactions {
		r := &sd.Reactions[k]
		if r.SSIFile == "" {
			continue
		}
		ssrc, err := open(r.SSIFile)
		if err != nil {
			var e *Error
			if asError(err, &e) && e.Line == 0 {
				// name the line of the SubDyn file that names it
				return nil, &Error{File: src.Path, Line: r.Line, Variable: "SSIfile", Msg: fmt.Sprintf("SSI file %q: %s", r.SSIFile, e.Msg), Err: e.Err}
			}
			return nil, err
		}
		if r.Soil, err = parseSoil(ssrc); err != nil {
			return nil, err
		}
	}
	return sd, nil
}

// parseSoil reads the "value label" lines of an SSI file; other lines
// (headers, comments) are skipped, an unknown K…/M… label is an error.
func parseSoil(src *Source) (*SDSoil, error) {
	soil := &SDSoil{Path: src.Path}
	dirs := []string{"tx", "ty", "tz", "x", "y", "z"}
	index := map[string]int{"x": 0, "y": 1, "z": 2, "tx": 3, "ty": 4, "tz": 5}
	for _, l := range src.Lines {
		t := l.toks
		if len(t) < 2 {
			continue
		}
		x, ok := parseReal(t[0].Text)
		if !ok {
			continue
		}
		label := strings.ToLower(t[1].Text)
		if label == "" || (label[0] != 'k' && label[0] != 'm') {
			return nil, errAt(l.File, l.Num, t[1].Text, "expected a label Kxx … Ktztz or Mxx … Mtztz after the value")
		}
		rest := label[1:]
		var ij []int
		for len(rest) > 0 && len(ij) < 2 {
			found := false
			for _, d := range dirs {
				if strings.HasPrefix(rest, d) {
					ij = append(ij, index[d])
					rest = rest[len(d):]
					found = true
					break
				}
			}
			if !found {
				break
			}
		}
		if len(ij) != 2 || rest != "" {
			return nil, errAt(l.File, l.Num, t[1].Text, "unknown label (expected K or M and two of x, y, z, tx, ty, tz, e.g. Kxty)")
		}
		i, j := ij[0], ij[1]
		if label[0] == 'k' {
			soil.K[i][j], soil.K[j][i] = x, x
			soil.KGiven[i][j], soil.KGiven[j][i] = true, true
		} else {
			soil.M[i][j], soil.M[j][i] = x, x
			soil.MGiven[i][j], soil.MGiven[j][i] = true, true
		}
	}
	return soil, nil
}

type sdReader struct {
	*reader
	sd *SubDyn
}

func (s *sdReader) warn(variable string, line int, format string, args ...any) {
	s.sd.Warnings = append(s.sd.Warnings, Problem{File: s.path(), Line: line, Variable: variable, Message: fmt.Sprintf(format, args...), Warning: true})
}

func (s *sdReader) flag(name string) (bool, int, error) {
	i, v, _, ok := s.find(normName(name))
	if !ok {
		return false, 0, s.errLine(s.cur, name, "line not found (expected a logical labelled %s)", name)
	}
	if len(v) == 0 {
		return false, 0, s.errLine(i, name, "expected a logical (True/False), got nothing")
	}
	b, good := fortran.Logical(v[0].Text)
	if !good {
		return false, 0, s.errLine(i, name, "expected a logical (True/False), got %q", v[0].Text)
	}
	return b, s.lineNum(i), nil
}

// optFlag, optInt and optString read an output option, or give def when
// the line is absent or unreadable (these options do not change the
// model; the module reads them only to write its own file).
func (s *sdReader) optFlag(name string, def bool) (bool, bool) {
	cur := s.cur
	defer func() { s.cur = cur }()
	if _, v, _, ok := s.find(normName(name)); ok && len(v) > 0 {
		if b, good := fortran.Logical(v[0].Text); good {
			return b, true
		}
	}
	return def, false
}

func (s *sdReader) optInt(name string, def int) int {
	cur := s.cur
	defer func() { s.cur = cur }()
	if _, v, _, ok := s.find(normName(name)); ok && len(v) > 0 {
		if n, good := parseInt(v[0].Text); good {
			return n
		}
	}
	return def
}

func (s *sdReader) optString(name, def string) string {
	cur := s.cur
	defer func() { s.cur = cur }()
	if _, v, _, ok := s.find(normName(name)); ok && len(v) > 0 {
		return v[0].Text
	}
	return def
}

func (s *sdReader) count(names ...string) (int, error) {
	norm := make([]string, len(names))
	for k, n := range names {
		norm[k] = normName(n)
	}
	i, v, _, ok := s.find(norm...)
	if !ok {
		return 0, s.errLine(s.cur, names[0], "line not found (expected a row count labelled %s)", strings.Join(names, " or "))
	}
	if len(v) == 0 {
		return 0, s.errLine(i, names[0], "expected an integer, got nothing")
	}
	n, good := parseInt(v[0].Text)
	if !good || n < 0 {
		return 0, s.errLine(i, names[0], "expected a row count >= 0, got %q", v[0].Text)
	}
	return n, nil
}

// rows reads n rows of a table with header column firstCol; each row is
// checked to have at least minCols words.
func (s *sdReader) rows(firstCol string, n, minCols int, variable string) ([]string, [][]Token, []int, error) {
	if n == 0 {
		// an empty table may have its header anywhere (or nowhere)
		return nil, nil, nil, nil
	}
	cols, idx, err := s.tableRows(firstCol, n, variable)
	if err != nil {
		return nil, nil, nil, err
	}
	out := make([][]Token, len(idx))
	lines := make([]int, len(idx))
	for k, j := range idx {
		t := s.src.Lines[j].toks
		if len(t) < minCols {
			return nil, nil, nil, s.errLine(j, variable, "table row has %d columns, expected at least %d", len(t), minCols)
		}
		out[k] = t
		lines[k] = s.lineNum(j)
	}
	return cols, out, lines, nil
}

func (s *sdReader) num(t Token, line int, variable, col string) (float64, error) {
	x, ok := parseReal(t.Text)
	if !ok {
		return 0, &Error{File: s.path(), Line: line, Variable: variable, Msg: fmt.Sprintf("%s: expected a real number, got %q", col, t.Text)}
	}
	return x, nil
}

func (s *sdReader) id(t Token, line int, variable, col string) (int, error) {
	n, ok := parseInt(t.Text)
	if !ok {
		// integers written as reals ("10.") are accepted, as Fortran does
		if x, okr := parseReal(t.Text); okr && x == float64(int(x)) {
			return int(x), nil
		}
		return 0, &Error{File: s.path(), Line: line, Variable: variable, Msg: fmt.Sprintf("%s: expected an integer, got %q", col, t.Text)}
	}
	return n, nil
}

// nums parses words [from, from+len(dst)) of a row into dst.
func (s *sdReader) nums(t []Token, from int, line int, variable string, cols []string, dst ...*float64) error {
	for k, p := range dst {
		c := from + k
		name := fmt.Sprintf("column %d", c+1)
		if c < len(cols) {
			name = cols[c]
		}
		if c >= len(t) {
			return &Error{File: s.path(), Line: line, Variable: variable, Msg: fmt.Sprintf("%s missing", name)}
		}
		x, err := s.num(t[c], line, variable, name)
		if err != nil {
			return err
		}
		*p = x
	}
	return nil
}

func (s *sdReader) flags(t []Token, from int, line int, variable string) ([6]bool, error) {
	var f [6]bool
	for k := range f {
		if from+k >= len(t) {
			return f, &Error{File: s.path(), Line: line, Variable: variable, Msg: fmt.Sprintf("expected 6 flags, found %d", len(t)-from)}
		}
		n, ok := parseInt(t[from+k].Text)
		if !ok || (n != 0 && n != 1) {
			return f, &Error{File: s.path(), Line: line, Variable: variable, Msg: fmt.Sprintf("flag %d: expected 0 or 1, got %q", k+1, t[from+k].Text)}
		}
		f[k] = n == 1
	}
	return f, nil
}

func parseSubDyn(src *Source) (*SubDyn, error) {
	sd := &SubDyn{Layout: "v5"}
	s := &sdReader{reader: newReader(src, &sd.Meta).skipHeader(), sd: sd}
	if err := s.simulationControl(); err != nil {
		return nil, err
	}
	if err := s.femParameters(); err != nil {
		return nil, err
	}
	if err := s.geometry(); err != nil {
		return nil, err
	}
	if err := s.properties(); err != nil {
		return nil, err
	}
	if err := s.outputs(); err != nil {
		return nil, err
	}
	return sd, nil
}

func (s *sdReader) simulationControl() error {
	sd := s.sd
	for _, l := range s.src.Lines {
		if l.Num == 2 && l.File == s.src.Path {
			sd.Title = strings.TrimSpace(l.Raw)
		}
	}
	sd.Echo, _ = s.optFlag("Echo", false)
	if i, v, _, ok := s.find("sddeltat"); ok && len(v) > 0 && !isDefault(v[0].Text) {
		x, good := parseReal(v[0].Text)
		if !good || x <= 0 {
			return s.errLine(i, "SDdeltaT", "expected \"default\" or a positive time step, got %q", v[0].Text)
		}
		sd.SDdeltaT = x
	}
	var err error
	if sd.IntMethod, err = s.integer("IntMethod"); err != nil {
		return err
	}
	if sd.SttcSolve, _, err = s.flag("SttcSolve"); err != nil {
		return err
	}
	if s.has("GuyanLoadCorrection") {
		sd.Layout = "v1.01"
		glc, line, err := s.flag("GuyanLoadCorrection")
		if err != nil {
			return err
		}
		if !glc {
			s.warn("GuyanLoadCorrection", line, "GuyanLoadCorrection=False is not an input of OpenFAST v5: v5 always adds the lever-arm moment of the loads at the displaced position (and, bottom-fixed, the interface moment of the displaced transition piece); run with the correction")
		}
	}
	return nil
}

func (s *sdReader) femParameters() error {
	sd := s.sd
	var err error
	if sd.FEMMod, err = s.integer("FEMMod"); err != nil {
		return err
	}
	if sd.NDiv, err = s.integer("NDiv"); err != nil {
		return err
	}
	if sd.NDiv < 1 {
		return s.errLine(s.cur-1, "NDiv", "must be >= 1, got %d", sd.NDiv)
	}
	cbMod := true
	if s.has("CBMod") {
		sd.Layout = "v1.01"
		var line int
		if cbMod, line, err = s.flag("CBMod"); err != nil {
			return err
		}
		if !cbMod {
			s.warn("CBMod", line, "CBMod=False (no reduction, all internal modes kept) is not an input of OpenFAST v5; converted to keeping every fixed-interface mode")
		}
	}
	if sd.Nmodes, err = s.integer("Nmodes"); err != nil {
		return err
	}
	if sd.Nmodes < 0 {
		return s.errLine(s.cur-1, "Nmodes", "must be >= 0, got %d", sd.Nmodes)
	}
	if !cbMod {
		sd.Nmodes = -1
	}
	i, v, _, ok := s.find("jdampings")
	if !ok {
		return s.errLine(s.cur, "JDampings", "line not found (expected damping ratios in %% of critical labelled JDampings)")
	}
	for _, t := range v {
		x, good := parseReal(t.Text)
		if !good {
			return s.errLine(i, "JDampings", "expected a damping ratio in %% of critical, got %q", t.Text)
		}
		if x < 0 {
			return s.errLine(i, "JDampings", "damping ratio must be >= 0, got %g", x)
		}
		sd.JDampings = append(sd.JDampings, x)
	}
	if len(sd.JDampings) == 0 {
		return s.errLine(i, "JDampings", "expected at least one damping ratio")
	}
	if sd.GuyanDampMod, err = s.integer("GuyanDampMod"); err != nil {
		return err
	}
	if sd.GuyanDampMod < 0 || sd.GuyanDampMod > 2 {
		return s.errLine(s.cur-1, "GuyanDampMod", "expected 0 (none), 1 (Rayleigh) or 2 (6x6 matrix), got %d", sd.GuyanDampMod)
	}
	i, v, _, ok = s.find("rayleighdamp")
	if !ok {
		return s.errLine(s.cur, "RayleighDamp", "line not found (expected the mass- and stiffness-proportional coefficients labelled RayleighDamp)")
	}
	if len(v) < 2 {
		return s.errLine(i, "RayleighDamp", "expected two coefficients, got %d", len(v))
	}
	for k := 0; k < 2; k++ {
		x, good := parseReal(v[k].Text)
		if !good {
			return s.errLine(i, "RayleighDamp", "expected a real number, got %q", v[k].Text)
		}
		sd.RayleighDamp[k] = x
	}
	i, _, _, ok = s.find("guyandampsize")
	if !ok {
		return s.errLine(s.cur, "GuyanDampSize", "line not found (expected 6 and a 6x6 matrix)")
	}
	idx, err := s.dataLines(i, 6, "GuyanDampSize")
	if err != nil {
		return err
	}
	for r, j := range idx {
		row, err := s.rowFloats(j, 6, "GuyanDamp", nil)
		if err != nil {
			return err
		}
		copy(sd.GuyanDamp[r][:], row)
	}
	s.cur = idx[5] + 1
	// v5: INITIAL RIGID-BODY POSITION (one row under RBSurge ... headers)
	if cols, rows, lines, err := s.rowsIfPresent("RBSurge", 1, 6, "RBSurge"); err != nil {
		return err
	} else if rows != nil {
		for k := 0; k < 6; k++ {
			if err := s.nums(rows[0], k, lines[0], "RBSurge", cols, &sd.RigidBody[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// rowsIfPresent reads a table that newer layouts add, when its header is
// there before the next count line.
func (s *sdReader) rowsIfPresent(firstCol string, n, minCols int, variable string) ([]string, [][]Token, []int, error) {
	want := normName(firstCol)
	for i := s.cur; i < s.hi; i++ {
		t := s.src.Lines[i].toks
		if len(t) == 0 || isSeparator(t[0]) {
			continue
		}
		if normName(t[0].Text) == want {
			return s.rows(firstCol, n, minCols, variable)
		}
		if isNumber(t[0].Text) {
			break // the next count line: the table is absent
		}
	}
	return nil, nil, nil, nil
}

func (s *sdReader) geometry() error {
	sd := s.sd
	n, err := s.count("NJoints")
	if err != nil {
		return err
	}
	cols, rows, lines, err := s.rows("JointID", n, 4, "NJoints")
	if err != nil {
		return err
	}
	for k, t := range rows {
		j := SDJoint{Type: 1, Line: lines[k]}
		if j.ID, err = s.id(t[0], lines[k], "JointID", "JointID"); err != nil {
			return err
		}
		if err := s.nums(t, 1, lines[k], "NJoints", cols, &j.X, &j.Y, &j.Z); err != nil {
			return err
		}
		if len(t) > 4 {
			if j.Type, err = s.id(t[4], lines[k], "JointType", "JointType"); err != nil {
				return err
			}
			if len(t) >= 9 {
				if err := s.nums(t, 5, lines[k], "NJoints", cols, &j.Dir[0], &j.Dir[1], &j.Dir[2], &j.Stiff); err != nil {
					return err
				}
			}
		}
		sd.Joints = append(sd.Joints, j)
	}
	if n, err = s.count("NReact"); err != nil {
		return err
	}
	_, rows, lines, err = s.rows("RJointID", n, 7, "NReact")
	if err != nil {
		return err
	}
	for k, t := range rows {
		r := SDReaction{Line: lines[k]}
		if r.JointID, err = s.id(t[0], lines[k], "RJointID", "RJointID"); err != nil {
			return err
		}
		if r.Fixed, err = s.flags(t, 1, lines[k], "NReact"); err != nil {
			return err
		}
		if len(t) > 7 && !isNoFile(t[7].Text) {
			r.SSIFile = t[7].Text
		}
		sd.Reactions = append(sd.Reactions, r)
	}
	if n, err = s.count("NInterf"); err != nil {
		return err
	}
	cols, rows, lines, err = s.rows("IJointID", n, 7, "NInterf")
	if err != nil {
		return err
	}
	hasTPID := colIndex(cols, "TPID") == 1
	if n > 0 && !hasTPID {
		sd.Layout = "v1.01"
		s.warn("NInterf", lines[0], "interface table without the TPID column (pre-v5 layout): every interface joint is locked to transition piece 1")
	}
	for k, t := range rows {
		f := SDInterface{TPID: 1, Line: lines[k]}
		if f.JointID, err = s.id(t[0], lines[k], "IJointID", "IJointID"); err != nil {
			return err
		}
		first := 1
		if hasTPID {
			if f.TPID, err = s.id(t[1], lines[k], "TPID", "TPID"); err != nil {
				return err
			}
			first = 2
		}
		if f.Locked, err = s.flags(t, first, lines[k], "NInterf"); err != nil {
			return err
		}
		sd.Interfaces = append(sd.Interfaces, f)
	}
	if n, err = s.count("NMembers"); err != nil {
		return err
	}
	cols, rows, lines, err = s.rows("MemberID", n, 6, "NMembers")
	if err != nil {
		return err
	}
	for k, t := range rows {
		m := SDMember{Line: lines[k]}
		ints := []*int{&m.ID, &m.J1, &m.J2, &m.P1, &m.P2}
		for c, p := range ints {
			if *p, err = s.id(t[c], lines[k], "NMembers", cols[c]); err != nil {
				return err
			}
		}
		m.typeText = strings.ToLower(t[5].Text)
		if len(t) > 6 {
			if x, ok := parseReal(t[6].Text); ok {
				m.Spin = x
				if len(cols) > 6 && strings.Contains(strings.ToUpper(cols[6]), "COSMID") && !strings.Contains(strings.ToUpper(cols[6]), "MSPIN") {
					m.COSMID, m.Spin = int(x), 0
				}
			}
		}
		sd.Members = append(sd.Members, m)
	}
	return nil
}

func (s *sdReader) properties() error {
	sd := s.sd
	// circular sections: NPropSetsCyl (v5) or NPropSets (v1.01)
	n, err := s.count("NPropSetsCyl", "NPropSets")
	if err != nil {
		return err
	}
	cols, rows, lines, err := s.rows("PropSetID", n, 6, "NPropSetsCyl")
	if err != nil {
		return err
	}
	for k, t := range rows {
		p := SDCylProp{Line: lines[k]}
		if p.ID, err = s.id(t[0], lines[k], "PropSetID", "PropSetID"); err != nil {
			return err
		}
		if err := s.nums(t, 1, lines[k], "NPropSetsCyl", cols, &p.E, &p.G, &p.Rho, &p.D, &p.T); err != nil {
			return err
		}
		if p.D <= 0 || p.T <= 0 || 2*p.T > p.D {
			return &Error{File: s.path(), Line: lines[k], Variable: "XsecT", Msg: fmt.Sprintf("need 0 < 2·XsecT <= XsecD, got XsecD=%g XsecT=%g", p.D, p.T)}
		}
		sd.PropsCyl = append(sd.PropsCyl, p)
	}
	if s.has("NPropSetsRec") {
		if n, err = s.count("NPropSetsRec"); err != nil {
			return err
		}
		cols, rows, lines, err = s.rows("PropSetID", n, 7, "NPropSetsRec")
		if err != nil {
			return err
		}
		for k, t := range rows {
			p := SDRecProp{Line: lines[k]}
			if p.ID, err = s.id(t[0], lines[k], "PropSetID", "PropSetID"); err != nil {
				return err
			}
			if err := s.nums(t, 1, lines[k], "NPropSetsRec", cols, &p.E, &p.G, &p.Rho, &p.Sa, &p.Sb, &p.T); err != nil {
				return err
			}
			sd.PropsRec = append(sd.PropsRec, p)
		}
	}
	if n, err = s.count("NXPropSets"); err != nil {
		return err
	}
	cols, rows, lines, err = s.rows("PropSetID", n, 10, "NXPropSets")
	if err != nil {
		return err
	}
	for k, t := range rows {
		p := SDArbProp{Line: lines[k]}
		if p.ID, err = s.id(t[0], lines[k], "PropSetID", "PropSetID"); err != nil {
			return err
		}
		if err := s.nums(t, 1, lines[k], "NXPropSets", cols, &p.E, &p.G, &p.Rho, &p.A, &p.Asx, &p.Asy, &p.Jxx, &p.Jyy, &p.J0); err != nil {
			return err
		}
		p.Jt = p.J0
		if len(t) > 10 {
			if err := s.nums(t, 10, lines[k], "NXPropSets", cols, &p.Jt); err != nil {
				return err
			}
		}
		sd.PropsArb = append(sd.PropsArb, p)
	}
	if n, err = s.count("NCablePropSets"); err != nil {
		return err
	}
	cols, rows, lines, err = s.rows("PropSetID", n, 4, "NCablePropSets")
	if err != nil {
		return err
	}
	for k, t := range rows {
		p := SDCableProp{Line: lines[k]}
		if p.ID, err = s.id(t[0], lines[k], "PropSetID", "PropSetID"); err != nil {
			return err
		}
		if err := s.nums(t, 1, lines[k], "NCablePropSets", cols, &p.EA, &p.Rho, &p.T0); err != nil {
			return err
		}
		sd.Cables = append(sd.Cables, p)
	}
	if n, err = s.count("NRigidPropSets"); err != nil {
		return err
	}
	cols, rows, lines, err = s.rows("PropSetID", n, 2, "NRigidPropSets")
	if err != nil {
		return err
	}
	for k, t := range rows {
		p := SDRigidProp{Line: lines[k]}
		if p.ID, err = s.id(t[0], lines[k], "PropSetID", "PropSetID"); err != nil {
			return err
		}
		if err := s.nums(t, 1, lines[k], "NRigidPropSets", cols, &p.Rho); err != nil {
			return err
		}
		sd.Rigids = append(sd.Rigids, p)
	}
	if s.has("NSpringPropSets") {
		if n, err = s.count("NSpringPropSets"); err != nil {
			return err
		}
		cols, rows, lines, err = s.rows("PropSetID", n, 22, "NSpringPropSets")
		if err != nil {
			return err
		}
		for k, t := range rows {
			p := SDSpringProp{Line: lines[k]}
			if p.ID, err = s.id(t[0], lines[k], "PropSetID", "PropSetID"); err != nil {
				return err
			}
			c := 1
			for a := 0; a < 6; a++ {
				for b := a; b < 6; b++ {
					if err := s.nums(t, c, lines[k], "NSpringPropSets", cols, &p.K[a][b]); err != nil {
						return err
					}
					p.K[b][a] = p.K[a][b]
					c++
				}
			}
			sd.Springs = append(sd.Springs, p)
		}
	}
	if n, err = s.count("NCOSMs"); err != nil {
		return err
	}
	if n > 0 {
		cols, rows, lines, err := s.rows("COSMID", n, 10, "NCOSMs")
		if err != nil {
			return err
		}
		for k, t := range rows {
			var c [10]float64
			for i := range c {
				if err := s.nums(t, i, lines[k], "NCOSMs", cols, &c[i]); err != nil {
					return err
				}
			}
			sd.COSMs = append(sd.COSMs, c)
		}
		s.warn("NCOSMs", s.Meta().LineOf("NCOSMs"), "direction-cosine matrices are read but not used: member axes follow the SubDyn convention (local z along the member, local x horizontal)")
	}
	if n, err = s.count("NCmass"); err != nil {
		return err
	}
	cols, rows, lines, err = s.rows("CMJointID", n, 8, "NCmass")
	if err != nil {
		return err
	}
	for k, t := range rows {
		c := SDCMass{Line: lines[k]}
		if c.JointID, err = s.id(t[0], lines[k], "CMJointID", "CMJointID"); err != nil {
			return err
		}
		if len(t) >= 11 {
			err = s.nums(t, 1, lines[k], "NCmass", cols, &c.M, &c.Jxx, &c.Jyy, &c.Jzz, &c.Jxy, &c.Jxz, &c.Jyz, &c.CG[0], &c.CG[1], &c.CG[2])
		} else {
			// v1.01: JMass JMXX JMYY JMZZ only
			err = s.nums(t, 1, lines[k], "NCmass", cols, &c.M, &c.Jxx, &c.Jyy, &c.Jzz)
		}
		if err != nil {
			return err
		}
		sd.CMasses = append(sd.CMasses, c)
	}
	return s.resolveMemberTypes()
}

func (s *sdReader) Meta() *Meta { return &s.sd.Meta }

// resolveMemberTypes maps the MType column to the v5 codes. v1.01 wrote 1
// for every beam; its section is then the circular table (or the
// arbitrary-section table when the property IDs are only there).
func (s *sdReader) resolveMemberTypes() error {
	sd := s.sd
	cyl := map[int]bool{}
	for _, p := range sd.PropsCyl {
		cyl[p.ID] = true
	}
	arb := map[int]bool{}
	for _, p := range sd.PropsArb {
		arb[p.ID] = true
	}
	converted := 0
	for k := range sd.Members {
		m := &sd.Members[k]
		switch m.typeText {
		case SDBeamCircular, SDBeamRect, SDCable, SDRigidLink, SDBeamArbitrary, SDSpring:
			m.Type = m.typeText
		case "1":
			m.Type = SDBeamCircular
			if !cyl[m.P1] && arb[m.P1] {
				m.Type = SDBeamArbitrary
			}
			converted++
		default:
			return &Error{File: s.path(), Line: m.Line, Variable: "MType", Msg: fmt.Sprintf("member %d: expected 1c, 1r, 2, 3, 4 or 5, got %q", m.ID, m.typeText)}
		}
	}
	if converted > 0 {
		sd.Layout = "v1.01"
		s.warn("MType", sd.Members[0].Line, "%d member(s) with MType 1 (pre-v5 layout) read as v5 beams (1c circular, or 4 for arbitrary sections)", converted)
	}
	return nil
}

func (s *sdReader) outputs() error {
	sd := s.sd
	var err error
	if sd.SumPrint, _, err = s.flag("SumPrint"); err != nil {
		return err
	}
	if s.has("OutAll") {
		if sd.OutAll, _, err = s.flag("OutAll"); err != nil {
			return err
		}
	}
	if sd.OutSwtch, err = s.integer("OutSwtch"); err != nil {
		return err
	}
	sd.OutCBModes, sd.OutFEMModes = s.optInt("OutCBModes", 0), s.optInt("OutFEMModes", 0)
	sd.OutCOSM, _ = s.optFlag("OutCOSM", false)
	sd.TabDelim, _ = s.optFlag("TabDelim", true)
	sd.OutDec = s.optInt("OutDec", 1)
	sd.OutFmt, sd.OutSFmt = s.optString("OutFmt", "ES11.4e2"), s.optString("OutSFmt", "A11")
	n, err := s.count("NMOutputs")
	if err != nil {
		return err
	}
	if n > 9 {
		return s.errLine(s.cur-1, "NMOutputs", "at most 9 members can be output, got %d", n)
	}
	_, rows, lines, err := s.rows("MemberID", n, 3, "NMOutputs")
	if err != nil {
		return err
	}
	for k, t := range rows {
		o := SDMemberOutput{Line: lines[k]}
		if o.MemberID, err = s.id(t[0], lines[k], "MemberID", "MemberID"); err != nil {
			return err
		}
		cnt, err := s.id(t[1], lines[k], "NOutCnt", "NOutCnt")
		if err != nil {
			return err
		}
		if cnt < 1 || cnt > 9 || len(t) < 2+cnt {
			return &Error{File: s.path(), Line: lines[k], Variable: "NOutCnt", Msg: fmt.Sprintf("expected 1..9 node numbers after NOutCnt=%s, found %d", t[1].Text, len(t)-2)}
		}
		for c := 0; c < cnt; c++ {
			nd, err := s.id(t[2+c], lines[k], "NodeCnt", "NodeCnt")
			if err != nil {
				return err
			}
			o.Nodes = append(o.Nodes, nd)
		}
		sd.MemberOutputs = append(sd.MemberOutputs, o)
	}
	// The channel list follows the first section line after the member
	// output table ("---- SSOutList: ..." in v5, "SDOutList" before; a
	// bare "---" in files this package writes), up to a line starting
	// with END, as OpenFAST reads it by position.
	for i := s.cur; i < s.hi; i++ {
		if t := s.src.Lines[i].toks; len(t) == 0 || !isSeparator(t[0]) {
			continue
		}
		for j := i + 1; j < s.hi; j++ {
			l := &s.src.Lines[j]
			if isEnd(l.Raw) {
				return nil
			}
			if len(l.toks) == 0 {
				continue
			}
			if t := l.toks[0]; t.Quoted {
				for _, w := range tokenize(t.Text) {
					sd.OutList = append(sd.OutList, w.Text)
				}
			} else {
				sd.OutList = append(sd.OutList, t.Text)
			}
		}
		return s.errLine(s.hi-1, "SSOutList", "OutList not terminated by a line starting with END")
	}
	return s.errLine(s.hi-1, "SSOutList", "output list (SSOutList) not found")
}
