package windfile

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// writeBladedBox writes ff as root.wnd and root.sum (WriteBladed) and, when
// the box has tower points, root.twr in TurbSim's tower layout, packing
// each value to the nearest int16 of the file's step (UHub·1e-5·TI).
// clockwise rewrites the summary's rotation line (the reader then reverses
// the columns).
func writeBladedBox(t *testing.T, root string, ff *FullField, clockwise bool) {
	t.Helper()
	var wnd, sum bytes.Buffer
	if err := WriteBladed(&wnd, &sum, ff); err != nil {
		t.Fatal(err)
	}
	s := sum.String()
	if clockwise {
		s = strings.Replace(s, "         F  Clockwise", "         T  Clockwise", 1)
	}
	if err := os.WriteFile(root+".wnd", wnd.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(root+".sum", []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	if ff.NTower == 0 {
		return
	}
	var b bytes.Buffer
	put := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	ti := [3]float32{10, 8, 6}
	put([3]float32{float32(ff.DZ), float32(ff.DT * ff.URef), float32(ff.GridBottom)})
	put([2]int32{int32(ff.NT), int32(ff.NTower)})
	put(float32(ff.URef))
	put(ti)
	offset := [3]float64{1, 0, 0}
	for i, v := range ff.Tower {
		c := i % 3
		n := (float64(v)/ff.URef - offset[c]) / (1e-5 * float64(ti[c]))
		put(int16(math.Round(math.Max(-32768, math.Min(32767, n)))))
	}
	if err := os.WriteFile(root+".twr", b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// syntheticBladedBox is a box of ny × nz points, nt steps and nTower tower
// points with distinct values everywhere.
func syntheticBladedBox(ny, nz, nt, nTower int) *FullField {
	ff := NewFullField(ny, nz, nt, nTower)
	ff.DY, ff.DZ, ff.DT, ff.URef, ff.ZHub, ff.GridBottom = 6, 5, 0.1, 11, 60, 60-2.5*float64(nz-1)
	for i := range ff.Grid {
		ff.Grid[i] = float32(math.Sin(0.013*float64(i)) * float64(1+i%3))
		if i%3 == 0 {
			ff.Grid[i] += 11
		}
	}
	for i := range ff.Tower {
		ff.Tower[i] = float32(0.7 * math.Cos(0.029*float64(i)))
		if i%3 == 0 {
			ff.Tower[i] += 9
		}
	}
	return ff
}

// readBladedWhole reads the box whole, as ReadBladedFiles does.
func readBladedWhole(t *testing.T, root string, withTower bool) *FullField {
	t.Helper()
	ff, _, err := ReadBladedFiles(root, withTower)
	if err != nil {
		t.Fatal(err)
	}
	return ff
}

// A Bladed box streamed from its files gives every time step exactly as
// reading the files whole does, bit for bit (grid, tower points, first and
// last steps, clockwise column order, an odd step count), in time order,
// backwards and in random order, with the default buffers and with buffers
// so small that every few steps evict a block; and on a Bladed copy of the
// 31 × 31, 1800-step reference box.
func TestBladedStreamMatchesWholeFile(t *testing.T) {
	dir := t.TempDir()
	type box struct {
		name      string
		ff        *FullField
		clockwise bool
	}
	boxes := []box{
		{"tower", syntheticBladedBox(5, 4, 301, 3), false},
		{"clockwise", syntheticBladedBox(4, 3, 120, 0), true},
		{"one-column", syntheticBladedBox(1, 3, 57, 2), false},
	}
	if !testing.Short() {
		if sh, ok := testshared.Locate(); ok {
			ref, err := ReadBTSFile(filepath.Join(sh, "reference-outputs", "nrel5mw_turb12_full", "wind", "NREL5MW_12mps_IECKAI_B.bts"))
			if err != nil {
				t.Fatal(err)
			}
			boxes = append(boxes, box{"reference", ref, false})
		}
	}
	for _, b := range boxes {
		root := filepath.Join(dir, b.name)
		writeBladedBox(t, root, b.ff, b.clockwise)
		withTower := b.ff.NTower > 0
		whole := readBladedWhole(t, root, withTower)
		if whole.NTower != b.ff.NTower {
			t.Fatalf("%s: %d tower points read whole", b.name, whole.NTower)
		}
		perStep := 4 * 3 * (whole.NY*whole.NZ + whole.NTower)
		for _, opt := range []StreamOptions{{}, {BlockBytes: 1, Blocks: 2}, {BlockBytes: 3 * perStep, Blocks: 3}} {
			s, err := OpenBladedStream(root+".wnd", b.name, withTower, opt)
			if err != nil {
				t.Fatal(err)
			}
			h := s.Box
			if h.NY != whole.NY || h.NZ != whole.NZ || h.NT != whole.NT || h.NTower != whole.NTower || h.DY != whole.DY || h.DZ != whole.DZ ||
				h.DT != whole.DT || h.URef != whole.URef || h.ZHub != whole.ZHub || h.GridBottom != whole.GridBottom ||
				h.Periodic != whole.Periodic || h.Grid != nil || h.Tower != nil {
				t.Fatalf("%s: streamed header %+v differs from the whole file's", b.name, h)
			}
			order := make([]int, 0, 3*whole.NT)
			for it := range whole.NT {
				order = append(order, it)
			}
			for it := whole.NT - 1; it >= 0; it-- {
				order = append(order, it)
			}
			sameSteps(t, s, whole, append(order, rand.New(rand.NewPCG(3, 4)).Perm(whole.NT)...))
			for _, it := range []int{-1, whole.NT} {
				if _, _, err := s.Step(it); err == nil {
					t.Errorf("%s: step %d: no error", b.name, it)
				}
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A 600-s Bladed box of a 25 × 25 grid is never held whole: the stream's
// buffers stay at a few blocks (under 10 % of the file), no read is larger
// than one block, and a run through the box in time order reads each
// byte once.
func TestBladedStreamMemoryIsBounded(t *testing.T) {
	ff := syntheticBladedBox(25, 25, 12001, 0)
	root := filepath.Join(t.TempDir(), "long")
	writeBladedBox(t, root, ff, false)
	s, err := OpenBladedStream(root, "long", false, StreamOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cr := &countingReader{r: s.wnd}
	s.wnd = cr
	for it := range ff.NT {
		if _, _, err := s.Step(it); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(root + ".wnd")
	if err != nil {
		t.Fatal(err)
	}
	checkStreamBounded(t, s, cr, fi.Size(), 2*3*25*25, ff.NT)
}

// A missing, truncated or malformed file is refused when the stream opens
// (or, for a file cut short after that, when the step is read), with an
// error naming the file as the caller names it and its extension, never
// the directory it was opened from nor the file's content.
func TestBladedStreamRefusesCorrupt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "server-side-dir")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "box")
	ff := syntheticBladedBox(3, 3, 40, 2)
	writeBladedBox(t, root, ff, false)
	wnd, _ := os.ReadFile(root + ".wnd")
	sum, _ := os.ReadFile(root + ".sum")
	twr, _ := os.ReadFile(root + ".twr")
	const name = "Wind/box"
	check := func(what, ext string, err error) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: no error", what)
			return
		}
		msg := err.Error()
		t.Logf("%s: %s", what, msg)
		if !strings.Contains(msg, name+ext) || strings.Contains(msg, dir) || strings.Contains(msg, "server-side") || strings.Contains(msg, "ninety") {
			t.Errorf("%s: error %q should name %s%s and no path or content", what, msg, name, ext)
		}
	}
	open := func(what, ext string) {
		t.Helper()
		s, err := OpenBladedStream(root, name, true, StreamOptions{})
		if err == nil {
			s.Close()
		}
		check(what, ext, err)
	}
	restore := func() {
		os.WriteFile(root+".wnd", wnd, 0o644)
		os.WriteFile(root+".sum", sum, 0o644)
		os.WriteFile(root+".twr", twr, 0o644)
	}
	for _, n := range []int{0, 1, 10, 40, 100, len(wnd) - 1, len(wnd) - 3*3*3*2} {
		os.WriteFile(root+".wnd", wnd[:n], 0o644)
		open("wnd cut to "+strconv.Itoa(n), ".wnd")
	}
	os.WriteFile(root+".wnd", append(append([]byte{}, wnd...), 0, 0), 0o644)
	open("wnd two bytes too long", ".wnd")
	restore()
	for _, n := range []int{0, 20, 35, len(twr) - 1} {
		os.WriteFile(root+".twr", twr[:n], 0o644)
		open("twr cut to "+strconv.Itoa(n), ".twr")
	}
	restore()
	os.WriteFile(root+".sum", []byte(strings.Replace(string(sum), "UBar  = ", "UBar  = ninety ", 1)), 0o644)
	open("UBar not a number", ".sum")
	os.WriteFile(root+".sum", sum[:len(sum)/3], 0o644)
	open("summary cut short", ".sum")
	restore()
	for _, ext := range []string{".sum", ".wnd", ".twr"} {
		os.Remove(root + ext)
		open("missing "+ext, ext)
		restore()
	}

	// Cut short after the stream opened: the step's read fails, naming
	// the file.
	s, err := OpenBladedStream(root, name, true, StreamOptions{BlockBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := os.Truncate(root+".wnd", int64(len(wnd)-100)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Step(0); err != nil {
		t.Fatalf("step 0 is still in the file: %v", err)
	}
	_, _, err = s.Step(ff.NT - 1)
	check("wnd cut after opening", ".wnd", err)
}
