package views

import (
	"testing"

	"github.com/turbinesim/turbinesim/solver/dlc"
)

// A deck's hub height of 150.0001 m is shown as 150 m; a rotor of
// 241.94 m keeps its centimetres.
func TestFmtParamRounds(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{150.0001, "150 m"}, {241.94, "241.94 m"}, {12.1, "12.1 m"}, {0, "0 m"}, {-3.456, "-3.46 m"}} {
		v := c.v
		if got := fmtParam(&v, "m"); got != c.want {
			t.Errorf("fmtParam(%v) = %q, want %q", c.v, got, c.want)
		}
	}
	if got := fmtParam(nil, "m"); got != "—" {
		t.Errorf("fmtParam(nil) = %q", got)
	}
}

// The organization page's usage reads as money and grouped counts.
func TestDollarsAndThousands(t *testing.T) {
	for c, want := range map[int64]string{0: "$0.00", 20: "$0.20", 5000: "$50.00", 123456789: "$1,234,567.89"} {
		if got := dollars(c); got != want {
			t.Errorf("dollars(%d) = %q, want %q", c, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1000000: "1,000,000", -12345: "-12,345"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// The load basis's total row sums runs and time; its seeds and γf cells
// stay blank instead of reading "0" and "0.00".
func TestBasisTotalRowBlank(t *testing.T) {
	total := dlc.BasisRow{DLC: "total", Runs: 24}
	if basisSeeds(total) != "" || basisGamma(total) != "" {
		t.Errorf("total row: seeds %q, γf %q", basisSeeds(total), basisGamma(total))
	}
	row := dlc.BasisRow{DLC: "1.1", Seeds: 6, Gamma: 1.25}
	if basisSeeds(row) != "6" || basisGamma(row) != "1.25" {
		t.Errorf("DLC row: seeds %q, γf %q", basisSeeds(row), basisGamma(row))
	}
}
