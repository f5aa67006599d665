package decks

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode"

	"github.com/turbinesim/turbinesim"
)

// DemoManifestEntry is one entry of the bundled turbines' manifest.json.
type DemoManifestEntry struct {
	ID          string                    `json:"id"`
	Name        string                    `json:"name"`
	Description string                    `json:"description"`
	Type        string                    `json:"type"`
	Specs       *turbinesim.TurbineParams `json:"headline_specs"`
}

// BundledDemos is the DemoCatalog of the reference turbines embedded in the
// binary (assets/turbines): every <id>.json.gz archive is listed, with the
// manifest's metadata where it has an entry.
type BundledDemos struct {
	fsys  fs.FS
	demos []turbinesim.DemoTurbine
}

var _ turbinesim.DemoCatalog = (*BundledDemos)(nil)

// NewBundledDemos reads the manifest and the archive names of fsys.
func NewBundledDemos(fsys fs.FS) (*BundledDemos, error) {
	var manifest []DemoManifestEntry
	if b, err := fs.ReadFile(fsys, "manifest.json"); err == nil {
		if err := json.Unmarshal(b, &manifest); err != nil {
			return nil, fmt.Errorf("demos: manifest.json: %w", err)
		}
	}
	byID := map[string]DemoManifestEntry{}
	for _, e := range manifest {
		byID[e.ID] = e
	}
	names, err := fs.Glob(fsys, "*.json.gz")
	if err != nil {
		return nil, fmt.Errorf("demos: %w", err)
	}
	sort.Strings(names)
	c := &BundledDemos{fsys: fsys}
	order := map[string]int{}
	for i, e := range manifest {
		order[e.ID] = i
	}
	for _, n := range names {
		id := strings.TrimSuffix(n, ".json.gz")
		d := turbinesim.DemoTurbine{ID: id, Label: LabelFromFileName(n)}
		if e, ok := byID[id]; ok {
			d.Label, d.Name, d.Description, d.Type, d.Specs = e.Name, e.Name, e.Description, e.Type, e.Specs
		}
		c.demos = append(c.demos, d)
	}
	sort.SliceStable(c.demos, func(i, j int) bool {
		oi, iok := order[c.demos[i].ID]
		oj, jok := order[c.demos[j].ID]
		if iok != jok {
			return iok
		}
		return oi < oj
	})
	return c, nil
}

// LabelFromFileName turns an archive name such as "iea-15mw-monopile.json.gz"
// into "Iea 15mw Monopile".
func LabelFromFileName(name string) string {
	base := path.Base(name)
	for _, ext := range []string{".gz", ".json", ".zip"} {
		base = strings.TrimSuffix(base, ext)
	}
	words := strings.FieldsFunc(base, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' })
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

// Demos implements DemoCatalog.
func (c *BundledDemos) Demos() []turbinesim.DemoTurbine {
	return append([]turbinesim.DemoTurbine(nil), c.demos...)
}

// Model returns the deck model of demo id.
func (c *BundledDemos) Model(id string) (*DeckModel, error) {
	found := false
	for _, d := range c.demos {
		found = found || d.ID == id
	}
	if !found {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "no bundled demo turbine %q", id)
	}
	f, err := c.fsys.Open(id + ".json.gz")
	if err != nil {
		return nil, fmt.Errorf("demos: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("demos: %s: %w", id, err)
	}
	var m DeckModel
	if err := json.NewDecoder(io.LimitReader(zr, 256<<20)).Decode(&m); err != nil {
		return nil, fmt.Errorf("demos: %s: %w", id, err)
	}
	return &m, nil
}

// Build implements DemoCatalog.
func (c *BundledDemos) Build(id, dir string) (*turbinesim.Turbine, error) {
	m, err := c.Model(id)
	if err != nil {
		return nil, err
	}
	mainRel, err := m.WriteDeck(dir)
	if err != nil {
		return nil, fmt.Errorf("demos: %s: %w", id, err)
	}
	t := &turbinesim.Turbine{Name: LabelFromFileName(id), MainFile: &mainRel}
	for _, d := range c.demos {
		if d.ID != id {
			continue
		}
		t.Name, t.Description = d.Label, d.Description
		if d.Specs != nil {
			t.TurbineParams = *d.Specs
		}
		if t.Description == "" {
			t.Description = d.Label
		}
	}
	return t, nil
}
