package irregular

import (
	"context"
	"math"
	"math/cmplx"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/hydro"
	"github.com/turbinesim/turbinesim/solver/waves"
	"gonum.org/v1/gonum/stat"
)

// runSemiIrregular copies iea15_semi_steady10_irregular into a temporary
// folder, sets the HydroDyn inputs given and runs it, returning the
// channels' values at t ≥ 60 s (the case's settled window).
func runSemiIrregular(t *testing.T, hydroDyn map[string]string, channels []string) (*deck.Deck, map[string][]float64) {
	t.Helper()
	const folder, fst, hdFile = "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst", "IEA-15-240-RWT-UMaineSemi_HydroDyn.dat"
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(testshared.Path(t, "reference-outputs", "iea15_semi_steady10_irregular"))); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dst, folder, hdFile)
	os.Chmod(p, 0o644)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for v, val := range hydroDyn {
		var ok bool
		if b, ok = testshared.SetValue(b, v, val); !ok {
			t.Fatalf("%s: no %s line", hdFile, v)
		}
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := deck.LoadIn(dst, filepath.Join(folder, fst))
	if err != nil {
		t.Fatal(err)
	}
	if err := coupling.Supported(d); err != nil {
		t.Fatalf("%v refused: %v", hydroDyn, err)
	}
	res, err := coupling.Run(context.Background(), d, coupling.Options{OutPath: "-", KeepData: true, Channels: channels}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]float64{}
	for _, tm := range res.Time {
		if tm >= 60 {
			out["Time"] = append(out["Time"], tm)
		}
	}
	for i, c := range res.Channels {
		for k, tm := range res.Time {
			if tm >= 60 {
				out[c.Name] = append(out[c.Name], res.Data[i][k])
			}
		}
	}
	return d, out
}

// TestSemiIrregularExcitationAtDisplacedPosition runs the semi of
// iea15_semi_steady10_irregular (mean surge about 20 m at 10 m/s) with the
// first-order excitation at the platform's displaced position and the
// kinematics of strip-theory nodes at theirs (ExctnDisp 1, WaveDisp 1; the
// semi has no strip-theory members, so WaveDisp changes nothing) and with
// the deck's ExctnDisp 0. Moving a linear excitation by Δ shifts each wave
// component's phase by k·Δ (0.8 rad at Tp 10 s for 20 m): the surge
// excitation's time history changes visibly, while its level, and so the
// motions' means and standard deviations, stay those of the same sea
// (the slowly varying offset adds a small modulation). No OpenFAST
// reference output uses these options; docs/validation.md §10.5 lists the
// figures.
func TestSemiIrregularExcitationAtDisplacedPosition(t *testing.T) {
	if testing.Short() {
		t.Skip("three 300-s floating runs in waves")
	}
	channels := []string{"PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw", "B1WvsF1xi", "B1WvsM1yi", "Wave1Elev", "FAIRTEN1"}
	d, base := runSemiIrregular(t, map[string]string{}, channels)
	_, disp := runSemiIrregular(t, map[string]string{"ExctnDisp": "1", "WaveDisp": "1"}, channels)
	_, filt := runSemiIrregular(t, map[string]string{"ExctnDisp": "2", "ExctnCutOff": "0.02"}, channels)
	for _, c := range channels {
		if len(base[c]) == 0 || len(base[c]) != len(disp[c]) {
			t.Fatalf("%s: %d and %d samples", c, len(base[c]), len(disp[c]))
		}
		m0, s0 := stat.MeanStdDev(base[c], nil)
		m1, s1 := stat.MeanStdDev(disp[c], nil)
		r := stat.Correlation(base[c], disp[c], nil)
		t.Logf("%-10s ExctnDisp 0: mean %12.5g std %11.5g | ExctnDisp 1: mean %12.5g std %11.5g | mean %+7.2f%% std %+7.2f%% corr %.3f",
			c, m0, s0, m1, s1, 100*(m1/m0-1), 100*(s1/s0-1), r)
	}
	for _, c := range channels {
		m0, s0 := stat.MeanStdDev(base[c], nil)
		m2, s2 := stat.MeanStdDev(filt[c], nil)
		t.Logf("%-10s ExctnDisp 2 (0.02 Hz): mean %12.5g std %11.5g | against 0: mean %+7.2f%% std %+7.2f%% corr %.3f | against 1: corr %.3f",
			c, m2, s2, 100*(m2/m0-1), 100*(s2/s0-1), stat.Correlation(base[c], filt[c], nil), stat.Correlation(disp[c], filt[c], nil))
	}
	// ExctnDisp 2 follows the drift (surge std 2.2 m at the 140-s surge
	// period, passed with gain 0.94 by a 0.02-Hz corner) but not the
	// wave-frequency motion (gain 0.2 at 0.1 Hz): its excitation stays
	// close to ExctnDisp 1's and far from the undisplaced one's
	if r := stat.Correlation(disp["B1WvsF1xi"], filt["B1WvsF1xi"], nil); r < 0.9 {
		t.Errorf("surge excitation: correlation %.3f between ExctnDisp 1 and 2, want ≥ 0.9 (the filtered offset differs by the wave-frequency motion and the filter's lag only)", r)
	}
	if r := stat.Correlation(base["B1WvsF1xi"], filt["B1WvsF1xi"], nil); r > 0.9 {
		t.Errorf("surge excitation: correlation %.3f between ExctnDisp 0 and 2: the filtered offset did not move the phases", r)
	}
	// the sea is the same
	if !slices.Equal(base["Wave1Elev"], disp["Wave1Elev"]) {
		t.Errorf("Wave1Elev differs between the runs")
	}
	// The surge excitation of the platform displaced by Δ(t) is, by hand,
	// F(t) = Re Σ_n c_n e^{i k_n (Δx cos β_n + Δy sin β_n)} conj(X_1(ω_n, β_n))
	// e^{−iω_n t}, summed here at each output time from the run's own
	// PtfmSurge and PtfmSway (the WAMIT reference point is the platform
	// reference point in this deck).
	hand := handExcitation(t, d, disp["Time"], disp["PtfmSurge"], disp["PtfmSway"])
	_, sx := stat.MeanStdDev(hand, nil)
	var worst float64
	for k := range hand {
		worst = math.Max(worst, math.Abs(disp["B1WvsF1xi"][k]-hand[k]))
	}
	t.Logf("surge excitation with ExctnDisp 1: worst difference from the hand sum %.3g N (%.3f %% of its std %.4g N)", worst, 100*worst/sx, sx)
	if worst > 0.01*sx {
		t.Errorf("surge excitation with ExctnDisp 1 differs from the hand sum at the recorded offset by up to %.3g N (std %.4g N)", worst, sx)
	}
	// Against the undisplaced history the phase shifts k_n Δ decorrelate:
	// Σ E_n cos(k_n Δ)/Σ E_n (E_n = |c_n X_1|², at the mean offset) is what
	// two infinitely long records would give.
	surge, _ := stat.MeanStdDev(disp["PtfmSurge"], nil)
	r := stat.Correlation(base["B1WvsF1xi"], disp["B1WvsF1xi"], nil)
	t.Logf("surge excitation: correlation %.3f between the runs (%.3f for infinitely long records at the mean offset %.2f m)", r, excitationCorrelation(t, d, surge), surge)
	if r > 0.9 {
		t.Errorf("surge excitation: correlation %.3f between the undisplaced and displaced runs: the offset did not move the phases", r)
	}
	_, sx0 := stat.MeanStdDev(base["B1WvsF1xi"], nil)
	_, sx1 := stat.MeanStdDev(disp["B1WvsF1xi"], nil)
	if math.Abs(sx1/sx0-1) > 0.1 {
		t.Errorf("surge excitation std %g with ExctnDisp 1, %g with 0: the same sea should excite the platform as much", sx1, sx0)
	}
	// means: the first-order excitation has none; the mean offset and
	// pitch come from thrust, mooring and the drift load
	for _, c := range []string{"PtfmSurge", "PtfmPitch", "PtfmHeave", "FAIRTEN1"} {
		m0, _ := stat.MeanStdDev(base[c], nil)
		m1, _ := stat.MeanStdDev(disp[c], nil)
		if math.Abs(m1/m0-1) > 0.03 {
			t.Errorf("%s mean %g with ExctnDisp 1, %g with 0: more than 3 %% apart", c, m1, m0)
		}
	}
	// wave-frequency motions: as large in the shifted realisation
	for _, c := range []string{"PtfmHeave", "PtfmPitch"} {
		_, s0 := stat.MeanStdDev(base[c], nil)
		_, s1 := stat.MeanStdDev(disp[c], nil)
		if math.Abs(s1/s0-1) > 0.15 {
			t.Errorf("%s std %g with ExctnDisp 1, %g with 0: more than 15 %% apart", c, s1, s0)
		}
	}
}

// handExcitation sums the surge excitation of the deck's sea and WAMIT .3
// file at the offsets (dx, dy) at the times tm.
func handExcitation(t *testing.T, d *deck.Deck, tm, dx, dy []float64) []float64 {
	t.Helper()
	sea, exc := seaAndExcitation(t, d)
	out := make([]float64, len(tm))
	for _, c := range sea.Components() {
		a := c.C * cmplx.Conj(exc.At(c.Omega, c.Dir*180/math.Pi)[0])
		for k := range tm {
			out[k] += real(a * cmplx.Exp(complex(0, c.K*(dx[k]*math.Cos(c.Dir)+dy[k]*math.Sin(c.Dir))-c.Omega*tm[k])))
		}
	}
	return out
}

// seaAndExcitation builds the deck's sea and reads its WAMIT .3 file.
func seaAndExcitation(t *testing.T, d *deck.Deck) (*waves.Sea, *hydro.Excitation) {
	t.Helper()
	sea, _, err := waves.FromDeck(d, d.Root)
	if err != nil {
		t.Fatal(err)
	}
	hd, err := d.Offshore.HydroDyn.HydroDyn()
	if err != nil {
		t.Fatal(err)
	}
	b, err := deck.ReadDataFile(d.Root, d.Offshore.HydroDyn.Meta.Path, hd.PotFile+".3", 0)
	if err != nil {
		t.Fatal(err)
	}
	exc, err := hydro.ParseWAMIT3(b, sea.Config().WtrDens, sea.Config().Gravity, hd.WAMITULEN, "semi.3")
	if err != nil {
		t.Fatal(err)
	}
	return sea, exc
}

// excitationCorrelation returns Σ E_n cos(k_n Δ) / Σ E_n over the sea's
// components for the surge excitation of the deck's WAMIT .3 file.
func excitationCorrelation(t *testing.T, d *deck.Deck, dx float64) float64 {
	t.Helper()
	sea, exc := seaAndExcitation(t, d)
	var num, den float64
	for _, c := range sea.Components() {
		x := exc.At(c.Omega, c.Dir*180/math.Pi)[0]
		e := math.Pow(cmplx.Abs(c.C*x), 2)
		num += e * math.Cos(c.K*dx*math.Cos(c.Dir))
		den += e
	}
	return num / den
}
