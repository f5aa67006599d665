package deck

import (
	"strings"
)

// HydroDyn is an OpenFAST v4/v5 HydroDyn input file, typed (the variables
// and tables of the HydroDyn input-file documentation). The file stays in
// Offshore.HydroDyn (Generic) and is written back verbatim; this structure
// is what the solver reads (Generic.HydroDyn). Tables are read by their
// header names, so the v3 member table (without MSecGeom, MSpinOrient,
// MHstLMod) reads too.
type HydroDyn struct {
	Meta Meta `fst:"-"`

	PotMod       int     `fst:"PotMod"`
	ExctnMod     int     `fst:"ExctnMod" opt:"0"`
	ExctnDisp    int     `fst:"ExctnDisp" opt:"0"`
	ExctnCutOff  float64 `fst:"ExctnCutOff" opt:"10"` // Hz, ExctnDisp 2
	PtfmYMod     int     `fst:"PtfmYMod" opt:"0"`
	PtfmRefY     float64 `fst:"PtfmRefY" opt:"0"`
	RdtnMod      int     `fst:"RdtnMod" opt:"0"`
	RdtnTMax     float64 `fst:"RdtnTMax" opt:"60"`
	RdtnDT       DefReal `fst:"RdtnDT" opt:"default"` // default: the glue-code step
	NBody        int     `fst:"NBody" opt:"1"`
	NBodyMod     int     `fst:"NBodyMod" opt:"1"`
	PotFile      string  `fst:"PotFile" opt:"unused"`
	WAMITULEN    float64 `fst:"WAMITULEN" opt:"1"`
	PtfmRefxt    float64 `fst:"PtfmRefxt" opt:"0"`
	PtfmRefyt    float64 `fst:"PtfmRefyt" opt:"0"`
	PtfmRefzt    float64 `fst:"PtfmRefzt" opt:"0"`
	PtfmRefztRot float64 `fst:"PtfmRefztRot" opt:"0"`
	PtfmVol0     float64 `fst:"PtfmVol0" opt:"0"`
	PtfmCOBxt    float64 `fst:"PtfmCOBxt" opt:"0"`
	PtfmCOByt    float64 `fst:"PtfmCOByt" opt:"0"`
	NAddDOF      int     `fst:"NAddDOF" opt:"0"`

	MnDrift   int `fst:"MnDrift" opt:"0"`
	NewmanApp int `fst:"NewmanApp" opt:"0"`
	DiffQTF   int `fst:"DiffQTF" opt:"0"`
	SumQTF    int `fst:"SumQTF" opt:"0"`

	WaveDisp int `fst:"WaveDisp" opt:"0"`
	AMMod    int `fst:"AMMod" opt:"0"`
	HstMod   int `fst:"HstMod" opt:"0"`

	HDSum    bool    `fst:"HDSum" opt:"false"`
	OutAll   bool    `fst:"OutAll" opt:"false"`
	OutSwtch int     `fst:"OutSwtch" opt:"2"`
	OutList  OutList `fst:"OutList" opt:""`

	// Platform additional loads: F = AddF0 − AddCLin q − AddBLin q̇ −
	// AddBQuad |q̇| q̇ (for one WAMIT body).
	AddF0                      [6]float64    `fst:"-"`
	AddCLin, AddBLin, AddBQuad [6][6]float64 `fst:"-"`

	AxCoefs      []HDAxCoef       `fst:"-"`
	Joints       []HDJoint        `fst:"-"`
	PropSets     []HDPropSet      `fst:"-"` // cylindrical
	NPropSetsRec int              `fst:"-"` // rectangular property sets (read, not used)
	Simple       HDCoefs          `fst:"-"` // simple cylindrical coefficients
	DepthCoefs   []HDDepthCoefs   `fst:"-"`
	MemberCoefs  []HDMemberCoefs  `fst:"-"`
	Members      []HDMember       `fst:"-"`
	FillGroups   []HDFillGroup    `fst:"-"`
	MarineGrowth []HDMarineGrowth `fst:"-"`
	MOutputs     []HDMemberOutput `fst:"-"`
	JOutLst      []int            `fst:"-"`
}

// HDAxCoef is a row of the axial-coefficient table (lumped loads at joints).
type HDAxCoef struct {
	ID             int
	Cd, Ca, Cp     float64
	FDMod          int
	VnCOff, FDLoFS float64
}

// HDJoint is a member joint (global coordinates at rest, m).
type HDJoint struct {
	ID      int
	X, Y, Z float64
	AxID    int
	Ovrlp   int
}

// HDPropSet is a cylindrical cross-section: outer diameter and wall
// thickness (m).
type HDPropSet struct {
	ID      int
	D, Thck float64
}

// HDCoefs are strip-theory coefficients of a cylindrical member without and
// with marine growth (MG): transverse drag, added mass, dynamic pressure,
// the axial ones, and the buoyancy factor Cb.
type HDCoefs struct {
	Cd, CdMG, Ca, CaMG, Cp, CpMG             float64
	AxCd, AxCdMG, AxCa, AxCaMG, AxCp, AxCpMG float64
	Cb, CbMG                                 float64
}

// HDDepthCoefs are coefficients at a depth (model 2).
type HDDepthCoefs struct {
	Dpth float64
	HDCoefs
}

// HDMemberCoefs are coefficients at both ends of one member (model 3).
type HDMemberCoefs struct {
	MemberID int
	End      [2]HDCoefs
}

// HDMember is a row of the member table.
type HDMember struct {
	ID                 int
	Joint1, Joint2     int
	PropSet1, PropSet2 int
	SecGeom            int // 1 cylindrical, 2 rectangular
	DivSize            float64
	CoefMod            int // 1 simple, 2 depth-based, 3 member-based
	HstLMod            int
	PropPot            bool // modelled with potential flow
	Line               int  // line in the file
}

// HDFillGroup is a group of flooded members with a free-surface height
// (m, from MSL) and fluid density (kg/m³; 0 when "DEFAULT" = water).
type HDFillGroup struct {
	Members  []int
	FSLoc    float64
	Dens     float64
	DensDflt bool
}

// HDMarineGrowth is a row of the marine-growth table.
type HDMarineGrowth struct {
	Dpth, Thck, Dens float64
}

// HDMemberOutput selects output locations along a member.
type HDMemberOutput struct {
	MemberID int
	NodeLocs []float64
}

// HydroDyn reads the typed HydroDyn inputs from a HydroDyn file read as
// Generic; errors name the file, line and variable.
func (g *Generic) HydroDyn() (*HydroDyn, error) {
	h := &HydroDyn{}
	r := newReader(g.Meta.Src, &h.Meta).skipHeader()
	if err := decode(r, h); err != nil {
		return nil, err
	}
	t := &tableReader{r: r}
	t.vector("AddF0", h.AddF0[:])
	for _, m := range []struct {
		name string
		dst  *[6][6]float64
	}{{"AddCLin", &h.AddCLin}, {"AddBLin", &h.AddBLin}, {"AddBQuad", &h.AddBQuad}} {
		t.matrix(m.name, m.dst)
	}
	if rows, cols := t.table("NAxCoef", "AxCoefID"); t.err == nil {
		for _, row := range rows {
			h.AxCoefs = append(h.AxCoefs, HDAxCoef{ID: row.int(cols, "AxCoefID"), Cd: row.real(cols, "AxCd"), Ca: row.real(cols, "AxCa"),
				Cp: row.real(cols, "AxCp"), FDMod: row.intOr(cols, "AxFDMod", 0), VnCOff: row.realOr(cols, "AxVnCOff", -1), FDLoFS: row.realOr(cols, "AxFDLoFSc", 1)})
		}
	}
	if rows, cols := t.table("NJoints", "JointID"); t.err == nil {
		for _, row := range rows {
			h.Joints = append(h.Joints, HDJoint{ID: row.int(cols, "JointID"), X: row.real(cols, "Jointxi"), Y: row.real(cols, "Jointyi"),
				Z: row.real(cols, "Jointzi"), AxID: row.int(cols, "JointAxID"), Ovrlp: row.intOr(cols, "JointOvrlp", 0)})
		}
	}
	cylCount := "NPropSetsCyl"
	if !r.has(cylCount) {
		cylCount = "NPropSets"
	}
	if rows, cols := t.table(cylCount, "PropSetID"); t.err == nil {
		for _, row := range rows {
			h.PropSets = append(h.PropSets, HDPropSet{ID: row.int(cols, "PropSetID"), D: row.real(cols, "PropD"), Thck: row.real(cols, "PropThck")})
		}
	}
	if r.has("NPropSetsRec") {
		h.NPropSetsRec = t.count("NPropSetsRec")
	}
	if rows, cols := t.tableRows("SimplCd", 1, "SimplCd"); t.err == nil && len(rows) == 1 {
		h.Simple = rows[0].coefs(cols, "Simpl", "")
	}
	dc := "NCoefDpthCyl"
	if !r.has(dc) {
		dc = "NCoefDpth"
	}
	if rows, cols := t.table(dc, "Dpth"); t.err == nil {
		for _, row := range rows {
			h.DepthCoefs = append(h.DepthCoefs, HDDepthCoefs{Dpth: row.real(cols, "Dpth"), HDCoefs: row.coefs(cols, "Dpth", "")})
		}
	}
	mc := "NCoefMembersCyl"
	if !r.has(mc) {
		mc = "NCoefMembers"
	}
	if rows, cols := t.table(mc, "MemberID"); t.err == nil {
		for _, row := range rows {
			h.MemberCoefs = append(h.MemberCoefs, HDMemberCoefs{MemberID: row.int(cols, "MemberID"),
				End: [2]HDCoefs{row.coefs(cols, "Member", "1"), row.coefs(cols, "Member", "2")}})
		}
	}
	if rows, cols := t.table("NMembers", "MemberID"); t.err == nil {
		for _, row := range rows {
			h.Members = append(h.Members, HDMember{ID: row.int(cols, "MemberID"), Joint1: row.int(cols, "MJointID1"), Joint2: row.int(cols, "MJointID2"),
				PropSet1: row.int(cols, "MPropSetID1"), PropSet2: row.int(cols, "MPropSetID2"), SecGeom: row.intOr(cols, "MSecGeom", 1),
				DivSize: row.real(cols, "MDivSize"), CoefMod: row.int(cols, "MCoefMod"), HstLMod: row.intOr(cols, "MHstLMod", 1),
				PropPot: row.flag(cols, "PropPot"), Line: row.line})
		}
	}
	if n := t.count("NFillGroups"); t.err == nil && n > 0 {
		for _, row := range t.rowsAfter("NFillGroups", n, true) {
			fg := HDFillGroup{}
			k := row.intAt(0)
			if t.err == nil && (k < 0 || len(row.toks) < k+3) {
				t.fail(row.line, "NFillGroups", "fill group row needs FillNumM, %d member IDs, FillFSLoc and FillDens", k)
			}
			for j := 0; j < k && t.err == nil; j++ {
				fg.Members = append(fg.Members, row.intAt(1+j))
			}
			if t.err == nil {
				fg.FSLoc = row.realAt(1 + k)
				if isDefault(row.toks[2+k].Text) {
					fg.DensDflt = true
				} else {
					fg.Dens = row.realAt(2 + k)
				}
			}
			h.FillGroups = append(h.FillGroups, fg)
		}
	}
	if n := t.count("NMGDepths"); t.err == nil && n > 0 {
		for _, row := range t.rowsAfter("NMGDepths", n, true) {
			h.MarineGrowth = append(h.MarineGrowth, HDMarineGrowth{Dpth: row.realAt(0), Thck: row.realAt(1), Dens: row.realAt(2)})
		}
	}
	if n := t.count("NMOutputs"); t.err == nil && n > 0 {
		for _, row := range t.rowsAfter("NMOutputs", n, true) {
			mo := HDMemberOutput{MemberID: row.intAt(0)}
			k := row.intAt(1)
			for j := 0; j < k && t.err == nil; j++ {
				mo.NodeLocs = append(mo.NodeLocs, row.realAt(2+j))
			}
			h.MOutputs = append(h.MOutputs, mo)
		}
	}
	if n := t.count("NJOutputs"); t.err == nil && n > 0 {
		i, v, _, ok := r.find(normName("JOutLst"))
		if !ok {
			t.fail(r.cur, "JOutLst", "line not found (NJOutputs = %d)", n)
		}
		var ids []int
		for _, tok := range v {
			for _, w := range strings.FieldsFunc(tok.Text, func(c rune) bool { return c == ',' || c == ';' }) {
				if id, ok := parseInt(w); ok {
					ids = append(ids, id)
				}
			}
		}
		if t.err == nil && len(ids) < n {
			t.err = r.errLine(i, "JOutLst", "NJOutputs = %d needs as many joint IDs, got %d", n, len(ids))
		}
		if t.err == nil {
			h.JOutLst = ids[:n]
		}
	}
	if t.err != nil {
		return nil, t.err
	}
	if len(h.OutList) == 0 {
		list, err := sectionChannels(r, "OUTPUT CHANNELS")
		if err != nil {
			return nil, err
		}
		h.OutList = list
	}
	return h, nil
}

// tableReader reads HydroDyn's matrices and tables, keeping the first error.
type tableReader struct {
	r   *reader
	err error
}

func (t *tableReader) fail(i int, variable, format string, args ...any) {
	if t.err == nil {
		t.err = t.r.errLine(i, variable, format, args...)
	}
}

// rowsOf returns the lines carrying data from line index i on (inclusive).
func (t *tableReader) dataFrom(i, n int, variable string) []int {
	var out []int
	for j := i; j < t.r.hi && len(out) < n; j++ {
		if len(t.r.src.Lines[j].toks) > 0 {
			out = append(out, j)
		}
	}
	if len(out) < n {
		t.fail(t.r.hi-1, variable, "expected %d rows, found %d before end of file", n, len(out))
	}
	return out
}

// vector reads a 6×1 input whose first value carries the label and whose
// other values are the first words of the next data lines.
func (t *tableReader) vector(name string, dst []float64) {
	if t.err != nil {
		return
	}
	i, _, _, ok := t.r.find(normName(name))
	if !ok {
		return // absent: zeros
	}
	for k, j := range t.dataFrom(i, len(dst), name) {
		if t.err != nil {
			return
		}
		x, good := parseReal(t.r.src.Lines[j].toks[0].Text)
		if !good {
			t.fail(j, name, "row %d: expected a real number, got %q", k+1, t.r.src.Lines[j].toks[0].Text)
			return
		}
		dst[k] = x
	}
}

// matrix reads a 6×6 input whose first row carries the label.
func (t *tableReader) matrix(name string, dst *[6][6]float64) {
	if t.err != nil {
		return
	}
	i, _, _, ok := t.r.find(normName(name))
	if !ok {
		return
	}
	for k, j := range t.dataFrom(i, 6, name) {
		toks := t.r.src.Lines[j].toks
		if len(toks) < 6 {
			t.fail(j, name, "row %d has %d values, expected 6", k+1, len(toks))
			return
		}
		for c := 0; c < 6; c++ {
			x, good := parseReal(toks[c].Text)
			if !good {
				t.fail(j, name, "row %d, column %d: expected a real number, got %q", k+1, c+1, toks[c].Text)
				return
			}
			dst[k][c] = x
		}
	}
}

// count reads a row count.
func (t *tableReader) count(name string) int {
	if t.err != nil {
		return 0
	}
	n, err := t.r.integer(name)
	if err != nil {
		t.err = err
		return 0
	}
	if n < 0 {
		t.fail(t.r.cur-1, name, "must be >= 0, got %d", n)
	}
	return n
}

type tableRow struct {
	t    *tableReader
	toks []Token
	line int // index in Lines
}

// table reads the count labelled countName, then the table whose header
// starts with firstCol.
func (t *tableReader) table(countName, firstCol string) ([]tableRow, []string) {
	n := t.count(countName)
	if t.err != nil {
		return nil, nil
	}
	return t.tableRows(firstCol, n, countName)
}

// tableRows locates the header line starting with firstCol from the cursor,
// skips a units line, and returns n rows of words.
func (t *tableReader) tableRows(firstCol string, n int, variable string) ([]tableRow, []string) {
	if t.err != nil {
		return nil, nil
	}
	r := t.r
	want := normName(firstCol)
	hdr := -1
	for i := r.cur; i < r.hi; i++ {
		// a prefix match: the published IEA-22 semi names its first column
		// MemberID_HydC
		if tk := r.src.Lines[i].toks; len(tk) > 0 && !isNumber(tk[0].Text) && strings.HasPrefix(normName(tk[0].Text), want) {
			hdr = i
			break
		}
	}
	if hdr < 0 {
		t.fail(r.cur, variable, "table header with column %s not found", firstCol)
		return nil, nil
	}
	var cols []string
	for _, tk := range r.src.Lines[hdr].toks {
		cols = append(cols, tk.Text)
	}
	cols[0] = firstCol
	start := hdr + 1
	for j := hdr + 1; j < r.hi; j++ {
		tk := r.src.Lines[j].toks
		if len(tk) == 0 {
			continue
		}
		if strings.HasPrefix(tk[0].Text, "(") {
			start = j + 1
		}
		break
	}
	rows := t.rowsFrom(start, n, variable, firstCol)
	return rows, cols
}

// rowsAfter returns n data rows after the line labelled name (the count
// line), skipping the header and units lines (lines not starting with a
// number) when skipHeader is true.
func (t *tableReader) rowsAfter(name string, n int, skipHeader bool) []tableRow {
	if t.err != nil {
		return nil
	}
	i, _, _, ok := t.r.find(normName(name))
	if !ok {
		t.fail(t.r.cur, name, "line not found")
		return nil
	}
	start := i + 1
	for skipHeader && start < t.r.hi {
		tk := t.r.src.Lines[start].toks
		if len(tk) > 0 && isNumber(tk[0].Text) {
			break
		}
		start++
	}
	return t.rowsFrom(start, n, name, "")
}

func (t *tableReader) rowsFrom(start, n int, variable, firstCol string) []tableRow {
	idx := t.dataFrom(start, n, variable)
	if t.err != nil {
		return nil
	}
	rows := make([]tableRow, 0, n)
	for k, j := range idx {
		tk := t.r.src.Lines[j].toks
		if isSeparator(tk[0]) || !isNumber(tk[0].Text) {
			t.fail(j, variable, "table truncated: expected %d rows, found %d before %q", n, k, strings.TrimSpace(t.r.src.Lines[j].Raw))
			return nil
		}
		rows = append(rows, tableRow{t: t, toks: tk, line: j})
	}
	if len(idx) > 0 {
		t.r.cur = idx[len(idx)-1] + 1
	}
	return rows
}

func (w tableRow) col(cols []string, name string) int {
	c := colIndex(cols, name)
	if c >= len(w.toks) {
		return -1
	}
	return c
}

func (w tableRow) realAt(c int) float64 {
	if w.t.err != nil {
		return 0
	}
	if c < 0 || c >= len(w.toks) {
		w.t.fail(w.line, "", "table row has %d columns, expected at least %d", len(w.toks), c+1)
		return 0
	}
	x, ok := parseReal(w.toks[c].Text)
	if !ok {
		w.t.fail(w.line, "", "column %d: expected a real number, got %q", c+1, w.toks[c].Text)
	}
	return x
}

func (w tableRow) intAt(c int) int {
	if w.t.err != nil {
		return 0
	}
	if c < 0 || c >= len(w.toks) {
		w.t.fail(w.line, "", "table row has %d columns, expected at least %d", len(w.toks), c+1)
		return 0
	}
	n, ok := parseInt(w.toks[c].Text)
	if !ok {
		w.t.fail(w.line, "", "column %d: expected an integer, got %q", c+1, w.toks[c].Text)
	}
	return n
}

func (w tableRow) real(cols []string, name string) float64 {
	c := w.col(cols, name)
	if c < 0 {
		w.t.fail(w.line, name, "column %s missing", name)
		return 0
	}
	x, ok := parseReal(w.toks[c].Text)
	if !ok && w.t.err == nil {
		w.t.fail(w.line, name, "expected a real number, got %q", w.toks[c].Text)
	}
	return x
}

func (w tableRow) realOr(cols []string, name string, def float64) float64 {
	if w.col(cols, name) < 0 {
		return def
	}
	return w.real(cols, name)
}

func (w tableRow) int(cols []string, name string) int {
	c := w.col(cols, name)
	if c < 0 {
		w.t.fail(w.line, name, "column %s missing", name)
		return 0
	}
	n, ok := parseInt(w.toks[c].Text)
	if !ok && w.t.err == nil {
		w.t.fail(w.line, name, "expected an integer, got %q", w.toks[c].Text)
	}
	return n
}

func (w tableRow) intOr(cols []string, name string, def int) int {
	if w.col(cols, name) < 0 {
		return def
	}
	return w.int(cols, name)
}

func (w tableRow) flag(cols []string, name string) bool {
	c := w.col(cols, name)
	if c < 0 {
		return false
	}
	b, ok := parseFlag(w.toks[c].Text)
	if !ok && w.t.err == nil {
		w.t.fail(w.line, name, "expected TRUE or FALSE, got %q", w.toks[c].Text)
	}
	return b
}

// coefs reads the 14 strip-theory coefficients named prefix+name+suffix
// (e.g. SimplCdMG, DpthAxCa, MemberCd1); the buoyancy factors default to 1
// when their columns are absent (files before Cb existed).
func (w tableRow) coefs(cols []string, prefix, suffix string) HDCoefs {
	get := func(name string, def float64, optional bool) float64 {
		n := prefix + name + suffix
		if optional && w.col(cols, n) < 0 {
			return def
		}
		return w.real(cols, n)
	}
	// member-based names put the end index after MG: MemberCdMG1
	return HDCoefs{
		Cd: get("Cd", 0, false), CdMG: get("CdMG", 0, false), Ca: get("Ca", 0, false), CaMG: get("CaMG", 0, false),
		Cp: get("Cp", 0, false), CpMG: get("CpMG", 0, false), AxCd: get("AxCd", 0, true), AxCdMG: get("AxCdMG", 0, true),
		AxCa: get("AxCa", 0, false), AxCaMG: get("AxCaMG", 0, false), AxCp: get("AxCp", 0, false), AxCpMG: get("AxCpMG", 0, false),
		Cb: get("Cb", 1, true), CbMG: get("CbMG", 1, true),
	}
}

// parseFlag reads a Fortran logical or 0/1.
func parseFlag(s string) (bool, bool) {
	switch strings.ToUpper(strings.Trim(s, ".")) {
	case "T", "TRUE", "1":
		return true, true
	case "F", "FALSE", "0":
		return false, true
	}
	return false, false
}
