package deck

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
)

var typMeta = reflect.TypeOf(Meta{})

// diff compares two values, ignoring Meta fields (where things were found)
// and Generic files (compared by content), and returns the first difference.
func diff(path string, a, b reflect.Value) string {
	if a.Kind() != b.Kind() {
		return path + ": kind differs"
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil vs non-nil"
			}
			return ""
		}
		if g, ok := a.Interface().(*Generic); ok {
			if g.raw() != b.Interface().(*Generic).raw() {
				return path + ": generic file content differs"
			}
			return ""
		}
		return diff(path, a.Elem(), b.Elem())
	case reflect.Struct:
		if a.Type() == typMeta {
			return ""
		}
		for i := 0; i < a.NumField(); i++ {
			f := a.Type().Field(i)
			if !f.IsExported() || f.Name == "Path" || f.Name == "Files" || f.Name == "Line" {
				continue
			}
			if s := diff(path+"."+f.Name, a.Field(i), b.Field(i)); s != "" {
				return s
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d vs %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if s := diff(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); s != "" {
				return s
			}
		}
		return ""
	case reflect.Map:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return path + ": map differs"
		}
		return ""
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Sprintf("%s: %v vs %v", path, a.Interface(), b.Interface())
		}
		return ""
	}
}

// Parse → write (v5 syntax) → parse must give equal structures for every
// shared deck, whatever dialect it was written in.
func TestRoundTripSharedDecks(t *testing.T) {
	for _, elem := range sharedDecks {
		t.Run(elem[len(elem)-1], func(t *testing.T) {
			d := loadShared(t, elem)
			dir := t.TempDir()
			p, err := Write(dir, d)
			if err != nil {
				t.Fatalf("Write: %v", err)
			}
			d2, err := Load(p)
			if err != nil {
				t.Fatalf("Load(written): %v", err)
			}
			if s := diff("Deck", reflect.ValueOf(d), reflect.ValueOf(d2)); s != "" {
				t.Errorf("round trip differs at %s", s)
			}
			// the written files are in v5 syntax: no v5 line may be absent
			for name, m := range map[string]*Meta{"main": &d2.Main.Meta, "ElastoDyn": &d2.ElastoDyn.Meta} {
				if len(m.Absent) != 0 {
					t.Errorf("%s written without %v", name, m.Absent)
				}
			}
			if d2.AeroDyn != nil && len(d2.AeroDyn.Meta.Legacy) != 0 {
				t.Errorf("written AeroDyn still has legacy lines %v", d2.AeroDyn.Meta.Legacy)
			}
			// writing again gives identical files
			p2, err := Write(t.TempDir(), d2)
			if err != nil {
				t.Fatal(err)
			}
			d3, err := Load(p2)
			if err != nil {
				t.Fatal(err)
			}
			if s := diff("Deck", reflect.ValueOf(d2), reflect.ValueOf(d3)); s != "" {
				t.Errorf("second round trip differs at %s", s)
			}
		})
	}
}

// A deck built in memory (no source paths) is written with the layout its
// file names imply, and reads back equal.
func TestWriteInMemoryDeck(t *testing.T) {
	d := loadShared(t, sharedDecks[1])
	mem := *d
	mem.Path = ""
	mem.Files = nil
	p, err := Write(t.TempDir(), &mem)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != "deck.fst" {
		t.Errorf("main written as %s", p)
	}
	// the ROSCO Cp table is not part of the structures (no source path is
	// known to copy it from): it must be the only missing file
	d2, err := load(nil, p, false)
	if err != nil {
		t.Fatalf("load(written): %v", err)
	}
	miss := d2.Missing()
	if len(miss) != 1 || miss[0].Var != "PerfFileName" {
		t.Errorf("missing files %+v, want only PerfFileName", miss)
	}
	if s := diff("Deck", reflect.ValueOf(&mem), reflect.ValueOf(d2)); s != "" {
		t.Errorf("in-memory round trip differs at %s", s)
	}
}

func TestWriteFileServoDyn(t *testing.T) {
	d := loadShared(t, sharedDecks[1])
	s := *d.ServoDyn
	s.DLL_FileName = "/opt/turbinesim/builtin-rosco"
	p := filepath.Join(t.TempDir(), "srvd.dat")
	if err := WriteFile(p, &s); err != nil {
		t.Fatal(err)
	}
	got, err := ReadServoDyn(p)
	if err != nil {
		t.Fatal(err)
	}
	if got.DLL_FileName != s.DLL_FileName || got.PCMode != 5 || got.DLL_InFile != d.ServoDyn.DLL_InFile {
		t.Errorf("got %q %d %q", got.DLL_FileName, got.PCMode, got.DLL_InFile)
	}
	if err := WriteFile(p, 42); err == nil {
		t.Error("writing an int: want an error")
	}
}
