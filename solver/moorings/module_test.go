package moorings

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/offshore"
)

// Through the offshore seam the module's node loads, moved to the platform
// reference point, less its added mass times the platform acceleration,
// are the mooring load of the platform-motion API (which applies the
// carried line-end inertia explicitly), for a pitched, moving and
// accelerating platform; the channels are the same.
func TestModuleLoadsMatchPlatformAPI(t *testing.T) {
	md := semiMoorDyn(3, 20)
	md.Outputs = []deck.MDOutput{{Name: "FairTen1"}, {Name: "Con1fz"}}
	ref := [3]float64{0, 0, 0}
	mod, err := newModule(md, offshore.Env{Gravity: 9.81, WtrDens: 1025, WtrDpth: 200, PtfmRef0: ref})
	if err != nil {
		t.Fatal(err)
	}
	u := Motion{
		Disp: [6]float64{3, -1, 0.5, 0.02, 0.06, -0.03},
		Vel:  [6]float64{0.4, 0.1, -0.2, 0.01, -0.02, 0.015},
		Acc:  [6]float64{0.2, -0.1, 0.05, 0.003, -0.004, 0.002},
	}
	R := u.Orientation()
	var in offshore.Input
	in.Platform = offshore.RigidMotion{RefPos0: ref, Disp: offshore.Vec3{u.Disp[0], u.Disp[1], u.Disp[2]},
		Angles: offshore.Vec3{u.Disp[3], u.Disp[4], u.Disp[5]},
		Vel:    offshore.Vec3{u.Vel[0], u.Vel[1], u.Vel[2]}, AngVel: offshore.Vec3{u.Vel[3], u.Vel[4], u.Vel[5]},
		Acc: offshore.Vec3{u.Acc[0], u.Acc[1], u.Acc[2]}, AngAcc: offshore.Vec3{u.Acc[3], u.Acc[4], u.Acc[5]}}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			in.Platform.Orient[i][j] = R[j][i] // rows: body axes
		}
	}
	for _, p := range mod.Nodes() {
		in.Nodes = append(in.Nodes, in.Platform.Node(p))
	}
	var y offshore.Output
	if err := mod.Init(&in, &y); err != nil {
		t.Fatal(err)
	}
	// The same states through the platform-motion API.
	var want Loads
	if err := mod.System().CalcOutput(0, u, &want); err != nil {
		t.Fatal(err)
	}
	if err := mod.CalcOutput(0, &in, &y); err != nil {
		t.Fatal(err)
	}
	var got offshore.Load
	o := in.Platform.Pos()
	for i, l := range y.NodeLoads {
		got.Add(l.MovedTo(in.Nodes[i].Pos, o))
	}
	acc := [6]float64{u.Acc[0], u.Acc[1], u.Acc[2], u.Acc[3], u.Acc[4], u.Acc[5]}
	g := [6]float64{got.Force[0], got.Force[1], got.Force[2], got.Moment[0], got.Moment[1], got.Moment[2]}
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			g[i] -= y.AddedMass[i][j] * acc[j]
		}
	}
	w := want.Vector()
	for i := 0; i < 6; i++ {
		if math.Abs(g[i]-w[i]) > 1e-9*math.Max(1e6, math.Abs(w[i])) {
			t.Errorf("component %d: seam %.10g, platform API %.10g", i, g[i], w[i])
		}
	}
	if y.AddedMass[0][0] <= 0 || y.AddedMass[0][0] > 3*850*(685+100) {
		t.Errorf("surge added mass %g kg", y.AddedMass[0][0])
	}
	for _, name := range []string{"FAIRTEN1", "fairten1"} {
		c, ok := mod.Channel(name)
		if !ok || c.Get(&in) != mod.System().FairleadTension(0) {
			t.Errorf("channel %s: ok=%v", name, ok)
		}
	}
	if ol := mod.OutList(); len(ol) != 2 || ol[1] != "CON1FZ" {
		t.Errorf("OutList %v", ol)
	}
	if _, ok := mod.Channel("HydroFxi"); ok {
		t.Error("MoorDyn module claims HydroFxi")
	}
}
