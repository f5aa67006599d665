package ranlux

import (
	"math"
	"testing"
)

// TestPublishedValues checks the numbers 1–5 and 101–105 the RANLUX test
// program of F. James (Comput. Phys. Commun. 79 (1994) 111) prints, to its
// eight decimals, for the default seed at luxury levels 3 (the default) and
// 0, for seed 1 at p = 389 (level 4) and for the default seed at p = 75.
func TestPublishedValues(t *testing.T) {
	cases := []struct {
		name         string
		level        int
		seed         int32
		first, later [5]float64
	}{
		{"default level 3", 3, 0,
			[5]float64{0.53981817, 0.76155043, 0.06029940, 0.79600263, 0.30631220},
			[5]float64{0.43156743, 0.03774416, 0.24897110, 0.00147784, 0.90274453}},
		{"level 0", 0, 0,
			[5]float64{0.53981817, 0.76155043, 0.06029940, 0.79600263, 0.30631220},
			[5]float64{0.41538775, 0.05330932, 0.58195311, 0.91397446, 0.67034441}},
		{"p=389 seed 1", 389, 1,
			[5]float64{0.94589490, 0.47347850, 0.95152789, 0.42971975, 0.09127384},
			[5]float64{0.02618265, 0.03775346, 0.97274780, 0.13302165, 0.43126065}},
		{"p=75", 75, 0,
			[5]float64{0.53981817, 0.76155043, 0.06029940, 0.79600263, 0.30631220},
			[5]float64{0.25600731, 0.23443210, 0.59164381, 0.59035838, 0.07011414}},
	}
	for _, c := range cases {
		g, err := New(c.level, c.seed)
		if err != nil {
			t.Fatal(err)
		}
		var got [105]float64
		for i := range got {
			got[i] = g.Float64()
		}
		for k := 0; k < 5; k++ {
			for _, p := range []struct {
				n    int
				want float64
			}{{k, c.first[k]}, {100 + k, c.later[k]}} {
				if math.Abs(got[p.n]-p.want) > 0.6e-8 {
					t.Errorf("%s: number %d = %.8f, published %.8f", c.name, p.n+1, got[p.n], p.want)
				}
			}
		}
	}
}

// TestLevelFourIsP389 checks that luxury level 4 is the same stream as
// p = 389, and that the deviates stay inside (0, 1) with mean ½.
func TestLevelFourIsP389(t *testing.T) {
	a, _ := New(4, 12345)
	b, _ := New(389, 12345)
	var sum float64
	const n = 20000
	for i := 0; i < n; i++ {
		u, v := a.Float64(), b.Float64()
		if u != v {
			t.Fatalf("number %d: level 4 %v, p=389 %v", i+1, u, v)
		}
		if u <= 0 || u >= 1 {
			t.Fatalf("number %d = %v outside (0, 1)", i+1, u)
		}
		sum += u
	}
	if m := sum / n; math.Abs(m-0.5) > 0.01 {
		t.Errorf("mean of %d deviates %.4f, want 0.5", n, m)
	}
}

func TestRejectsBadInput(t *testing.T) {
	for _, c := range []struct {
		level int
		seed  int32
	}{{5, 1}, {-1, 1}, {3, -2}, {2001, 1}} {
		if _, err := New(c.level, c.seed); err == nil {
			t.Errorf("New(%d, %d) accepted", c.level, c.seed)
		}
	}
}
