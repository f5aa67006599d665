package substructure

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/internal/refoutput"
	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// A two-member tower with modes, static improvement and a concentrated
// mass, loaded by gravity and a lateral nodal load, with the TP held
// still: once the damped modes have settled, the ground reaction, the TP
// load and the applied loads balance (forces, and moments about the base).
func TestSettledResponseIsInEquilibrium(t *testing.T) {
	sd := towerWithMass(4, 6)
	sd.JDampings = []float64{30}
	sd.SttcSolve = true
	m := build(t, sd, [3]float64{0, 0, 60})
	f := m.FEM()
	s := NewSim(m)
	u := &Input{NodeLoads: make([][6]float64, len(f.Nodes))}
	mid := f.jointIdx[2]
	u.NodeLoads[mid] = [6]float64{3e5, -1e5, 2e5, 0, 4e5, 0}
	for i := 0; i < 4000; i++ {
		if err := s.Step(0.01, u, u); err != nil {
			t.Fatal(err)
		}
	}
	var y Output
	if err := s.Output(u, &y); err != nil {
		t.Fatal(err)
	}
	// applied loads about the base: gravity of every node and the load
	var tot [6]float64
	for n, nd := range f.Nodes {
		var fn [6]float64
		for a := 0; a < 6; a++ {
			fn[a] = f.Fg[6*n+a] + u.NodeLoads[n][a]
		}
		mo := cross(nd.Pos, [3]float64{fn[0], fn[1], fn[2]})
		for a := 0; a < 3; a++ {
			tot[a] += fn[a]
			tot[3+a] += fn[3+a] + mo[a]
		}
	}
	tpArm := cross([3]float64{0, 0, 60}, [3]float64{y.Interface[0], y.Interface[1], y.Interface[2]})
	for a := 0; a < 6; a++ {
		sum := y.Reaction[a] + y.Interface[a] + tot[a]
		if a >= 3 {
			sum += tpArm[a-3]
		}
		scale := math.Abs(tot[a]) + math.Abs(y.Reaction[a]) + 1
		if math.Abs(sum) > 1e-6*scale {
			t.Errorf("component %d: reaction %.6e + interface %.6e + applied %.6e = %.3e, want 0", a, y.Reaction[a], y.Interface[a], tot[a], sum)
		}
	}
	// the settled modal accelerations vanish
	if y.NodeAcc[mid][0] > 1e-6 {
		t.Errorf("node acceleration %.3e after settling", y.NodeAcc[mid][0])
	}
	// the settled TP load is the static one
	if math.Abs(y.Reaction[2]) < 1 {
		t.Errorf("no vertical reaction")
	}
}

// One mode of the model responds to a suddenly applied load by the exact
// step response: with no damping the modal displacement swings between 0
// and twice the static value.
func TestModalStepResponseIsExact(t *testing.T) {
	sd := cantilever(30, 2, 0.03, 10, 1, 1)
	sd.JDampings = []float64{0}
	f, err := NewFEM(sd, Options{Gravity: 0, TPRef: [3]float64{0, 0, 30}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSim(m)
	u := &Input{NodeLoads: make([][6]float64, len(f.Nodes))}
	u.NodeLoads[len(f.Nodes)-3][0] = 1e5
	w := m.omega[0]
	if err := s.loads(u); err != nil {
		t.Fatal(err)
	}
	p := make([]float64, 1)
	s.modalForce([6]float64{}, p)
	qs := p[0] / (w * w)
	dt := 0.37 / w // a large step: the propagation is exact
	for i := 1; i <= 20; i++ {
		if err := s.Step(dt, u, u); err != nil {
			t.Fatal(err)
		}
		want := qs * (1 - math.Cos(w*dt*float64(i)))
		if math.Abs(s.q[0]-want) > 1e-9*math.Abs(qs) {
			t.Fatalf("step %d: q = %.9e, exact %.9e", i, s.q[0], want)
		}
	}
}

// Driven by the platform (TP) motion OpenFAST computed, the model gives
// the loads OpenFAST reported: interface, mudline reaction and member-node
// bending moments, means over the settled window within 1 % (still water: the hydrodynamic loads on
// the pile are buoyancy, vertical, and a few kN of radiation; they are not
// applied here).
func TestMonopileInterfaceLoadsFromRecordedMotion(t *testing.T) {
	_, m := monopile(t)
	outb := testshared.Path(t, "reference-outputs", monopileCase, "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.outb")
	v := refoutput.Means(t, outb, 60, "PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw",
		"IntfFXss", "IntfMYss", "ReactFXss", "ReactMYss", "M1N1MKye", "M2N1MKye", "M1N1MKxe")
	u := &Input{}
	for a := 0; a < 6; a++ {
		u.Disp[a] = v[a]
		if a >= 3 {
			u.Disp[a] *= math.Pi / 180
		}
	}
	s := NewSim(m)
	var y Output
	if err := s.Output(u, &y); err != nil {
		t.Fatal(err)
	}
	ch := func(name string) float64 {
		c, ok := s.Channel(name)
		if !ok {
			t.Fatalf("channel %s not resolved", name)
		}
		return c.Get(&y)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"IntfFXss", y.Interface[0], v[6]},
		{"IntfMYss", y.Interface[4], v[7]},
		{"ReactFXss", y.Reaction[0], v[8]},
		{"ReactMYss", y.Reaction[4], v[9]},
		{"M1N1MKye", ch("M1N1MKye"), v[10]},
		{"M2N1MKye", ch("M2N1MKye"), v[11]},
		{"M1N1MKxe", ch("M1N1MKxe"), v[12]},
	} {
		if math.Abs(c.got-c.want) > 0.01*math.Abs(c.want) {
			t.Errorf("%s: %.4e from the recorded motion, OpenFAST %.4e", c.name, c.got, c.want)
		} else {
			t.Logf("%s: %.4e, OpenFAST %.4e", c.name, c.got, c.want)
		}
	}
}

// The same, in time: driven by OpenFAST's platform displacements and
// accelerations row by row (t ≥ 60 s) and HydroDyn's total load at the
// mean sea level, the mudline reaction and interface loads have OpenFAST's
// mean and standard deviation within 1 % (of the channel's range for the
// standard deviation; the substructure's own inertia is in the reaction).
func TestMonopileReactionTimeSeriesFromRecordedMotion(t *testing.T) {
	_, m := monopile(t)
	path := testshared.Path(t, "reference-outputs", monopileCase, "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.outb")
	f, err := outfile.ReadOutbFile(path)
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) []float64 {
		c, ok := f.Column(name)
		if !ok {
			t.Fatalf("%s not in the reference output", name)
		}
		return c
	}
	deg := math.Pi / 180
	disp := [6][]float64{col("PtfmSurge"), col("PtfmSway"), col("PtfmHeave"), col("PtfmRoll"), col("PtfmPitch"), col("PtfmYaw")}
	ax, az, ary := col("PtfmTAxt"), col("PtfmTAzt"), col("PtfmRAyt")
	hydro := [6][]float64{col("HydroFxi"), col("HydroFyi"), col("HydroFzi"), col("HydroMxi"), col("HydroMyi"), col("HydroMzi")}
	// HydroDyn's total load is about its reference point (0, 0, 0): put
	// it on the node at the mean sea level.
	msl := -1
	for n, nd := range m.FEM().Nodes {
		if nd.Pos == [3]float64{} {
			msl = n
		}
	}
	if msl < 0 {
		t.Fatal("no node at (0, 0, 0)")
	}
	names := []string{"ReactFXss", "ReactMYss", "IntfFXss", "IntfMYss", "ReactFZss"}
	var ref, got [5][]float64
	for i, n := range names {
		ref[i] = col(n)
	}
	s := NewSim(m)
	var y Output
	var rows []int
	for k, tk := range f.Time {
		if tk < 60 {
			continue
		}
		u := &Input{NodeLoads: make([][6]float64, len(m.FEM().Nodes))}
		for a := 0; a < 6; a++ {
			u.NodeLoads[msl][a] = hydro[a][k]
			u.Disp[a] = disp[a][k]
			if a >= 3 {
				u.Disp[a] *= deg
			}
		}
		u.Acc[0], u.Acc[2], u.Acc[4] = ax[k], az[k], ary[k]*deg
		if err := s.Output(u, &y); err != nil {
			t.Fatal(err)
		}
		vals := [5]float64{y.Reaction[0], y.Reaction[4], y.Interface[0], y.Interface[4], y.Reaction[2]}
		for i := range vals {
			got[i] = append(got[i], vals[i])
		}
		rows = append(rows, k)
	}
	for i, n := range names {
		var r []float64
		for _, k := range rows {
			r = append(r, ref[i][k])
		}
		gm, gs := meanStd(got[i])
		rm, rs := meanStd(r)
		lo, hi := r[0], r[0]
		for _, x := range r {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		t.Logf("%s: mean %.4e (OpenFAST %.4e), std %.4e (%.4e)", n, gm, rm, gs, rs)
		if math.Abs(gm-rm) > 0.01*math.Abs(rm) {
			t.Errorf("%s: mean %.4e, OpenFAST %.4e", n, gm, rm)
		}
		if math.Abs(gs-rs) > 0.01*math.Max(rs, hi-lo) {
			t.Errorf("%s: std %.4e, OpenFAST %.4e", n, gs, rs)
		}
	}
}

func meanStd(x []float64) (mean, std float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		std += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(std / float64(len(x)))
}

func TestChannelNamesAndSigns(t *testing.T) {
	_, m := monopile(t)
	s := NewSim(m)
	y := Output{Reaction: [6]float64{1, 2, 3, 4, 5, 6}, Interface: [6]float64{7, 8, 9, 10, 11, 12}}
	for name, want := range map[string]float64{"ReactFXss": 1, "-ReactMYss": -5, "_intfmzss": -12, "MReactFZss": -3, "IntfFYss": 8} {
		c, ok := s.Channel(name)
		if !ok {
			t.Errorf("%s not resolved", name)
			continue
		}
		if got := c.Get(&y); got != want {
			t.Errorf("%s = %g, want %g", name, got, want)
		}
	}
	// kinematics: member 2 of the list is member 3, node 1 = joint 3
	u := &Input{Disp: [6]float64{0.1, -0.2, 0.01, 0.001, 0.002, 0.003}, Acc: [6]float64{1, 2, 3, 0.1, 0.2, 0.3}}
	if err := s.Output(u, &y); err != nil {
		t.Fatal(err)
	}
	j3 := m.FEM().jointIdx[3]
	for name, want := range map[string]float64{
		"IntfTDXss": 0.1, "IntfRDZss": 0.003, "-IntfTAYss": -2, "IntfRAXss": 0.1,
		"M2N1TDxss": y.NodeDisp[j3][0], "M2N1TDzss": y.NodeDisp[j3][2], "M2N1RDye": y.NodeDisp[j3][4], "M2N1TAxe": y.NodeAcc[j3][0], "M2N1RAze": y.NodeAcc[j3][5],
	} {
		c, ok := s.Channel(name)
		if !ok {
			t.Errorf("%s not resolved", name)
			continue
		}
		if got := c.Get(&y); got != want || want == 0 {
			t.Errorf("%s = %g, want %g (non-zero)", name, got, want)
		}
	}
	for _, name := range []string{"M1N1MKxe", "-M2N1FKze", "M1N1MMye"} {
		if _, ok := s.Channel(name); !ok {
			t.Errorf("%s not resolved", name)
		}
	}
	for _, name := range []string{"M3N1MKxe", "M1N2MKxe", "ReactFWss", "Bogus"} {
		if _, ok := s.Channel(name); ok {
			t.Errorf("%s resolved, want unknown (2 member outputs, one node each)", name)
		}
	}
}

// The published IEA 22 MW monopile SubDyn file (v1.01 layout, Rayleigh
// Guyan damping) builds: its Guyan damping is α·M̃ + β·K̃.
func TestIEA22MonopileBuildsWithRayleighGuyanDamping(t *testing.T) {
	p := testshared.Path(t, "reference-decks", "IEA-22-280-RWT", "IEA-22-280-RWT-Monopile", "IEA-22-280-RWT_SubDyn.dat")
	sd, err := deck.ReadSubDyn(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFEM(sd, Options{Gravity: 9.80665, WtrDpth: 34, TPRef: [3]float64{0, 0, 15}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	mass, damp, stiff := m.Guyan()
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			want := sd.RayleighDamp[0]*mass[i][j] + sd.RayleighDamp[1]*stiff[i][j]
			if math.Abs(damp[i][j]-want) > 1e-12*math.Abs(stiff[i][i]) {
				t.Fatalf("C̃_BB[%d][%d] = %g, want %g", i, j, damp[i][j], want)
			}
		}
	}
	if damp[0][0] <= 0 {
		t.Errorf("no Guyan damping (β = %g)", sd.RayleighDamp[1])
	}
	freq, err := m.FullFrequencies(2)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("IEA 22 MW monopile: mass %.4e kg, first clamped frequencies %.3f, %.3f Hz", f.Mass(), freq[0], freq[1])
}
