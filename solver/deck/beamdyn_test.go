package deck

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// sharedBeamDyn are the BeamDyn primary and blade files of the shared decks.
var sharedBeamDyn = [][2][]string{
	{{"reference-decks", "NREL-5MW-Land", "5MW_Baseline", "NRELOffshrBsline5MW_BeamDyn.dat"},
		{"reference-decks", "NREL-5MW-Land", "5MW_Baseline", "NRELOffshrBsline5MW_BeamDyn_Blade.dat"}},
	{{"reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT", "IEA-15-240-RWT_BeamDyn.dat"},
		{"reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT", "IEA-15-240-RWT_BeamDyn_blade.dat"}},
	{{"reference-decks", "IEA-22-280-RWT", "IEA-22-280-RWT", "IEA-22-280-RWT_BeamDyn.dat"},
		{"reference-decks", "IEA-22-280-RWT", "IEA-22-280-RWT", "IEA-22-280-RWT_BeamDyn_Blade.dat"}},
}

// fullLayout is layout() over the whole file (OutLists included): section
// lines, variable names and "#" per table row, in file order.
func fullLayout(t *testing.T, p string) []string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, l := range strings.Split(string(b), "\n") {
		if i < 2 {
			continue // header and title are free text
		}
		tk := tokenize(stripComment(l))
		switch {
		case len(tk) == 0:
			continue
		case isSeparator(tk[0]):
			out = append(out, "----")
			continue
		case tk[0].Quoted && (len(tk) == 1 || tk[1].Text == "-"):
			// OutList entries: one line may hold several channels ("A, B"),
			// so a run of them counts as one list
			if len(out) == 0 || out[len(out)-1] != "channels" {
				out = append(out, "channels")
			}
			continue
		case isEnd(l):
			out = append(out, "END")
			continue
		}
		k := labelCandidates(tk)
		name := "#"
		switch {
		case k[0].pos == 1 && !isNumber(tk[1].Text):
			name = k[0].name
		case k[1].pos > 0 && tk[k[1].pos].Text != "-":
			name = k[1].name
		case k[2].pos == 0 && !isNumber(tk[0].Text):
			name = k[2].name
		}
		out = append(out, name)
	}
	return out
}

// Each BeamDyn primary and blade file of the shared decks: parse → write →
// parse gives the same values, and the written file has the same line
// structure (sections, variables in order, table shapes) as the original.
func TestBeamDynRoundTripAndLayout(t *testing.T) {
	for _, pair := range sharedBeamDyn {
		prim := testshared.Path(t, pair[0]...)
		blade := testshared.Path(t, pair[1]...)
		t.Run(filepath.Base(prim), func(t *testing.T) {
			for _, f := range []struct {
				path string
				read func(string) (any, error)
			}{
				{prim, func(p string) (any, error) { return ReadBeamDyn(p) }},
				{blade, func(p string) (any, error) { return ReadBDBlade(p) }},
			} {
				a, err := f.read(f.path)
				if err != nil {
					t.Fatalf("read %s: %v", filepath.Base(f.path), err)
				}
				out := filepath.Join(t.TempDir(), filepath.Base(f.path))
				if err := WriteFile(out, a); err != nil {
					t.Fatal(err)
				}
				b, err := f.read(out)
				if err != nil {
					t.Fatalf("read written %s: %v", filepath.Base(f.path), err)
				}
				if s := diff(filepath.Base(f.path), reflect.ValueOf(a), reflect.ValueOf(b)); s != "" {
					t.Errorf("round trip differs at %s", s)
				}
				want, got := fullLayout(t, f.path), fullLayout(t, out)
				if !reflect.DeepEqual(want, got) {
					for i := 0; i < max(len(want), len(got)); i++ {
						var w, g string
						if i < len(want) {
							w = want[i]
						}
						if i < len(got) {
							g = got[i]
						}
						if w != g {
							t.Errorf("%s: line structure differs at data line %d: original %q, written %q (%d vs %d lines)", filepath.Base(f.path), i+1, w, g, len(want), len(got))
							break
						}
					}
				}
			}
			bd, _ := ReadBeamDyn(prim)
			bl, _ := ReadBDBlade(blade)
			if bd.KpTotal != len(bd.KpZr) || len(bl.Stations) != bl.StationTotal || bl.Stations[len(bl.Stations)-1].Eta != 1 {
				t.Errorf("kp_total %d with %d rows; station_total %d with %d stations", bd.KpTotal, len(bd.KpZr), bl.StationTotal, len(bl.Stations))
			}
		})
	}
}

// Values checked against the IEA 22 MW files as published.
func TestBeamDynValues(t *testing.T) {
	// the IEA 15 MW file writes "tngt_stf_difftol-" (dash glued to the
	// label); OpenFAST reads it as tngt_stf_difftol, so must this package
	iea15, err := ReadBeamDyn(testshared.Path(t, sharedBeamDyn[1][0]...))
	if err != nil {
		t.Fatal(err)
	}
	if !iea15.Meta.Has("tngt_stf_difftol") || len(iea15.Meta.Absent) != 0 {
		t.Errorf("IEA 15 MW BeamDyn: lines taken as absent: %v", iea15.Meta.Absent)
	}
	bd, err := ReadBeamDyn(testshared.Path(t, sharedBeamDyn[2][0]...))
	if err != nil {
		t.Fatal(err)
	}
	if bd.KpTotal != 30 || bd.MemberTotal != 1 || bd.OrderElem != 10 || bd.KpZr[29] != 137.8 || bd.KpXr[29] != -7 ||
		bd.BldFile != "IEA-22-280-RWT_BeamDyn_Blade.dat" || !bd.NFact.Default || bd.Refine.Value != 2 || len(bd.OutList) != 9 || bd.OutNd[0] != 48 {
		t.Errorf("unexpected values: %+v", bd)
	}
	bl, err := ReadBDBlade(testshared.Path(t, sharedBeamDyn[2][1]...))
	if err != nil {
		t.Fatal(err)
	}
	if bl.StationTotal != 30 || bl.DampType != 1 || bl.Mu[0] != 0.004048 || bl.Stations[0].K[0][0] != 7.678774503590069e+09 ||
		bl.Stations[0].M[5][5] != 2.935002816371970e+04 || bl.Stations[1].Eta != 3.448275862068965e-02 {
		t.Errorf("unexpected blade values: station_total %d damp_type %d mu %v K11 %g", bl.StationTotal, bl.DampType, bl.Mu, bl.Stations[0].K[0][0])
	}
}

// Bad BeamDyn input is refused naming the file, the line and what is wrong.
func TestBeamDynErrors(t *testing.T) {
	prim := testshared.Path(t, sharedBeamDyn[2][0]...)
	blade := testshared.Path(t, sharedBeamDyn[2][1]...)
	edit := func(t *testing.T, p string, f func([]string) []string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines := f(strings.Split(string(b), "\n"))
		out := filepath.Join(t.TempDir(), filepath.Base(p))
		if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, c := range []struct {
		name  string
		file  string
		edit  func([]string) []string
		read  func(string) (any, error)
		line  int
		words []string
	}{
		{"quadrature not a number", prim, func(l []string) []string { l[6] = "two  quadrature - x"; return l },
			func(p string) (any, error) { return ReadBeamDyn(p) }, 7, []string{"quadrature", "integer", `"two"`}},
		{"kp_total disagrees with the member", prim, func(l []string) []string { l[20] = "31   kp_total - x"; return l },
			func(p string) (any, error) { return ReadBeamDyn(p) }, 22, []string{"kp_total", "30", "31"}},
		{"key point row with a word", prim, func(l []string) []string { l[26] = strings.Replace(l[26], "9.50344827586207e+00", "abc", 1); return l },
			func(p string) (any, error) { return ReadBeamDyn(p) }, 27, []string{"kp_zr", `"abc"`}},
		{"stiffness row short", blade, func(l []string) []string { l[11] = "1 2 3"; return l },
			func(p string) (any, error) { return ReadBDBlade(p) }, 12, []string{"station 1", "stiffness matrix row 1", "3 values"}},
		{"stations truncated", blade, func(l []string) []string { return l[:200] },
			func(p string) (any, error) { return ReadBDBlade(p) }, 200, []string{"truncated", "30 stations"}},
		{"damp_type out of range", blade, func(l []string) []string { l[4] = "3   damp_type - x"; return l },
			func(p string) (any, error) { return ReadBDBlade(p) }, 5, []string{"damp_type", "got 3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := edit(t, c.file, c.edit)
			_, err := c.read(p)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want *Error, got %v", err)
			}
			if e.File != p || e.Line != c.line {
				t.Errorf("error at %s:%d, want line %d: %v", filepath.Base(e.File), e.Line, c.line, err)
			}
			for _, w := range c.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// A deck with CompElast = 2 loads its BeamDyn files, writes them (primary
// and blade file), and the written deck has no missing file.
func TestBeamDynDeckWritten(t *testing.T) {
	d := loadShared(t, sharedDecks[3]) // IEA 22 MW monopile: CompElast = 2
	if len(d.BeamDyn) != 3 || d.BeamDyn[0] == nil || d.BeamDyn[0].Blade == nil || d.BeamDyn[0] != d.BeamDyn[2] {
		t.Fatalf("BeamDyn not loaded: %v", d.BeamDyn)
	}
	p, err := Write(t.TempDir(), d)
	if err != nil {
		t.Fatal(err)
	}
	d2, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if m := d2.Missing(); len(m) != 0 {
		t.Errorf("written deck misses %v", m)
	}
	if d2.BeamDyn[1] == nil || d2.BeamDyn[1].Blade == nil || len(d2.BeamDyn[1].Blade.Stations) != 30 {
		t.Errorf("written BeamDyn blade not read back")
	}
}
