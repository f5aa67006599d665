package db_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// builtTurbine stores a turbine built from scratch (POST /turbines) with a
// complete deck: NREL 5 MW template, 126 m rotor, 90 m hub.
func (f *turbineFixture) builtTurbine(t *testing.T, name string) *turbinesim.Turbine {
	t.Helper()
	c, err := decks.NewBundledDemos(turbines.FS)
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := c.Model(decks.BuildTemplateID)
	if err != nil {
		t.Fatal(err)
	}
	req := turbinesim.TurbineCreate{Name: name, TurbineParams: turbinesim.TurbineParams{
		RatedPowerKW: fptr(5000), RotorDiameterM: fptr(126), HubHeightM: fptr(90), RatedRotorSpeedRPM: fptr(12.1),
		CutInWindSpeedMS: fptr(3), RatedWindSpeedMS: fptr(11.4), CutOutWindSpeedMS: fptr(25)},
		BladeConfig: turbinesim.ConfigBlob(`{"material":"glass fibre"}`)}
	tb, dir, cleanup, err := decks.BuildTurbine(context.Background(), &req, tpl)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	tb.OrganizationID = f.orgA
	if err := f.svc.CreateTurbine(context.Background(), tb, dir); err != nil {
		t.Fatal(err)
	}
	return tb
}

// storedDeck loads the turbine's stored deck as jobs and
// detailed-properties do (OpenTurbineDeck).
func (f *turbineFixture) storedDeck(t *testing.T, id string) *deck.Deck {
	t.Helper()
	main, release, err := dbtest.OpenDeck(context.Background(), f.svc, f.orgA, id)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	d, err := deck.Load(main)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// treeFiles reads every file of the turbine's stored tree.
func (f *turbineFixture) treeFiles(t *testing.T, id string) map[string]string {
	t.Helper()
	main, release, err := dbtest.OpenDeck(context.Background(), f.svc, f.orgA, id)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	tb, _ := f.svc.FindTurbine(context.Background(), f.orgA, id)
	root := strings.TrimSuffix(main, filepath.FromSlash(*tb.MainFile))
	files := map[string]string{}
	err = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestTurbineUpdateRebuildsDeckOnHubHeightEdit(t *testing.T) {
	t.Parallel()
	f := newTurbineFixture(t)
	ctx := context.Background()
	tb := f.builtTurbine(t, "Scratch")
	before := f.storedDeck(t, tb.ID)
	oldKey := *tb.SourceKey

	up, err := f.svc.UpdateTurbine(ctx, f.orgA, tb.ID, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{HubHeightM: fptr(110)}})
	if err != nil {
		t.Fatal(err)
	}
	if *up.HubHeightM != 110 || up.IsValidated || *up.SourceKey == oldKey {
		t.Fatalf("update: hub %v validated %v key %v (old %s)", *up.HubHeightM, up.IsValidated, *up.SourceKey, oldKey)
	}
	if trees := f.storedTrees(t); !reflect.DeepEqual(trees, []string{*up.SourceKey}) {
		t.Fatalf("stored trees %v, want only the new %s (old removed after commit)", trees, *up.SourceKey)
	}
	after := f.storedDeck(t, tb.ID)
	if got, want := after.ElastoDyn.TowerHt, before.ElastoDyn.TowerHt+20; math.Abs(got-want) > 1e-9 {
		t.Fatalf("TowerHt %g, want %g (20 m taller)", got, want)
	}
	p, err := decks.ParamsFromDeck(after)
	if err != nil {
		t.Fatal(err)
	}
	if *p.HubHeightM != 110 || *p.RotorDiameterM != 126 {
		t.Fatalf("params from the new deck: hub %g diameter %g, want 110 and 126", *p.HubHeightM, *p.RotorDiameterM)
	}
	props, err := decks.DetailedPropertiesOf(after)
	if err != nil {
		t.Fatal(err)
	}
	if top := props.Tower.HeightM[len(props.Tower.HeightM)-1]; math.Abs(top-after.ElastoDyn.TowerHt) > 1e-4 || math.Abs(top-(before.ElastoDyn.TowerHt+20)) > 1e-4 {
		t.Fatalf("detailed-properties tower top %g m, want %g", top, before.ElastoDyn.TowerHt+20)
	}
	// Only ElastoDyn's main file was rewritten; blades, airfoils and the
	// rest are as built.
	if !reflect.DeepEqual(after.AeroDyn.Blades[0].BlSpn, before.AeroDyn.Blades[0].BlSpn) || !reflect.DeepEqual(after.ElastoDyn.Tower.HtFract, before.ElastoDyn.Tower.HtFract) {
		t.Fatal("a hub height edit changed the blades or tower stations")
	}

	// Rotor diameter: TipRad and the AeroDyn span follow; the hub stays.
	// The built deck's baseline controller is retuned to the new rotor,
	// and a 140 m rotor at 12.1 rpm reaches 5 MW on its optimal-mode
	// torque curve below rated speed (as POST refuses that build), so the
	// edit states a rated point the 140 m rotor can hold.
	if _, err := f.svc.UpdateTurbine(ctx, f.orgA, tb.ID, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{RotorDiameterM: fptr(140), RatedPowerKW: fptr(6000), RatedRotorSpeedRPM: fptr(11)}}); err != nil {
		t.Fatal(err)
	}
	after = f.storedDeck(t, tb.ID)
	p, _ = decks.ParamsFromDeck(after)
	bl := after.AeroDyn.Blades[0].BlSpn
	if *p.RotorDiameterM != 140 || *p.HubHeightM != 110 || math.Abs(bl[len(bl)-1]-(70-after.ElastoDyn.HubRad)) > 1e-9 {
		t.Fatalf("diameter edit: params %v %v, blade tip span %g", *p.RotorDiameterM, *p.HubHeightM, bl[len(bl)-1])
	}
	if *p.RatedPowerKW != 6000 || *p.RatedRotorSpeedRPM != 11 {
		t.Fatalf("diameter edit: the deck's controller is rated %v kW at %v rpm, want 6000 kW at 11 rpm", *p.RatedPowerKW, *p.RatedRotorSpeedRPM)
	}
	// Tilt on land: the tower is resized so that the hub stays at 110 m.
	if _, err := f.svc.UpdateTurbine(ctx, f.orgA, tb.ID, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{ShaftTiltDeg: fptr(8)}}); err != nil {
		t.Fatal(err)
	}
	after = f.storedDeck(t, tb.ID)
	p, _ = decks.ParamsFromDeck(after)
	if after.ElastoDyn.ShftTilt != 8 || *p.HubHeightM != 110 {
		t.Fatalf("tilt edit: tilt %g hub %g", after.ElastoDyn.ShftTilt, *p.HubHeightM)
	}
	if n := len(f.storedTrees(t)); n != 1 {
		t.Fatalf("%d stored trees after three edits, want 1", n)
	}
}

func TestTurbineUpdateWithoutDeckChangeKeepsFiles(t *testing.T) {
	t.Parallel()
	f := newTurbineFixture(t)
	ctx := context.Background()
	tb := f.builtTurbine(t, "Scratch")
	files := f.treeFiles(t, tb.ID)
	trees := f.storedTrees(t)
	name, desc := "Renamed", "new words"
	for label, u := range map[string]*turbinesim.TurbineUpdate{
		"name and description":   {Name: &name, Description: &desc},
		"wind-speed band":        {TurbineParams: turbinesim.TurbineParams{CutInWindSpeedMS: fptr(4), RatedWindSpeedMS: fptr(12), CutOutWindSpeedMS: fptr(24)}},
		"same hub height":        {TurbineParams: turbinesim.TurbineParams{HubHeightM: fptr(90)}},
		"blob key not in a deck": {BladeConfig: turbinesim.ConfigBlob(`{"material":"carbon"}`)},
	} {
		up, err := f.svc.UpdateTurbine(ctx, f.orgA, tb.ID, u)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		if *up.SourceKey != *tb.SourceKey || !reflect.DeepEqual(f.storedTrees(t), trees) || !reflect.DeepEqual(f.treeFiles(t, tb.ID), files) {
			t.Fatalf("%s: the stored deck changed", label)
		}
	}
	got, _ := f.svc.FindTurbine(ctx, f.orgA, tb.ID)
	if got.Name != "Renamed" || *got.CutOutWindSpeedMS != 24 || string(got.BladeConfig) != `{"material": "carbon"}` {
		t.Fatalf("row after the edits: %+v %s", got, got.BladeConfig)
	}
}

func TestTurbineUpdateInvalidEditChangesNothing(t *testing.T) {
	t.Parallel()
	f := newTurbineFixture(t)
	ctx := context.Background()
	tb := f.builtTurbine(t, "Scratch")
	if err := f.svc.CreateTurbine(ctx, &turbinesim.Turbine{OrganizationID: f.orgA, Name: "Taken"}, ""); err != nil {
		t.Fatal(err)
	}
	row, _ := f.svc.FindTurbine(ctx, f.orgA, tb.ID)
	files := f.treeFiles(t, tb.ID)
	trees := f.storedTrees(t)
	taken := "Taken"
	for label, c := range map[string]struct {
		u    *turbinesim.TurbineUpdate
		code string
		want string
	}{
		"blob of the wrong type": {&turbinesim.TurbineUpdate{BladeConfig: turbinesim.ConfigBlob(`{"stations":{"span_m":"x"}}`)},
			turbinesim.EINVALID, "blade_config: stations.span_m: expected an array"},
		"stations of different lengths": {&turbinesim.TurbineUpdate{TowerConfig: turbinesim.ConfigBlob(`{"stations":{"ht_fract":[0,1],"mass_density_kg_m":[1],"fa_stiffness_nm2":[1,1],"ss_stiffness_nm2":[1,1]}}`)},
			turbinesim.EINVALID, "tower_config.stations: ht_fract, mass_density_kg_m"},
		"span not reaching the tip": {&turbinesim.TurbineUpdate{BladeConfig: turbinesim.ConfigBlob(`{"stations":{"span_m":[0,50],"chord_m":[3,1],"twist_deg":[1,0]}}`)},
			turbinesim.EINVALID, "blade_config.stations.span_m: must run from 0 to the blade length 61.5 m"},
		"gearbox ratio": {&turbinesim.TurbineUpdate{NacelleConfig: turbinesim.ConfigBlob(`{"gearbox_ratio":-1}`)},
			turbinesim.EINVALID, "nacelle_config.gearbox_ratio: must be positive"},
		"hub height below the tower base": {&turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{HubHeightM: fptr(2)}},
			turbinesim.EINVALID, "hub_height_m: 2 m leaves no tower"},
		// The built deck's baseline controller is retuned by a rated
		// power edit, but 1 MW is below what the 126 m rotor's
		// optimal-mode torque reaches at 12.1 rpm.
		"rated power the rotor cannot be held to": {&turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{RatedPowerKW: fptr(1000)}},
			turbinesim.EINVALID, "rated_power_kw: 1000 kW at 12.1 rpm is below"},
		// The new tree is written before the row update fails.
		"hub height with a taken name": {&turbinesim.TurbineUpdate{Name: &taken, TurbineParams: turbinesim.TurbineParams{HubHeightM: fptr(100)}},
			turbinesim.ECONFLICT, `a turbine named "Taken" already exists`},
	} {
		_, err := f.svc.UpdateTurbine(ctx, f.orgA, tb.ID, c.u)
		if turbinesim.ErrorCode(err) != c.code || !strings.HasPrefix(turbinesim.ErrorMessage(err), c.want) {
			t.Errorf("%s: got %v, want %s %q...", label, err, c.code, c.want)
			continue
		}
		got, _ := f.svc.FindTurbine(ctx, f.orgA, tb.ID)
		if !reflect.DeepEqual(got, row) {
			t.Errorf("%s: the row changed: %+v", label, got)
		}
		if !reflect.DeepEqual(f.storedTrees(t), trees) || !reflect.DeepEqual(f.treeFiles(t, tb.ID), files) {
			t.Errorf("%s: the stored files changed: %v", label, f.storedTrees(t))
		}
	}
}

func TestTurbineUpdateDemoRowsAndOffshoreDecks(t *testing.T) {
	t.Parallel()
	f := newTurbineFixture(t)
	ctx := context.Background()
	c, err := decks.NewBundledDemos(turbines.FS)
	if err != nil {
		t.Fatal(err)
	}
	demo, _, err := f.svc.LoadDemo(ctx, f.orgA, f.userA, "iea-15mw-monopile", func(dir string) (*turbinesim.Turbine, error) {
		return c.Build("iea-15mw-monopile", dir)
	})
	if err != nil {
		t.Fatal(err)
	}
	trees := f.storedTrees(t)
	if _, err := f.svc.UpdateTurbine(ctx, f.orgA, demo.ID, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{HubHeightM: fptr(160)}}); turbinesim.ErrorCode(err) != turbinesim.EFORBIDDEN {
		t.Fatalf("deck edit of a demo-derived row: %v, want 403", err)
	}
	if !reflect.DeepEqual(f.storedTrees(t), trees) {
		t.Fatal("a refused demo edit changed the stored trees")
	}
	clone, err := f.svc.CloneTurbine(ctx, f.orgA, demo.ID, f.userA)
	if err != nil {
		t.Fatal(err)
	}
	files := f.treeFiles(t, clone.ID)
	trees = f.storedTrees(t)
	_, err = f.svc.UpdateTurbine(ctx, f.orgA, clone.ID, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{HubHeightM: fptr(160)}})
	if turbinesim.ErrorCode(err) != turbinesim.EINVALID || !strings.HasPrefix(turbinesim.ErrorMessage(err), "hub_height_m: the turbine is offshore") {
		t.Fatalf("offshore hub height edit: %v", err)
	}
	if !reflect.DeepEqual(f.storedTrees(t), trees) || !reflect.DeepEqual(f.treeFiles(t, clone.ID), files) {
		t.Fatal("a refused offshore edit changed the stored files")
	}
	// Precone is a rotor edit that an offshore deck carries.
	before := f.storedDeck(t, clone.ID)
	up, err := f.svc.UpdateTurbine(ctx, f.orgA, clone.ID, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{PreconeDeg: fptr(-2)}})
	if err != nil {
		t.Fatal(err)
	}
	after := f.storedDeck(t, clone.ID)
	p, _ := decks.ParamsFromDeck(after)
	if *p.PreconeDeg != -2 || after.ElastoDyn.TowerHt != before.ElastoDyn.TowerHt || after.Offshore.SubDyn == nil {
		t.Fatalf("offshore precone edit: precone %g, TowerHt %g -> %g", *p.PreconeDeg, before.ElastoDyn.TowerHt, after.ElastoDyn.TowerHt)
	}
	if slices.Contains(f.storedTrees(t), *clone.SourceKey) || *up.SourceKey == *clone.SourceKey {
		t.Fatal("the clone's old tree is still stored after the edit")
	}
}
