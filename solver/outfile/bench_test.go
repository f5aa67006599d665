package outfile

import (
	"bytes"
	"path/filepath"
	"testing"
)

// benchFile is 500 channels × 20 000 rows: a 20 MB FileID-4 .outb.
func benchFile(b *testing.B) *File {
	b.Helper()
	return synthetic(500, 20000, 0.01)
}

func BenchmarkReadOutb20MB(b *testing.B) {
	var buf bytes.Buffer
	if err := WriteOutb(&buf, benchFile(b), OutbOptions{}); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := ParseOutb(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadOutbFile20MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.outb")
	if err := WriteOutbFile(path, benchFile(b), OutbOptions{}); err != nil {
		b.Fatal(err)
	}
	rd, err := OpenOutb(path)
	if err != nil {
		b.Fatal(err)
	}
	size := rd.Header.dataOffset + int64(rd.NumRows())*rd.Header.rowBytes
	rd.Close()
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		if _, err := ReadOutbFile(path); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteOutb20MB(b *testing.B) {
	f := benchFile(b)
	var buf bytes.Buffer
	if err := WriteOutb(&buf, f, OutbOptions{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	for b.Loop() {
		buf.Reset()
		if err := WriteOutb(&buf, f, OutbOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStreamOutb20MB(b *testing.B) {
	f := benchFile(b)
	dir := b.TempDir()
	row := make([]float64, len(f.Channels))
	b.SetBytes(int64(2 * len(f.Channels) * f.NumRows()))
	for b.Loop() {
		w, err := Create(filepath.Join(dir, "s.outb"), StreamOptions{Channels: f.Channels})
		if err != nil {
			b.Fatal(err)
		}
		for k, t := range f.Time {
			for c := range row {
				row[c] = f.Data[c][k]
			}
			if err := w.Append(t, row); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
