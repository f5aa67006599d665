package windgen

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
)

// The circulant embedding reproduces the IEC coherence between every pair
// of lattice points of the reference grid (31 × 31 points over 145 m, its
// tower points, the hub) within the coherence tolerance, at every decay
// rate the synthesis uses it for (from the lowest frequency of a 600-s box
// up to where the u matrix becomes diagonal): the covariance the sampled
// field has, Σ_m λ⁺_m e^{2πi m·d}/M at lattice offset d, against
// exp(−κ·r(d)).
func TestCirculantEmbeddingReproducesTheCoherence(t *testing.T) {
	spec := referenceBoxSpecForTest()
	tg, _, err := spec.resolve()
	if err != nil {
		t.Fatal(err)
	}
	lay := newPointLayout(spec.Grid)
	lat, ok := newLattice(spec.Grid, lay.points)
	if !ok {
		t.Fatal("the reference grid's points are not on one lattice")
	}
	if lat.nz != 34 || lat.ny != 31 {
		t.Fatalf("lattice %d × %d, want 31 × 34 (three tower points below the grid)", lat.ny, lat.nz)
	}
	e := newEmbedder(lat)
	const tol = DefaultCoherenceTol
	kappaDiagonal := math.Log(1/tol) / lay.minSeparation()
	worst := 0.0
	for _, f := range []float64{1.0 / 600, 2.0 / 600, 0.01, 0.05, 0.1, 0.3, 1} {
		kappa := coherenceDecay(f, tg.VHub, tg.Lambda1)
		if kappa >= kappaDiagonal {
			t.Fatalf("%g Hz is in the diagonal range", f)
		}
		// The embedding sample() would use, and its covariance.
		var my, mz int
		found := false
		for d := 0; d <= maxEmbeddingDoublings && !found; d++ {
			my, mz = fftSize(2*(lat.ny-1)<<d), fftSize(2*(lat.nz-1)<<d)
			found = e.spectrum(kappa, my, mz) <= tol
		}
		if !found {
			t.Logf("%.4g Hz (κ %.3g): no embedding within tolerance; the Cholesky factorisation is used", f, kappa)
			continue
		}
		worst = math.Max(worst, checkEmbeddedCoherence(t, e, lat, f, kappa, my, mz, tol))
	}
	t.Logf("largest coherence error %.2e (tolerance %g)", worst, tol)
}

// checkEmbeddedCoherence compares the covariance of the field the
// embedding of e.lam (my × mz) samples, Σ_m λ⁺_m e^{2πi m·d}/M at every
// lattice offset d, with exp(−κ·r(d)): it fails the test beyond tol and
// returns the largest error.
func checkEmbeddedCoherence(t *testing.T, e *embedder, lat lattice, f, kappa float64, my, mz int, tol float64) float64 {
	t.Helper()
	hy := my/2 + 1
	cov := make([]complex128, my*mz)
	for b := range mz {
		for a := range my {
			cov[b*my+a] = complex(math.Max(e.lam[min(b, mz-b)*hy+min(a, my-a)], 0)/float64(my*mz), 0)
		}
	}
	fft2(cov, my, mz)
	worst := 0.0
	for dz := range lat.nz {
		for dy := range lat.ny {
			want := math.Exp(-kappa * math.Hypot(float64(dy)*lat.dy, float64(dz)*lat.dz))
			got := cov[dz*my+dy]
			worst = math.Max(worst, math.Hypot(real(got)-want, imag(got)))
			if d := math.Abs(real(got) - want); d > tol || math.Abs(imag(got)) > 1e-9 {
				t.Fatalf("%.4g Hz, embedding %d × %d, offset (%d, %d): covariance %v, coherence %.6f", f, my, mz, dy, dz, got, want)
			}
		}
	}
	t.Logf("%.4g Hz (κ %.3g): embedding %d × %d", f, kappa, my, mz)
	return worst
}

// fft2 is the unnormalised 2-D DFT of a (my × mz, row-major by z).
func fft2(a []complex128, my, mz int) {
	py, pz := fourier.NewCmplxFFT(my), fourier.NewCmplxFFT(mz)
	for r := range mz {
		row := a[r*my : (r+1)*my]
		py.Coefficients(row, row)
	}
	col := make([]complex128, mz)
	for c := range my {
		for r := range mz {
			col[r] = a[r*my+c]
		}
		pz.Coefficients(col, col)
		for r := range mz {
			a[r*my+c] = col[r]
		}
	}
}

func referenceBoxSpecForTest() TurbulenceSpec { return referenceBoxSpec(600) }

// The embedding sample() uses (embedder.embedding) reproduces the IEC
// coherence between every pair of lattice points of the reference grid
// within the coherence tolerance, the short embeddings of the higher
// frequencies, which wrap the offsets whose coherence is below tol/2,
// included: the covariance of the sampled field at every lattice offset
// against exp(−κ·r). Above about 0.2 Hz the short embedding is used, with
// at most half the points of the full 60 × 72 one.
func TestShortEmbeddingReproducesTheCoherence(t *testing.T) {
	spec := referenceBoxSpecForTest()
	tg, _, err := spec.resolve()
	if err != nil {
		t.Fatal(err)
	}
	lay := newPointLayout(spec.Grid)
	lat, ok := newLattice(spec.Grid, lay.points)
	if !ok {
		t.Fatal("the reference grid's points are not on one lattice")
	}
	e := newEmbedder(lat)
	const tol = DefaultCoherenceTol
	kappaDiagonal := math.Log(1/tol) / lay.minSeparation()
	full := fftSize(2*(lat.ny-1)) * fftSize(2*(lat.nz-1))
	worst := 0.0
	for _, f := range []float64{1.0 / 600, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1, 1.2, 1.4} {
		kappa := coherenceDecay(f, tg.VHub, tg.Lambda1)
		if kappa >= kappaDiagonal {
			t.Fatalf("%g Hz is in the diagonal range", f)
		}
		my, mz, ok := e.embedding(kappa, tol)
		if !ok {
			t.Logf("%.4g Hz (κ %.3g): no embedding within tolerance; the Cholesky factorisation is used", f, kappa)
			continue
		}
		if f >= 0.2 && 2*my*mz > full {
			t.Errorf("%.4g Hz: embedding %d × %d, want at most half of the full %d points", f, my, mz, full)
		}
		worst = math.Max(worst, checkEmbeddedCoherence(t, e, lat, f, kappa, my, mz, tol))
	}
	t.Logf("largest coherence error %.2e (tolerance %g)", worst, tol)
}
