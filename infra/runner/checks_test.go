package runner_test

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"testing"

	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/infra/resultcache"
	"github.com/turbinesim/turbinesim/infra/runner"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// The checks of a .outb read only the channels they bound whole and scan
// the others a row at a time, and find what the checks of the whole record
// find: an overspeed in RotSpeed, a NaN in one of many other channels (at
// its time), an INVALID channel.
func TestRunChecksOfOutbMatchWholeRecord(t *testing.T) {
	_, _, d, _ := bundledNREL5MW(t)
	const rows = 400
	f := &outfile.File{TimeChannel: outfile.Channel{Name: "Time", Unit: "(s)"}, Time: make([]float64, rows)}
	for k := range f.Time {
		f.Time[k] = 0.05 * float64(k)
	}
	add := func(name, unit string, v func(k int) float64) {
		col := make([]float64, rows)
		for k := range col {
			col[k] = v(k)
		}
		f.Channels = append(f.Channels, outfile.Channel{Name: name, Unit: unit})
		f.Data = append(f.Data, col)
	}
	add("RotSpeed", "(rpm)", func(k int) float64 { return 12 + 20*float64(k)/rows })
	for i := range 60 {
		add("Extra"+string(rune('A'+i%26))+string(rune('a'+i/26)), "(-)", func(k int) float64 {
			if i == 37 && k == 250 {
				return math.NaN()
			}
			return math.Sin(float64(k + i))
		})
	}
	add("Spn1ALxb1", "(INVALID)", func(int) float64 { return 0 })
	path := filepath.Join(t.TempDir(), "run.outb")
	if err := outfile.WriteOutbFile(path, f, outfile.OutbOptions{FileID: outfile.FileIDNoCompressWithoutTime}); err != nil {
		t.Fatal(err)
	}
	got, _, err := runner.RunChecks(d, &coupling.Result{OutPath: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := outfile.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lim, _, err := decks.PlausibilityLimits(d)
	if err != nil {
		t.Fatal(err)
	}
	want, err := analysis.Plausibility(resultcache.FromFile(whole), analysis.StartupWindow(whole.Time), lim)
	if err != nil {
		t.Fatal(err)
	}
	key := func(kind, channel string, t *float64) string {
		s := kind + " " + channel
		if t != nil {
			s += fmt.Sprintf(" %g", *t)
		}
		return s
	}
	var g, w []string
	for _, c := range got {
		g = append(g, key(c.Kind, c.Channel, c.Time))
	}
	for _, c := range want {
		tm := &c.Time
		if math.IsNaN(c.Time) {
			tm = nil
		}
		w = append(w, key(c.Kind, c.Channel, tm))
	}
	sort.Strings(g)
	sort.Strings(w)
	if len(w) != 3 || len(g) != len(w) {
		t.Fatalf("checks %v, whole record's %v (want overspeed, non-finite and INVALID)", g, w)
	}
	for i := range g {
		if g[i] != w[i] {
			t.Errorf("check %q, whole record's %q", g[i], w[i])
		}
	}
}
