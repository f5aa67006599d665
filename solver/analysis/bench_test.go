package analysis

import (
	"math"
	"math/rand/v2"
	"testing"
)

// benchRecord is a synthetic OpenFAST-like record: channels are random-phase
// sums of a few harmonics plus noise around channel-specific offsets.
func benchRecord(channels, rows int) *Record {
	rng := rand.New(rand.NewPCG(42, 43))
	rec := &Record{Time: uniformTime(rows, 0.0125)}
	for c := 0; c < channels; c++ {
		col := make([]float64, rows)
		off := 1e3 * rng.Float64()
		f1 := 0.1 + rng.Float64()
		for i := range col {
			tt := rec.Time[i]
			col[i] = off + 10*math.Sin(2*math.Pi*f1*tt) + 3*math.Sin(2*math.Pi*3*f1*tt+1) + rng.NormFloat64()
		}
		rec.Names = append(rec.Names, "Ch"+string(rune('A'+c%26))+string(rune('a'+c/26)))
		rec.Channels = append(rec.Channels, col)
	}
	return rec
}

// BenchmarkStatistics100x100000: all statistics of 100 channels × 100 000 rows.
func BenchmarkStatistics100x100000(b *testing.B) {
	rec := benchRecord(100, 100000)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Statistics(rec, nil, WholeRecord()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEnvelope10x100000: min/max envelope of 10 channels to 1000 buckets.
func BenchmarkEnvelope10x100000(b *testing.B) {
	rec := benchRecord(10, 100000)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Envelope(rec, nil, WholeRecord(), 1000); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecimate10x100000: every 50th sample of 10 channels.
func BenchmarkDecimate10x100000(b *testing.B) {
	rec := benchRecord(10, 100000)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Decimate(rec, nil, WholeRecord(), 50); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWelch100000: default Welch (Hann, 50 %, L = 16384) of one channel.
func BenchmarkWelch100000(b *testing.B) {
	rec := benchRecord(1, 100000)
	y := rec.Channels[0]
	b.ResetTimer()
	for b.Loop() {
		if _, err := Welch(y, 0.0125, DefaultWelchOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAmplitude100003: amplitude spectrum of a prime length (Bluestein).
func BenchmarkAmplitude100003(b *testing.B) {
	rec := benchRecord(1, 100003)
	y := rec.Channels[0]
	b.ResetTimer()
	for b.Loop() {
		if _, err := Amplitude(y, 0.0125, DetrendMean); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRainflow100000: turning points and ASTM counting of one channel.
func BenchmarkRainflow100000(b *testing.B) {
	rec := benchRecord(1, 100000)
	y := rec.Channels[0]
	b.ResetTimer()
	for b.Loop() {
		if _, err := Rainflow(y); err != nil {
			b.Fatal(err)
		}
	}
}
