package resultcache

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// writeOutb writes a small .outb with a sine, a ramp and a rotor speed.
func writeOutb(t testing.TB, dir string, rows int) string {
	t.Helper()
	f := outfile.NewFile("cache test", []outfile.Channel{{Name: "Wave", Unit: "kN"}, {Name: "Ramp", Unit: "m"}, {Name: "RotSpeed", Unit: "rpm"}}, rows)
	for i := range rows {
		tm := 0.05 * float64(i)
		if err := f.AppendRow(tm, []float64{100 * math.Sin(2*math.Pi*0.3*tm), 0.01 * float64(i), 12.1}); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "run.outb")
	if err := outfile.WriteOutbFile(p, f, outfile.OutbOptions{}); err != nil {
		t.Fatal(err)
	}
	return p
}

func opener(path string, opens *int, mu *sync.Mutex) func(context.Context) (string, func(), error) {
	return func(context.Context) (string, func(), error) {
		mu.Lock()
		*opens++
		mu.Unlock()
		return path, func() {}, nil
	}
}

func sameRecord(t *testing.T, got *analysis.Record, want *outfile.File) {
	t.Helper()
	if len(got.Time) != len(want.Time) || len(got.Channels) != len(want.Channels) {
		t.Fatalf("shape %d×%d, want %d×%d", len(got.Time), len(got.Channels), len(want.Time), len(want.Channels))
	}
	for i, tm := range want.Time {
		if got.Time[i] != tm {
			t.Fatalf("time[%d] = %v, want %v", i, got.Time[i], tm)
		}
	}
	for c, ch := range want.Channels {
		if got.Names[c] != ch.Name || got.Units[c] != ch.Unit {
			t.Fatalf("channel %d = %s (%s), want %s (%s)", c, got.Names[c], got.Units[c], ch.Name, ch.Unit)
		}
		for i, v := range want.Data[c] {
			if got.Channels[c][i] != v {
				t.Fatalf("%s[%d] = %v, want %v", ch.Name, i, got.Channels[c][i], v)
			}
		}
	}
}

func TestRecordParsesOnceThenServesFromMemoryAndColumnFile(t *testing.T) {
	dir := t.TempDir()
	src := writeOutb(t, dir, 500)
	want, err := outfile.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	cacheDir := filepath.Join(dir, "cache")
	c, err := New(cacheDir, 0)
	if err != nil {
		t.Fatal(err)
	}
	var opens int
	var mu sync.Mutex
	ctx := context.Background()

	// Concurrent first accesses parse the file once.
	var wg sync.WaitGroup
	recs := make([]*analysis.Record, 8)
	for i := range recs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			recs[i], err = c.Record(ctx, "job-1", opener(src, &opens, &mu))
		}()
	}
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		sameRecord(t, r, want)
	}
	if parses, _ := c.Stats(); parses != 1 || opens != 1 {
		t.Fatalf("parses %d, opens %d; want 1 and 1", parses, opens)
	}

	// A new cache on the same directory (a restart) reads the column file
	// and never opens the original, even after it is gone.
	if err := os.Remove(src); err != nil {
		t.Fatal(err)
	}
	c2, err := New(cacheDir, 0)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := c2.Record(ctx, "job-1", opener(src, &opens, &mu))
	if err != nil {
		t.Fatal(err)
	}
	sameRecord(t, rec, want)
	if parses, hits := c2.Stats(); parses != 0 || hits != 1 || opens != 1 {
		t.Fatalf("after restart: parses %d, file hits %d, opens %d; want 0, 1, 1", parses, hits, opens)
	}
}

func TestEncodeKeepsFloat64ColumnsExact(t *testing.T) {
	rec := &analysis.Record{Time: []float64{0, 0.1, 0.2}, Names: []string{"A", "B"}, Units: []string{"kN", "-"},
		Channels: [][]float64{{1.5, 2.25, -3}, {0.1, math.Pi, 1e-300}}}
	b := Encode(rec)
	// A is exactly representable in float32 (4 bytes each), B is not (8).
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	for c := range rec.Channels {
		for i, v := range rec.Channels[c] {
			if got.Channels[c][i] != v {
				t.Fatalf("%s[%d] = %v, want %v", rec.Names[c], i, got.Channels[c][i], v)
			}
		}
	}
	dataBytes := 3*8 + 3*4 + 3*8
	if n := len(b) - len(magic) - 4; n <= dataBytes || n > dataBytes+200 {
		t.Fatalf("file of %d bytes after the magic: A should be stored as float32", n)
	}
	if _, err := Decode(b[:len(b)-1]); err == nil {
		t.Fatal("a truncated file decoded")
	}
	if _, err := Decode([]byte("not a column file")); err == nil {
		t.Fatal("garbage decoded")
	}
}

func TestLRUEvictsToTheByteBound(t *testing.T) {
	dir := t.TempDir()
	src := writeOutb(t, dir, 100) // 100 rows × 4 columns × 8 B = 3200 B
	c, err := New(filepath.Join(dir, "cache"), 7000)
	if err != nil {
		t.Fatal(err)
	}
	var opens int
	var mu sync.Mutex
	ctx := context.Background()
	for _, k := range []string{"a", "b", "c"} {
		if _, err := c.Record(ctx, k, opener(src, &opens, &mu)); err != nil {
			t.Fatal(err)
		}
	}
	if c.used > 7000 || len(c.entries) != 2 {
		t.Fatalf("used %d B in %d entries; want ≤ 7000 in 2", c.used, len(c.entries))
	}
	if _, ok := c.entries["a"]; ok {
		t.Fatal("the least recently used entry was kept")
	}
	// "a" comes back from its column file, not by parsing again.
	if _, err := c.Record(ctx, "a", opener(src, &opens, &mu)); err != nil {
		t.Fatal(err)
	}
	if parses, hits := c.Stats(); parses != 3 || hits != 1 {
		t.Fatalf("parses %d, file hits %d; want 3 and 1", parses, hits)
	}
}

func TestOpenErrorIsReturnedAndNotCached(t *testing.T) {
	c, err := New(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	bad := func(context.Context) (string, func(), error) {
		calls++
		return filepath.Join(t.TempDir(), "missing.outb"), func() {}, nil
	}
	for range 2 {
		if _, err := c.Record(context.Background(), "x", bad); err == nil {
			t.Fatal("a missing file gave a record")
		}
	}
	if calls != 2 {
		t.Fatalf("open called %d times; a failure must not be cached", calls)
	}
}
