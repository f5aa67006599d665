package dlc

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// analyticSurface is Cp(λ, θ) = 0.5 − 0.005·(λ − 8)² − 0.02·θ on a fine
// grid, so the steady state has a closed form.
func analyticSurface() *CpSurface {
	s := &CpSurface{}
	for l := 2.0; l <= 14+1e-9; l += 0.05 {
		s.TSR = append(s.TSR, l)
	}
	for p := -2.0; p <= 30+1e-9; p += 1 {
		s.Pitch = append(s.Pitch, p)
	}
	for _, l := range s.TSR {
		row := make([]float64, len(s.Pitch))
		for j, p := range s.Pitch {
			row[j] = 0.5 - 0.005*(l-8)*(l-8) - 0.02*p
		}
		s.Cp = append(s.Cp, row)
	}
	return s
}

func TestSteadyStateFromSurface(t *testing.T) {
	c := ControlPoint{RatedPower: 5e6, GenEfficiency: 1, RatedRotor: 12.1, MinRotor: 6.9, TSROpt: 8,
		Radius: 63, AirDensity: 1.225}
	ss, err := SteadyStateFromSurface(analyticSurface(), c, []float64{4, 6, 18, 25})
	if err != nil {
		t.Fatal(err)
	}
	rpm := 60 / (2 * math.Pi)
	// 4 m/s: λ_opt·V/R = 4.85 rpm, below the minimum 6.9 rpm
	// 6 m/s: 8·6/63 rad/s = 7.276 rpm, fine pitch
	want := []struct{ v, rpm float64 }{{4, 6.9}, {6, 8 * 6 / 63.0 * rpm}, {18, 12.1}, {25, 12.1}}
	for i, w := range want {
		if ss[i].WindSpeed != w.v || math.Abs(ss[i].RotorSpeed-w.rpm) > 1e-9 {
			t.Errorf("V %g: rotor %g rpm, want %g", w.v, ss[i].RotorSpeed, w.rpm)
		}
	}
	if ss[0].Pitch != 0 || ss[1].Pitch != 0 {
		t.Errorf("below rated pitch %g, %g, want 0", ss[0].Pitch, ss[1].Pitch)
	}
	for _, i := range []int{2, 3} {
		v := ss[i].WindSpeed
		lambda := 12.1 / rpm * 63 / v
		target := 5e6 / (0.5 * 1.225 * math.Pi * 63 * 63 * v * v * v)
		wantPitch := (0.5 - 0.005*(lambda-8)*(lambda-8) - target) / 0.02
		if math.Abs(ss[i].Pitch-wantPitch) > 0.01 {
			t.Errorf("V %g: pitch %.4f°, want %.4f°", v, ss[i].Pitch, wantPitch)
		}
	}
	r, p, ok := ss.At(12)
	if !ok || math.Abs(r-(ss[1].RotorSpeed+ss[2].RotorSpeed)/2) > 1e-9 || math.Abs(p-(ss[1].Pitch+ss[2].Pitch)/2) > 1e-9 {
		t.Errorf("At(12) = %g, %g, %v", r, p, ok)
	}
	if _, _, ok := ss.At(30); ok {
		t.Error("At outside the table reports ok")
	}
}

func TestSteadyStateFromDeck(t *testing.T) {
	if _, err := SteadyStateFromDeck(load5MW(t)); !errors.Is(err, ErrNoSteadyState) {
		t.Errorf("NREL 5 MW simple-VS deck: err %v, want ErrNoSteadyState", err)
	}
	d, err := deck.Load(testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"))
	if err != nil {
		t.Fatal(err)
	}
	ss, err := SteadyStateFromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	rated := 0.78788 * 60 / (2 * math.Pi) // VS_RefSpd, direct drive
	// below rated: λ_opt = 9 (VS_TSRopt), R = TipRad, fine pitch 0
	if r, p, ok := ss.At(8); !ok || math.Abs(r-9*8/d.ElastoDyn.TipRad*60/(2*math.Pi)) > 1e-9 || p != 0 {
		t.Errorf("8 m/s: rotor %g rpm pitch %g°", r, p)
	}
	// Rated wind speed 10.59 m/s (Gaertner et al. 2020, Table 1): fine
	// pitch at 10 m/s, pitching at 11 m/s.
	if _, p, _ := ss.At(10); p != 0 {
		t.Errorf("10 m/s pitch %g°, want fine pitch", p)
	}
	prev := 0.0
	for _, v := range []float64{11, 12, 15, 20, 25} {
		r, p, ok := ss.At(v)
		if !ok || math.Abs(r-rated) > 1e-9 || !(p > prev) {
			t.Errorf("%g m/s: rotor %g rpm (want %g), pitch %g° (want above %g°)", v, r, rated, p, prev)
		}
		prev = p
	}
	// The report's steady-state pitch reaches about 22–23° at cut-out [U].
	if _, p, _ := ss.At(25); p < 20 || p > 25 {
		t.Errorf("25 m/s pitch %g°, want about 22°", p)
	}
}

func TestPrepareRunSteadyStateIEA15(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"))
	if err != nil {
		t.Fatal(err)
	}
	iea15 := Turbine{HubHeight: 150, RotorDiameter: 240, VIn: 3, VRated: 10.59, VOut: 25, RatedRotorSpeed: 7.56}
	runs, err := Expand(Request{Turbine: iea15, DLCs: []string{"1.3"}, Class: "I", Category: "B", Grid: smallGrid,
		Overrides: map[string]Override{"1.3": {Speeds: []float64{15}, Seeds: intp(1), Yaw: []float64{0}, Duration: ptr(10), Transient: ptr(0)}}})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := SteadyStateFromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	wantRPM, wantPitch, _ := ss.At(15)
	got := preparedDeck(t, d, runs[0], PrepareOptions{SteadyState: ss})
	ed := got.ElastoDyn
	if math.Abs(ed.RotSpeed-wantRPM) > 1e-6 || math.Abs(ed.BlPitch[0]-wantPitch) > 1e-6 || ed.BlPitch[2] != ed.BlPitch[0] {
		t.Errorf("initial rotor %g rpm pitch %v, want %g rpm %g°", ed.RotSpeed, ed.BlPitch, wantRPM, wantPitch)
	}
	if got.InflowWind.WindType != 3 {
		t.Errorf("WindType %d", got.InflowWind.WindType)
	}
}

// A Cp table whose comment lines carry no text (the form the bundled
// reference turbines are stored in: every '#' line reduced to a bare '#')
// is read by position, as ROSCO's own reader does: pitch, TSR and
// wind-speed vectors, then the Cp, Ct and Cq matrices.
func TestReadCpTableWithoutCommentText(t *testing.T) {
	named := "# Pitch angle vector, 3 entries\n-1 0 1\n# TSR vector, 2 entries\n6 8\n# Wind speed vector\n10\n\n" +
		"# Power coefficient\n0.40 0.45 0.42\n0.38 0.47 0.41\n\n#  Thrust coefficient\n0.7 0.8 0.75\n0.9 1.0 0.95\n\n# Torque coefficient\n0.06 0.07 0.065\n0.05 0.06 0.055\n"
	var bare strings.Builder
	for _, l := range strings.Split(named, "\n") {
		if strings.HasPrefix(l, "#") {
			l = "#"
		}
		bare.WriteString(l + "\n")
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"named.txt": named, "bare.txt": bare.String()} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := ReadCpTable(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(s.TSR) != 2 || len(s.Pitch) != 3 || len(s.Cp) != 2 || s.Cp[1][1] != 0.47 || s.Cp[0][2] != 0.42 {
			t.Errorf("%s: TSR %v pitch %v Cp %v", name, s.TSR, s.Pitch, s.Cp)
		}
	}
}

// The IEA 15 MW table with its comment text removed gives the same steady
// operating points as the published file.
func TestSteadyStateIEA15FromStrippedCpTable(t *testing.T) {
	src := testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT", "Cp_Ct_Cq.IEA15MW.txt")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var bare strings.Builder
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			l = "#"
		}
		bare.WriteString(l + "\n")
	}
	p := filepath.Join(t.TempDir(), "Cp_Ct_Cq.txt")
	if err := os.WriteFile(p, []byte(bare.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := ReadCpTable(src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadCpTable(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.TSR) != 26 || len(got.Pitch) != 36 || len(got.Cp) != 26 {
		t.Fatalf("TSR %d pitch %d Cp rows %d, want 26, 36, 26", len(got.TSR), len(got.Pitch), len(got.Cp))
	}
	for i := range want.Cp {
		for j := range want.Cp[i] {
			if got.Cp[i][j] != want.Cp[i][j] {
				t.Fatalf("Cp[%d][%d] %g, want %g", i, j, got.Cp[i][j], want.Cp[i][j])
			}
		}
	}
}
