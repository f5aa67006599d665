package analysis

import (
	"math"
	"math/cmplx"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// recordFromOutfile wraps a file read by solver/outfile without copying:
// the columns are shared.
func recordFromOutfile(f *outfile.File) *Record {
	rec := &Record{Time: f.Time, Channels: f.Data}
	for _, c := range f.Channels {
		rec.Names = append(rec.Names, c.Name)
		rec.Units = append(rec.Units, c.Unit)
	}
	return rec
}

func readReference(t *testing.T, caseName string) *Record {
	t.Helper()
	path := testshared.Path(t, "reference-outputs", caseName, "Main_Onshore.outb")
	f, err := outfile.ReadOutbFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	rec := recordFromOutfile(f)
	if err := rec.Validate(); err != nil {
		t.Fatalf("record from %s: %v", path, err)
	}
	return rec
}

// closeTo compares to 1e-9 relative to scale.
func closeTo(t *testing.T, what string, got, want, scale float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9*scale {
		t.Errorf("%s: got %.15g, want %.15g (diff %.3g, allowed %.3g)", what, got, want, math.Abs(got-want), 1e-9*scale)
	}
}

// Statistics of every channel of a real OpenFAST v5.0.0 run (NREL 5 MW,
// turbulent 12 m/s, 520 channels) over t ≥ 30 s, against the definitions
// evaluated naively from the raw samples in this test: direct sums for the
// mean, a separate loop per central moment with math.Pow, linear scans for
// the extremes. Location quantities (min, max, mean) are compared relative
// to max(|value|, max − min), spread and shape quantities relative to their
// own magnitude (or 1 for skewness near 0).
func TestReferenceOutbStatistics(t *testing.T) {
	rec := readReference(t, "nrel5mw_turb12_full")
	st, err := Statistics(rec, nil, After(30))
	if err != nil {
		t.Fatal(err)
	}
	lo := 0
	for rec.Time[lo] < 30-1e-9 {
		lo++
	}
	if st[0].N != len(rec.Time)-lo || st[0].Start != rec.Time[lo] {
		t.Fatalf("window: N %d from %g, want %d from %g", st[0].N, st[0].Start, len(rec.Time)-lo, rec.Time[lo])
	}
	checked := 0
	for c, s := range st {
		x := rec.Channels[c][lo:]
		n := float64(len(x))
		sum := 0.0
		mn, mx := math.Inf(1), math.Inf(-1)
		var tMin, tMax float64
		for i, v := range x {
			sum += v
			if v < mn {
				mn, tMin = v, rec.Time[lo+i]
			}
			if v > mx {
				mx, tMax = v, rec.Time[lo+i]
			}
		}
		mean := sum / n
		var m2, m3, m4 float64
		for _, v := range x {
			m2 += math.Pow(v-mean, 2)
		}
		for _, v := range x {
			m3 += math.Pow(v-mean, 3)
		}
		for _, v := range x {
			m4 += math.Pow(v-mean, 4)
		}
		m2, m3, m4 = m2/n, m3/n, m4/n
		name := s.Name
		if s.Min != mn || s.Max != mx || s.TimeOfMin != tMin || s.TimeOfMax != tMax {
			t.Errorf("%s extremes: got %g@%g / %g@%g, want %g@%g / %g@%g", name, s.Min, s.TimeOfMin, s.Max, s.TimeOfMax, mn, tMin, mx, tMax)
		}
		loc := math.Max(math.Abs(mean), mx-mn)
		closeTo(t, name+" mean", s.Mean, mean, loc)
		if mx == mn {
			if s.Std != 0 || s.Skewness != 0 || s.Kurtosis != 0 {
				t.Errorf("%s constant: std %g skew %g kurt %g", name, s.Std, s.Skewness, s.Kurtosis)
			}
			continue
		}
		// A channel whose spread is at rounding level of its offset has no
		// meaningful moments; none in this file, but guard the comparison.
		if mx-mn < 1e-10*math.Abs(mean) {
			continue
		}
		std := math.Sqrt(m2)
		closeTo(t, name+" std", s.Std, std, std)
		closeTo(t, name+" sample std", s.SampleStd, math.Sqrt(m2*n/(n-1)), std)
		skew := m3 / math.Pow(m2, 1.5)
		closeTo(t, name+" skewness", s.Skewness, skew, math.Max(1, math.Abs(skew)))
		kurt := m4 / (m2 * m2)
		closeTo(t, name+" kurtosis", s.Kurtosis, kurt, kurt)
		checked++
	}
	if checked < 300 {
		t.Errorf("only %d varying channels checked; expected most of the 520", checked)
	}
	t.Logf("checked %d varying channels of %d over %d samples", checked, len(st), st[0].N)

	// CASE.md's quick statistics table (t ≥ 30 s, 6 significant figures)
	// was written by whoever ran OpenFAST, with its own tools. It matches
	// the population standard deviation; the sample one differs by
	// √(301/300) − 1 = 0.17 %, well outside the printed precision.
	table := map[string][4]float64{ // mean, std, min, max
		"GenPwr":    {4789, 856.094, 3581.29, 5962.01},
		"RotThrust": {805.653, 87.9601, 644.749, 970.479},
		"RootMxc1":  {1240.38, 2671.9, -3101.63, 5723.5},
		"Wind1VelX": {12.1828, 1.4279, 9.37941, 16.1877},
	}
	for c, s := range st {
		want, ok := table[s.Name]
		if !ok {
			continue
		}
		for k, got := range []float64{s.Mean, s.Std, s.Min, s.Max} {
			if math.Abs(got-want[k]) > 6e-6*math.Abs(want[k]) {
				t.Errorf("%s quantity %d: %g vs CASE.md %g", rec.Names[c], k, got, want[k])
			}
		}
		if math.Abs(s.SampleStd-want[1]) < 5e-4*want[1] {
			t.Errorf("%s: sample std %g also matches the table; the test cannot tell the conventions apart", s.Name, s.SampleStd)
		}
	}
}

// Spectra of real channels against a direct O(N²) DFT computed in the
// test: the amplitude spectrum over the odd-length window t ≥ 30 s (301 =
// 7·43 samples, FFTPACK), a prime-length 293-sample segment (Bluestein
// path) and an even 256-sample segment (Nyquist bin not doubled), and a
// Welch PSD with L = 64 against periodograms of the same segments from the
// direct DFT.
func TestReferenceOutbSpectra(t *testing.T) {
	rec := readReference(t, "nrel5mw_turb12_full")
	dtWant := 0.1
	for _, name := range []string{"RootMyc1", "GenPwr", "TwrBsMyt"} {
		y, err := rec.Channel(name)
		if err != nil {
			t.Fatal(err)
		}
		lo := 300 // t = 30 s at dt 0.1
		if math.Abs(rec.Time[lo]-30) > 1e-9 {
			t.Fatalf("sample 300 at t = %g, expected 30", rec.Time[lo])
		}
		for _, seg := range [][]float64{y[lo:], y[lo : lo+293], y[lo : lo+256]} {
			n := len(seg)
			s, err := Amplitude(seg, dtWant, DetrendNone)
			if err != nil {
				t.Fatal(err)
			}
			ref := directDFT(seg)
			peak := 0.0
			for k, c := range ref {
				a := cmplx.Abs(c) / float64(n)
				if k > 0 && !(n%2 == 0 && k == n/2) {
					a *= 2
				}
				ref[k] = complex(a, 0)
				peak = math.Max(peak, a)
			}
			for k := range ref {
				closeTo(t, name+" amplitude", s.Amplitude[k], real(ref[k]), peak)
				closeTo(t, name+" frequency", s.Frequency[k], float64(k)/(float64(n)*dtWant), 1/dtWant)
			}
		}
		// Welch, Hann, L = 64, 50 % overlap, mean detrend, on t ≥ 30 s.
		x := y[lo:]
		opt := WelchOptions{SegmentLength: 64, Overlap: 0.5, Window: Hann, Detrend: DetrendMean}
		p, err := Welch(x, dtWant, opt)
		if err != nil {
			t.Fatal(err)
		}
		l := 64
		win := make([]float64, l)
		sumW2 := 0.0
		for i := range win {
			win[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(l))
			sumW2 += win[i] * win[i]
		}
		want := make([]float64, l/2+1)
		segs := 0
		for s := 0; s+l <= len(x); s += l / 2 {
			mean := 0.0
			for _, v := range x[s : s+l] {
				mean += v
			}
			mean /= float64(l)
			seg := make([]float64, l)
			for i := range seg {
				seg[i] = (x[s+i] - mean) * win[i]
			}
			for k, c := range directDFT(seg) {
				pk := real(c)*real(c) + imag(c)*imag(c)
				if k > 0 && k < l/2 {
					pk *= 2
				}
				want[k] += pk * dtWant / sumW2
			}
			segs++
		}
		if p.Segments != segs {
			t.Fatalf("%s: %d segments, want %d", name, p.Segments, segs)
		}
		peak := 0.0
		for k := range want {
			want[k] /= float64(segs)
			peak = math.Max(peak, want[k])
		}
		for k := range want {
			closeTo(t, name+" Welch density", p.Density[k], want[k], peak)
		}
	}
}

// Cp and Ct of the batch curves against OpenFAST's own rotor coefficients.
// AeroDyn's RtFldCp is RtFldPwr/(½ρ·RtArea·RtVAvgxh³) and RtFldCt is
// RtFldFxh/(½ρ·RtArea·RtVAvgxh²) with ρ = 1.225 (AirDens in the .fst) and
// RtArea = π(63 cos 2.5°)² = 12445.3 m²; binning the two steady rigid runs
// (8 and 11 m/s) on their own grid with the same inputs must reproduce the
// run means of RtFldCp and RtFldCt. In steady wind the coefficients vary
// by < 1e-4 relative over a run, so ratio-of-means and mean-of-ratios agree
// to ~1e-8; the check is at 1e-6.
func TestReferencePowerCurveCpCt(t *testing.T) {
	var pts []CurvePoint
	var wantCp, wantCt []float64
	var area float64
	for _, cs := range []string{"nrel5mw_steady11_rigid_bem", "nrel5mw_steady8_rigid_bem"} {
		rec := readReference(t, cs)
		st, err := Statistics(rec, []string{"RtVAvgxh", "RtFldPwr", "RtFldFxh", "RtArea", "RtFldCp", "RtFldCt", "BldPitch1", "RotSpeed"}, After(30))
		if err != nil {
			t.Fatal(err)
		}
		pts = append(pts, CurvePoint{
			WindSpeed: st[0].Mean, PowerKW: st[1].Mean / 1e3, ThrustKN: st[2].Mean / 1e3,
			PitchDeg: st[6].Mean, RotorSpeedRPM: st[7].Mean,
		})
		area = st[3].Mean
		wantCp = append([]float64{st[4].Mean}, wantCp...) // 8 m/s first after sorting
		wantCt = append([]float64{st[5].Mean}, wantCt...)
	}
	c, err := PowerCurve(pts, CurveOptions{Binning: BinGrid, AirDensity: 1.225, RotorRadius: math.Sqrt(area / math.Pi)})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Bins) != 2 || c.Bins[0].WindSpeed > c.Bins[1].WindSpeed {
		t.Fatalf("bins %+v", c.Bins)
	}
	for i, b := range c.Bins {
		t.Logf("V %.4f m/s: Cp %.7f (RtFldCp %.7f), Ct %.7f (RtFldCt %.7f)", b.WindSpeed, b.Cp, wantCp[i], b.Ct, wantCt[i])
		approx(t, "Cp vs RtFldCp", b.Cp, wantCp[i], 1e-6)
		approx(t, "Ct vs RtFldCt", b.Ct, wantCt[i], 1e-6)
	}
}

// Extreme table over two reference runs against a naive scan, and the
// plotting envelope of the same channel keeping the true extremes.
func TestReferenceExtremesAndEnvelope(t *testing.T) {
	names := []string{"nrel5mw_steady8_full", "nrel5mw_turb12_full"}
	var runs []ExtremeRun
	for _, cs := range names {
		runs = append(runs, ExtremeRun{ID: cs, DLC: "1.1", Record: readReference(t, cs), Window: After(30)})
	}
	ex, err := Extremes(runs, ExtremeOptions{Channels: []string{"RootMyc1"}, Concurrent: []string{"RootMxc1", "RotSpeed"}, SafetyFactors: map[string]float64{"1.1": 1.25}})
	if err != nil {
		t.Fatal(err)
	}
	bestMax, bestMin := math.Inf(-1), math.Inf(1)
	var maxRun, minRun int
	var maxRow, minRow int
	for ri, r := range runs {
		y, _ := r.Record.Channel("RootMyc1")
		for i, tt := range r.Record.Time {
			if tt < 30-1e-9 {
				continue
			}
			if y[i] > bestMax {
				bestMax, maxRun, maxRow = y[i], ri, i
			}
			if y[i] < bestMin {
				bestMin, minRun, minRow = y[i], ri, i
			}
		}
	}
	check := func(e Extreme, value float64, run, row int) {
		r := runs[run].Record
		mx, _ := r.Channel("RootMxc1")
		rs, _ := r.Channel("RotSpeed")
		if e.Characteristic != value || e.RunID != runs[run].ID || e.Time != r.Time[row] ||
			e.Concurrent[0].Value != mx[row] || e.Concurrent[1].Value != rs[row] || e.Design != 1.25*value {
			t.Errorf("%s row %+v, want %g in %s at %g (RootMxc1 %g, RotSpeed %g)", e.Kind, e, value, runs[run].ID, r.Time[row], mx[row], rs[row])
		}
	}
	check(ex[0], bestMax, maxRun, maxRow)
	check(ex[1], bestMin, minRun, minRow)

	env, err := Envelope(runs[1].Record, []string{"RootMyc1"}, After(30), 20)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := Statistics(runs[1].Record, []string{"RootMyc1"}, After(30))
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range env[0].Values {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if len(env[0].Values) > 40 || lo != st[0].Min || hi != st[0].Max {
		t.Errorf("envelope of %d points spans [%g, %g], statistics [%g, %g]", len(env[0].Values), lo, hi, st[0].Min, st[0].Max)
	}
}

// astmCountsIndependent is a second, deliberately plain reading of ASTM
// E1049-85 §5.4.4 for the cross-check below: reversals by the sign of the
// first difference (zeros skipped), then the standard's steps on a list
// from which points are deleted, with the starting point tracked as an
// index into the list of the points still held. It returns Σ n·Sᵐ and the
// number of cycles (half cycles as ½).
func astmCountsIndependent(y []float64, m float64) (damage, cycles float64) {
	var rev []float64
	for i, v := range y {
		if i == 0 || i == len(y)-1 {
			rev = append(rev, v)
			continue
		}
		before, after := v-y[i-1], y[i+1]-v
		if before == 0 {
			// A plateau: its turning point is its last sample, judged
			// against the last different value.
			continue
		}
		if after == 0 {
			// Look past the plateau for the next different value.
			j := i + 1
			for j < len(y)-1 && y[j] == v {
				j++
			}
			after = y[j] - v
		}
		if (before > 0) != (after > 0) && after != 0 {
			rev = append(rev, v)
		}
	}
	// Drop repeats and keep only alternating extremes (the first and last
	// samples may not be reversals).
	var tp []float64
	for _, v := range rev {
		if n := len(tp); n > 0 && tp[n-1] == v {
			continue
		}
		if n := len(tp); n >= 2 && (tp[n-1]-tp[n-2])*(v-tp[n-1]) > 0 {
			tp[n-1] = v
			continue
		}
		tp = append(tp, v)
	}
	var held []float64
	count := func(s, n float64) {
		damage += n * math.Pow(s, m)
		cycles += n
	}
	for _, p := range tp {
		held = append(held, p)
		for len(held) >= 3 {
			k := len(held)
			x := math.Abs(held[k-1] - held[k-2])
			yr := math.Abs(held[k-2] - held[k-3])
			if x < yr {
				break
			}
			if k-3 == 0 { // Y contains the starting point S = held[0]
				count(yr, 0.5)
				held = append(held[:0], held[1:]...)
			} else {
				count(yr, 1)
				held = append(held[:k-3], held[k-1])
			}
		}
	}
	for i := 0; i+1 < len(held); i++ {
		count(math.Abs(held[i+1]-held[i]), 0.5)
	}
	return damage, cycles
}

// Short-term DELs of real OpenFAST v5.0.0 loads (NREL 5 MW, turbulent
// 12 m/s, t ≥ 30 s) against the independent count above and the formula
// of the short-term DEL, DEL = (Σ nᵢ Sᵢᵐ / (f_eq·T))^(1/m) with
// f_eq = 1 Hz and T the elapsed time of the window, for the Wöhler
// exponents of steel (3, 4, 5) and composites (10).
func TestReferenceDELIndependentCount(t *testing.T) {
	rec := readReference(t, "nrel5mw_turb12_full")
	exps := []float64{3, 4, 5, 10}
	lo := 0
	for rec.Time[lo] < 30-1e-9 {
		lo++
	}
	T := rec.Time[len(rec.Time)-1] - rec.Time[lo]
	for _, name := range []string{"RootMyc1", "RootMxc1", "TwrBsMyt", "TwrBsMxt", "RotTorq", "YawBrMyp"} {
		y, err := rec.Channel(name)
		if err != nil {
			t.Fatal(err)
		}
		dels, err := ChannelDEL(rec, name, After(30), DELOptions{Exponents: exps})
		if err != nil {
			t.Fatal(err)
		}
		cs, err := Rainflow(y[lo:])
		if err != nil {
			t.Fatal(err)
		}
		n := 0.0
		for _, c := range cs {
			n += c.Count
		}
		for k, m := range exps {
			damage, cycles := astmCountsIndependent(y[lo:], m)
			if cycles != n {
				t.Errorf("%s: %g cycles counted, independent count %g", name, n, cycles)
			}
			want := math.Pow(damage/T, 1/m)
			if d := dels[k]; math.Abs(d.Value-want) > 1e-12*want || d.EquivalentCycles != T {
				t.Errorf("%s m = %g: DEL %.12g (N_eq %g), want %.12g (N_eq %g)", name, m, d.Value, d.EquivalentCycles, want, T)
			}
			if m == 4 {
				t.Logf("%s: %g cycles over %g s, DEL(m=4) = %.6g %s", name, n, T, dels[k].Value, rec.Units[mustIndex(t, rec, name)])
			}
		}
	}
}

func mustIndex(t *testing.T, rec *Record, name string) int {
	t.Helper()
	i, err := rec.Index(name)
	if err != nil {
		t.Fatal(err)
	}
	return i
}

// Parseval on real loads: a one-sided PSD over one rectangular segment of
// the whole window (mean removed) integrates to the population variance
// of the statistics endpoint exactly (to rounding), for an even and an
// odd number of samples. (Segmented Welch estimates are checked against
// time-domain sums in TestWelchParseval; on these 30 s of a run still
// settling, per-segment detrending removes most of the variance, which
// lies below the 0.16 Hz resolution of 64-sample segments.)
func TestReferenceWelchParseval(t *testing.T) {
	rec := readReference(t, "nrel5mw_turb12_full")
	for _, name := range []string{"RootMyc1", "TwrBsMyt", "GenPwr"} {
		for _, w := range []Window{After(30), Between(30, 59.9)} {
			st, err := Statistics(rec, []string{name}, w)
			if err != nil {
				t.Fatal(err)
			}
			variance := st[0].Std * st[0].Std
			p, err := ChannelWelch(rec, name, w, WelchOptions{SegmentLength: st[0].N, Window: Rectangular, Detrend: DetrendMean})
			if err != nil {
				t.Fatal(err)
			}
			if v := p.Variance(); math.Abs(v-variance) > 1e-10*variance {
				t.Errorf("%s over %v (N = %d): ∫PSD df = %.12g, variance %.12g", name, w, st[0].N, v, variance)
			}
		}
	}
}

// The curve pipeline as the service runs it (run means over the window of
// the channels OpenFASTCurveChannels names, binned on the run's own speed)
// gives OpenFAST's RtFldCt at 11 m/s within 1 %: thrust from the
// aerodynamic RtFldFxh (N, read as kN) and Cp/Ct over the rotor-average
// wind RtVAvgxh. RotThrust, which adds the rotor weight along the tilted
// shaft, would be off by more than 10 %.
func TestReferenceCtFromAeroThrust(t *testing.T) {
	rec := readReference(t, "nrel5mw_steady11_rigid_bem")
	ch := RecordedCurveChannels(rec, "")
	if ch.Thrust != "RtFldFxh" || ch.RotorWind != "RtVAvgxh" {
		t.Fatalf("curve channels %+v", ch)
	}
	p, err := RunCurvePoint(rec, After(30), ch)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Statistics(rec, []string{"RtFldCt", "RtArea", "RotThrust"}, After(30))
	if err != nil {
		t.Fatal(err)
	}
	c, err := PowerCurve([]CurvePoint{p}, CurveOptions{Binning: BinGrid, RotorRadius: 63 * math.Cos(2.5*math.Pi/180), ThrustChannel: ch.Thrust})
	if err != nil {
		t.Fatal(err)
	}
	b := c.Bins[0]
	t.Logf("V %.3f m/s (rotor %.3f): thrust %.1f kN (RotThrust %.1f kN), Ct %.4f vs RtFldCt %.4f", b.WindSpeed, b.CoefficientWindSpeed, b.ThrustKN, st[2].Mean, b.Ct, st[0].Mean)
	if c.ThrustChannel != "RtFldFxh" || c.CoefficientWind != "rotor_average" {
		t.Errorf("thrust channel %q, coefficient wind %q", c.ThrustChannel, c.CoefficientWind)
	}
	approx(t, "Ct vs RtFldCt", b.Ct, st[0].Mean, 0.01)
	if math.Abs(st[2].Mean-b.ThrustKN) < 0.1*b.ThrustKN {
		t.Errorf("RotThrust %.1f kN within 10 %% of the aerodynamic thrust %.1f kN: the check cannot tell them apart", st[2].Mean, b.ThrustKN)
	}
}
