package deck

import (
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// BenchmarkLoadIEA15Monopile parses the whole IEA-15 monopile deck (main,
// ElastoDyn + blade + tower, AeroDyn + blade + 50 airfoils with
// coordinates, InflowWind, ServoDyn, DISCON.IN, HydroDyn, SubDyn).
func BenchmarkLoadIEA15Monopile(b *testing.B) {
	p := testshared.Path(b, sharedDecks[1]...)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseMainSeed(b *testing.B) {
	src, err := sourceFromBytes("seed.fst", []byte(seedMain), false)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseMain(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTokenize(b *testing.B) {
	line := `"../IEA-15-240-RWT/IEA-15-240-RWT_ElastoDyn_blade.dat" BldFile1    - Name of file containing properties for blade 1 (quoted string)`
	b.ReportAllocs()
	for b.Loop() {
		labelCandidates(tokenize(stripComment(line)))
	}
}
