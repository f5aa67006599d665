package validation

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// Bound is the accepted |error| of a channel's mean and standard deviation
// (fractions, on the report's basis).
type Bound struct{ Mean, Std float64 }

// NotInReference marks a compared channel that the case's OpenFAST OutList
// did not ask for (the IEA-15 decks have no TTDspFA).
var NotInReference = Bound{Mean: -1, Std: -1}

// CheckCases runs, in parallel, every reference case whose
// name starts with prefix and is a key of loose, and holds each compared
// channel to the 1 % bound unless loose names a wider one for it.
func CheckCases(t *testing.T, prefix string, loose map[string]map[string]Bound) {
	cases, err := Discover(testshared.Path(t, "reference-outputs"))
	if err != nil {
		t.Fatal(err)
	}
	tight := Bound{Mean: Tolerance, Std: Tolerance}
	seen := 0
	for _, c := range cases {
		over, ok := loose[c.Name]
		if !ok || !strings.HasPrefix(c.Name, prefix) {
			continue
		}
		seen++
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			if err := prepare(&c); err != nil {
				t.Fatal(err)
			}
			r := RunCase(context.Background(), c, Channels)
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			t.Logf("%s: wall %.1f s, %.1f× real time", c.Name, r.Wall.Seconds(), r.SimWall())
			for _, ch := range r.Channels {
				b, ok := over[ch.Name]
				if ch.Missing != "" {
					if !(ok && b == NotInReference && ch.Missing == MissingInReference) {
						t.Errorf("%s: %s", ch.Name, ch.Missing)
					}
					continue
				}
				if !ok {
					b = tight
				}
				t.Logf("%-10s mean %+8.3f%% (%s)  std %+8.3f%% (%s)  rule %5.1f%%", ch.Name, 100*ch.MeanErr, ch.MeanBasis, 100*ch.StdErr, ch.StdBasis, 100*ch.RuleSettled)
				if math.Abs(ch.MeanErr) > b.Mean {
					t.Errorf("%s: mean error %+.3f%% exceeds %.1f%%", ch.Name, 100*ch.MeanErr, 100*b.Mean)
				}
				if math.Abs(ch.StdErr) > b.Std {
					t.Errorf("%s: std error %+.3f%% exceeds %.1f%%", ch.Name, 100*ch.StdErr, 100*b.Std)
				}
			}
			// bottom-fixed cases: the first fore-aft mode (TowerModeChannels)
			for _, d := range r.Decays {
				if d.Missing != "" {
					t.Errorf("%s mode: %s", d.Name, d.Missing)
					continue
				}
				t.Logf("%s mode: %.5f Hz (OpenFAST %.5f Hz, %+.3f%%), ζ %.4f (OpenFAST %.4f)", d.Name, d.Freq, d.RefFreq, 100*d.FreqErr, d.Zeta, d.RefZeta)
				if math.Abs(d.FreqErr) > Tolerance {
					t.Errorf("%s mode: natural frequency error %+.3f%% exceeds %.0f%%", d.Name, 100*d.FreqErr, 100*Tolerance)
				}
			}
		})
	}
	if seen != len(loose) {
		t.Errorf("%d of the %d expected %s cases found in reference-outputs", seen, len(loose), prefix)
	}
}
