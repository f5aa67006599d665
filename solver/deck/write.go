package deck

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// outFile is one file of a deck to be written: text, or a copy of an
// existing file that is referenced but not parsed (wind, WAMIT, Cp tables).
type outFile struct {
	path     string // virtual absolute path
	text     string
	copyFrom string
	what     string
}

// Write writes the deck into dir in OpenFAST v5 syntax and returns the path
// of the written .fst. The files keep their relative layout (so every file
// name inside them stays valid); dir receives the smallest directory tree
// holding them all. Referenced files that are not parsed (wind files,
// WAMIT data, ROSCO Cp/Ct/Cq tables, StC files) are copied when they exist.
// The Deck is not modified.
func Write(dir string, d *Deck) (string, error) {
	if d == nil || d.Main == nil {
		return "", fmt.Errorf("deck: Write: no primary file")
	}
	files, mainV, err := plan(d)
	if err != nil {
		return "", err
	}
	root := commonDir(files)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("deck: Write: %w", err)
	}
	var mainOut string
	for _, f := range files {
		rel, err := filepath.Rel(root, f.path)
		if err != nil || strings.HasPrefix(rel, "..") {
			return "", fmt.Errorf("deck: Write: %s escapes the output tree", f.path)
		}
		out := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return "", fmt.Errorf("deck: Write %s: %w", f.what, err)
		}
		if f.copyFrom != "" {
			if err := copyFile(f.copyFrom, out); err != nil {
				return "", fmt.Errorf("deck: Write %s: %w", f.what, err)
			}
		} else if err := os.WriteFile(out, []byte(f.text), 0o644); err != nil {
			return "", fmt.Errorf("deck: Write %s: %w", f.what, err)
		}
		if f.path == mainV {
			mainOut = out
		}
	}
	return mainOut, nil
}

func copyFile(from, to string) error {
	if filepath.Clean(from) == filepath.Clean(to) {
		return nil
	}
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// plan lists every file of the deck at its virtual path: the real path for
// a loaded deck, or below /deck for one built in memory.
func plan(d *Deck) ([]outFile, string, error) {
	mainV := d.Path
	if mainV == "" {
		mainV = filepath.FromSlash("/deck/deck.fst")
	}
	var files []outFile
	seen := map[string]int{}
	add := func(f outFile) error {
		f.path = filepath.Clean(f.path)
		if i, ok := seen[f.path]; ok {
			if files[i].text != f.text || files[i].copyFrom != f.copyFrom {
				return fmt.Errorf("deck: Write: %s and %s both resolve to %s with different contents", files[i].what, f.what, f.path)
			}
			return nil
		}
		seen[f.path] = len(files)
		files = append(files, f)
		return nil
	}
	type encoder interface{ encode() (string, error) }
	text := func(what, path string, e encoder) error {
		s, err := e.encode()
		if err != nil {
			return fmt.Errorf("deck: Write %s: %w", what, err)
		}
		return add(outFile{path: path, text: s, what: what})
	}
	m := d.Main
	if err := text("primary file", mainV, m); err != nil {
		return nil, "", err
	}
	if ed := d.ElastoDyn; ed != nil && !isNoFile(m.EDFile) {
		edV := resolvePath(mainV, m.EDFile)
		if err := text("ElastoDyn", edV, ed); err != nil {
			return nil, "", err
		}
		for i, b := range ed.Blades {
			if b != nil && i < 3 && !isNoFile(ed.BldFile[i]) {
				if err := text(fmt.Sprintf("ElastoDyn blade %d", i+1), resolvePath(edV, ed.BldFile[i]), b); err != nil {
					return nil, "", err
				}
			}
		}
		if ed.Tower != nil && !isNoFile(ed.TwrFile) {
			if err := text("ElastoDyn tower", resolvePath(edV, ed.TwrFile), ed.Tower); err != nil {
				return nil, "", err
			}
		}
	}
	for i, bd := range d.BeamDyn {
		if bd == nil || i >= 3 || isNoFile(m.BDBldFile[i]) {
			continue
		}
		bdV := resolvePath(mainV, m.BDBldFile[i])
		if err := text(fmt.Sprintf("BeamDyn blade %d", i+1), bdV, bd); err != nil {
			return nil, "", err
		}
		if bd.Blade != nil && !isNoFile(bd.BldFile) {
			if err := text(fmt.Sprintf("BeamDyn blade %d properties", i+1), resolvePath(bdV, bd.BldFile), bd.Blade); err != nil {
				return nil, "", err
			}
		}
	}
	if ad := d.AeroDyn; ad != nil && !isNoFile(m.AeroFile) {
		adV := resolvePath(mainV, m.AeroFile)
		if err := text("AeroDyn", adV, ad); err != nil {
			return nil, "", err
		}
		for i, b := range ad.Blades {
			if b != nil && i < 3 && !isNoFile(ad.ADBlFile[i]) {
				if err := text(fmt.Sprintf("AeroDyn blade %d", i+1), resolvePath(adV, ad.ADBlFile[i]), b); err != nil {
					return nil, "", err
				}
			}
		}
		for i, a := range ad.Airfoils {
			if a == nil || i >= len(ad.AFNames) {
				continue
			}
			afV := resolvePath(adV, ad.AFNames[i])
			s, coords, err := a.encode()
			if err != nil {
				return nil, "", fmt.Errorf("deck: Write airfoil %d: %w", i+1, err)
			}
			if err := add(outFile{path: afV, text: s, what: fmt.Sprintf("airfoil %d", i+1)}); err != nil {
				return nil, "", err
			}
			if coords != "" {
				if err := add(outFile{path: resolvePath(afV, a.CoordsFile), text: coords, what: fmt.Sprintf("airfoil %d coordinates", i+1)}); err != nil {
					return nil, "", err
				}
			}
		}
	}
	if w := d.InflowWind; w != nil && !isNoFile(m.InflowFile) {
		if err := text("InflowWind", resolvePath(mainV, m.InflowFile), w); err != nil {
			return nil, "", err
		}
	}
	if s := d.ServoDyn; s != nil && !isNoFile(m.ServoFile) {
		sV := resolvePath(mainV, m.ServoFile)
		if err := text("ServoDyn", sV, s); err != nil {
			return nil, "", err
		}
		if c := d.Controller; c != nil && !isNoFile(s.DLL_InFile) {
			if err := add(outFile{path: resolvePath(sV, s.DLL_InFile), text: c.encode(), what: "DISCON.IN"}); err != nil {
				return nil, "", err
			}
		}
	}
	o := d.Offshore
	for _, g := range []struct {
		name string
		g    *Generic
	}{{m.SeaStFile, o.SeaState}, {m.HydroFile, o.HydroDyn}, {m.SubFile, o.SubDyn}, {m.MooringFile, o.Mooring}} {
		if g.g != nil && !isNoFile(g.name) {
			if err := add(outFile{path: resolvePath(mainV, g.name), text: g.g.raw(), what: g.g.Kind}); err != nil {
				return nil, "", err
			}
		}
	}
	// referenced, existing, not parsed: copy
	if d.Path != "" {
		for _, f := range d.Files {
			if !f.Used || !f.Exists || f.Loaded {
				continue
			}
			if _, ok := seen[filepath.Clean(f.Path)]; ok {
				continue
			}
			if err := add(outFile{path: f.Path, copyFrom: f.Path, what: f.Role}); err != nil {
				return nil, "", err
			}
		}
	}
	return files, filepath.Clean(mainV), nil
}

// commonDir returns the deepest directory containing every file.
func commonDir(files []outFile) string {
	if len(files) == 0 {
		return ""
	}
	root := filepath.Dir(files[0].path)
	for _, f := range files[1:] {
		for !within(root, f.path) {
			parent := filepath.Dir(root)
			if parent == root {
				break
			}
			root = parent
		}
	}
	return root
}

func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// WriteFile writes one structure (*Main, *ElastoDyn, *EDBlade, *EDTower,
// *AeroDyn, *ADBlade, *Airfoil, *InflowWind, *ServoDyn, *BeamDyn, *BDBlade,
// *Discon or *Generic) to path in OpenFAST v5 syntax. An airfoil's coordinates file
// (CoordsFile) is written next to it, relative to path.
func WriteFile(path string, v any) error {
	var text string
	var err error
	switch x := v.(type) {
	case *Airfoil:
		var coords string
		text, coords, err = x.encode()
		if err == nil && coords != "" {
			cp := resolvePath(path, x.CoordsFile)
			if e := os.MkdirAll(filepath.Dir(cp), 0o755); e != nil {
				return fmt.Errorf("deck: WriteFile: %w", e)
			}
			if e := os.WriteFile(cp, []byte(coords), 0o644); e != nil {
				return fmt.Errorf("deck: WriteFile: %w", e)
			}
		}
	case *Discon:
		text = x.encode()
	case *Generic:
		text = x.raw()
	case interface{ encode() (string, error) }:
		text, err = x.encode()
	default:
		return fmt.Errorf("deck: WriteFile: cannot write %T", v)
	}
	if err != nil {
		return fmt.Errorf("deck: WriteFile %s: %w", filepath.Base(path), err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("deck: WriteFile: %w", err)
	}
	return nil
}
