package windfile

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// sameStep fails unless the two steps hold the same float32 bits.
func sameStep(t *testing.T, it int, wantGrid, wantTower, gotGrid, gotTower []float32) {
	t.Helper()
	if len(gotGrid) != len(wantGrid) || len(gotTower) != len(wantTower) {
		t.Fatalf("step %d: %d grid and %d tower values, want %d and %d", it, len(gotGrid), len(gotTower), len(wantGrid), len(wantTower))
	}
	for i := range wantGrid {
		if math.Float32bits(gotGrid[i]) != math.Float32bits(wantGrid[i]) {
			t.Fatalf("step %d grid value %d: streamed %v, read whole %v", it, i, gotGrid[i], wantGrid[i])
		}
	}
	for i := range wantTower {
		if math.Float32bits(gotTower[i]) != math.Float32bits(wantTower[i]) {
			t.Fatalf("step %d tower value %d: streamed %v, read whole %v", it, i, gotTower[i], wantTower[i])
		}
	}
}

// sameSteps fails unless the stream gives the whole box's steps, in the
// order given, bit for bit.
func sameSteps(t *testing.T, s interface {
	Step(int) ([]float32, []float32, error)
}, whole *FullField, order []int) {
	t.Helper()
	for _, it := range order {
		g, tw, err := s.Step(it)
		if err != nil {
			t.Fatal(err)
		}
		wg, wt, _ := whole.Step(it)
		sameStep(t, it, wg, wt, g, tw)
	}
}

// The streamed box gives every sample of the TurbSim files (the toolbox
// fixtures, with and without tower points, and the 31 × 31, 1800-step
// reference box) exactly as reading the whole file does, in time order
// and in random order, with the default buffers and with buffers so small
// that every few steps evict a block.
func TestBTSStreamMatchesWholeFile(t *testing.T) {
	for _, fx := range btsFixtures {
		path := testshared.Path(t, fx.path...)
		whole, err := ReadBTSFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []StreamOptions{{}, {BlockBytes: 1, Blocks: 2}, {BlockBytes: 3 * 4 * 3 * (whole.NY*whole.NZ + whole.NTower), Blocks: 3}} {
			s, err := OpenBTSStream(path, fx.path[len(fx.path)-1], opt)
			if err != nil {
				t.Fatal(err)
			}
			h := s.Box
			if h.NY != whole.NY || h.NZ != whole.NZ || h.NT != whole.NT || h.NTower != whole.NTower || h.DY != whole.DY || h.DZ != whole.DZ ||
				h.DT != whole.DT || h.URef != whole.URef || h.ZHub != whole.ZHub || h.GridBottom != whole.GridBottom ||
				h.Periodic != whole.Periodic || h.Description != whole.Description || h.Grid != nil || h.Tower != nil {
				t.Fatalf("%s: streamed header %+v differs from the file's", fx.path[len(fx.path)-1], h)
			}
			order := make([]int, 0, 2*whole.NT)
			for it := range whole.NT {
				order = append(order, it)
			}
			sameSteps(t, s, whole, append(order, rand.New(rand.NewPCG(1, 2)).Perm(whole.NT)...))
			if _, _, err := s.Step(whole.NT); err == nil {
				t.Error("step NT: no error")
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// countingReader records the reads a stream makes.
type countingReader struct {
	r       io.ReaderAt
	total   int64
	largest int
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.total += int64(len(p))
	c.largest = max(c.largest, len(p))
	return c.r.ReadAt(p, off)
}

// A 600-s box of a 25 × 25 grid is never held whole: the stream's buffers
// stay at a few blocks (under 10 % of the file; the box whole is twice the file as float32), no read is larger than one
// block, and a run through the box in time order reads each byte once.
func TestBTSStreamMemoryIsBounded(t *testing.T) {
	ff := NewFullField(25, 25, 12001, 2)
	ff.DY, ff.DZ, ff.DT, ff.URef, ff.ZHub, ff.GridBottom = 11.5, 11.5, 0.05, 10, 150, 12
	for i := range ff.Grid {
		ff.Grid[i] = float32(math.Sin(float64(i) * 1e-3))
	}
	for i := range ff.Tower {
		ff.Tower[i] = float32(i % 7)
	}
	path := filepath.Join(t.TempDir(), "long.bts")
	if err := WriteBTSFile(path, ff); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	cr := &countingReader{r: f}
	s, err := NewBTSStream(cr, fi.Size(), StreamOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cr.total, cr.largest = 0, 0 // count the velocities only
	whole, err := ReadBTSFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for it := range ff.NT {
		g, tw, err := s.Step(it)
		if err != nil {
			t.Fatal(err)
		}
		wg, wt, _ := whole.Step(it)
		sameStep(t, it, wg, wt, g, tw)
	}
	checkStreamBounded(t, s, cr, fi.Size(), 2*3*(25*25+2), ff.NT)
}

// boundedStream is what checkStreamBounded asks of a stream.
type boundedStream interface {
	BufferBytes() int
	BytesRead() int64
}

// checkStreamBounded fails unless a stream that went once through the nt
// steps (stepBytes each in the file) of a fileSize-byte file through cr
// kept at most its default buffers and a tenth of the file, read no more
// than a block at a time, and read each byte once.
func checkStreamBounded(t *testing.T, s boundedStream, cr *countingReader, fileSize int64, stepBytes, nt int) {
	t.Helper()
	data := int64(stepBytes) * int64(nt)
	if buf := s.BufferBytes(); buf > DefaultStreamBlocks*DefaultStreamBlockBytes+DefaultStreamBlockBytes || int64(buf) > fileSize/10 {
		t.Errorf("stream buffers %d bytes for a %d-byte file", buf, fileSize)
	}
	if cr.largest > DefaultStreamBlockBytes/2+stepBytes {
		t.Errorf("largest read %d bytes, a block is %d", cr.largest, DefaultStreamBlockBytes/2)
	}
	if cr.total != data || s.BytesRead() != data {
		t.Errorf("read %d bytes (stream counts %d) for %d bytes of velocities", cr.total, s.BytesRead(), data)
	}
	t.Logf("file %.1f MB, stream buffers %.2f MB, largest read %d bytes", float64(fileSize)/1e6, float64(s.BufferBytes())/1e6, cr.largest)
}

// A truncated or corrupt file is refused when the stream opens, as
// ParseBTS refuses it, before any velocity is read; the error names the
// file as the caller names it, not by its path on the server. So does a
// missing one.
func TestBTSStreamRefusesCorrupt(t *testing.T) {
	ff := NewFullField(3, 3, 4, 1)
	ff.DY, ff.DZ, ff.DT, ff.URef, ff.ZHub, ff.GridBottom = 1, 1, 0.1, 8, 10, 9
	dir := t.TempDir()
	path := filepath.Join(dir, "ok.bts")
	if err := WriteBTSFile(path, ff); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	for _, n := range []int{0, 10, 69, 71, len(good) - 1} {
		p := filepath.Join(dir, "cut.bts")
		os.WriteFile(p, good[:n], 0o644)
		if s, err := OpenBTSStream(p, "Wind/cut.bts", StreamOptions{}); err == nil {
			s.Close()
			t.Errorf("truncated to %d bytes: no error", n)
		} else if !strings.Contains(err.Error(), "Wind/cut.bts") || strings.Contains(err.Error(), dir) {
			t.Errorf("truncated to %d bytes: error %q should name Wind/cut.bts and no server path", n, err)
		}
		if _, err := ReadBTSHeader(bytes.NewReader(good[:n]), int64(n)); err == nil {
			t.Errorf("header of a file truncated to %d bytes: no error", n)
		}
	}
	if _, err := OpenBTSStream(filepath.Join(dir, "none.bts"), "Wind/none.bts", StreamOptions{}); err == nil ||
		!strings.Contains(err.Error(), "Wind/none.bts") || strings.Contains(err.Error(), dir) {
		t.Errorf("missing file: error %v should name Wind/none.bts and no server path", err)
	}
	h, err := ReadBTSHeader(bytes.NewReader(good), int64(len(good)))
	if err != nil || h.NT != 4 || h.NY != 3 || h.NTower != 1 || h.URef != 8 || h.Grid != nil {
		t.Errorf("header %+v, %v", h, err)
	}
}

// Written a component at a time, a box is byte for byte the file WriteBTS
// writes of it whole (components given in any order, blocks of several
// steps), and an unfinished or failing writer leaves no file.
func TestBTSComponentWriterMatchesWriteBTS(t *testing.T) {
	ff := NewFullField(5, 4, 9000, 2) // three blocks of steps
	ff.DY, ff.DZ, ff.DT, ff.URef, ff.ZHub, ff.GridBottom = 10, 7.5, 0.1, 11.4, 90, 78.75
	ff.Description = "synthetic box"
	for i := range ff.Grid {
		ff.Grid[i] = float32(11.4*float64(i%3) + 2*math.Sin(0.37*float64(i)))
	}
	for i := range ff.Tower {
		ff.Tower[i] = float32(math.Cos(0.11 * float64(i)))
	}
	dir := t.TempDir()
	for _, periodic := range []bool{false, true} {
		ff.Periodic = periodic
		want := filepath.Join(dir, "whole.bts")
		if err := WriteBTSFile(want, ff); err != nil {
			t.Fatal(err)
		}
		got := filepath.Join(dir, "components.bts")
		w, err := CreateBTSComponents(got, ff)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []int{1, 0, 2} {
			series := func(get func(it int) float32) []float32 {
				s := make([]float32, ff.NT)
				for it := range s {
					s[it] = get(it)
				}
				return s
			}
			err := w.WriteComponent(c,
				func(iz, iy int) []float32 {
					return series(func(it int) float32 { return ff.Grid[ff.GridIndex(it, iz, iy, c)] })
				},
				func(i int) []float32 {
					return series(func(it int) float32 { return ff.Tower[ff.TowerIndex(it, i, c)] })
				})
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(want)
		b, _ := os.ReadFile(got)
		if len(a) != len(b) {
			t.Fatalf("periodic %v: %d bytes, WriteBTS wrote %d", periodic, len(b), len(a))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("periodic %v: byte %d differs: %d, WriteBTS %d", periodic, i, b[i], a[i])
			}
		}
	}
	// Two components only: Close refuses, nothing is left behind.
	w, err := CreateBTSComponents(filepath.Join(dir, "half.bts"), ff)
	if err != nil {
		t.Fatal(err)
	}
	flat := func(int, int) []float32 { return make([]float32, ff.NT) }
	flatTower := func(int) []float32 { return make([]float32, ff.NT) }
	w.WriteComponent(0, flat, flatTower)
	w.WriteComponent(1, flat, flatTower)
	if err := w.WriteComponent(1, flat, flatTower); err == nil {
		t.Error("component 1 written twice: no error")
	}
	if err := w.Close(); err == nil {
		t.Error("closed with two components: no error")
	}
	nan := func(int, int) []float32 { s := make([]float32, ff.NT); s[3] = float32(math.NaN()); return s }
	w, _ = CreateBTSComponents(filepath.Join(dir, "nan.bts"), ff)
	if err := w.WriteComponent(2, nan, flatTower); err == nil {
		t.Error("NaN written")
	}
	w.Abort()
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(left) != 2 {
		t.Errorf("folder holds %v, want the two finished files only", left)
	}
}
