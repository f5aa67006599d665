package outfile

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim/internal/matreader"
)

// TestWriteMATReadBack writes three channels over five rows and reads the
// file back with matreader (a reader written separately from the format's
// specification): Channels holds time and the samples column by
// column, ChanName and ChanUnit the names and units.
func TestWriteMATReadBack(t *testing.T) {
	f := NewFile("mat test", []Channel{{Name: "GenPwr", Unit: "kW"}, {Name: "RootMyb1", Unit: "kN-m"}, {Name: "Wind1VelX", Unit: "m/s"}}, 5)
	for i := range 5 {
		tm := 0.05 * float64(i)
		if err := f.AppendRow(tm, []float64{1000 + float64(i), -3.25 * float64(i), 1e-7 * float64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := WriteMAT(&buf, f, time.Date(2026, 11, 28, 23, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if buf.Len()%8 != 0 {
		t.Fatalf("file of %d bytes is not 8-byte aligned", buf.Len())
	}
	vars, err := matreader.Read(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	ch := vars["Channels"]
	if ch.Rows != 5 || ch.Cols != 4 || ch.Class != matreader.ClassDouble {
		t.Fatalf("Channels %d × %d class %d", ch.Rows, ch.Cols, ch.Class)
	}
	for i := range 5 {
		want := []float64{0.05 * float64(i), 1000 + float64(i), -3.25 * float64(i), 1e-7 * float64(i)}
		for c, w := range want {
			if got := ch.Values[c*5+i]; got != w {
				t.Errorf("Channels(%d,%d) = %v, want %v", i+1, c+1, got, w)
			}
		}
	}
	if got := strings.Join(vars["ChanName"].Strings, ","); got != "Time,GenPwr,RootMyb1,Wind1VelX" {
		t.Errorf("ChanName %q", got)
	}
	if got := strings.Join(vars["ChanUnit"].Strings, ","); got != "s,kW,kN-m,m/s" {
		t.Errorf("ChanUnit %q", got)
	}
}
