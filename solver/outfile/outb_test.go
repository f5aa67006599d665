package outfile

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// fixtureExpect holds header facts read off the fixtures with an
// independent Python struct-based dump (not this package).
type fixtureExpect struct {
	file       string
	id         FileID
	nameLen    int
	nCh, nRows int
	t0, tN     float64
	firstCh    Channel
	lastCh     Channel
}

var outbFixtures = []fixtureExpect{
	{"FASTOutBin.outb", FileIDWithoutTime, 10, 10, 201, 0, 1, Channel{"Wind1VelX", "m/s"}, Channel{"GenPwr", "kW"}},
	{"FASTOutBin_ID4.outb", FileIDChanLenIn, 9, 235, 11, 0, 1, Channel{"Wind1VelX", "m/s"}, Channel{}},
	{"fastout_allnodes.outb", FileIDChanLenIn, 12, 258, 101, 0, 10, Channel{"Wind1VelX", "m/s"}, Channel{"BlPitchC1", "deg"}},
}

func TestReadOutbFixtures(t *testing.T) {
	for _, fx := range outbFixtures {
		t.Run(fx.file, func(t *testing.T) {
			path := testshared.Path(t, "fixtures", "openfast-io", fx.file)
			rd, err := OpenOutb(path)
			if err != nil {
				t.Fatal(err)
			}
			defer rd.Close()
			h := rd.Header
			if h.FileID != fx.id || h.NameLen != fx.nameLen || len(h.Channels) != fx.nCh || h.NumRows != fx.nRows {
				t.Fatalf("header id=%v len=%d ch=%d rows=%d, want %v %d %d %d", h.FileID, h.NameLen, len(h.Channels), h.NumRows, fx.id, fx.nameLen, fx.nCh, fx.nRows)
			}
			if h.TimeChannel != (Channel{"Time", "s"}) {
				t.Errorf("time channel %+v", h.TimeChannel)
			}
			f, err := rd.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(f.Time[0]-fx.t0) > 1e-12 || math.Abs(f.Time[len(f.Time)-1]-fx.tN) > 1e-9 {
				t.Errorf("time %g..%g, want %g..%g", f.Time[0], f.Time[len(f.Time)-1], fx.t0, fx.tN)
			}
			if f.Channels[0] != fx.firstCh {
				t.Errorf("first channel %+v, want %+v", f.Channels[0], fx.firstCh)
			}
			if fx.lastCh.Name != "" && f.Channels[len(f.Channels)-1] != fx.lastCh {
				t.Errorf("last channel %+v, want %+v", f.Channels[len(f.Channels)-1], fx.lastCh)
			}
			checkPackedExtremes(t, path, h)
		})
	}
}

// checkPackedExtremes verifies our reading of the packing rule against the
// file itself: every channel OpenFAST packed has its minimum at code -32768
// and (unless constant) its maximum at 32767, and constant channels carry
// the slope 65535/sqrt(eps_float32) = 0x4D35043E. The float32 offset
// (-32768 - scale*min) is rounded to single precision, so the extremes may
// miss the ends by up to an ulp of the offset (large for narrow channels far
// from zero: GenSpeed in FASTOutBin_ID4 is 77 codes off).
func checkPackedExtremes(t *testing.T, path string, h *OutbHeader) {
	t.Helper()
	if !h.FileID.packed() {
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := len(h.Channels)
	constant := 0
	for c := 0; c < n; c++ {
		lo, hi := int16(math.MaxInt16), int16(math.MinInt16)
		for k := 0; k < h.NumRows; k++ {
			p := int16(binary.LittleEndian.Uint16(b[h.dataOffset+int64(2*(k*n+c)):]))
			lo, hi = min(lo, p), max(hi, p)
		}
		slack := int16(min(2*ulp32(h.Offset[c])+1, 30000))
		if lo > -32768+slack {
			t.Errorf("channel %d (%s): lowest code %d, want -32768", c, h.Channels[c].Name, lo)
		}
		if math.Float32bits(h.Scale[c]) == 0x4D35043E {
			constant++
			continue
		}
		if hi < 32767-slack {
			t.Errorf("channel %d (%s): highest code %d, want 32767", c, h.Channels[c].Name, hi)
		}
	}
	if s, _ := PackScale(5, 5); math.Float32bits(s) != 0x4D35043E {
		t.Errorf("constant-channel slope %x, want 4D35043E", math.Float32bits(s))
	}
	t.Logf("%d channels, %d constant", n, constant)
}

// ulp32 is the spacing of float32 numbers at x.
func ulp32(x float32) float64 {
	a := float32(math.Abs(float64(x)))
	return float64(math.Nextafter32(a, float32(math.Inf(1))) - a)
}

// caseFacts extracts "N channels + Time, M rows, t = a..b s, dt_out = d s"
// from a reference run's CASE.md: written by whoever ran OpenFAST, so an
// independent statement of what the .outb holds.
var caseFacts = regexp.MustCompile(`FileID (\d) \([^)]*\), (\d+) channels \+ Time, (\d+) rows, t = ([0-9.]+)\.\.([0-9.]+) s, dt_out = ([0-9.]+) s`)

func TestReadReferenceOutputs(t *testing.T) {
	root := testshared.Path(t, "reference-outputs")
	cases, err := filepath.Glob(filepath.Join(root, "*", "CASE.md"))
	if err != nil || len(cases) == 0 {
		t.Skipf("no reference cases under %s", root)
	}
	for _, casePath := range cases {
		dir := filepath.Dir(casePath)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			md, err := os.ReadFile(casePath)
			if err != nil {
				t.Fatal(err)
			}
			m := caseFacts.FindSubmatch(md)
			if m == nil {
				t.Fatalf("CASE.md has no output summary line")
			}
			id, _ := strconv.Atoi(string(m[1]))
			nCh, _ := strconv.Atoi(string(m[2]))
			nRows, _ := strconv.Atoi(string(m[3]))
			t0, _ := strconv.ParseFloat(string(m[4]), 64)
			tN, _ := strconv.ParseFloat(string(m[5]), 64)
			dt, _ := strconv.ParseFloat(string(m[6]), 64)
			outbs, _ := filepath.Glob(filepath.Join(dir, "*.outb"))
			more, _ := filepath.Glob(filepath.Join(dir, "*", "*.outb"))
			outbs = append(outbs, more...)
			if len(outbs) != 1 {
				t.Fatalf("found %d .outb files", len(outbs))
			}
			rd, err := OpenOutb(outbs[0])
			if err != nil {
				t.Fatal(err)
			}
			defer rd.Close()
			h := rd.Header
			if int(h.FileID) != id || len(h.Channels) != nCh || h.NumRows != nRows || h.TrailingBytes != 0 {
				t.Fatalf("id=%v ch=%d rows=%d trailing=%d, CASE.md says id %d, %d channels, %d rows", h.FileID, len(h.Channels), h.NumRows, h.TrailingBytes, id, nCh, nRows)
			}
			if math.Abs(h.TimeStep-dt) > 1e-12 || h.TimeAt(0) != t0 || math.Abs(h.TimeAt(nRows-1)-tN) > 1e-9 {
				t.Errorf("time %g..%g step %g, CASE.md says %g..%g step %g", h.TimeAt(0), h.TimeAt(nRows-1), h.TimeStep, t0, tN, dt)
			}
			// Stream the last row and compare with random access.
			row := make([]float64, nCh)
			last := make([]float64, nCh)
			n := 0
			for {
				k, _, err := rd.Next(row)
				if err != nil {
					break
				}
				n = k + 1
			}
			if n != nRows {
				t.Fatalf("Next visited %d rows", n)
			}
			if _, err := rd.Row(nRows-1, last); err != nil {
				t.Fatal(err)
			}
			for c := range row {
				if row[c] != last[c] {
					t.Fatalf("channel %d: streamed %g, random access %g", c, row[c], last[c])
				}
			}
			if testing.Short() {
				return
			}
			checkPackedExtremes(t, outbs[0], h)
		})
	}
}

// quantum is the tolerance of an int16 round trip: one packing step of the
// channel's range plus float32 rounding of the value and of the offset.
func quantum(col []float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range col {
		lo, hi = min(lo, x), max(hi, x)
	}
	mag := max(math.Abs(lo), math.Abs(hi))
	return (hi-lo)/65535 + 4*mag*float64(math.Nextafter32(1, 2)-1)
}

func TestRewriteFixtureID4(t *testing.T) {
	for _, name := range []string{"FASTOutBin_ID4.outb", "FASTOutBin.outb"} {
		t.Run(name, func(t *testing.T) {
			orig, err := ReadOutbFile(testshared.Path(t, "fixtures", "openfast-io", name))
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := WriteOutb(&buf, orig, OutbOptions{}); err != nil {
				t.Fatal(err)
			}
			back, err := ParseOutb(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if back.FileID != FileIDChanLenIn || back.Description != orig.Description || len(back.Channels) != len(orig.Channels) {
				t.Fatalf("header changed: %v %q", back.FileID, back.Description)
			}
			for k := range orig.Time {
				if math.Abs(back.Time[k]-orig.Time[k]) > 1e-12 {
					t.Fatalf("time row %d: %g vs %g", k, back.Time[k], orig.Time[k])
				}
			}
			for c := range orig.Channels {
				if back.Channels[c] != orig.Channels[c] {
					t.Fatalf("channel %d: %+v vs %+v", c, back.Channels[c], orig.Channels[c])
				}
				tol := quantum(orig.Data[c])
				for k, x := range orig.Data[c] {
					if d := math.Abs(back.Data[c][k] - x); d > tol {
						t.Fatalf("%s row %d: %g vs %g (|d| %g > %g)", orig.Channels[c].Name, k, back.Data[c][k], x, d, tol)
					}
				}
			}
		})
	}
}

// synthetic builds a File with channels of known closed form.
func synthetic(nCh, nRows int, dt float64) *File {
	f := &File{Description: "synthetic test file", TimeChannel: Channel{"Time", "s"}}
	for k := 0; k < nRows; k++ {
		f.Time = append(f.Time, float64(k)*dt)
	}
	for c := 0; c < nCh; c++ {
		f.Channels = append(f.Channels, Channel{Name: "Chan" + strconv.Itoa(c), Unit: "kN-m"})
		col := make([]float64, nRows)
		for k := range col {
			switch c % 3 {
			case 0:
				col[k] = 1000 * math.Sin(0.1*float64(k)+float64(c))
			case 1:
				col[k] = 12.5 // constant
			default:
				col[k] = -3e-4 * float64(k*k)
			}
		}
		f.Data = append(f.Data, col)
	}
	return f
}

func TestOutbRoundTripAllIDs(t *testing.T) {
	orig := synthetic(7, 333, 0.0125)
	for _, id := range []FileID{FileIDWithTime, FileIDWithoutTime, FileIDNoCompressWithoutTime, FileIDChanLenIn} {
		t.Run(id.String(), func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteOutb(&buf, orig, OutbOptions{FileID: id}); err != nil {
				t.Fatal(err)
			}
			back, err := ParseOutb(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if back.FileID != id || back.NumRows() != orig.NumRows() || len(back.Channels) != 7 {
				t.Fatalf("got id %v rows %d ch %d", back.FileID, back.NumRows(), len(back.Channels))
			}
			tTol := 1e-12
			if id == FileIDWithTime {
				// Time packed to ±65536 over the span: half a step of 131071.
				tTol = 0.5 * (orig.Time[len(orig.Time)-1] - orig.Time[0]) / 131071 * 1.0001
			}
			for k := range orig.Time {
				if math.Abs(back.Time[k]-orig.Time[k]) > tTol {
					t.Fatalf("time %d: %g vs %g", k, back.Time[k], orig.Time[k])
				}
			}
			for c := range orig.Data {
				tol := quantum(orig.Data[c])
				if id == FileIDNoCompressWithoutTime {
					tol = 0
				}
				for k, x := range orig.Data[c] {
					if d := math.Abs(back.Data[c][k] - x); d > tol {
						t.Fatalf("channel %d row %d: %g vs %g", c, k, back.Data[c][k], x)
					}
				}
			}
		})
	}
}

func TestWriteOutbRejectsNaNAndUneven(t *testing.T) {
	f := synthetic(2, 10, 0.1)
	f.Data[0][3] = math.NaN()
	if err := WriteOutb(&bytes.Buffer{}, f, OutbOptions{}); err == nil {
		t.Error("NaN packed without error")
	}
	if err := WriteOutb(&bytes.Buffer{}, f, OutbOptions{FileID: FileIDNoCompressWithoutTime}); err != nil {
		t.Errorf("FileID 3 should store NaN: %v", err)
	}
	g := synthetic(2, 10, 0.1)
	g.Time[5] += 0.03
	if err := WriteOutb(&bytes.Buffer{}, g, OutbOptions{}); err == nil {
		t.Error("uneven time written as FileID 4")
	}
	if err := WriteOutb(&bytes.Buffer{}, g, OutbOptions{FileID: FileIDWithTime}); err != nil {
		t.Errorf("FileID 1 should take uneven time: %v", err)
	}
}

func TestPackValueRounding(t *testing.T) {
	// Hand calculation: range [0, 65535] gives slope 1, offset -32768, so x
	// packs to x-32768 with NINT rounding half away from zero.
	scl, off := PackScale(0, 65535)
	if scl != 1 || off != -32768 {
		t.Fatalf("scale %g offset %g", scl, off)
	}
	for _, tc := range []struct {
		x    float64
		want int16
	}{{0, -32768}, {65535, 32767}, {32768.5, 1}, {32767.5, -1}, {32766.5, -2}, {-10, -32768}, {70000, 32767}} {
		if got := PackValue(tc.x, scl, off); got != tc.want {
			t.Errorf("PackValue(%g) = %d, want %d", tc.x, got, tc.want)
		}
	}
}

func TestParseOutbRejectsCorrupt(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteOutb(&buf, synthetic(3, 20, 0.1), OutbOptions{}); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	for _, n := range []int{0, 1, 5, 20, len(good) / 2, len(good) - 1} {
		if _, err := ParseOutb(good[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	bad := append([]byte(nil), good...)
	binary.LittleEndian.PutUint16(bad, 9)
	if _, err := ParseOutb(bad); err == nil {
		t.Error("FileID 9 accepted")
	}
	bad = append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(bad[8:], 1<<30) // NT
	if _, err := ParseOutb(bad); err == nil {
		t.Error("huge row count accepted")
	}
}

// TestTimeAtHasNoBinaryResidue: row 3 of a 0.1-s file is 0.3 s, not the
// 0.30000000000000004 that 3 × 0.1 gives in binary floating point.
func TestTimeAtHasNoBinaryResidue(t *testing.T) {
	h := &OutbHeader{FileID: FileIDChanLenIn, TimeStart: 0, TimeStep: 0.1}
	for k, want := range map[int]float64{0: 0, 1: 0.1, 2: 0.2, 3: 0.3, 7: 0.7} {
		if got := h.TimeAt(k); got != want {
			t.Errorf("TimeAt(%d) = %v, want %v", k, got, want)
		}
	}
}
