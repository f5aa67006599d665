package inflow

import "testing"

// BenchmarkGridVelocities: 150 blade points (IEA-15 size) in a 5x7x40 box.
func BenchmarkGridVelocities(b *testing.B) {
	g, err := NewGrid(linearBox(true, 4), Orientation{})
	if err != nil {
		b.Fatal(err)
	}
	pts := make([]Vec3, 150)
	for i := range pts {
		pts[i] = Vec3{float64(i % 7), -19 + float64(i%38), 61 + float64(i%58)}
	}
	out := make([]Vec3, len(pts))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := g.Velocities(float64(i)*0.01, pts, out); err != nil {
			b.Fatal(err)
		}
	}
}
