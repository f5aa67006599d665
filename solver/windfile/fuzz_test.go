package windfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

func addSharedSeeds(f *testing.F, pattern string, maxBytes int64) {
	dir, ok := testshared.Locate()
	if !ok {
		return
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "fixtures", "openfast-io", pattern))
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || st.Size() > maxBytes {
			continue
		}
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}

// FuzzParseBTS checks that no input makes the .bts reader panic or allocate
// without bound, and that accepted boxes are consistent and rewritable.
func FuzzParseBTS(f *testing.F) {
	ff := NewFullField(2, 3, 4, 1)
	ff.DY, ff.DZ, ff.DT, ff.URef, ff.ZHub, ff.GridBottom = 5, 5, 0.05, 8, 20, 15
	for i := range ff.Grid {
		ff.Grid[i] = float32(i % 7)
	}
	var buf bytes.Buffer
	if err := WriteBTS(&buf, ff); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	addSharedSeeds(f, "*.bts", 64<<10)
	f.Fuzz(func(t *testing.T, b []byte) {
		box, err := ParseBTS(b)
		if err != nil {
			return
		}
		if err := box.Validate(); err != nil {
			t.Fatalf("accepted box is inconsistent: %v", err)
		}
		var out bytes.Buffer
		if err := WriteBTS(&out, box); err != nil {
			return // e.g. decoded values overflow float32 to Inf
		}
		if _, err := ParseBTS(out.Bytes()); err != nil {
			t.Fatalf("rewrite of an accepted box does not read back: %v", err)
		}
	})
}

// FuzzParseBladed feeds arbitrary .wnd bytes (with a fixed, valid summary)
// and arbitrary summary text to the Bladed readers.
func FuzzParseBladed(f *testing.F) {
	f.Add(handWND([]int16{1000, 500, -200, -1000, 0, 400, 0, 0, 0, 2000, -500, 0}), []byte(turbsimStyleSummary))
	ff := NewFullField(3, 2, 5, 0)
	ff.DY, ff.DZ, ff.DT, ff.URef, ff.ZHub, ff.GridBottom = 4, 4, 0.1, 10, 30, 28
	for i := range ff.Grid {
		ff.Grid[i] = float32(i%5) + 8
	}
	var wnd, sum bytes.Buffer
	if err := WriteBladed(&wnd, &sum, ff); err != nil {
		f.Fatal(err)
	}
	f.Add(wnd.Bytes(), sum.Bytes())
	f.Fuzz(func(t *testing.T, wndBytes, sumText []byte) {
		// The summary scan must return a value or an error, never panic.
		_, _ = ReadBladedSummary(bytes.NewReader(sumText))
		box, _, err := ParseBladed(wndBytes, &BladedSummary{HubHeight: 90, UBar: 10, TI: [3]float64{10, 8, 5}, LeftHandRule: true})
		if err != nil {
			return
		}
		if err := box.Validate(); err != nil {
			t.Fatalf("accepted box is inconsistent: %v", err)
		}
	})
}

// FuzzReadUniform checks the uniform-wind reader never panics and that what
// it accepts survives a write and read back unchanged.
func FuzzReadUniform(f *testing.F) {
	f.Add([]byte("! c\n0 6 0 0 0 0 0 0\n20.05 8 10 0 0 0.2 0 0 3\n"))
	f.Add([]byte("# h\n0, 10, 350, 0.5, 0.1, 0.2, 0.3, 1.5, 2\n10 12 10 0 0 0 0 0 4 x\n"))
	addSharedSeeds(f, "*.wnd", 64<<10)
	f.Fuzz(func(t *testing.T, b []byte) {
		u, err := ReadUniform(bytes.NewReader(b))
		if err != nil {
			return
		}
		_ = u.At(u.Rows[0].Time + 0.5)
		var out bytes.Buffer
		if err := WriteUniform(&out, u); err != nil {
			t.Fatalf("cannot write an accepted table: %v", err)
		}
		back, err := ReadUniform(&out)
		if err != nil {
			t.Fatalf("rewrite does not read back: %v\n%s", err, out.String())
		}
		if len(back.Rows) != len(u.Rows) {
			t.Fatalf("%d rows became %d", len(u.Rows), len(back.Rows))
		}
		for i := range u.Rows {
			if back.Rows[i] != u.Rows[i] {
				t.Fatalf("row %d: %+v became %+v", i, u.Rows[i], back.Rows[i])
			}
		}
	})
}
