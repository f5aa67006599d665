package windfile

import (
	"bytes"
	"math"
	"testing"
)

// benchBox is a 31×31 grid, 1800 steps and 4 tower points: the size of the
// reference turbulence box (10.4 MB as .bts).
func benchBox() *FullField {
	ff := NewFullField(31, 31, 1800, 4)
	ff.DY, ff.DZ, ff.DT, ff.URef, ff.ZHub, ff.GridBottom = 145.0/30, 145.0/30, 0.05, 12, 90, 17.5
	for i := range ff.Grid {
		ff.Grid[i] = float32(math.Sin(0.001 * float64(i)))
	}
	return ff
}

func BenchmarkReadBTS(b *testing.B) {
	var buf bytes.Buffer
	if err := WriteBTS(&buf, benchBox()); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseBTS(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteBTS(b *testing.B) {
	ff := benchBox()
	var buf bytes.Buffer
	if err := WriteBTS(&buf, ff); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		buf.Reset()
		if err := WriteBTS(&buf, ff); err != nil {
			b.Fatal(err)
		}
	}
}
