package views

import (
	"fmt"
	"math"
	"strings"

	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// Report is the certification report ReportPage renders (built by
// results.CertificationReports).
type (
	Report       = results.CertificationReport
	FailedRun    = results.ReportFailedRun
	FatigueTable = results.ReportFatigueTable
	LoadSpectra  = results.ReportLoadSpectra
	Assumptions  = results.ReportAssumptions
)

// rangeClassLabels head the range classes of the report's Markov summary:
// equal shares of the largest range, "0–10 %" and so on.
func rangeClassLabels(sp *LoadSpectra) []string {
	if len(sp.Markov) == 0 {
		return nil
	}
	n := len(sp.Markov[0].RangeCounts)
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%.0f–%.0f %%", 100*float64(i)/float64(n), 100*float64(i+1)/float64(n))
	}
	return out
}

// eventCountsText lists counted events: "DLC 3.1: 1000 per year (3 runs); ...".
func eventCountsText(events []results.ReportEventCount) string {
	parts := make([]string, len(events))
	for i, e := range events {
		parts[i] = fmt.Sprintf("DLC %s: %g per year (%d runs)", e.DLC, e.EventsPerYear, e.Runs)
	}
	return strings.Join(parts, "; ")
}

// pct is part/whole as a percentage ("–" for an empty whole).
func pct(part, whole float64) string {
	if !(whole > 0) {
		return "–"
	}
	return fmt.Sprintf("%.1f %%", 100*part/whole)
}

// speedText names the speed channel of the LRD.
func speedText(ch string) string {
	if ch == "" {
		return "the rotor speed (not recorded: no revolutions)"
	}
	return ch + " (rpm)"
}

// vRef and iRef are the IEC 61400-1 ed.4 class and category values
// (Table 1: V_ref 50/42.5/37.5 m/s; I_ref 0.18/0.16/0.14/0.12).
func vRef(class string) float64 {
	switch class {
	case "I":
		return 50
	case "II":
		return 42.5
	case "III":
		return 37.5
	}
	return math.NaN()
}

func iRef(cat string) float64 {
	switch cat {
	case "A+":
		return 0.18
	case "A":
		return 0.16
	case "B":
		return 0.14
	case "C":
		return 0.12
	}
	return math.NaN()
}

// basisSeeds and basisGamma leave the load basis's total row blank: it
// sums runs and time, and a "0" seeds and "0.00" γf there read as data.
func basisSeeds(b dlc.BasisRow) string {
	if b.DLC == "total" {
		return ""
	}
	return fmt.Sprint(b.Seeds)
}

func basisGamma(b dlc.BasisRow) string {
	if b.DLC == "total" {
		return ""
	}
	return fmt.Sprintf("%.2f", b.Gamma)
}

func fnum(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0"
	case a >= 1e5 || a < 1e-3:
		return fmt.Sprintf("%.4g", v)
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

func lifetimeDEL(cf analysis.ChannelFatigue, m float64) string {
	for _, l := range cf.Lifetime {
		if l.Exponent == m {
			return fnum(l.DEL)
		}
	}
	return "–"
}

func concurrentText(e analysis.Extreme) string {
	var parts []string
	for _, c := range e.Concurrent {
		if c.Channel != e.Channel {
			parts = append(parts, c.Channel+" "+fnum(c.Value))
		}
	}
	return strings.Join(parts, ", ")
}

// curvePlot maps the power curve into a 600 × 260 SVG box (power against
// wind speed, axes from zero).
type curvePlot struct {
	Points      string
	MaxV, MaxKW float64
}

func plotCurve(cv *analysis.Curve) curvePlot {
	var p curvePlot
	for _, b := range cv.Bins {
		p.MaxV = max(p.MaxV, b.WindSpeed)
		p.MaxKW = max(p.MaxKW, b.PowerKW)
	}
	p.MaxV, p.MaxKW = math.Ceil(p.MaxV+1), math.Max(p.MaxKW*1.1, 1)
	var pts []string
	for _, b := range cv.Bins {
		x := 50 + 530*b.WindSpeed/p.MaxV
		y := 230 - 210*b.PowerKW/p.MaxKW
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
	}
	p.Points = strings.Join(pts, " ")
	return p
}

func (p curvePlot) dots() [][2]string {
	var out [][2]string
	for _, xy := range strings.Fields(p.Points) {
		c := strings.SplitN(xy, ",", 2)
		out = append(out, [2]string{c[0], c[1]})
	}
	return out
}

// reportCSS styles the self-contained report page (screen and print).
const reportCSS = `body{font-family:system-ui,sans-serif;color:#0f172a;margin:2rem;font-size:12px}
h1{font-size:20px;margin:0 0 .25rem}h2{font-size:15px;margin:1.5rem 0 .5rem;border-bottom:1px solid #cbd5e1;padding-bottom:.2rem}
table{border-collapse:collapse;width:100%;margin-bottom:.75rem}th,td{border:1px solid #e2e8f0;padding:2px 5px;text-align:left;vertical-align:top}
th{background:#f1f5f9}td.n{text-align:right;font-variant-numeric:tabular-nums}.muted{color:#64748b}.warn{color:#b91c1c}
section{break-inside:avoid-page}@page{size:A4}`

// runOrExtrapolated names an extreme row's run, or says the load is an
// extrapolated one (no run holds it).
func runOrExtrapolated(e analysis.Extreme) string {
	if e.RunID == "" {
		return "extrapolated"
	}
	return e.RunID
}

// extrapolatedGammaOf is the γ_f of the extrapolated loads (the same for
// every load).
func extrapolatedGammaOf(x *results.BatchExtrapolation) float64 {
	if len(x.Loads) == 0 {
		return math.NaN()
	}
	return x.Loads[0].SafetyFactor
}

// spectraEventsText completes the report's Markov sentence with the
// start-up and shut-down events the spectra count ("" without any).
func spectraEventsText(events []results.ReportEventCount) string {
	if len(events) == 0 {
		return ""
	}
	return ", plus the cycles of each start-up and shut-down event counted per event: " + eventCountsText(events)
}

// joinReasons writes a flagged run's failed checks as one cell.
func joinReasons(reasons []string) string { return strings.Join(reasons, "; ") }
