package deck

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// TestConvertToV5MatchesOpenFASTv5Decks converts the published v3-layout
// IEA 15 MW VolturnUS-S and monopile decks and compares every input of the
// converted SeaState, HydroDyn, SubDyn and MoorDyn files with the v5 decks
// OpenFAST v5.0.0 ran in reference-outputs (same inputs → same values).
// What differs by design is set aside: each case's own edits (CASE.md,
// applied to the converted deck), the wave-kinematics grid (new in v4, no
// default; this solver does not use it) and the output-channel lists
// (the cases added channels; the converted lists must be subsets).
func TestConvertToV5MatchesOpenFASTv5Decks(t *testing.T) {
	decks := testshared.Path(t, "reference-decks")
	outs := testshared.Path(t, "reference-outputs")
	for _, c := range []struct {
		published, reference string
		edit                 func(s *SeaState)
	}{
		{"IEA-15-240-RWT/IEA-15-240-RWT-UMaineSemi/IEA-15-240-RWT-UMaineSemi.fst",
			"iea15_semi_steady10_irregular/IEA-15-240-RWT-UMaineSemi/IEA-15-240-RWT-UMaineSemi.fst",
			func(s *SeaState) { s.WaveHs, s.WaveTp = 4, 10 }},
		{"IEA-15-240-RWT/IEA-15-240-RWT-Monopile/IEA-15-240-RWT-Monopile.fst",
			"iea15_monopile_steady10_regular/IEA-15-240-RWT-Monopile/IEA-15-240-RWT-Monopile.fst",
			func(s *SeaState) { s.WaveMod, s.WaveHs, s.WaveTp = "1", 6, 10 }},
	} {
		t.Run(filepath.Base(c.published), func(t *testing.T) {
			conv, err := Load(filepath.Join(decks, c.published))
			if err != nil {
				t.Fatal(err)
			}
			warns, err := conv.ConvertToV5()
			if err != nil {
				t.Fatal(err)
			}
			ref, err := Load(filepath.Join(outs, c.reference))
			if err != nil {
				t.Fatal(err)
			}
			if conv.Main.CompSeaSt != 1 || conv.Main.SeaStFile != filepath.Base(ref.Main.SeaStFile) {
				t.Errorf("CompSeaSt %d SeaStFile %q, reference has 1 and %q", conv.Main.CompSeaSt, conv.Main.SeaStFile, ref.Main.SeaStFile)
			}
			// every added input is a warning naming a file and line
			added := 0
			for _, w := range warns {
				if !w.Warning || w.File == "" || w.Line <= 0 {
					t.Errorf("conversion warning without file and line: %v", w)
				}
				if strings.Contains(w.Message, "added by the conversion") {
					added++
				}
			}
			if added < 20 {
				t.Errorf("%d added inputs reported, want every input v5 adds (at least 20)", added)
			}

			cs, err := conv.Offshore.SeaState.SeaState()
			if err != nil {
				t.Fatal(err)
			}
			rs, err := ref.Offshore.SeaState.SeaState()
			if err != nil {
				t.Fatal(err)
			}
			c.edit(cs)
			for _, s := range []*SeaState{cs, rs} {
				s.Meta = Meta{}
				s.XHalfWidth, s.YHalfWidth, s.NX, s.NY, s.NZ, s.ZDepth = 0, 0, 0, 0, 0, DefReal{}
			}
			if !slices.Equal(cs.OutList, rs.OutList) {
				t.Errorf("SeaState channels %v, reference %v", cs.OutList, rs.OutList)
			}
			compareFields(t, "SeaState", *cs, *rs)

			ch, err := conv.Offshore.HydroDyn.HydroDyn()
			if err != nil {
				t.Fatal(err)
			}
			rh, err := ref.Offshore.HydroDyn.HydroDyn()
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range ch.OutList {
				if !slices.ContainsFunc(rh.OutList, func(r string) bool { return strings.EqualFold(r, n) }) {
					t.Errorf("HydroDyn channel %s is not in the reference deck's list %v", n, rh.OutList)
				}
			}
			for _, h := range []*HydroDyn{ch, rh} {
				h.Meta, h.OutList = Meta{}, nil
				for i := range h.Members {
					h.Members[i].Line = 0
				}
			}
			compareFields(t, "HydroDyn", *ch, *rh)

			if ref.Offshore.SubDyn != nil {
				cd, err := conv.SubDyn()
				if err != nil {
					t.Fatal(err)
				}
				rd, err := ref.SubDyn()
				if err != nil {
					t.Fatal(err)
				}
				if cd.Layout != "v5" {
					t.Errorf("converted SubDyn layout %q", cd.Layout)
				}
				var cb, rb strings.Builder
				for _, s := range []*SubDyn{cd, rd} {
					s.Title, s.OutList = "", nil
				}
				if err := cd.WriteV5(&cb); err != nil {
					t.Fatal(err)
				}
				if err := rd.WriteV5(&rb); err != nil {
					t.Fatal(err)
				}
				if cb.String() != rb.String() {
					t.Errorf("SubDyn inputs differ from the reference deck's:\n%s\n---\n%s", cb.String(), rb.String())
				}
			}
			if ref.Offshore.Mooring != nil {
				words := func(g *Generic) []string {
					var out []string
					for _, l := range g.Meta.Src.Lines {
						if f := strings.Fields(l.Raw); len(f) > 0 {
							out = append(out, strings.Join(f, " "))
						}
					}
					return out
				}
				if cw, rw := words(conv.Offshore.Mooring), words(ref.Offshore.Mooring); !slices.Equal(cw, rw) {
					t.Errorf("MoorDyn file differs from the reference deck's:\n%v\n---\n%v", cw, rw)
				}
			}
		})
	}
}

// compareFields reports each exported field of two structs that differs.
func compareFields(t *testing.T, what string, got, want any) {
	t.Helper()
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := 0; i < g.NumField(); i++ {
		if !g.Type().Field(i).IsExported() {
			continue
		}
		if a, b := g.Field(i).Interface(), w.Field(i).Interface(); !reflect.DeepEqual(a, b) {
			t.Errorf("%s %s: converted %v, OpenFAST v5 deck %v", what, g.Type().Field(i).Name, a, b)
		}
	}
}

// TestConvertToV5LeavesV5DecksAlone: a deck already in the v5 layout is not
// touched and gets no warnings.
func TestConvertToV5LeavesV5DecksAlone(t *testing.T) {
	outs := testshared.Path(t, "reference-outputs")
	d, err := Load(filepath.Join(outs, "iea15_monopile_steady10_still/IEA-15-240-RWT-Monopile/IEA-15-240-RWT-Monopile.fst"))
	if err != nil {
		t.Fatal(err)
	}
	hd, sea := d.Offshore.HydroDyn, d.Offshore.SeaState
	warns, err := d.ConvertToV5()
	if err != nil || len(warns) != 0 || d.Offshore.HydroDyn != hd || d.Offshore.SeaState != sea {
		t.Errorf("v5 deck changed: warnings %v, err %v", warns, err)
	}
}
