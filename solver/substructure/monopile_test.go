package substructure

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

const monopileCase = "iea15_monopile_steady10_still"

func monopile(t testing.TB) (*deck.SubDyn, *Model) {
	t.Helper()
	p := testshared.Path(t, "reference-outputs", monopileCase, "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile_SubDyn.dat")
	sd, err := deck.ReadSubDyn(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFEM(sd, Options{Gravity: 9.81, WtrDpth: 30, TPRef: [3]float64{0, 0, 15}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	return sd, m
}

// sumMatrix reads a matrix block "name: # r x c" followed by rows
// "- [a, b, ...]" from OpenFAST's SubDyn YAML summary.
func sumMatrix(t *testing.T, path, name string) [][]float64 {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Skipf("summary %s: %v", path, err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var rows [][]float64
	in := false
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, name+":") {
			in = true
			continue
		}
		if !in {
			continue
		}
		if !strings.HasPrefix(l, "- [") {
			break
		}
		l = strings.TrimSuffix(strings.TrimPrefix(l, "- ["), "]")
		if i := strings.Index(l, "]"); i >= 0 {
			l = l[:i]
		}
		var row []float64
		for _, w := range strings.Split(l, ",") {
			if w = strings.TrimSpace(w); w == "" {
				continue
			}
			x, err := strconv.ParseFloat(w, 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", name, w, err)
			}
			row = append(row, x)
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		t.Fatalf("%s not found in %s", name, path)
	}
	return rows
}

// The Guyan stiffness of the IEA 15 MW monopile at the TP against a closed
// form: the monopile is a stepped cantilever, so the TP flexibility for a
// force and a moment at its top is the sum over its uniform segments of
// the bending (and shear) flexibilities, and the axial and torsional
// stiffnesses are series springs. The FE model must reproduce it to
// round-off (a 2-node Timoshenko element is exact for end loads).
func TestMonopileGuyanStiffnessMatchesSteppedCantilever(t *testing.T) {
	sd, m := monopile(t)
	props := map[int]deck.SDCylProp{}
	for _, p := range sd.PropsCyl {
		props[p.ID] = p
	}
	z := map[int]float64{}
	for _, j := range sd.Joints {
		z[j.ID] = j.Z
	}
	// flexibility of (ux, θy) at the top under (Fx, My) at the top
	var fuu, fut, ftt, axial, torsion float64
	top := 15.0
	for _, mem := range sd.Members {
		a, b := props[mem.P1], props[mem.P2]
		d, th := (a.D+b.D)/2, (a.T+b.T)/2
		s := tubeSection(a.E, a.G, a.Rho, d, th, true)
		z1, z2 := z[mem.J1], z[mem.J2]
		// with the arm r = top − z, M(z) = Fx·r + My:
		// ∫ r²/EI, ∫ r/EI, ∫ 1/EI over the segment, plus shear ∫ 1/(κGA)
		r1, r2 := top-z1, top-z2
		ei := s.E * s.Ixx
		fuu += (r1*r1*r1-r2*r2*r2)/3/ei + (z2-z1)/(s.G*s.Asx)
		fut += (r1*r1 - r2*r2) / 2 / ei
		ftt += (z2 - z1) / ei
		axial += (z2 - z1) / (s.E * s.A)
		torsion += (z2 - z1) / (s.G * s.Jt)
	}
	det := fuu*ftt - fut*fut
	want := map[[2]int]float64{
		{0, 0}: ftt / det, {1, 1}: ftt / det, {4, 4}: fuu / det, {3, 3}: fuu / det,
		{0, 4}: -fut / det, {1, 3}: fut / det, {2, 2}: 1 / axial, {5, 5}: 1 / torsion,
	}
	for ij, w := range want {
		got := m.KBB[ij[0]][ij[1]]
		if math.Abs(got-w) > 1e-8*math.Abs(w) {
			t.Errorf("K̃_BB[%d][%d] = %.7e, stepped cantilever %.7e", ij[0], ij[1], got, w)
		}
	}
}

// Against OpenFAST's own summary of the same model (SD.sum.yaml of the
// reference run): Guyan stiffness and mass, total mass, the lowest
// frequencies of the clamped model and those of the Guyan-reduced model,
// to the summary's printed precision.
func TestMonopileMatchesOpenFASTSummary(t *testing.T) {
	_, m := monopile(t)
	sum := testshared.Path(t, "reference-outputs", monopileCase, "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.SD.sum.yaml")
	check := func(name string, got [6][6]float64, tol float64) {
		ref := sumMatrix(t, sum, name)
		scale := 0.0
		for i := 0; i < 6; i++ {
			scale = math.Max(scale, math.Abs(ref[i][i]))
		}
		for i := 0; i < 6; i++ {
			for j := 0; j < 6; j++ {
				r := ref[i][j]
				if math.Abs(got[i][j]-r) > tol*math.Max(math.Abs(r), 1e-6*scale) {
					t.Errorf("%s[%d][%d] = %.6e, OpenFAST %.6e", name, i, j, got[i][j], r)
				}
			}
		}
	}
	// the summary prints 7 significant digits
	check("KBBt", m.KBB, 1e-6)
	check("MBBt", m.MBB, 1e-6)
	if got, want := m.fem.Mass(), 6.239247e5; math.Abs(got-want) > 1e-5*want {
		t.Errorf("mass %.6e kg, OpenFAST %.6e kg", got, want)
	}
	ref := sumMatrix(t, sum, "Full_frequencies")[0]
	got, err := m.FullFrequencies(10)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if math.Abs(got[i]-ref[i]) > 1e-6*ref[i] {
			t.Errorf("full-system frequency %d: %.7f Hz, OpenFAST %.7f Hz", i+1, got[i], ref[i])
		}
	}
	// the Guyan-reduced model's six frequencies (TP free)
	gy := sumMatrix(t, sum, "GY_frequencies")[0]
	red, err := m.ReducedFrequencies(6)
	if err != nil {
		t.Fatal(err)
	}
	for i := range red {
		if math.Abs(red[i]-gy[i]) > 1e-6*gy[i] {
			t.Errorf("Guyan frequency %d: %.7f Hz, OpenFAST %.7f Hz", i+1, red[i], gy[i])
		}
	}
}
