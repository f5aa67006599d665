package decks_test

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// TestBundledDemosWriteValidDecks writes every bundled reference turbine
// through the deck writer, reads the result back with solver/deck and
// validates it; every problem found is listed.
func TestBundledDemosWriteValidDecks(t *testing.T) {
	c, err := decks.NewBundledDemos(turbines.FS)
	if err != nil {
		t.Fatal(err)
	}
	demos := c.Demos()
	if len(demos) != 5 {
		t.Fatalf("%d bundled demos, want 5", len(demos))
	}
	wantMW := map[string]float64{"nrel-5mw-land": 5, "iea-15mw-onshore": 15, "iea-15mw-monopile": 15, "iea-15mw-volturnus": 15, "iea-22mw-monopile": 22}
	for _, demo := range demos {
		t.Run(demo.ID, func(t *testing.T) {
			t.Parallel()
			if demo.Name == "" || demo.Type == "" || demo.Specs == nil || demo.Specs.RatedPowerKW == nil {
				t.Fatalf("manifest entry incomplete: %+v", demo)
			}
			if got := *demo.Specs.RatedPowerKW / 1000; got < wantMW[demo.ID]*0.99 || got > wantMW[demo.ID]*1.01 {
				t.Errorf("rated power %g MW, want %g", got, wantMW[demo.ID])
			}
			_, d := buildDemoDeck(t, c, demo.ID)
			errs := 0
			for _, p := range deck.Validate(d) {
				t.Logf("%s", p)
				if !p.Warning {
					errs++
				}
			}
			if errs > 0 {
				t.Errorf("%d validation errors", errs)
			}
			if miss := d.Missing(); len(miss) > 0 {
				for _, m := range miss {
					t.Errorf("missing %s (%s = %q)", m.Role, m.Var, m.Named)
				}
			}
			det := deck.DetectDeck(d)
			offshore := d.Offshore.HydroDyn != nil || d.Offshore.SubDyn != nil
			if wantOff := demo.Type != "onshore"; offshore != wantOff {
				t.Errorf("offshore modules loaded = %v, want %v (%s)", offshore, wantOff, det)
			}
			p, err := decks.DetailedPropertiesOf(d)
			if err != nil || len(p.Blade.BlChord) == 0 || len(p.Airfoils) == 0 || len(p.Tower.HtFract) == 0 {
				t.Fatalf("detailed properties: %v", err)
			}
		})
	}
}

func TestBundledDemoWithoutManifestGetsLabel(t *testing.T) {
	src, err := turbines.FS.ReadFile("nrel-5mw-land.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"manifest.json": {Data: []byte(`[]`)}, "my_extra-turbine.json.gz": {Data: src}}
	c, err := decks.NewBundledDemos(fsys)
	if err != nil {
		t.Fatal(err)
	}
	ds := c.Demos()
	if len(ds) != 1 || ds[0].ID != "my_extra-turbine" || ds[0].Label != "My Extra Turbine" || ds[0].Name != "" {
		t.Fatalf("demos = %+v", ds)
	}
	tb, err := c.Build("my_extra-turbine", t.TempDir())
	if err != nil || tb.Name != "My Extra Turbine" {
		t.Fatalf("build: %+v %v", tb, err)
	}
}

// TestBundledNREL5MWMatchesPublishedDeck compares the detailed properties
// of the bundled NREL 5 MW with those of the published deck it was
// generated from: every station and polar value must survive the model.
func TestBundledNREL5MWMatchesPublishedDeck(t *testing.T) {
	orig, err := deck.Load(testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := decks.NewBundledDemos(turbines.FS)
	if err != nil {
		t.Fatal(err)
	}
	tb, built := buildDemoDeck(t, c, "nrel-5mw-land")
	want, _ := decks.DetailedPropertiesOf(orig)
	got, _ := decks.DetailedPropertiesOf(built)
	if !reflect.DeepEqual(want.Blade, got.Blade) || !reflect.DeepEqual(want.Tower, got.Tower) || !reflect.DeepEqual(want.Airfoils, got.Airfoils) {
		t.Fatal("detailed properties of the bundled NREL 5 MW differ from the published deck")
	}
	if built.ElastoDyn.TowerHt != orig.ElastoDyn.TowerHt || built.ElastoDyn.TipRad != orig.ElastoDyn.TipRad || built.Main.DT != orig.Main.DT {
		t.Fatal("ElastoDyn/primary scalars differ")
	}
	if *tb.HubHeightM < 89 || *tb.HubHeightM > 91 || *tb.RotorDiameterM != 126 {
		t.Fatalf("headline specs: hub %g m, rotor %g m", *tb.HubHeightM, *tb.RotorDiameterM)
	}
}

// TestBundledDemoSpecsMatchTheirDecks derives the headline specs again from
// each bundled turbine's written deck and compares them with the manifest,
// so a manifest left stale after a change of ParamsFromDeck fails here. The
// rated rotor speeds are the published ones: NREL 5 MW 12.1 rpm (Jonkman
// et al. 2009 Table 1-1, from the built-in baseline controller), IEA 15 MW
// 7.56 rpm and IEA 22 MW 7.06 rpm (ROSCO's PC_RefSpd).
func TestBundledDemoSpecsMatchTheirDecks(t *testing.T) {
	c, err := decks.NewBundledDemos(turbines.FS)
	if err != nil {
		t.Fatal(err)
	}
	wantRPM := map[string]float64{"nrel-5mw-land": 12.1, "iea-15mw-onshore": 7.56, "iea-15mw-monopile": 7.56, "iea-15mw-volturnus": 7.56, "iea-22mw-monopile": 7.06}
	for _, demo := range c.Demos() {
		t.Run(demo.ID, func(t *testing.T) {
			_, d := buildDemoDeck(t, c, demo.ID)
			p, err := decks.ParamsFromDeck(d)
			if err != nil {
				t.Fatal(err)
			}
			same := func(name string, manifest, derived *float64) {
				if manifest == nil || derived == nil || *manifest != *derived {
					t.Errorf("%s: manifest %v, derived from the deck %v (regenerate with go run ./cmd/demos-build)", name, deref(manifest), deref(derived))
				}
			}
			same("rated_rotor_speed_rpm", demo.Specs.RatedRotorSpeedRPM, p.RatedRotorSpeedRPM)
			same("hub_height_m", demo.Specs.HubHeightM, p.HubHeightM)
			same("rotor_diameter_m", demo.Specs.RotorDiameterM, p.RotorDiameterM)
			if p.RatedRotorSpeedRPM == nil || math.Abs(*p.RatedRotorSpeedRPM-wantRPM[demo.ID]) > 0.01 {
				t.Errorf("rated rotor speed %v rpm, want %g", deref(p.RatedRotorSpeedRPM), wantRPM[demo.ID])
			}
		})
	}
}

// TestParamsFromSimpleVariableSpeedDeck: a deck on ServoDyn's simple
// variable-speed law states its rated generator speed (VS_RtGnSp = 1162
// rpm, gearbox 97:1) but no rated power.
func TestParamsFromSimpleVariableSpeedDeck(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-outputs", "nrel5mw_turb12_full", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := decks.ParamsFromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	if p.RatedRotorSpeedRPM == nil || math.Abs(*p.RatedRotorSpeedRPM-1162.0/97) > 1e-5 {
		t.Errorf("rated rotor speed %v rpm, want 1162/97 = %.5f", deref(p.RatedRotorSpeedRPM), 1162.0/97)
	}
	if p.RatedPowerKW != nil {
		t.Errorf("rated power %g kW derived from a simple variable-speed law, want none", *p.RatedPowerKW)
	}
	if p.HubHeightM == nil || *p.HubHeightM != 90 {
		t.Errorf("hub height %v m, want 90 (rounded to 7 significant digits)", deref(p.HubHeightM))
	}
}

func deref(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

// Tower station heights are derived (base height + HtFract × tower
// length) and read like the deck's numbers: rounded to 7 significant
// digits, 26.28 m and not 26.279999999999998 m (0.3 × 87.6 in binary).
func TestTowerStationHeightsAreRounded(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := decks.DetailedPropertiesOf(d)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0, 8.76, 17.52, 26.28, 35.04, 43.8, 52.56, 61.32, 70.08, 78.84, 87.6}
	if !reflect.DeepEqual(p.Tower.HeightM, want) {
		t.Fatalf("tower heights %v, want %v", p.Tower.HeightM, want)
	}
}

// buildDemoDeck writes a bundled turbine's deck into a temporary folder and
// loads it back.
func buildDemoDeck(t *testing.T, c *decks.BundledDemos, id string) (*turbinesim.Turbine, *deck.Deck) {
	t.Helper()
	dir := t.TempDir()
	tb, err := c.Build(id, dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := deck.Load(filepath.Join(dir, filepath.FromSlash(*tb.MainFile)))
	if err != nil {
		t.Fatalf("written deck of %s does not load: %v", id, err)
	}
	return tb, d
}
