package decks

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// DeckModel is the project's own representation of a turbine input deck,
// used for the bundled reference turbines: typed values only (numbers,
// switches, tables, file-name references) as solver/deck reads them, with
// every trace of the original text removed (no raw lines, titles, comments
// or descriptions). WriteDeck turns it back into a complete deck through
// solver/deck's writer.
type DeckModel struct {
	Version    int              `json:"version"`
	MainFile   string           `json:"main_file"` // slash path of the .fst, relative to the tree root
	Main       *deck.Main       `json:"main"`
	ElastoDyn  *deck.ElastoDyn  `json:"elastodyn,omitempty"`
	AeroDyn    *deck.AeroDyn    `json:"aerodyn,omitempty"`
	InflowWind *deck.InflowWind `json:"inflowwind,omitempty"`
	ServoDyn   *deck.ServoDyn   `json:"servodyn,omitempty"`
	// BeamDyn holds the distinct BeamDyn files (blade file included) of a
	// deck with CompElast = 2; BeamDynOf gives, per blade, the index into
	// BeamDyn (-1: none).
	BeamDyn   []*deck.BeamDyn `json:"beamdyn,omitempty"`
	BeamDynOf []int           `json:"beamdyn_of,omitempty"`
	// Controller holds the DISCON.IN parameters: name and value words.
	Controller []ControllerValue `json:"controller,omitempty"`
	// Offshore holds the HydroDyn, SeaState, SubDyn and mooring files, which
	// solver/deck reads without a schema, as value lines (see valueLines).
	Offshore []ValueFile `json:"offshore,omitempty"`
	// DataFiles are referenced files that no module parser reads (WAMIT
	// hydrodynamic data, ROSCO Cp/Ct/Cq tables), as value lines; Path is
	// relative to the directory of the .fst.
	DataFiles []ValueFile `json:"data_files,omitempty"`
}

// ControllerValue is one DISCON.IN parameter.
type ControllerValue struct {
	Name   string       `json:"n"`
	Values []deck.Token `json:"v"`
}

// ValueFile is a file kept as value lines: each line is its words without
// comments or descriptions; "" is a blank line and "---" a section line
// (readers of these formats count lines, so none is dropped).
type ValueFile struct {
	Role  string     `json:"role,omitempty"` // "SeaState", "HydroDyn", "SubDyn", "Mooring"
	Kind  string     `json:"kind,omitempty"`
	Path  string     `json:"path,omitempty"`
	Lines [][]string `json:"lines"`
}

const deckModelVersion = 1

// ModelFromDeck builds the model of a loaded deck. mainRel is the slash
// path the .fst gets in a written tree.
func ModelFromDeck(d *deck.Deck, mainRel string) (*DeckModel, error) {
	if d == nil || d.Main == nil {
		return nil, fmt.Errorf("model: no primary file")
	}
	m := &DeckModel{Version: deckModelVersion, MainFile: mainRel}
	main := *d.Main
	main.Meta, main.Title = deck.Meta{}, "turbinesim bundled reference turbine"
	m.Main = &main
	if d.ElastoDyn != nil {
		ed := *d.ElastoDyn
		ed.Meta, ed.Title = deck.Meta{}, "ElastoDyn"
		ed.Blades = nil
		for _, b := range d.ElastoDyn.Blades {
			if b == nil {
				ed.Blades = append(ed.Blades, nil)
				continue
			}
			bc := *b
			bc.Meta, bc.Title = deck.Meta{}, "ElastoDyn blade"
			ed.Blades = append(ed.Blades, &bc)
		}
		if t := d.ElastoDyn.Tower; t != nil {
			tc := *t
			tc.Meta, tc.Title = deck.Meta{}, "ElastoDyn tower"
			ed.Tower = &tc
		}
		m.ElastoDyn = &ed
	}
	if d.AeroDyn != nil {
		ad := *d.AeroDyn
		ad.Meta, ad.Title = deck.Meta{}, "AeroDyn"
		ad.Blades, ad.Airfoils = nil, nil
		for _, b := range d.AeroDyn.Blades {
			if b == nil {
				ad.Blades = append(ad.Blades, nil)
				continue
			}
			bc := *b
			bc.Meta, bc.Title = deck.Meta{}, "AeroDyn blade"
			ad.Blades = append(ad.Blades, &bc)
		}
		for _, a := range d.AeroDyn.Airfoils {
			if a == nil {
				ad.Airfoils = append(ad.Airfoils, nil)
				continue
			}
			ac := *a
			ac.Meta, ac.Title = deck.Meta{}, "airfoil"
			ad.Airfoils = append(ad.Airfoils, &ac)
		}
		m.AeroDyn = &ad
	}
	if d.InflowWind != nil {
		iw := *d.InflowWind
		iw.Meta, iw.Title = deck.Meta{}, "InflowWind"
		m.InflowWind = &iw
	}
	if d.ServoDyn != nil {
		sd := *d.ServoDyn
		sd.Meta, sd.Title = deck.Meta{}, "ServoDyn"
		m.ServoDyn = &sd
	}
	for _, bd := range d.BeamDyn {
		idx := -1
		for k, seen := range d.BeamDyn {
			if seen == bd {
				idx = k
				break
			}
		}
		if bd == nil {
			m.BeamDynOf = append(m.BeamDynOf, -1)
			continue
		}
		if idx < len(m.BeamDynOf) && m.BeamDynOf[idx] >= 0 {
			m.BeamDynOf = append(m.BeamDynOf, m.BeamDynOf[idx]) // same file as an earlier blade
			continue
		}
		bc := *bd
		bc.Meta, bc.Title = deck.Meta{}, "BeamDyn"
		if bd.Blade != nil {
			bl := *bd.Blade
			bl.Meta, bl.Title = deck.Meta{}, "BeamDyn blade"
			bc.Blade = &bl
		}
		m.BeamDynOf = append(m.BeamDynOf, len(m.BeamDyn))
		m.BeamDyn = append(m.BeamDyn, &bc)
	}
	if d.Controller != nil {
		for _, e := range d.Controller.Entries {
			m.Controller = append(m.Controller, ControllerValue{Name: e.Name, Values: e.Values})
		}
	}
	o := d.Offshore
	for _, g := range []struct {
		role string
		g    *deck.Generic
	}{{"SeaState", o.SeaState}, {"HydroDyn", o.HydroDyn}, {"SubDyn", o.SubDyn}, {"Mooring", o.Mooring}} {
		if g.g == nil || g.g.Meta.Src == nil {
			continue
		}
		vf := ValueFile{Role: g.role, Kind: g.g.Kind}
		lines := g.g.Meta.Src.Lines
		for i := range lines {
			l := &lines[i]
			// MoorDyn finds its sections by name: its section lines are
			// kept as the format's own section names
			if g.role == "Mooring" && g.g.Kind == "MoorDyn" && i > 1 {
				if sec, ok := deck.MoorDynSectionLine(l.Raw, lines[i+1:]); ok {
					vf.Lines = append(vf.Lines, []string{sec})
					continue
				}
			}
			vf.Lines = append(vf.Lines, valueWords(l.Tokens(), i))
		}
		m.Offshore = append(m.Offshore, vf)
	}
	mainDir := filepath.Dir(d.Path)
	for _, f := range d.Files {
		if !f.Used || !f.Exists || f.Loaded {
			continue
		}
		rel, err := filepath.Rel(mainDir, f.Path)
		if err != nil {
			return nil, fmt.Errorf("model: %s: %w", f.Path, err)
		}
		lines, err := dataFileLines(f.Path)
		if err != nil {
			return nil, err
		}
		m.DataFiles = append(m.DataFiles, ValueFile{Role: f.Role, Path: filepath.ToSlash(rel), Lines: lines})
	}
	return m, nil
}

// valueWords keeps the values and names of one line of an OpenFAST-style
// input file: a section line becomes "---", the free-text title (second
// line) is dropped, and a description (the words after a lone "-") is cut.
func valueWords(toks []deck.Token, lineIdx int) []string {
	if len(toks) == 0 {
		return nil
	}
	if lineIdx == 1 || strings.HasPrefix(toks[0].Text, "--") || strings.HasPrefix(toks[0].Text, "==") {
		return []string{"---"}
	}
	var out []string
	for _, t := range toks {
		if !t.Quoted && (t.Text == "-" || t.Text == "--") {
			break
		}
		if t.Quoted {
			out = append(out, strconv.Quote(t.Text))
		} else {
			out = append(out, t.Text)
		}
	}
	return out
}

// dataFileLines reads a data file as words per line; comment lines (# or !)
// keep only their marker, since their text is prose.
func dataFileLines(path string) ([][]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	var lines [][]string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		s := strings.TrimSpace(sc.Text())
		switch {
		case s == "":
			lines = append(lines, nil)
		case strings.HasPrefix(s, "#") || strings.HasPrefix(s, "!"):
			lines = append(lines, []string{s[:1]})
		default:
			lines = append(lines, strings.Fields(s))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("model: reading %s: %w", filepath.Base(path), err)
	}
	return lines, nil
}

func joinLines(lines [][]string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.Join(l, " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// WriteDeck writes the model as a complete deck into dir (through
// deck.Write for every parsed module) and returns the slash path of the
// .fst relative to dir.
func (m *DeckModel) WriteDeck(dir string) (string, error) {
	if m.Version != deckModelVersion || m.Main == nil {
		return "", fmt.Errorf("model: unsupported version %d or no primary file", m.Version)
	}
	if !filepath.IsLocal(filepath.FromSlash(m.MainFile)) {
		return "", fmt.Errorf("model: main file %q is not a local path", m.MainFile)
	}
	d := &deck.Deck{Path: filepath.Join(dir, filepath.FromSlash(m.MainFile)), Main: m.Main,
		ElastoDyn: m.ElastoDyn, AeroDyn: m.AeroDyn, InflowWind: m.InflowWind, ServoDyn: m.ServoDyn}
	for i, k := range m.BeamDynOf {
		switch {
		case k == -1:
			d.BeamDyn = append(d.BeamDyn, nil)
		case k < 0 || k >= len(m.BeamDyn):
			return "", fmt.Errorf("model: BeamDyn file %d of blade %d does not exist", k, i+1)
		default:
			d.BeamDyn = append(d.BeamDyn, m.BeamDyn[k])
		}
	}
	if len(m.Controller) > 0 {
		c := &deck.Discon{}
		for _, e := range m.Controller {
			c.Entries = append(c.Entries, deck.DisconEntry{Name: e.Name, Values: e.Values})
		}
		d.Controller = c
	}
	for _, vf := range m.Offshore {
		src := &deck.Source{}
		for _, l := range vf.Lines {
			src.Lines = append(src.Lines, deck.Line{Raw: strings.Join(l, " ")})
		}
		g := &deck.Generic{Kind: vf.Kind, Meta: deck.Meta{Src: src}}
		switch vf.Role {
		case "SeaState":
			d.Offshore.SeaState = g
		case "HydroDyn":
			d.Offshore.HydroDyn = g
		case "SubDyn":
			d.Offshore.SubDyn = g
		case "Mooring":
			d.Offshore.Mooring, d.Offshore.MooringKind = g, vf.Kind
		}
	}
	mainOut, err := deck.Write(dir, d)
	if err != nil {
		return "", fmt.Errorf("model: writing deck: %w", err)
	}
	mainDir := filepath.Dir(mainOut)
	for _, f := range m.DataFiles {
		p := filepath.Join(mainDir, filepath.FromSlash(f.Path))
		rel, err := filepath.Rel(dir, p)
		if err != nil || !filepath.IsLocal(rel) {
			return "", fmt.Errorf("model: data file %q falls outside the deck tree", f.Path)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", fmt.Errorf("model: %w", err)
		}
		if err := os.WriteFile(p, []byte(joinLines(f.Lines)), 0o644); err != nil {
			return "", fmt.Errorf("model: %w", err)
		}
	}
	rel, err := filepath.Rel(dir, mainOut)
	if err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("model: written main file outside %s", dir)
	}
	return filepath.ToSlash(rel), nil
}
