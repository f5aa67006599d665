package coupling

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/refoutput"
	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

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

// The IEA 15 MW monopile case in still water, run with its SubDyn
// substructure and platform DOFs but without hydrodynamics (whose mean
// horizontal load in still water is nil: buoyancy is vertical and the pile
// stands on the seabed): over 60–70 s the platform offsets, the
// substructure's interface and mudline loads and the tower-base moment
// have OpenFAST v5.0.0's means within 0.5 %.
func TestMonopileWithoutHydroMatchesOpenFASTMeans(t *testing.T) {
	p := testshared.Path(t, "reference-outputs", "iea15_monopile_steady10_still", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst")
	d, err := deck.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	d.Main.CompHydro, d.Main.CompSeaSt = 0, 0
	names := []string{"PtfmSurge", "PtfmPitch", "ReactFXss", "ReactMYss", "IntfFXss", "IntfMYss", "TwrBsMyt", "M1N1MKye"}
	res, err := Run(context.Background(), d, Options{OutPath: "-", TMax: 70, KeepData: true, Channels: names}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ref := refoutput.Means(t, strings.TrimSuffix(p, ".fst")+".outb", 60, names...)
	for i, n := range names {
		c := slices.IndexFunc(res.Channels, func(ch outfile.Channel) bool { return ch.Name == n })
		if c < 0 {
			t.Fatalf("%s missing", n)
		}
		var sum float64
		var cnt int
		for k, tk := range res.Time {
			if tk >= 60 {
				sum += res.Data[c][k]
				cnt++
			}
		}
		got := sum / float64(cnt)
		t.Logf("%-10s %.5g, OpenFAST %.5g", n, got, ref[i])
		if math.Abs(got-ref[i]) > 0.005*math.Abs(ref[i]) {
			t.Errorf("%s: mean %.5g, OpenFAST %.5g", n, got, ref[i])
		}
	}
}
