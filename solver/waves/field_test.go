package waves

import (
	"math"
	"testing"
)

// TestLayerAtDisplacedPositionIsAiry: a node of a plane at a fixed depth
// moved anywhere horizontally sees the closed-form Airy kinematics of the
// point it has moved to (DNV-RP-C205 Table 3-1, written out here), as
// HydroDyn's WaveDisp 1 asks without stretching.
func TestLayerAtDisplacedPositionIsAiry(t *testing.T) {
	s := regular(t, 0)
	const h, a, T, rho = 30.0, 3.0, 10.0, 1025.0
	w := 2 * math.Pi / T
	k := WaveNumber(w, g0, h)
	beta := 30 * math.Pi / 180
	for _, z := range []float64{-0.5, -10, -29} {
		l := s.Layer(z)
		for _, xy := range [][2]float64{{0, 0}, {20, 0}, {-13.7, 41.2}, {150, -80}} {
			x, y := xy[0], xy[1]
			for _, tm := range []float64{0, 1.3, 4.77, 123.4, 3700} {
				th := k*(x*math.Cos(beta)+y*math.Sin(beta)) - w*tm
				ch := math.Cosh(k*(z+h)) / math.Sinh(k*h)
				sh := math.Sinh(k*(z+h)) / math.Sinh(k*h)
				want := Kin{
					V: [3]float64{a * w * ch * math.Cos(th) * math.Cos(beta), a * w * ch * math.Cos(th) * math.Sin(beta), a * w * sh * math.Sin(th)},
					A: [3]float64{a * w * w * ch * math.Sin(th) * math.Cos(beta), a * w * w * ch * math.Sin(th) * math.Sin(beta), -a * w * w * sh * math.Cos(th)},
					P: rho * g0 * a * math.Cosh(k*(z+h)) / math.Cosh(k*h) * math.Cos(th),
				}
				got := l.At(x, y, tm)
				for i := 0; i < 3; i++ {
					if math.Abs(got.V[i]-want.V[i]) > 1e-9 || math.Abs(got.A[i]-want.A[i]) > 1e-9 {
						t.Fatalf("z %g at (%g, %g), t=%g: got %+v want %+v", z, x, y, tm, got, want)
					}
				}
				if math.Abs(got.P-want.P) > 1e-6 {
					t.Fatalf("z %g at (%g, %g), t=%g: p %g want %g", z, x, y, tm, got.P, want.P)
				}
			}
		}
	}
	// above SWL and below the seabed: dry
	if k := s.Layer(0.5).At(0, 0, 1); k != (Kin{}) {
		t.Fatalf("above SWL: %+v", k)
	}
	if k := s.Layer(-31).At(0, 0, 1); k != (Kin{}) {
		t.Fatalf("below the seabed: %+v", k)
	}
}

// TestLayerMatchesDirectSumIrregular: with spreading and current, a layer
// evaluated at moving points equals the direct sum of Sea.At there.
func TestLayerMatchesDirectSumIrregular(t *testing.T) {
	cfg := Config{Gravity: g0, WtrDens: 1025, WtrDpth: 200, WaveMod: JONSWAPSea, WaveTMax: 400, WaveDT: 0.25,
		WaveHs: 4, WaveTp: 10, WavePkShp: 2, WvLowCOff: 0.1, WvHiCOff: 3, WaveDir: 20,
		WaveDirMod: 1, WaveDirSpr: 2, WaveNDir: 5, WaveDirRng: 90, WaveSeed: [2]int64{7, 11},
		Current: Current{Mod: 1, SSV0: 0.3, SSDir: 10}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if s.NumComponents() < 100 {
		t.Fatalf("%d components", s.NumComponents())
	}
	const z = -12
	l := s.Layer(z)
	for i := 0; i < 20; i++ {
		tm := 3.7 * float64(i)
		x, y := 20+3*math.Sin(0.1*tm), -5+2*math.Cos(0.07*tm)
		got, want := l.At(x, y, tm), s.At(x, y, z, tm)
		for a := 0; a < 3; a++ {
			if math.Abs(got.V[a]-want.V[a]) > 1e-9 || math.Abs(got.A[a]-want.A[a]) > 1e-9 {
				t.Fatalf("t=%g: got %+v want %+v", tm, got, want)
			}
		}
		if math.Abs(got.P-want.P) > 1e-6 {
			t.Fatalf("t=%g: p %g want %g", tm, got.P, want.P)
		}
	}
}
