package deck

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The offshore reference decks (OpenFAST v3.x layout: waves in HydroDyn, no
// SeaState) are consistent as published; once written by Write, whose
// primary file is v5 syntax (CompSeaSt line), the pre-v4 HydroDyn file is
// reported with file and line instead of passing silently.
func TestValidateReportsPreV4HydroDynUnderV5Primary(t *testing.T) {
	for _, elem := range sharedDecks[1:4] {
		t.Run(elem[len(elem)-1], func(t *testing.T) {
			d := loadShared(t, elem)
			if d.Offshore.HydroDyn == nil {
				t.Fatal("no HydroDyn file loaded")
			}
			find := func(d *Deck) *Problem {
				for _, p := range Validate(d) {
					if p.Variable == "WaveMod" && strings.Contains(p.Message, "pre-v4 layout") {
						return &p
					}
				}
				return nil
			}
			if p := find(d); p != nil {
				t.Errorf("published v3 deck reported as mixed: %v", p)
			}
			out, err := Write(t.TempDir(), d)
			if err != nil {
				t.Fatal(err)
			}
			d2, err := Load(out)
			if err != nil {
				t.Fatal(err)
			}
			p := find(d2)
			if p == nil {
				t.Fatal("written deck (v5 primary, pre-v4 HydroDyn) not reported")
			}
			_, line, _ := d2.Offshore.HydroDyn.Lookup("WaveMod")
			if p.File != d2.Offshore.HydroDyn.Meta.Path || p.Line != line || line == 0 {
				t.Errorf("reported at %s:%d, want %s:%d", filepath.Base(p.File), p.Line, filepath.Base(d2.Offshore.HydroDyn.Meta.Path), line)
			}
			if det := DetectDeck(d2); !det.Mixed {
				t.Errorf("written deck not detected as mixed: %s", det)
			}
		})
	}
}

// Offshore-module files are written back exactly as read (they are not
// converted), so every value the service shows (Describe) and every line
// keeps its place.
func TestOffshoreFilesWrittenAsRead(t *testing.T) {
	for _, elem := range sharedDecks[1:5] {
		t.Run(elem[len(elem)-1], func(t *testing.T) {
			d := loadShared(t, elem)
			out, err := Write(t.TempDir(), d)
			if err != nil {
				t.Fatal(err)
			}
			d2, err := Load(out)
			if err != nil {
				t.Fatal(err)
			}
			o1, o2 := d.Offshore, d2.Offshore
			n := 0
			for i, pair := range [][2]*Generic{{o1.SeaState, o2.SeaState}, {o1.HydroDyn, o2.HydroDyn}, {o1.SubDyn, o2.SubDyn}, {o1.Mooring, o2.Mooring}} {
				a, b := pair[0], pair[1]
				if (a == nil) != (b == nil) {
					t.Fatalf("module %d: loaded %v, written %v", i, a != nil, b != nil)
				}
				if a == nil {
					continue
				}
				n++
				if !reflect.DeepEqual(a.Describe(), b.Describe()) {
					t.Errorf("%s values differ: %v vs %v", a.Kind, a.Describe(), b.Describe())
				}
				ra, err1 := os.ReadFile(a.Meta.Path)
				rb, err2 := os.ReadFile(b.Meta.Path)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				la := strings.Split(strings.ReplaceAll(string(ra), "\r", ""), "\n")
				lb := strings.Split(string(rb), "\n")
				if len(lb) < len(la) || strings.Join(lb[:len(la)], "\n") != strings.Join(la, "\n") {
					t.Errorf("%s not written as read", a.Kind)
				}
			}
			if n == 0 {
				t.Fatal("no offshore module loaded")
			}
		})
	}
}

// Bad values of the offshore keys the service validates are reported with
// file, line and variable (the files themselves are never changed).
func TestValidateOffshoreValues(t *testing.T) {
	for _, c := range []struct {
		deck      []string
		file      string // suffix of the offshore file to edit
		variable  string
		replace   [2]string // first line containing [0] becomes [1]
		wantInMsg string
	}{
		{sharedDecks[2], "_HydroDyn.dat", "WaveMod", [2]string{"WaveMod", "9     WaveMod - edited"}, "value 9 not allowed"},
		{sharedDecks[2], "_HydroDyn.dat", "PotMod", [2]string{"PotMod", "x     PotMod - edited"}, `expected an integer, got "x"`},
		{sharedDecks[2], "_MoorDyn.dat", "dtM", [2]string{"dtM", "-1   dtM - edited"}, "must be > 0, got -1"},
		{sharedDecks[1], "_SubDyn.dat", "IntMethod", [2]string{"IntMethod", "7   IntMethod - edited"}, "value 7 not allowed"},
	} {
		t.Run(c.variable, func(t *testing.T) {
			d := loadShared(t, c.deck)
			out, err := Write(t.TempDir(), d)
			if err != nil {
				t.Fatal(err)
			}
			var target string
			_ = filepath.WalkDir(filepath.Dir(out), func(p string, e os.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(p, c.file) {
					target = p
				}
				return nil
			})
			b, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(b), "\n")
			at := 0
			for i, l := range lines {
				if f := strings.Fields(l); len(f) > 1 && f[1] == c.replace[0] {
					lines[i], at = c.replace[1], i+1
					break
				}
			}
			if at == 0 {
				t.Fatalf("%s has no %s line", filepath.Base(target), c.replace[0])
			}
			if err := os.WriteFile(target, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			d2, err := Load(out)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			for _, p := range Validate(d2) {
				if p.Variable == c.variable && strings.Contains(p.Message, c.wantInMsg) {
					if p.File != target || p.Line != at || p.Warning {
						t.Errorf("reported as %v, want %s:%d (error)", p, filepath.Base(target), at)
					}
					return
				}
			}
			t.Errorf("%s=%q not reported; problems: %v", c.variable, c.replace[1], Validate(d2))
		})
	}
}
