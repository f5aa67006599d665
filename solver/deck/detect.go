package deck

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// Dialect names the OpenFAST version family an input file is written for.
type Dialect string

const (
	DialectV3      Dialect = "OpenFAST v3.x (or older)"
	DialectV4      Dialect = "OpenFAST v4.x"
	DialectV5      Dialect = "OpenFAST v5.x"
	DialectUnknown Dialect = "unknown"
)

// FileDialect is the dialect of one file with the lines that show it.
type FileDialect struct {
	File     string
	Dialect  Dialect
	Evidence []string
}

// Module is one feature switch of the .fst file.
type Module struct {
	Switch  string // e.g. "CompAero"
	Value   int
	Meaning string // e.g. "AeroDyn"
	Enabled bool
}

// Detection summarises a deck: its dialect, switched-on modules, file
// references and missing files.
type Detection struct {
	Dialect Dialect       // of the deck as a whole (the oldest file's dialect)
	Mixed   bool          // files of different dialects
	Files   []FileDialect // per parsed file
	Modules []Module
	Refs    []FileRef
	Missing []FileRef // referenced, needed, absent
	// Offshore describes the loaded offshore-module files, by kind.
	Offshore map[string][]string
}

// Detect reads a deck leniently (missing files do not stop it) and reports
// dialect, modules and references. It returns an error only when the
// primary file itself cannot be read or a present file is malformed; the
// Detection is still filled as far as possible.
func Detect(path string) (*Detection, error) {
	d, err := load(nil, path, false)
	if d == nil {
		return nil, err
	}
	return DetectDeck(d), err
}

// DetectIn is Detect confined to the directory tree root, as LoadIn: a
// reference leaving the tree is recorded (FileRef.Outside) and never
// looked at.
func DetectIn(root, main string) (*Detection, error) {
	t, err := OpenTree(root)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	d, err := load(t, confinedPath(t, main), false)
	if d == nil {
		return nil, err
	}
	return DetectDeck(d), err
}

// DetectDeck reports dialect, modules and references of a loaded deck.
func DetectDeck(d *Deck) *Detection {
	det := &Detection{Refs: d.Files, Missing: d.Missing()}
	m := d.Main
	if m == nil {
		det.Dialect = DialectUnknown
		return det
	}
	det.Modules = modules(m)
	for _, g := range []*Generic{d.Offshore.SeaState, d.Offshore.HydroDyn, d.Offshore.SubDyn, d.Offshore.Mooring} {
		if g != nil {
			if det.Offshore == nil {
				det.Offshore = map[string][]string{}
			}
			det.Offshore[g.Kind] = g.Describe()
		}
	}
	add := func(meta *Meta, fd FileDialect) {
		fd.File = meta.Path
		det.Files = append(det.Files, fd)
	}
	add(&m.Meta, fstDialect(m))
	if ed := d.ElastoDyn; ed != nil {
		add(&ed.Meta, byLines(&ed.Meta, []string{"PitchDOF", "PBrIner(1)", "BlPIner(1)", "PtfmRefxt", "HubIner_Teeter"}, DialectV5, []string{"YawFrctMod"}, DialectV4))
	}
	if ad := d.AeroDyn; ad != nil {
		fd := FileDialect{Dialect: DialectV4}
		if len(ad.Meta.Legacy) > 0 {
			fd.Dialect = DialectV3
			for k, v := range ad.Meta.Legacy {
				fd.Evidence = append(fd.Evidence, fmt.Sprintf("legacy %s = %s", k, v))
			}
		} else if ad.Meta.Has("NacArea") || ad.Meta.Has("SectAvg") {
			fd.Dialect = DialectV5
			fd.Evidence = append(fd.Evidence, "has SectAvg/NacArea lines")
		} else {
			fd.Evidence = append(fd.Evidence, "has Wake_Mod without legacy lines")
		}
		add(&ad.Meta, fd)
	}
	if s := d.ServoDyn; s != nil {
		add(&s.Meta, byLines(&s.Meta, []string{"PitNeut(1)", "PitSpr(1)", "PitDamp(1)"}, DialectV5, nil, ""))
	}
	if h := d.Offshore.HydroDyn; h != nil {
		fd := FileDialect{Dialect: DialectV4, Evidence: []string{"no wave lines (waves live in SeaState)"}}
		if _, _, ok := h.Lookup("WaveMod"); ok {
			fd = FileDialect{Dialect: DialectV3, Evidence: []string{"HydroDyn file defines WaveMod (pre-SeaState layout, OpenFAST <= 3.5)"}}
		}
		add(&h.Meta, fd)
	}
	rank := map[Dialect]int{DialectV3: 3, DialectV4: 4, DialectV5: 5}
	det.Dialect = DialectUnknown
	best := 99
	for _, f := range det.Files {
		r, ok := rank[f.Dialect]
		if !ok {
			continue
		}
		if best != 99 && r != best {
			det.Mixed = true
		}
		if r < best {
			best = r
			det.Dialect = f.Dialect
		}
	}
	return det
}

func fstDialect(m *Main) FileDialect {
	switch {
	case m.Meta.Has("ModCoupling") || m.Meta.Has("NRotors") || m.Meta.Has("MirrorRotor"):
		return FileDialect{Dialect: DialectV5, Evidence: present(&m.Meta, "ModCoupling", "NRotors", "MirrorRotor")}
	case m.Meta.Has("CompSeaSt"):
		return FileDialect{Dialect: DialectV4, Evidence: []string{"has CompSeaSt, no ModCoupling"}}
	}
	return FileDialect{Dialect: DialectV3, Evidence: []string{"no CompSeaSt, no ModCoupling"}}
}

func present(m *Meta, names ...string) []string {
	var out []string
	for _, n := range names {
		if m.Has(n) {
			out = append(out, fmt.Sprintf("has %s (line %d)", n, m.LineOf(n)))
		}
	}
	return out
}

// byLines classifies a file by lines that newer versions added.
func byLines(m *Meta, v5 []string, d5 Dialect, v4 []string, d4 Dialect) FileDialect {
	if ev := present(m, v5...); len(ev) > 0 {
		return FileDialect{Dialect: d5, Evidence: ev}
	}
	if ev := present(m, v4...); len(ev) > 0 {
		return FileDialect{Dialect: d4, Evidence: ev}
	}
	return FileDialect{Dialect: DialectV3, Evidence: []string{fmt.Sprintf("none of %v present", v5)}}
}

func modules(m *Main) []Module {
	name := func(v int, names map[int]string) string {
		if s, ok := names[v]; ok {
			return s
		}
		return fmt.Sprintf("unknown value %d", v)
	}
	aero := map[int]string{0: "none", 1: "AeroDisk (v5) / AeroDyn v14 (older)", 2: "AeroDyn", 3: "ExtLoads"}
	return []Module{
		{"CompElast", m.CompElast, name(m.CompElast, map[int]string{1: "ElastoDyn", 2: "ElastoDyn + BeamDyn blades", 3: "Simplified ElastoDyn"}), m.CompElast > 0},
		{"CompInflow", m.CompInflow, name(m.CompInflow, map[int]string{0: "still air", 1: "InflowWind", 2: "external inflow"}), m.CompInflow > 0},
		{"CompAero", m.CompAero, name(m.CompAero, aero), m.CompAero > 0},
		{"CompServo", m.CompServo, name(m.CompServo, map[int]string{0: "none", 1: "ServoDyn"}), m.CompServo > 0},
		{"CompSeaSt", m.CompSeaSt, name(m.CompSeaSt, map[int]string{0: "none", 1: "SeaState"}), m.CompSeaSt > 0},
		{"CompHydro", m.CompHydro, name(m.CompHydro, map[int]string{0: "none", 1: "HydroDyn"}), m.CompHydro > 0},
		{"CompSub", m.CompSub, name(m.CompSub, map[int]string{0: "none", 1: "SubDyn", 2: "external platform MCKF"}), m.CompSub > 0},
		{"CompMooring", m.CompMooring, name(m.CompMooring, map[int]string{0: "none", 1: "MAP++", 2: "FEAMooring", 3: "MoorDyn", 4: "OrcaFlex"}), m.CompMooring > 0},
		{"CompIce", m.CompIce, name(m.CompIce, map[int]string{0: "none", 1: "IceFloe", 2: "IceDyn"}), m.CompIce > 0},
		{"CompSoil", m.CompSoil, name(m.CompSoil, map[int]string{0: "none", 1: "SoilDyn"}), m.CompSoil > 0},
		{"MHK", m.MHK, name(m.MHK, map[int]string{0: "not MHK", 1: "fixed MHK", 2: "floating MHK"}), m.MHK > 0},
	}
}

// String gives a short human-readable summary.
func (det *Detection) String() string {
	s := fmt.Sprintf("dialect: %s", det.Dialect)
	if det.Mixed {
		s += " (files of mixed dialects)"
	}
	for _, m := range det.Modules {
		if m.Enabled {
			s += fmt.Sprintf("\n  %s = %d (%s)", m.Switch, m.Value, m.Meaning)
		}
	}
	kinds := make([]string, 0, len(det.Offshore))
	for k := range det.Offshore {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		s += fmt.Sprintf("\n  %s: %s", kind, strings.Join(det.Offshore[kind], ", "))
	}
	for _, f := range det.Missing {
		s += fmt.Sprintf("\n  missing %s: %q named in %s (%s)", f.Role, f.Named, filepath.Base(f.From), f.Var)
	}
	return s
}
