package inflow

import (
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/solver/windfile"
)

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

// BenchmarkStreamedGridVelocities: the same points and box, streamed from
// its .bts file (windfile.BTSStream) instead of held in memory.
func BenchmarkStreamedGridVelocities(b *testing.B) {
	path := filepath.Join(b.TempDir(), "box.bts")
	if err := windfile.WriteBTSFile(path, linearBox(true, 4)); err != nil {
		b.Fatal(err)
	}
	s, err := windfile.OpenBTSStream(path, "box.bts", windfile.StreamOptions{})
	if err != nil {
		b.Fatal(err)
	}
	g, err := NewStreamedGrid(s, Orientation{})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
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
