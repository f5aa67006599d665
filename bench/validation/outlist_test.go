package validation

import (
	"context"
	"fmt"
	"math"
	"slices"
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
	holdToOpenFAST(t, OutListChannels, "iea15_onshore_steady10_rosco")
}

// AccelerationChannels are the absolute accelerations the NREL 5 MW
// reference cases record at the tower top (frame p) and the nacelle IMU
// (frame s). ElastoDyn's "relative to g" channels (YawBrTAg*p, NcIMUTAg*s),
// which no reference case records, are these plus gravity turned into
// the same frame (solver/coupling TestElastoDynDetailChannels holds that
// relation to 1e-9).
var AccelerationChannels = []string{"YawBrTAxp", "YawBrTAyp", "NcIMUTAxs", "NcIMUTAys", "NcIMUTAzs"}

// TestNREL5MWAccelerationsAgainstOpenFAST holds AccelerationChannels of
// the NREL 5 MW flexible cases at 8 m/s (BEM, and DBEMT with unsteady
// aerodynamics and tower loads) to the 1 % bound (Tolerance).
func TestNREL5MWAccelerationsAgainstOpenFAST(t *testing.T) {
	holdToOpenFAST(t, AccelerationChannels, "nrel5mw_steady8_flex_bem", "nrel5mw_steady8_full")
}

// holdToOpenFAST runs each named reference case and holds the channels'
// mean and standard deviation to OpenFAST's within Tolerance; every named
// case must be in reference-outputs.
func holdToOpenFAST(t *testing.T, channels []string, names ...string) {
	t.Helper()
	cases, err := Discover(testshared.Path(t, "reference-outputs"))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, c := range cases {
		if !slices.Contains(names, c.Name) {
			continue
		}
		if err := prepare(&c); err != nil {
			t.Fatal(err)
		}
		r := RunCase(context.Background(), c, channels)
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		ran++
		for _, ch := range r.Channels {
			if ch.Missing != "" {
				t.Errorf("%s %s: %s", c.Name, ch.Name, ch.Missing)
				continue
			}
			t.Logf("%-28s %-13s mean %+8.3f%% (%s)  std %+8.3f%% (%s)  rule %5.1f%%", c.Name, ch.Name, 100*ch.MeanErr, ch.MeanBasis, 100*ch.StdErr, ch.StdBasis, 100*ch.RuleSettled)
			if math.Abs(ch.MeanErr) > Tolerance || math.Abs(ch.StdErr) > Tolerance {
				t.Errorf("%s %s: mean error %+.3f%%, std error %+.3f%% (bound %.0f%%)", c.Name, ch.Name, 100*ch.MeanErr, 100*ch.StdErr, 100*Tolerance)
			}
		}
	}
	if ran != len(names) {
		t.Fatalf("%d of the cases %v in reference-outputs", ran, names)
	}
}
