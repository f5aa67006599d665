// Package deck reads, validates and writes OpenFAST input decks.
//
// It reads the OpenFAST 3.x, 4.x and 5.x dialects of the primary .fst file,
// ElastoDyn (main, blade, tower), AeroDyn v15/v4+ (main, blade, airfoil
// files), InflowWind, ServoDyn and ROSCO's DISCON.IN into typed structures,
// and HydroDyn, SeaState, SubDyn, MoorDyn and MAP++ files into generic
// key/value files. Lines are looked up by variable name (the way OpenFAST's
// ParseVar family does), so lines added or removed between versions are
// tolerated; absent lines get the newer version's default and are listed in
// each structure's Meta.Absent.
//
// Units are those of the files (SI; the doc comment of each structure says
// which angles are in degrees and which speeds in rpm).
//
// Entry points:
//
//	Load(path)            the .fst and every file of the modules it switches on
//	Write(dir, d)         a complete deck in OpenFAST v5 syntax
//	Validate(d)           switch ranges and cross-file consistency ([]Problem)
//	Detect(path)          dialect, modules, references and missing files, leniently
//	ReadAny(path)         one file of any kind (SniffKind tells which)
//	ReadElastoDyn, ReadEDBlade, ReadEDTower, ReadAeroDyn, ReadADBlade,
//	ReadAirfoil, ReadInflowWind, ReadServoDyn, ReadDiscon, ReadGeneric
//	Summarize(d), FindMainFST(dir)
//
// Every parse error is an *Error naming file, line, variable and what was
// expected; missing files wrap ErrMissingFile, legacy formats that are not
// read (AeroDyn v14 and its airfoil/tower files) wrap ErrUnsupported.
package deck

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Deck is a loaded OpenFAST model: the primary file and everything it
// references that is switched on.
type Deck struct {
	Path string // absolute path of the .fst file
	// Root is the folder LoadIn confined the deck to ("" after Load):
	// files read from the deck later (SSI files, WAMIT data) must lie in
	// it too.
	Root string

	Main       *Main
	ElastoDyn  *ElastoDyn  // Blades and Tower filled
	AeroDyn    *AeroDyn    // Blades and Airfoils filled; nil when CompAero != 2
	InflowWind *InflowWind // nil when CompInflow != 1
	ServoDyn   *ServoDyn   // nil when CompServo != 1
	// BeamDyn holds the BeamDyn file of each blade (BDBldFile(i), Blade
	// filled) when CompElast = 2, else nil; blades naming the same file
	// share one *BeamDyn.
	BeamDyn []*BeamDyn
	// Controller is the DISCON.IN named by ServoDyn's DLL_InFile, when the
	// Bladed interface is used and the file exists; nil otherwise.
	Controller *Discon
	Offshore   Offshore

	// Files lists every file reference found, loaded or not.
	Files []FileRef
}

// Offshore holds the offshore-module files, read as generic key/value files.
type Offshore struct {
	SeaState *Generic // CompSeaSt = 1
	HydroDyn *Generic // CompHydro = 1
	SubDyn   *Generic // CompSub = 1
	Mooring  *Generic // CompMooring = 1 (MAP++) or 3 (MoorDyn); see MooringKind
	// MooringKind is "MAP++", "MoorDyn", "FEAMooring", "OrcaFlex" or "".
	MooringKind string
	// SubDynSSI are the soil-structure interaction files SubDyn's base
	// reactions name, read with the deck, by the name as written.
	SubDynSSI map[string]*Source
}

// FileRef is one reference from an input file to another file.
type FileRef struct {
	Role   string // e.g. "ElastoDyn", "ElastoDyn blade 2", "AeroDyn airfoil 7"
	Named  string // the name as written in the referencing file
	Path   string // absolute path it resolves to
	From   string // absolute path of the referencing file
	Var    string // variable that names it
	Line   int    // line of that variable in From
	Used   bool   // the module or option that needs the file is switched on
	Exists bool   // a regular file (inside the tree, when the deck is confined)
	// Outside: the name leaves the deck's tree (LoadIn, DetectIn); such a
	// file is never looked at.
	Outside bool
	Loaded  bool // parsed into the Deck
}

// Missing returns the references that are needed but do not exist.
func (d *Deck) Missing() []FileRef {
	var out []FileRef
	for _, f := range d.Files {
		if f.Used && !f.Exists {
			out = append(out, f)
		}
	}
	return out
}

// isNoFile reports whether a file name means "no file".
func isNoFile(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	return n == "" || n == "unused" || n == "none" || n == "n/a" || n == "na"
}

// resolvePath makes name absolute relative to the directory of the file
// that names it (OpenFAST GetPath/PathIsRelative). Backslashes are taken as
// separators.
func resolvePath(from, name string) string {
	n := strings.ReplaceAll(name, `\`, "/")
	if filepath.IsAbs(n) {
		return filepath.Clean(n)
	}
	return filepath.Join(filepath.Dir(from), filepath.FromSlash(n))
}

type loader struct {
	tree    *Tree // nil: reads anywhere (Load, Detect)
	d       *Deck
	strict  bool // missing needed files are errors
	sources map[string]any
}

func (l *loader) ref(role, from, variable string, line int, named string, used bool) *FileRef {
	if isNoFile(named) {
		return nil
	}
	p := resolvePath(from, named)
	fr := FileRef{Role: role, Named: named, Path: p, From: from, Var: variable, Line: line, Used: used}
	if l.tree.Contains(p) {
		fr.Exists = l.tree.isRegular(p)
	} else {
		fr.Outside = true
	}
	l.d.Files = append(l.d.Files, fr)
	return &l.d.Files[len(l.d.Files)-1]
}

// missing is the error for a needed file that cannot be read: absent,
// outside the deck's tree, or not a regular file. The message names the
// file as written, never the server path it resolves to.
func (l *loader) missing(fr *FileRef, role, variable, named string, from string, line int) error {
	switch {
	case fr == nil:
		return &Error{File: from, Line: line, Variable: variable, Msg: fmt.Sprintf("%s file is required but named %q", role, named), Err: ErrMissingFile}
	case fr.Outside:
		return &Error{File: from, Line: line, Variable: variable, Msg: fmt.Sprintf("the %s file named here lies outside the deck's folder (absolute paths and '..' escapes are refused)", role), Err: ErrOutsideDeck}
	case l.tree != nil && l.tree.exists(fr.Path):
		return &Error{File: from, Line: line, Variable: variable, Msg: fmt.Sprintf("%s file %q is not a regular file (links, devices and pipes are refused)", role, named), Err: ErrOutsideDeck}
	}
	return &Error{File: from, Line: line, Variable: variable, Msg: fmt.Sprintf("%s file %q not found", role, named), Err: ErrMissingFile}
}

// Load reads the .fst file at path and, recursively, every file of the
// modules it switches on. A needed file that is missing or malformed is an
// error (*Error) naming the file, line and variable; the partly loaded Deck
// is returned with it (nil only when the .fst itself cannot be read).
//
// Load reads wherever the files point: it is for decks the operator
// trusts (tests, benchmarks, command-line tools). A deck a user sent is
// read with LoadIn.
func Load(path string) (*Deck, error) {
	return load(nil, path, true)
}

// LoadIn is Load confined to the directory tree root: every file the deck
// names must lie inside root and be a regular file there. A reference that
// leaves the tree (an absolute path, a '..' escape, a symbolic link) or
// names a device, pipe or directory is refused before anything is opened
// (an *Error wrapping ErrOutsideDeck, naming the referencing file, line
// and variable). main is the primary file, relative to root or inside it.
func LoadIn(root, main string) (*Deck, error) {
	t, err := OpenTree(root)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	return load(t, confinedPath(t, main), true)
}

// confinedPath makes main a path inside t: relative names are taken from
// the tree's directory.
func confinedPath(t *Tree, main string) string {
	if filepath.IsAbs(main) {
		return filepath.Clean(main)
	}
	return filepath.Join(t.Dir(), filepath.FromSlash(main))
}

func load(t *Tree, path string, strict bool) (*Deck, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	d := &Deck{Path: abs}
	if t != nil {
		d.Root = t.Dir()
	}
	l := &loader{tree: t, d: d, strict: strict, sources: map[string]any{}}
	src, err := readSourceIn(t, abs, false)
	if err != nil {
		return nil, err
	}
	m, err := parseMain(src)
	if err != nil {
		return nil, err
	}
	d.Main = m
	if err := checkSwitches(m); err != nil {
		return d, err
	}
	// Strict: stop at the first module that fails. Lenient (Detect): go
	// on through every module; missing files are only recorded in Files.
	var first error
	for _, loadModule := range []func() error{l.loadElastoDyn, l.loadInflow, l.loadAero, l.loadServo, l.loadOffshore} {
		err := loadModule()
		if err == nil || (!strict && errors.Is(err, ErrMissingFile)) {
			continue
		}
		if first == nil {
			first = err
		}
		if strict {
			break
		}
	}
	if err := l.loadBeamDyn(); err != nil && first == nil && (strict || !errors.Is(err, ErrMissingFile)) {
		first = err
	}
	// A confined deck must not name, for anything it uses, a file outside
	// its tree, even where the module that reads it is not this package
	// (wind files, controller input files): those readers open the path
	// later, so it is refused here, by name, before anyone opens it.
	if l.tree != nil && strict && first == nil {
		for _, f := range d.Files {
			if f.Used && (f.Outside || (!f.Exists && l.tree.exists(f.Path))) {
				first = l.missing(&f, f.Role, f.Var, f.Named, f.From, f.Line)
				break
			}
		}
	}
	return d, first
}

// readTyped loads (once per absolute path) a file with the given parser.
func readTyped[T any](l *loader, p string, includes bool, parse func(*Source) (T, error)) (T, error) {
	if v, ok := l.sources[p]; ok {
		if t, ok := v.(T); ok {
			return t, nil
		}
	}
	var zero T
	src, err := readSourceIn(l.tree, p, includes)
	if err != nil {
		return zero, err
	}
	t, err := parse(src)
	if err != nil {
		return zero, err
	}
	l.sources[p] = t
	return t, nil
}

func (l *loader) loadElastoDyn() error {
	m := l.d.Main
	used := m.CompElast == 1 || m.CompElast == 2
	fr := l.ref("ElastoDyn", l.d.Path, "EDFile", m.Meta.LineOf("EDFile"), m.EDFile, used)
	if !used {
		return nil
	}
	if fr == nil || !fr.Exists {
		return l.missing(fr, "ElastoDyn", "EDFile", m.EDFile, l.d.Path, m.Meta.LineOf("EDFile"))
	}
	ed, err := readTyped(l, fr.Path, false, parseElastoDyn)
	if err != nil {
		return err
	}
	fr.Loaded = true
	l.d.ElastoDyn = ed
	if ed.NumBl < 1 || ed.NumBl > 3 {
		return &Error{File: ed.Meta.Path, Line: ed.Meta.LineOf("NumBl"), Variable: "NumBl", Msg: fmt.Sprintf("expected 1, 2 or 3 blades, got %d", ed.NumBl)}
	}
	var firstErr error
	keep := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
	}
	ed.Blades = make([]*EDBlade, ed.NumBl)
	for i := 0; i < 3; i++ {
		used := i < ed.NumBl
		bf := l.ref(fmt.Sprintf("ElastoDyn blade %d", i+1), ed.Meta.Path, "BldFile", ed.Meta.LineOf(fmt.Sprintf("BldFile(%d)", i+1)), ed.BldFile[i], used)
		if !used {
			continue
		}
		if bf == nil || !bf.Exists {
			keep(l.missing(bf, "ElastoDyn blade", fmt.Sprintf("BldFile(%d)", i+1), ed.BldFile[i], ed.Meta.Path, ed.Meta.LineOf(fmt.Sprintf("BldFile(%d)", i+1))))
			continue
		}
		b, err := readTyped(l, bf.Path, false, parseEDBlade)
		if err != nil {
			keep(err)
			continue
		}
		bf.Loaded = true
		ed.Blades[i] = b
	}
	tf := l.ref("ElastoDyn tower", ed.Meta.Path, "TwrFile", ed.Meta.LineOf("TwrFile"), ed.TwrFile, true)
	if tf == nil || !tf.Exists {
		keep(l.missing(tf, "ElastoDyn tower", "TwrFile", ed.TwrFile, ed.Meta.Path, ed.Meta.LineOf("TwrFile")))
	} else if t, err := readTyped(l, tf.Path, false, parseEDTower); err != nil {
		keep(err)
	} else {
		tf.Loaded = true
		ed.Tower = t
	}
	l.ref("ElastoDyn furling", ed.Meta.Path, "FurlFile", ed.Meta.LineOf("FurlFile"), ed.FurlFile, ed.Furling)
	return firstErr
}

// loadBeamDyn reads the BeamDyn file of each blade and its blade file when
// CompElast = 2 (ElastoDyn + BeamDyn blades); otherwise it only records the
// references.
func (l *loader) loadBeamDyn() error {
	m := l.d.Main
	used := m.CompElast == 2
	numBl := 3
	if l.d.ElastoDyn != nil && l.d.ElastoDyn.NumBl >= 1 && l.d.ElastoDyn.NumBl <= 3 {
		numBl = l.d.ElastoDyn.NumBl
	}
	var firstErr error
	keep := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
	}
	if used {
		l.d.BeamDyn = make([]*BeamDyn, numBl)
	}
	for i := range m.BDBldFile {
		v := fmt.Sprintf("BDBldFile(%d)", i+1)
		bladeUsed := used && i < numBl
		fr := l.ref(fmt.Sprintf("BeamDyn blade %d", i+1), l.d.Path, v, m.Meta.LineOf(v), m.BDBldFile[i], bladeUsed)
		if !bladeUsed {
			continue
		}
		if fr == nil || !fr.Exists {
			keep(l.missing(fr, "BeamDyn", v, m.BDBldFile[i], l.d.Path, m.Meta.LineOf(v)))
			continue
		}
		bd, err := readTyped(l, fr.Path, false, parseBeamDyn)
		if err != nil {
			keep(err)
			continue
		}
		fr.Loaded = true
		l.d.BeamDyn[i] = bd
		bf := l.ref(fmt.Sprintf("BeamDyn blade %d properties", i+1), bd.Meta.Path, "BldFile", bd.Meta.LineOf("BldFile"), bd.BldFile, true)
		if bf == nil || !bf.Exists {
			keep(l.missing(bf, "BeamDyn blade properties", "BldFile", bd.BldFile, bd.Meta.Path, bd.Meta.LineOf("BldFile")))
			continue
		}
		b, err := readTyped(l, bf.Path, false, parseBDBlade)
		if err != nil {
			keep(err)
			continue
		}
		bf.Loaded = true
		bd.Blade = b
	}
	return firstErr
}

func (l *loader) loadAero() error {
	m := l.d.Main
	if m.CompAero == 1 && !isNoFile(m.AeroFile) {
		// v5 CompAero=1 is AeroDisk; in v3 it meant AeroDyn v14.
		l.ref("AeroDisk/AeroDyn14", l.d.Path, "AeroFile", m.Meta.LineOf("AeroFile"), m.AeroFile, true)
		return &Error{File: l.d.Path, Line: m.Meta.LineOf("CompAero"), Variable: "CompAero", Msg: "CompAero=1 (AeroDisk in v5, AeroDyn v14 in older versions) is not supported; use CompAero=2 (AeroDyn)", Err: ErrUnsupported}
	}
	used := m.CompAero == 2
	fr := l.ref("AeroDyn", l.d.Path, "AeroFile", m.Meta.LineOf("AeroFile"), m.AeroFile, used)
	if !used {
		return nil
	}
	if fr == nil || !fr.Exists {
		return l.missing(fr, "AeroDyn", "AeroFile", m.AeroFile, l.d.Path, m.Meta.LineOf("AeroFile"))
	}
	ad, err := readTyped(l, fr.Path, false, parseAeroDyn)
	if err != nil {
		return err
	}
	fr.Loaded = true
	l.d.AeroDyn = ad
	var firstErr error
	keep := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
	}
	numBl := 3
	if l.d.ElastoDyn != nil {
		numBl = l.d.ElastoDyn.NumBl
	}
	ad.Blades = make([]*ADBlade, numBl)
	for i := 0; i < 3; i++ {
		v := fmt.Sprintf("ADBlFile(%d)", i+1)
		used := i < numBl
		bf := l.ref(fmt.Sprintf("AeroDyn blade %d", i+1), ad.Meta.Path, "ADBlFile", ad.Meta.LineOf(v), ad.ADBlFile[i], used)
		if !used {
			continue
		}
		if bf == nil || !bf.Exists {
			keep(l.missing(bf, "AeroDyn blade", v, ad.ADBlFile[i], ad.Meta.Path, ad.Meta.LineOf(v)))
			continue
		}
		b, err := readTyped(l, bf.Path, false, parseADBlade)
		if err != nil {
			keep(err)
			continue
		}
		bf.Loaded = true
		ad.Blades[i] = b
	}
	ad.Airfoils = make([]*Airfoil, len(ad.AFNames))
	afLine := ad.Meta.LineOf("AFNames")
	for i, n := range ad.AFNames {
		af := l.ref(fmt.Sprintf("AeroDyn airfoil %d", i+1), ad.Meta.Path, "AFNames", afLine+i, n, true)
		if af == nil || !af.Exists {
			keep(l.missing(af, fmt.Sprintf("airfoil %d", i+1), "AFNames", n, ad.Meta.Path, afLine+i))
			continue
		}
		a, err := readTyped(l, af.Path, true, parseAirfoil)
		if err != nil {
			keep(err)
			continue
		}
		if err := a.SetColumns(ad.InCol_Alfa, ad.InCol_Cl, ad.InCol_Cd, ad.InCol_Cm, ad.InCol_Cpmin); err != nil {
			keep(err)
		}
		af.Loaded = true
		ad.Airfoils[i] = a
	}
	l.ref("AeroDyn OLAF", ad.Meta.Path, "OLAFInputFileName", ad.Meta.LineOf("OLAFInputFileName"), ad.OLAFInputFileName, ad.Wake_Mod == 3)
	l.ref("AeroAcoustics", ad.Meta.Path, "AA_InputFile", ad.Meta.LineOf("AA_InputFile"), ad.AA_InputFile, ad.CompAA)
	l.ref("AeroDyn tail fin", ad.Meta.Path, "TFinFile", ad.Meta.LineOf("TFinFile"), ad.TFinFile, ad.TFinAero)
	return firstErr
}

// checkSwitches rejects module switches outside the documented values (and
// the documented ones this package cannot load), naming the line.
func checkSwitches(m *Main) error {
	for _, c := range []struct {
		name    string
		val     int
		allowed []int
	}{
		{"CompElast", m.CompElast, []int{1, 2, 3}},
		{"CompInflow", m.CompInflow, []int{0, 1, 2}},
		{"CompAero", m.CompAero, []int{0, 1, 2, 3}},
		{"CompServo", m.CompServo, []int{0, 1}},
		{"CompSeaSt", m.CompSeaSt, []int{0, 1}},
		{"CompHydro", m.CompHydro, []int{0, 1}},
		{"CompSub", m.CompSub, []int{0, 1, 2}},
		{"CompMooring", m.CompMooring, []int{0, 1, 2, 3, 4}},
		{"CompIce", m.CompIce, []int{0, 1, 2}},
		{"CompSoil", m.CompSoil, []int{0, 1}},
	} {
		ok := false
		for _, a := range c.allowed {
			ok = ok || c.val == a
		}
		if !ok {
			return &Error{File: m.Meta.Path, Line: m.Meta.LineOf(c.name), Variable: c.name, Msg: fmt.Sprintf("unknown switch value %d (expected one of %v)", c.val, c.allowed)}
		}
	}
	if m.CompElast == 3 {
		return &Error{File: m.Meta.Path, Line: m.Meta.LineOf("CompElast"), Variable: "CompElast", Msg: "CompElast=3 (Simplified ElastoDyn) is not supported; use 1 (ElastoDyn)", Err: ErrUnsupported}
	}
	if m.CompAero == 3 {
		return &Error{File: m.Meta.Path, Line: m.Meta.LineOf("CompAero"), Variable: "CompAero", Msg: "CompAero=3 (ExtLoads) is not supported; use 2 (AeroDyn)", Err: ErrUnsupported}
	}
	return nil
}
