package hydro

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/offshore"
)

func restInput(ref offshore.Vec3, nodes []offshore.Vec3) *offshore.Input {
	u := &offshore.Input{}
	u.Platform.RefPos0 = ref
	u.Platform.Orient = [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	for _, p := range nodes {
		u.Nodes = append(u.Nodes, u.Platform.Node(p))
	}
	return u
}

// TestShiftMass: a point mass m at d from the reference point has the
// rigid-body mass matrix m[[I, −[d×]], [[d×], −[d×]²]].
func TestShiftMass(t *testing.T) {
	const m = 3.0
	d := offshore.Vec3{1, -2, -10}
	var a [6][6]float64
	addPointMass(&a, [3][3]float64{{m, 0, 0}, {0, m, 0}, {0, 0, m}}, d)
	want := map[[2]int]float64{
		{0, 0}: m, {3, 3}: m * (d[1]*d[1] + d[2]*d[2]), {4, 4}: m * (d[0]*d[0] + d[2]*d[2]), {5, 5}: m * (d[0]*d[0] + d[1]*d[1]),
		{0, 4}: m * d[2], {4, 0}: m * d[2], {1, 3}: -m * d[2], {0, 5}: -m * d[1], {3, 4}: -m * d[0] * d[1],
	}
	for k, v := range want {
		if math.Abs(a[k[0]][k[1]]-v) > 1e-12 {
			t.Errorf("A[%d][%d] = %g, want %g", k[0], k[1], a[k[0]][k[1]], v)
		}
	}
}

// TestModuleSemi: the semi's module reports the buoyancy at rest, A∞ as
// its added mass, SeaState's and HydroDyn's channels, and HydroFzi with the
// added-mass load of the accelerations it is given.
func TestModuleSemi(t *testing.T) {
	dir := testshared.Path(t, "reference-outputs", "iea15_semi_decay_pitch")
	d, err := deck.Load(filepath.Join(dir, "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"))
	if err != nil {
		t.Fatal(err)
	}
	md, err := NewModule(d, offshore.Env{Gravity: d.Main.Gravity, WtrDens: d.Main.WtrDens, WtrDpth: d.Main.WtrDpth, DT: d.Main.DT})
	if err != nil {
		t.Fatal(err)
	}
	u := restInput(offshore.Vec3{}, nil)
	var y offshore.Output
	if err := md.Init(u, &y); err != nil {
		t.Fatal(err)
	}
	fb := d.Main.WtrDens * d.Main.Gravity * 20206.34889
	if math.Abs(y.Platform.Force[2]/fb-1) > 1e-9 || y.AddedMass != md.model.Platform.AInf() {
		t.Errorf("at rest: load %v, added mass %v", y.Platform, y.AddedMass[2][2])
	}
	if md.OutList()[0] != "Wave1Elev" || len(md.OutList()) != 21 {
		t.Errorf("OutList %v", md.OutList())
	}
	c, ok := md.Channel("hydrofzi")
	if !ok {
		t.Fatal("HydroFzi not resolved")
	}
	u.Platform.Acc[2] = 0.1
	if got, want := c.Get(u), fb-0.1*y.AddedMass[2][2]; math.Abs(got-want) > 1e-6*fb {
		t.Errorf("HydroFzi %g, want %g", got, want)
	}
	// pitching: the radiation memory builds up through UpdateStates
	var y2 offshore.Output
	for k := 0; k < 200; k++ {
		tm := float64(k) * 0.025
		un := restInput(offshore.Vec3{}, nil)
		un.Platform.AngVel[1] = 0.01 * math.Sin(0.2*tm)
		md.UpdateStates(tm, 0.025, u, un)
		md.CalcOutput(tm+0.025, un, &y2)
		u = un
	}
	if md.pl.Radiation[4] == 0 {
		t.Error("no radiation memory load after 5 s of pitching")
	}
}

// TestModuleMonopile: the monopile's strip-theory nodes are the module's;
// their loads leave out −M·a (on the substructure it is not applied and a
// warning says so; without one their mass goes into the platform's added
// mass), while HydroFxi includes it.
func TestModuleMonopile(t *testing.T) {
	dir := testshared.Path(t, "reference-outputs", "iea15_monopile_steady10_regular")
	d, err := deck.Load(filepath.Join(dir, "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"))
	if err != nil {
		t.Fatal(err)
	}
	ref := offshore.Vec3{0, 0, 15}
	env := offshore.Env{Gravity: d.Main.Gravity, WtrDens: d.Main.WtrDens, WtrDpth: d.Main.WtrDpth, DT: d.Main.DT, PtfmRef0: ref}
	md, err := NewModule(d, env)
	if err != nil {
		t.Fatal(err)
	}
	nodes := md.Nodes()
	if len(nodes) < 90 || md.Name() != "HydroDyn" {
		t.Fatalf("%d nodes", len(nodes))
	}
	u := restInput(ref, nodes)
	var y offshore.Output
	if err := md.CalcOutput(3, u, &y); err != nil {
		t.Fatal(err)
	}
	base := make([]offshore.Load, len(y.NodeLoads))
	copy(base, y.NodeLoads)
	for i := range u.Nodes {
		u.Nodes[i].Acc[0] = 1
	}
	md.CalcOutput(3, u, &y)
	var dF, mass float64
	for i := range y.NodeLoads {
		dF += y.NodeLoads[i].Force[0] - base[i].Force[0]
		mass += md.model.Morison.NodeMass(i)[0][0]
	}
	// on a substructure the node masses go to its model (NodeMasses), not
	// to the platform
	var nodeMass float64
	for _, m := range md.NodeMasses() {
		nodeMass += m[0][0]
	}
	if dF != 0 || y.AddedMass != ([6][6]float64{}) || nodeMass != mass || mass <= 0 {
		t.Errorf("on the substructure: ΔFx %g for 1 m/s², want 0; added mass %v; node masses %g, want %g", dF, y.AddedMass[0][0], nodeMass, mass)
	}
	c, _ := md.Channel("HydroFxi")
	if got := c.Get(u); math.Abs(got-(md.morRes[0]-mass)) > 1e-6*mass {
		t.Errorf("HydroFxi %g, want %g", got, md.morRes[0]-mass)
	}
	// member outputs: the fluid velocity and the drag per unit length at
	// the middle of the pile
	md.model.HD.MOutputs = []deck.HDMemberOutput{{MemberID: 1, NodeLocs: []float64{0, 0.3}}}
	vx, ok1 := md.Channel("M1N2Vxi")
	fd, ok2 := md.Channel("M1N2FDxi")
	dp, ok3 := md.Channel("M1N1DynP")
	if !ok1 || !ok2 || !ok3 {
		t.Fatal("member channels not resolved")
	}
	node := int(math.Round(0.3 * float64(len(nodes)-1)))
	k := md.model.Morison.Nodes[node].probe.At(3)
	want := 0.5 * d.Main.WtrDens * 10 * math.Abs(k.V[0]) * k.V[0] // Cd 1, D 10 m, node at rest
	// the first node's strip is wet over its part above the seabed
	p0 := md.model.Morison.Nodes[0].probe.At(3).P
	if vx.Get(u) != k.V[0] || math.Abs(fd.Get(u)-want) > 1e-9*math.Abs(want)+1e-9 || dp.Get(u) != p0 || p0 == 0 {
		t.Errorf("M1N2Vxi %g (want %g), M1N2FDxi %g (want %g), M1N1DynP %g (want %g)", vx.Get(u), k.V[0], fd.Get(u), want, dp.Get(u), p0)
	}
	if _, ok := md.Channel("M2N1Vxi"); ok {
		t.Error("M2N1Vxi resolved without a second member output")
	}
	d.Main.CompSub = 0
	md, err = NewModule(d, env)
	if err != nil {
		t.Fatal(err)
	}
	var am [6][6]float64
	for i := range md.model.Morison.Nodes {
		addPointMass(&am, md.model.Morison.NodeMass(i), sub3(md.model.Morison.Nodes[i].Pos, ref))
		j := md.model.Morison.NodeInertia(i)
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				am[3+a][3+b] += j[a][b]
			}
		}
	}
	md.CalcOutput(0, restInput(ref, nodes), &y)
	if y.AddedMass != am || math.Abs(am[0][0]-mass) > 1e-6*mass || am[4][4] <= 0 {
		t.Errorf("riding on the platform: added mass %v, want %v", y.AddedMass[0][0], mass)
	}
}
