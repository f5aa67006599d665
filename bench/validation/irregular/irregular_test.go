// Package irregular holds the validation of the floating IEA 15 MW in
// irregular waves against OpenFAST (a 300-s run in waves): a test binary of
// its own, so that its cost does not add to bench/validation's under the
// per-package test timeout.
package irregular

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/bench/validation"
	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// bound is the accepted |error| of a channel's mean and standard deviation
// (fractions, on the report's basis).
type bound struct{ mean, std float64 }

const tol = validation.Tolerance

// replaySea copies the case's deck folders into a temporary directory and
// switches its SeaState file to WaveMod 5 with OpenFAST's own recorded
// wave elevation (Wave1Elev at the platform, sampled every WaveDT over the
// whole record), so that our run meets the realisation of the sea OpenFAST
// drew with its RANLUX generator. It returns the copied .fst.
func replaySea(t *testing.T, c validation.Case) string {
	t.Helper()
	src := filepath.Dir(filepath.Dir(c.FST)) // the case folder: deck and turbine folders
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if strings.HasSuffix(p, ".outb") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := outfile.ReadOutbFile(c.Outb)
	if err != nil {
		t.Fatal(err)
	}
	elev, ok := ref.Column("Wave1Elev")
	if !ok {
		t.Fatal("the reference has no Wave1Elev")
	}
	deckDir := filepath.Join(dst, filepath.Base(filepath.Dir(c.FST)))
	ssFiles, _ := filepath.Glob(filepath.Join(deckDir, "*SeaState*.dat"))
	if len(ssFiles) != 1 {
		t.Fatalf("%d SeaState files in %s", len(ssFiles), deckDir)
	}
	ssb, err := os.ReadFile(ssFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	ss := string(ssb)
	waveDT := 0.25
	if m := regexp.MustCompile(`(?m)^\s*([0-9.Ee+-]+)\s+WaveDT\b`).FindStringSubmatch(ss); m != nil {
		fmt.Sscan(m[1], &waveDT)
	}
	// The record at WaveDT, over [0, TMax): the replayed sea repeats
	// after TMax, which the run never reaches.
	var sb strings.Builder
	n := 0
	for i, tm := range ref.Time {
		k := math.Round(tm / waveDT)
		if math.Abs(tm-k*waveDT) > 1e-6 || tm >= ref.Time[len(ref.Time)-1]-1e-9 {
			continue
		}
		fmt.Fprintf(&sb, "%.4f %.6f\n", tm, elev[i])
		n++
	}
	if err := os.WriteFile(filepath.Join(deckDir, "openfast_sea.Elev"), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	set := func(name, value string) {
		re := regexp.MustCompile(`(?m)^(\s*)\S+(\s+` + regexp.QuoteMeta(name) + `\b)`)
		if !re.MatchString(ss) {
			t.Fatalf("no %s line in the SeaState file", name)
		}
		ss = re.ReplaceAllString(ss, "${1}"+value+"${2}")
	}
	set("WaveMod", "5")
	set("WaveTMax", fmt.Sprintf("%g", float64(n)*waveDT))
	set("WvKinFile", `"openfast_sea"`)
	if err := os.WriteFile(ssFiles[0], []byte(ss), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(deckDir, filepath.Base(c.FST))
}

// TestIEA15SemiIrregularInOpenFASTSea runs the IEA 15 MW semi at 10 m/s in
// the irregular sea of iea15_semi_steady10_irregular (JONSWAP Hs 4 m, Tp
// 10 s; first-order WAMIT excitation plus the full difference-frequency QTF
// of the .12d) and compares it with OpenFAST over t ≥ 60 s. The sea is
// OpenFAST's own realisation, replayed from its recorded Wave1Elev (our
// generator does not reproduce RANLUX's draws, and one 240-s realisation's
// statistics differ from another's by tens of per cent: the case's Wave1Elev
// std is 0.89 m where Hs/4 is 1 m). The bounds are in the table below;
// docs/validation.md §10.1 has the report. (In our own sea the
// difference-frequency QTF moved the mean surge from 2.9 % short to +0.1 %.)
func TestIEA15SemiIrregularInOpenFASTSea(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a 300-s floating simulation in waves")
	}
	cases, err := validation.Discover(testshared.Path(t, "reference-outputs"))
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(cases, func(c validation.Case) bool { return c.Name == "iea15_semi_steady10_irregular" })
	if i < 0 {
		t.Fatal("iea15_semi_steady10_irregular not found in reference-outputs")
	}
	c := cases[i]
	c.FST = replaySea(t, c)
	one := []validation.Case{c}
	if err := validation.Prepare(one); err != nil {
		t.Fatal(err)
	}
	c = one[0]
	r := validation.RunCase(context.Background(), c, validation.Channels)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	// Every mean within 1 %; the standard deviations of the slow surge-pitch
	// response and what follows it (rotor speed and thrust through the
	// relative wind, tower-base moment, fairlead tensions) are 1.4-4.7 %
	// low (yaw +2.3 %) and held to their present errors. The replayed sea repeats after
	// 300 s instead of OpenFAST's 850 s, so its difference frequencies are
	// 0.021 rad/s apart against a 0.045-rad/s surge resonance
	// (docs/validation.md §10.1).
	loose := map[string]bound{
		"RotSpeed": {tol, 0.02}, "GenSpeed": {tol, 0.02}, "GenPwr": {tol, 0.02},
		"BldPitch1": {tol, 0.02}, "RotThrust": {tol, 0.02},
		"TTDspFA": {tol, 0.03}, "TwrBsMyt": {tol, 0.03},
		"PtfmSurge": {tol, 0.035}, "PtfmSway": {tol, 0.055}, "PtfmPitch": {tol, 0.035},
		"PtfmYaw": {tol, 0.03}, "FAIRTEN1": {tol, 0.04}, "FAIRTEN2": {tol, 0.03}, "FAIRTEN3": {tol, 0.03},
	}
	for _, ch := range r.Channels {
		if ch.Missing != "" {
			t.Errorf("%s: %s", ch.Name, ch.Missing)
			continue
		}
		b, ok := loose[ch.Name]
		if !ok {
			b = bound{tol, tol}
		}
		t.Logf("%-10s mean %+8.3f%% (%s)  std %+8.3f%% (%s)  rule %5.1f%%", ch.Name, 100*ch.MeanErr, ch.MeanBasis, 100*ch.StdErr, ch.StdBasis, 100*ch.RuleSettled)
		if math.Abs(ch.MeanErr) > b.mean {
			t.Errorf("%s: mean error %+.3f%% exceeds %.1f%%", ch.Name, 100*ch.MeanErr, 100*b.mean)
		}
		if math.Abs(ch.StdErr) > b.std {
			t.Errorf("%s: std error %+.3f%% exceeds %.1f%%", ch.Name, 100*ch.StdErr, 100*b.std)
		}
	}
}
