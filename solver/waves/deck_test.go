package waves

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"gonum.org/v1/gonum/stat"
)

// TestFromDeckReferenceCases builds the seas of the reference monopile
// (regular H 6 m, T 10 s) and semi (JONSWAP Hs 4 m, Tp 10 s) decks and
// checks the Wave1Elev channel: ±3 m for the regular wave, a standard
// deviation near Hs/4 for the irregular sea.
func TestFromDeckReferenceCases(t *testing.T) {
	dir := testshared.Path(t, "reference-outputs")
	mono := filepath.Join(dir, "iea15_monopile_steady10_regular")
	d, err := deck.Load(filepath.Join(mono, "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"))
	if err != nil {
		t.Fatal(err)
	}
	s, ss, err := FromDeck(d, mono)
	if err != nil {
		t.Fatal(err)
	}
	out, warn := s.Outputs(ss)
	if len(warn) != 0 || len(out.Names) != 1 || out.Names[0] != "Wave1Elev" {
		t.Fatalf("outputs %v, warnings %v", out.Names, warn)
	}
	v := make([]float64, 1)
	lo, hi := 0.0, 0.0
	for tm := 0.0; tm < 20; tm += 0.05 {
		out.Eval(tm, v)
		lo, hi = math.Min(lo, v[0]), math.Max(hi, v[0])
	}
	if math.Abs(hi-3) > 0.01 || math.Abs(lo+3) > 0.01 {
		t.Errorf("regular Wave1Elev range [%g, %g], want ±3 m", lo, hi)
	}

	semi := filepath.Join(dir, "iea15_semi_steady10_irregular")
	d, err = deck.Load(filepath.Join(semi, "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"))
	if err != nil {
		t.Fatal(err)
	}
	s, ss, err = FromDeck(d, semi)
	if err != nil {
		t.Fatal(err)
	}
	// second-order kinematics are modelled: the deck's WvDiffQTF and
	// WvSumQTF reach the sea without a warning
	if c := s.Config(); len(s.Warnings) != 0 || !c.WvDiffQTF || !c.WvSumQTF {
		t.Errorf("warnings %v, WvDiffQTF %v, WvSumQTF %v: want none, true, true", s.Warnings, c.WvDiffQTF, c.WvSumQTF)
	}
	out, _ = s.Outputs(ss)
	var e []float64
	for tm := 0.0; tm < s.Period(); tm += 0.25 {
		out.Eval(tm, v)
		e = append(e, v[0])
	}
	if sd := stat.StdDev(e, nil); math.Abs(sd-1) > 0.1 {
		t.Errorf("irregular Wave1Elev std over %g s = %g m, want ≈ Hs/4 = 1 m", s.Period(), sd)
	}
}

// TestFromDeckUserElevation: a WaveMod 5 SeaState reads WvKinFile.Elev from
// the deck's folder (listed among the deck's files) and reproduces it.
func TestFromDeckUserElevation(t *testing.T) {
	dir := testshared.Path(t, "reference-outputs", "iea15_semi_steady10_still")
	tmp := t.TempDir()
	if err := os.CopyFS(tmp, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	ssPath := filepath.Join(tmp, "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi_SeaState.dat")
	os.Chmod(ssPath, 0o644)
	b, err := os.ReadFile(ssPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) > 1 && f[1] == "WaveMod" {
			lines[i] = "5 WaveMod"
		}
		if len(f) > 1 && f[1] == "WvKinFile" {
			lines[i] = `"waves" WvKinFile`
		}
		if len(f) > 1 && f[1] == "WaveTMax" {
			lines[i] = "100 WaveTMax"
		}
		// the series is first order: SeaState would add second-order
		// terms computed from it (the deck sets both QTF flags)
		if len(f) > 1 && (f[1] == "WvDiffQTF" || f[1] == "WvSumQTF") {
			lines[i] = "False " + f[1]
		}
	}
	if err := os.WriteFile(ssPath, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	var elev strings.Builder
	want := func(tm float64) float64 { return 0.5*math.Cos(2*math.Pi*tm/10) + 0.2*math.Sin(2*math.Pi*tm/5) }
	for k := 0; k < 400; k++ {
		fmt.Fprintf(&elev, "%g %.10f\n", float64(k)*0.25, want(float64(k)*0.25))
	}
	os.WriteFile(filepath.Join(tmp, "IEA-15-240-RWT-UMaineSemi", "waves.Elev"), []byte("Time Elev\n"+elev.String()), 0o644)
	d, err := deck.LoadIn(tmp, filepath.Join("IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"))
	if err != nil {
		t.Fatal(err)
	}
	listed := false
	for _, f := range d.Files {
		listed = listed || (f.Var == "WvKinFile" && f.Exists)
	}
	if !listed {
		t.Error("the .Elev file is not among the deck's files")
	}
	s, _, err := FromDeck(d, "") // the root LoadIn confined the deck to
	if err != nil {
		t.Fatal(err)
	}
	p := s.Probe(0, 0, 0)
	for _, tm := range []float64{0, 1.25, 37.5, 77} {
		if math.Abs(p.Elevation(tm)-want(tm)) > 1e-6 {
			t.Errorf("t=%g: elevation %g, series %g", tm, p.Elevation(tm), want(tm))
		}
	}
}
