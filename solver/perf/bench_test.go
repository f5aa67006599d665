package perf

import (
	"context"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// BenchmarkSurfaceIEA15: the full 26 x 36 ROSCO grid, 8 azimuth sectors.
func BenchmarkSurfaceIEA15(b *testing.B) {
	d, err := deck.Load(testshared.Path(b, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"))
	if err != nil {
		b.Fatal(err)
	}
	rot, g, err := RotorFromDeck(d)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Compute(context.Background(), rot, g, Options{WindSpeed: 10.74, ShearExp: 0.2}); err != nil {
			b.Fatal(err)
		}
	}
}
