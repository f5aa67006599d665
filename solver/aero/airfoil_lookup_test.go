package aero

import (
	"math"
	"math/rand"
	"sort"
	"testing"
)

// The lookup grid only chooses where the interval search starts: for
// every angle inside a table, knots included, the interval must be the one
// bisection finds, on every airfoil of the NREL 5 MW deck (uneven tables,
// dense near zero lift and sparse toward ±180°).
func TestPolarIntervalMatchesBisection(t *testing.T) {
	_, p := load5MW(t)
	rng := rand.New(rand.NewSource(1))
	checked := 0
	for _, af := range p.Airfoils {
		if err := af.Prepare(); err != nil {
			t.Fatal(err)
		}
		for _, s := range af.splines {
			xs := s.alpha
			n := len(xs)
			var probes []float64
			for j := 1; j < n; j++ {
				lo, hi := xs[j-1], xs[j]
				probes = append(probes, hi, math.Nextafter(hi, lo), math.Nextafter(lo, hi), lo+(hi-lo)*rng.Float64())
			}
			for i := 0; i < 2000; i++ {
				probes = append(probes, xs[0]+(xs[n-1]-xs[0])*rng.Float64())
			}
			for _, x := range probes {
				if !(x > xs[0] && x < xs[n-1]) {
					continue
				}
				if got, want := s.interval(x), sort.SearchFloat64s(xs, x); got != want {
					t.Fatalf("airfoil %q: interval(%v) = %d, bisection %d", af.Name, x, got, want)
				}
				checked++
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d angles checked", checked)
	}
}
