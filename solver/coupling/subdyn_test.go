package coupling

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// The IEA 15 MW monopile deck of the reference case runs through the seam
// with its SubDyn substructure (waves and strip theory off: CompSeaSt and
// CompHydro set to 0, so buoyancy is missing from the vertical reaction).
// Averaged over 4–10 s, the mudline reaction balances the
// weight of the substructure and the turbine above it, and the interface
// and mudline moments differ by the 45 m lever arm of the shear.
func TestMonopileRunsThroughTheSeam(t *testing.T) {
	p := testshared.Path(t, "reference-outputs", "iea15_monopile_steady10_still", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst")
	d, err := deck.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	d.Main.CompHydro, d.Main.CompSeaSt = 0, 0
	res, err := Run(context.Background(), d, Options{OutPath: "-", TMax: 10, KeepData: true,
		Channels: []string{"ReactFZss", "IntfFZss", "ReactFXss", "IntfFXss", "ReactMYss", "IntfMYss", "-ReactFZss", "M1N1MKye", "PtfmSurge"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ReactFZss", "IntfFZss", "ReactFXss", "IntfFXss", "ReactMYss", "IntfMYss", "-ReactFZss", "M1N1MKye", "PtfmSurge"}
	last := make([]float64, len(want))
	for i, name := range want {
		c := -1
		for k, ch := range res.Channels {
			if ch.Name == name {
				c = k
			}
		}
		if c < 0 {
			t.Fatalf("channel %s missing from %v", name, res.Channels)
		}
		// mean over 4–10 s: the start-up sway averages out
		var sum float64
		var n int
		for k, tk := range res.Time {
			if tk >= 4 {
				sum += res.Data[c][k]
				n++
			}
		}
		last[i] = sum / float64(n)
	}
	rz, iz, rx, ix, rmy, imy, nrz := last[0], last[1], last[2], last[3], last[4], last[5], last[6]
	t.Logf("ReactFZss %.4e IntfFZss %.4e ReactFXss %.4e IntfFXss %.4e ReactMYss %.4e IntfMYss %.4e M1N1MKye %.4e surge %.4f", rz, iz, rx, ix, rmy, imy, last[7], last[8])
	if nrz != -rz {
		t.Errorf("-ReactFZss %.6e is not the negated ReactFZss %.6e", nrz, rz)
	}
	// substructure weight 6.239e5 kg; the turbine's weight arrives through
	// the interface
	w := 6.239247e5 * 9.80665
	if math.Abs(rz-(w-iz)) > 0.02*rz {
		t.Errorf("ReactFZss %.4e, want weight %.4e minus IntfFZss %.4e", rz, w, iz)
	}
	if math.Abs(rmy+imy+45*ix) > 0.05*math.Abs(imy)+1e6 {
		t.Errorf("ReactMYss %.4e, want −(IntfMYss %.4e + 45 m × IntfFXss %.4e)", rmy, imy, ix)
	}
}

// The published IEA 22 MW monopile deck uses BeamDyn blades (CompElast 2):
// Supported refuses it on the .fst's CompElast line and says what to
// change, naming the ElastoDyn blade file its ElastoDyn file already gives.
func TestSupportedRefusesBeamDynBladesSayingWhatToChange(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-decks", "IEA-22-280-RWT", "IEA-22-280-RWT-Monopile", "IEA-22-280-RWT-Monopile.fst"))
	if err != nil {
		t.Fatal(err)
	}
	err = Supported(d)
	u, ok := err.(*Unsupported)
	if !ok {
		t.Fatalf("got %v, want *Unsupported", err)
	}
	if u.File != "IEA-22-280-RWT-Monopile.fst" || u.Variable != "CompElast" || u.Line != d.Main.Meta.LineOf("CompElast") ||
		!strings.Contains(u.Message, "set CompElast to 1") || !strings.Contains(u.Message, "IEA-22-280-RWT_ElastoDyn_blade.dat") {
		t.Errorf("got %+v", u)
	}
	// with CompElast 1 the switch passes (the next refusal, if any, is
	// about something else)
	d.Main.CompElast = 1
	if err := Supported(d); err != nil {
		if u, ok := err.(*Unsupported); ok && u.Variable == "CompElast" {
			t.Errorf("CompElast 1 still refused: %v", err)
		}
	}
}
