package substructure

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/offshore"
)

// Through the seam, the platform receives −(F_TP,cpl − M_eff·a) and the
// effective Guyan mass as added mass: with it added back, the load is
// −IntfF of the same instant; the mesh motion is the nodes' motion.
func TestModuleSplitsTheGuyanMass(t *testing.T) {
	p := testshared.Path(t, "reference-outputs", monopileCase, "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst")
	d, err := deck.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Check(d); err != nil {
		t.Fatal(err)
	}
	mod, err := NewModule(d, offshore.Env{Gravity: d.Main.Gravity, WtrDpth: d.Main.WtrDpth, PtfmRef0: offshore.Vec3{0, 0, 15}})
	if err != nil {
		t.Fatal(err)
	}
	u := &offshore.Input{Platform: offshore.RigidMotion{RefPos0: offshore.Vec3{0, 0, 15},
		Disp: offshore.Vec3{0.08, 0, -0.001}, Angles: offshore.Vec3{0, 0.0035, 0},
		Acc: offshore.Vec3{0.3, 0, 0.01}, AngAcc: offshore.Vec3{0, 0.02, 0}},
		NodeLoads: make([]offshore.Load, len(mod.MeshNodes()))}
	u.NodeLoads[5].Force[0] = 1e5
	var y offshore.Output
	if err := mod.Init(u, &y); err != nil {
		t.Fatal(err)
	}
	acc := [6]float64{0.3, 0, 0.01, 0, 0.02, 0}
	var full [6]float64
	for a := 0; a < 3; a++ {
		full[a], full[3+a] = y.Platform.Force[a], y.Platform.Moment[a]
	}
	for a := 0; a < 6; a++ {
		for b := 0; b < 6; b++ {
			full[a] -= y.AddedMass[a][b] * acc[b]
		}
	}
	for a, name := range []string{"IntfFXss", "IntfFYss", "IntfFZss", "IntfMXss", "IntfMYss", "IntfMZss"} {
		c, ok := mod.Channel(name)
		if !ok {
			t.Fatalf("%s not resolved", name)
		}
		want := -c.Get(u)
		if math.Abs(full[a]-want) > 1e-9*(math.Abs(want)+1) {
			t.Errorf("%s: platform load with the added mass %.6e, −%s %.6e", name, full[a], name, want)
		}
	}
	if y.AddedMass[0][0] < 1e5 || len(y.MeshMotion) != len(mod.MeshNodes()) {
		t.Errorf("added mass %.3e, %d mesh motions", y.AddedMass[0][0], len(y.MeshMotion))
	}
	for i, n := range mod.MeshNodes() {
		if n[2] == 15 {
			if mm := y.MeshMotion[i]; math.Abs(mm.Pos[0]-0.08) > 1e-12 || math.Abs(mm.Acc[0]-0.3) > 1e-12 {
				t.Errorf("interface node motion %+v, want the TP's", mm)
			}
		}
	}
	// one step through the seam's UpdateStates keeps the states finite
	if err := mod.UpdateStates(0, 0.005, u, u); err != nil {
		t.Fatal(err)
	}
}
