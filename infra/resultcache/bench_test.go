package resultcache

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/solver/analysis"
)

// syntheticRecord is channels × rows of float32-representable samples
// (as in an .outb), 20 Hz, each channel a few sines plus noise.
func syntheticRecord(channels, rows int) *analysis.Record {
	rng := rand.New(rand.NewPCG(1, 2))
	rec := &analysis.Record{Time: make([]float64, rows)}
	for i := range rows {
		rec.Time[i] = 0.05 * float64(i)
	}
	for c := range channels {
		rec.Names = append(rec.Names, fmt.Sprintf("Ch%03d", c))
		rec.Units = append(rec.Units, "kN")
		col := make([]float64, rows)
		f := 0.1 + 0.05*float64(c)
		for i, tm := range rec.Time {
			col[i] = float64(float32(float64(c) + math.Sin(2*math.Pi*f*tm) + 0.3*math.Sin(2*math.Pi*3*f*tm) + 0.1*rng.NormFloat64()))
		}
		rec.Channels = append(rec.Channels, col)
	}
	return rec
}

// cachedRecord puts a synthetic record into a cache as its column file and
// returns the cache and key; Record then serves it from memory.
func cachedRecord(b *testing.B, channels, rows int) (*Cache, string) {
	b.Helper()
	dir := b.TempDir()
	c, err := New(dir, 0)
	if err != nil {
		b.Fatal(err)
	}
	key := "bench"
	if err := writeAtomic(c.path(key), Encode(syntheticRecord(channels, rows))); err != nil {
		b.Fatal(err)
	}
	noOpen := func(context.Context) (string, func(), error) {
		return filepath.Join(dir, "absent.outb"), func() {}, nil
	}
	if _, err := c.Record(context.Background(), key, noOpen); err != nil {
		b.Fatal(err)
	}
	return c, key
}

func hit(b *testing.B, c *Cache, key string) *analysis.Record {
	rec, err := c.Record(context.Background(), key, nil)
	if err != nil {
		b.Fatal(err)
	}
	return rec
}

// Target: < 100 ms.
func BenchmarkStatistics100Channels100kRows(b *testing.B) {
	c, key := cachedRecord(b, 100, 100_000)
	for b.Loop() {
		if _, err := analysis.Statistics(hit(b, c, key), nil, analysis.After(30)); err != nil {
			b.Fatal(err)
		}
	}
}

// Target: < 50 ms (every 50th sample: 2000 points per channel).
func BenchmarkDecimate10Channels(b *testing.B) {
	c, key := cachedRecord(b, 100, 100_000)
	names := []string{"Ch000", "Ch010", "Ch020", "Ch030", "Ch040", "Ch050", "Ch060", "Ch070", "Ch080", "Ch090"}
	for b.Loop() {
		if _, err := analysis.Decimate(hit(b, c, key), names, analysis.WholeRecord(), 50); err != nil {
			b.Fatal(err)
		}
	}
}

// The min/max envelope of the same 10 channels in 2000 buckets.
func BenchmarkEnvelope10Channels(b *testing.B) {
	c, key := cachedRecord(b, 100, 100_000)
	names := []string{"Ch000", "Ch010", "Ch020", "Ch030", "Ch040", "Ch050", "Ch060", "Ch070", "Ch080", "Ch090"}
	for b.Loop() {
		if _, err := analysis.Envelope(hit(b, c, key), names, analysis.WholeRecord(), 2000); err != nil {
			b.Fatal(err)
		}
	}
}

// Target: < 50 ms (Welch, Hann, default segment, 50 % overlap).
func BenchmarkWelchOneChannel(b *testing.B) {
	c, key := cachedRecord(b, 100, 100_000)
	opt := analysis.DefaultWelchOptions()
	for b.Loop() {
		if _, err := analysis.ChannelWelch(hit(b, c, key), "Ch042", analysis.WholeRecord(), opt); err != nil {
			b.Fatal(err)
		}
	}
}

// The cold path after eviction or a restart: decode the column file of
// 100 channels × 100 000 rows (no parsing of the original output).
func BenchmarkDecodeColumnFile(b *testing.B) {
	data := Encode(syntheticRecord(100, 100_000))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}
