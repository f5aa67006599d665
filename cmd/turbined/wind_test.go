package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/solver/windfile"
)

func runForTest(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), args, func(string) string { return "" }, &stdout, &stderr)
	return stdout.String() + stderr.String(), err
}

// The box written by `turbined wind turbulence` reads back through the
// formats layer with the grid asked for and, with hub scaling, the IEC NTM
// standard deviation at the hub: σ1 = I_ref (0.75 V_hub + 5.6) (IEC 61400-1
// ed.3 eq. 11), 0.14 (0.75·12 + 5.6) = 2.044 m/s for category B at 12 m/s.
func TestWindTurbulenceWritesReadableBox(t *testing.T) {
	out := filepath.Join(t.TempDir(), "box.bts")
	msg, err := runForTest(t, "wind", "turbulence", "-class", "I", "-category", "B", "-vhub", "12",
		"-grid", "9", "-duration", "60", "-dt", "0.1", "-seed", "7", "-scale", "hub", "-o", out)
	if err != nil {
		t.Fatalf("wind turbulence: %v\n%s", err, msg)
	}
	box, err := windfile.ReadBTSFile(out)
	if err != nil {
		t.Fatalf("reading the generated box: %v", err)
	}
	if box.NY != 9 || box.NZ != 9 {
		t.Fatalf("grid %d×%d, want 9×9", box.NY, box.NZ)
	}
	if math.Abs(box.URef-12) > 1e-3 {
		t.Fatalf("URef %g, want 12", box.URef)
	}
	iy, iz := box.NY/2, box.NZ/2
	var sum, sumSq float64
	for it := 0; it < box.NT; it++ {
		u := float64(box.Vel(it, iz, iy)[0])
		sum += u
		sumSq += u * u
	}
	n := float64(box.NT)
	mean := sum / n
	sigma := math.Sqrt(sumSq/n - mean*mean)
	const wantSigma = 0.14 * (0.75*12 + 5.6)
	// The .bts stores int16 codes, so allow the quantisation of the file.
	if math.Abs(sigma-wantSigma)/wantSigma > 0.01 {
		t.Fatalf("hub σ_u %.4f m/s from the file, want %.4f within 1 %%", sigma, wantSigma)
	}
}

// With -format bladed the same inputs give the same box as a Bladed-style
// .wnd with its .sum, which reads back (as InflowWind WindType 4 reads it)
// to the .bts box within the .wnd's quantisation step (0.001·σ of each
// component, plus the .bts's own step).
func TestWindTurbulenceWritesBladedBox(t *testing.T) {
	dir := t.TempDir()
	args := []string{"wind", "turbulence", "-vhub", "12", "-grid", "5", "-duration", "20", "-dt", "0.1", "-seed", "3"}
	if msg, err := runForTest(t, append(args, "-o", filepath.Join(dir, "box.bts"))...); err != nil {
		t.Fatalf("%v\n%s", err, msg)
	}
	if msg, err := runForTest(t, append(args, "-format", "bladed", "-o", filepath.Join(dir, "box.wnd"))...); err != nil {
		t.Fatalf("%v\n%s", err, msg)
	}
	bts, err := windfile.ReadBTSFile(filepath.Join(dir, "box.bts"))
	if err != nil {
		t.Fatal(err)
	}
	wnd, sum, err := windfile.ReadBladedFiles(filepath.Join(dir, "box"), false)
	if err != nil {
		t.Fatal(err)
	}
	if wnd.NY != 5 || wnd.NZ != 5 || wnd.NT != bts.NT || sum.HubHeight != 90 || math.Abs(wnd.GridBottom-bts.GridBottom) > 1e-4 {
		t.Fatalf("Bladed box %d×%d×%d, hub %g, bottom %g; .bts %d steps, bottom %g", wnd.NY, wnd.NZ, wnd.NT, sum.HubHeight, wnd.GridBottom, bts.NT, bts.GridBottom)
	}
	for i := range wnd.Grid {
		if d := math.Abs(float64(wnd.Grid[i] - bts.Grid[i])); d > 0.01 {
			t.Fatalf("value %d: .wnd %g, .bts %g", i, wnd.Grid[i], bts.Grid[i])
		}
	}
	if _, err := runForTest(t, append(args, "-format", "bladed", "-o", filepath.Join(dir, "box.bin"))...); err == nil {
		t.Error("-format bladed with an output not ending in .wnd accepted")
	}
}

// A failing event leaves no file behind, and a good one is a uniform-wind
// file the formats layer reads.
func TestWindEvent(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.wnd")
	if _, err := runForTest(t, "wind", "event", "-kind", "NOPE", "-o", bad); err == nil || !strings.Contains(err.Error(), "NOPE") {
		t.Fatalf("unknown event: err = %v, want one naming the kind", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a failed event left files behind: %v", entries)
	}
	good := filepath.Join(dir, "eog.wnd")
	if msg, err := runForTest(t, "wind", "event", "-kind", "EOG", "-vhub", "12", "-o", good); err != nil {
		t.Fatalf("wind event: %v\n%s", err, msg)
	}
	u, err := windfile.ReadUniformFile(good)
	if err != nil {
		t.Fatalf("reading the event file: %v", err)
	}
	if len(u.Rows) < 100 {
		t.Fatalf("event file has %d rows", len(u.Rows))
	}
}
