package validation

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// OutListChannels are ElastoDyn and AeroDyn channels of the IEA 15 MW
// decks' own OutLists beyond Channels: the tower-top deflection under its
// yaw-bearing names, the tower gage's position, the blade strain gages'
// section moments and the blade nodes' induced velocities (a sample of
// nodes from root to tip).
var OutListChannels = func() []string {
	c := []string{"YawBrTDxt", "YawBrTDyt", "TwHt1TPxi", "TwHt1TPyi"}
	for g := 1; g <= 3; g++ {
		c = append(c, fmt.Sprintf("Spn%dMLxb1", g), fmt.Sprintf("Spn%dMLyb1", g))
	}
	for _, n := range []int{5, 15, 25, 35, 45} {
		c = append(c, fmt.Sprintf("AB1N%03dVindx", n), fmt.Sprintf("AB1N%03dVindy", n))
	}
	return c
}()

// TestIEA15OutListChannelsAgainstOpenFAST holds the OutListChannels of the
// IEA 15 MW onshore case at 10 m/s to the 1 % bound (Tolerance).
func TestIEA15OutListChannelsAgainstOpenFAST(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a 120-s simulation")
	}
	cases, err := Discover(testshared.Path(t, "reference-outputs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Name != "iea15_onshore_steady10_rosco" {
			continue
		}
		if err := prepare(&c); err != nil {
			t.Fatal(err)
		}
		r := RunCase(context.Background(), c, OutListChannels)
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		for _, ch := range r.Channels {
			if ch.Missing != "" {
				t.Errorf("%s: %s", ch.Name, ch.Missing)
				continue
			}
			t.Logf("%-13s mean %+8.3f%% (%s)  std %+8.3f%% (%s)  rule %5.1f%%", ch.Name, 100*ch.MeanErr, ch.MeanBasis, 100*ch.StdErr, ch.StdBasis, 100*ch.RuleSettled)
			if math.Abs(ch.MeanErr) > Tolerance || math.Abs(ch.StdErr) > Tolerance {
				t.Errorf("%s: mean error %+.3f%%, std error %+.3f%% (bound %.0f%%)", ch.Name, 100*ch.MeanErr, 100*ch.StdErr, 100*Tolerance)
			}
		}
		return
	}
	t.Fatal("no iea15_onshore_steady10_rosco in reference-outputs")
}
