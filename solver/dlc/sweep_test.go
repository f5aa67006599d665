package dlc

import (
	"math"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/solver/deck"
)

func TestExpandSweep(t *testing.T) {
	pts, err := ExpandSweep(map[string]float64{"t_max": 60}, []SweepParam{
		{Name: "wind_speed", Start: 4, Stop: 12, Step: 4},
		{Name: "blade_pitch", Values: []float64{0, 2.5}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 6 {
		t.Fatalf("%d points, want 3 × 2", len(pts))
	}
	want := [][2]float64{{4, 0}, {4, 2.5}, {8, 0}, {8, 2.5}, {12, 0}, {12, 2.5}}
	for i, p := range pts {
		if p.Values["wind_speed"] != want[i][0] || p.Values["blade_pitch"] != want[i][1] || p.Values["t_max"] != 60 || p.Index != i {
			t.Errorf("point %d: %+v, want %v and t_max 60", i, p, want[i])
		}
	}
	if pts[1].ID != "P002_wind_speed=4_blade_pitch=2.5" {
		t.Errorf("id %q", pts[1].ID)
	}
	// decimal steps land on the decimal values
	pts, err = ExpandSweep(nil, []SweepParam{{Name: "shear_exponent", Start: 0, Stop: 0.3, Step: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 4 || pts[3].Values["shear_exponent"] != 0.3 {
		t.Errorf("0..0.3 step 0.1: %d points, last %v", len(pts), pts[len(pts)-1].Values)
	}
	// the cap: 10 × 10 × 10 = 1000 is allowed, 1001+ is not
	ten := SweepParam{Start: 1, Stop: 10, Step: 1}
	p1, p2, p3 := ten, ten, ten
	p1.Name, p2.Name, p3.Name = "wind_speed", "rotor_speed", "t_max"
	if pts, err := ExpandSweep(nil, []SweepParam{p1, p2, p3}); err != nil || len(pts) != 1000 {
		t.Errorf("1000 points: %d, %v", len(pts), err)
	}
	p3.Stop = 11
	if _, err := ExpandSweep(nil, []SweepParam{p1, p2, p3}); err == nil || !strings.Contains(err.Error(), "more than 1000") {
		t.Errorf("1100 points: err %v", err)
	}
	bad := [][]SweepParam{
		{{Name: "tip_speed", Values: []float64{1}}},
		{{Name: "wind_speed", Start: 10, Stop: 4, Step: 1}},
		{{Name: "wind_speed", Start: 4, Stop: 10}},
		{{Name: "wind_speed", Values: []float64{math.NaN()}}},
		{{Name: "wind_speed", Values: []float64{1}}, {Name: "wind_speed", Values: []float64{2}}},
		{{Name: "wind_speed", Start: 0, Stop: 1e9, Step: 1e-3}},
		{{Name: "wind_speed", Start: 0, Stop: 1e300, Step: 1e-300}},
	}
	for i, b := range bad {
		if _, err := ExpandSweep(nil, b); err == nil {
			t.Errorf("bad sweep %d accepted", i)
		}
	}
	_, err = ExpandSweep(nil, []SweepParam{{Name: "tip_speed", Values: []float64{1}}})
	if err == nil || !strings.Contains(err.Error(), "air_density, blade_pitch, hub_height") {
		t.Errorf("unknown name error does not list the valid names: %v", err)
	}
}

func TestApplySweepPoint(t *testing.T) {
	d := load5MW(t)
	if h := HubHeight(d.ElastoDyn); math.Abs(h-90) > 0.01 {
		t.Fatalf("NREL 5 MW hub height %g, want 90.0 (Jonkman et al. 2009 Table 1-1)", h)
	}
	origTower := d.ElastoDyn.TowerHt
	rise := 100 - HubHeight(d.ElastoDyn)
	origTop := d.AeroDyn.TwrElev[len(d.AeroDyn.TwrElev)-1]
	nd := *d
	pt := SweepPoint{ID: "p", Values: map[string]float64{"hub_height": 100, "wind_speed": 8, "shear_exponent": 0.2,
		"rotor_speed": 9, "blade_pitch": 1.5, "yaw_misalignment": -10, "air_density": 1.1, "t_max": 30}}
	if err := ApplySweepPoint(&nd, pt); err != nil {
		t.Fatal(err)
	}
	if d.ElastoDyn.TowerHt != origTower || d.ElastoDyn.RotSpeed != 10 || d.InflowWind.PropagationDir != 0 || d.Main.TMax == 30 || d.AeroDyn.TwrElev[len(d.AeroDyn.TwrElev)-1] != origTop {
		t.Errorf("original deck changed")
	}
	dir := t.TempDir()
	fst, err := deck.Write(dir, &nd)
	if err != nil {
		t.Fatal(err)
	}
	got, err := deck.Load(fst)
	if err != nil {
		t.Fatal(err)
	}
	ed, iw, ad := got.ElastoDyn, got.InflowWind, got.AeroDyn
	if math.Abs(HubHeight(ed)-100) > 1e-9 || math.Abs(ed.TowerHt-(origTower+rise)) > 1e-9 {
		t.Errorf("hub height %g, tower %g; want 100, %g", HubHeight(ed), ed.TowerHt, origTower+rise)
	}
	// AeroDyn's top tower node moves with the tower top: base 0, so scaled
	// by the tower-height ratio.
	wantTop := origTop * (origTower + rise) / origTower
	if top := ad.TwrElev[len(ad.TwrElev)-1]; math.Abs(top-wantTop) > 1e-6 {
		t.Errorf("AeroDyn top tower node %g, want %g", top, wantTop)
	}
	if iw.RefHt != 100 || iw.WindVziList[0] != 100 || iw.WindType != 1 || iw.HWindSpeed != 8 || iw.PLExp != 0.2 || iw.PropagationDir != -10 {
		t.Errorf("InflowWind: RefHt %g probes %v type %d V %g PLExp %g dir %g", iw.RefHt, iw.WindVziList, iw.WindType, iw.HWindSpeed, iw.PLExp, iw.PropagationDir)
	}
	if ed.RotSpeed != 9 || ed.BlPitch != [3]float64{1.5, 1.5, 1.5} || got.Main.TMax != 30 || got.Main.AirDens != 1.1 || ad.AirDens.Value != 1.1 || ad.AirDens.Default {
		t.Errorf("ED RotSpeed %g pitch %v TMax %g rho %g / %+v", ed.RotSpeed, ed.BlPitch, got.Main.TMax, got.Main.AirDens, ad.AirDens)
	}
	err = ApplySweepPoint(&nd, SweepPoint{ID: "q", Values: map[string]float64{"rotor_diameter": 130}})
	if err == nil || !strings.Contains(err.Error(), "valid: air_density") {
		t.Errorf("unknown name: %v", err)
	}
	if err := ApplySweepPoint(&nd, SweepPoint{ID: "r", Values: map[string]float64{"hub_height": 50}}); err == nil {
		t.Error("hub height below the rotor radius accepted")
	}
}
