package windgen

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/dsp/fourier"
)

// Circulant embedding of the u coherence on the grid's lattice.
//
// The IEC coherence exp(−κ·r) depends only on the offset between two
// points, and the grid, its tower points (the y = 0 column continued below
// the grid at the grid's vertical spacing) and the hub (the grid's centre)
// all lie on one regular lattice when NY and NZ are odd. On a lattice the
// coherence matrix is block Toeplitz with Toeplitz blocks; embedded in a
// periodic (circulant) lattice of at least twice the size, it is
// diagonalised by the 2-D discrete Fourier transform, its eigenvalues λ
// being the transform of the embedded coherence (Dietrich & Newsam 1997;
// Wood & Chan 1994). Then
//
//	Y = F · diag(√(λ/M)) · w,   w_m = e^{iθ_m}, θ_m uniform,
//
// has E[Y Yᴴ] = C (M lattice points of the embedding), and restricted to
// the simulation points it has the coherence matrix of those points: the
// same second-order statistics the Cholesky factor of Veers (1988) gives,
// at the cost of two 2-D FFTs per frequency instead of a factorisation of
// the whole matrix (O(M log M) against O(n³) for n points: 964 points of a
// 31 × 31 grid took about 0.1 s per frequency to factorise).
//
// The embedded matrix can have negative eigenvalues when the coherence
// length is large against the lattice; they are set to zero, which changes
// every coherence by at most Σ|λ₋|/M. The lattice is doubled until that
// bound is within the spec's CoherenceTol (at most maxEmbeddingDoublings
// times), else the frequency falls back to the Cholesky factorisation.

// maxEmbeddingDoublings bounds the padding of the circulant embedding.
const maxEmbeddingDoublings = 3

// lattice places the simulation points on the regular lattice of the grid:
// column jy (spacing dy) and row jz (spacing dz, row 0 the lowest tower
// point or grid row).
type lattice struct {
	ny, nz int     // lattice size
	dy, dz float64 // spacings [m]
	index  []int   // simulation point → jz*ny + jy
}

// newLattice returns the lattice of the layout's points, or ok false when a
// point is not on it (an even NY or NZ puts the hub or the tower column
// between grid points).
func newLattice(g GridSpec, points []simPoint) (lattice, bool) {
	l := lattice{ny: g.NY, dy: g.DY(), dz: g.DZ()}
	below := len(g.TowerHeights()) - 1 // tower points under the grid's bottom row
	if below < 0 {
		below = 0
	}
	l.nz = g.NZ + below
	z0 := g.ZBottom() - float64(below)*l.dz
	y0 := -g.Width / 2
	tol := 1e-6 * math.Min(l.dy, l.dz)
	l.index = make([]int, len(points))
	for p, pt := range points {
		fy, fz := (pt.y-y0)/l.dy, (pt.z-z0)/l.dz
		jy, jz := int(math.Round(fy)), int(math.Round(fz))
		if math.Abs(fy-float64(jy))*l.dy > tol || math.Abs(fz-float64(jz))*l.dz > tol || jy < 0 || jy >= l.ny || jz < 0 || jz >= l.nz {
			return lattice{}, false
		}
		l.index[p] = jz*l.ny + jy
	}
	return l, true
}

// fftSize is the smallest n ≥ min whose prime factors are 2, 3 and 5.
func fftSize(min int) int {
	for n := max(min, 1); ; n++ {
		m := n
		for _, f := range []int{2, 3, 5} {
			for m%f == 0 {
				m /= f
			}
		}
		if m == 1 {
			return n
		}
	}
}

// embedder holds one worker's FFT plans and buffers for the embeddings.
type embedder struct {
	lat   lattice
	cplx  map[int]*fourier.CmplxFFT
	real  map[int]*fourier.FFT
	lam   []float64 // eigenvalues of the quarter a ≤ my/2, b ≤ mz/2
	half  []float64 // spectrum's first pass
	row   []float64
	rowC  []complex128
	y     []complex128
	col   []complex128
	colT  []complex128
	my    int // the embedding lam holds
	mz    int
	kappa float64
}

func newEmbedder(lat lattice) *embedder {
	return &embedder{lat: lat, cplx: map[int]*fourier.CmplxFFT{}, real: map[int]*fourier.FFT{}}
}

func (e *embedder) cplxPlan(n int) *fourier.CmplxFFT {
	p, ok := e.cplx[n]
	if !ok {
		p = fourier.NewCmplxFFT(n)
		e.cplx[n] = p
	}
	return p
}

func (e *embedder) realPlan(n int) *fourier.FFT {
	p, ok := e.real[n]
	if !ok {
		p = fourier.NewFFT(n)
		e.real[n] = p
	}
	return p
}

// spectrum fills e.lam with the eigenvalues of the circulant embedding of
// exp(−κ·r) on an my × mz periodic lattice and returns the bound on the
// coherence change that clipping its negative eigenvalues makes. The
// embedded coherence is real and even in each index, so its transform is
// too: two passes of real FFTs give the quarter a ≤ my/2, b ≤ mz/2, and
// λ[a][b] = λ[min(a, my−a)][min(b, mz−b)].
func (e *embedder) spectrum(kappa float64, my, mz int) float64 {
	hy, hz := my/2+1, mz/2+1
	if cap(e.lam) < hy*hz {
		e.lam = make([]float64, hy*hz)
	}
	lam := e.lam[:hy*hz]
	// Rows: for each b ≤ mz/2 (the rest mirror it), the transform along y.
	py := e.realPlan(my)
	if cap(e.row) < max(my, mz) {
		e.row = make([]float64, max(my, mz))
		e.rowC = make([]complex128, max(my, mz)/2+1)
	}
	row, rowC := e.row[:my], e.rowC[:hy]
	if cap(e.half) < hy*hz {
		e.half = make([]float64, hy*hz)
	}
	half := e.half[:hy*hz] // [b*hy + a] after the first pass
	for b := range hz {
		dzb := e.lat.dz * float64(b)
		for a := range my {
			row[a] = math.Exp(-kappa * math.Hypot(e.lat.dy*float64(min(a, my-a)), dzb))
		}
		py.Coefficients(rowC, row)
		for a := range hy {
			half[b*hy+a] = real(rowC[a])
		}
	}
	// Columns: along z for each a ≤ my/2, the input even in b.
	pz := e.realPlan(mz)
	col, colC := e.row[:mz], e.rowC[:hz]
	for a := range hy {
		for b := range mz {
			col[b] = half[min(b, mz-b)*hy+a]
		}
		pz.Coefficients(colC, col)
		for b := range hz {
			lam[b*hy+a] = real(colC[b])
		}
	}
	e.my, e.mz, e.kappa = my, mz, kappa
	neg := 0.0
	for b := range mz {
		for a := range my {
			if v := lam[min(b, mz-b)*hy+min(a, my-a)]; v < 0 {
				neg -= v
			}
		}
	}
	return neg / float64(my*mz)
}

// embedding returns the size of the periodic lattice sample embeds the
// coherence exp(−κ·r) in, with its eigenvalues in e.lam: the smallest of
// the sizes tried whose coherence error is within tol; ok is false when
// none is (tol ≤ 0: no negative eigenvalue beyond rounding).
//
// The sizes tried are first a short embedding, when the coherence falls
// below tol/2 within a few spacings: a periodic lattice of n − 1 + L
// points per direction (n the lattice's points, L spacings beyond which
// the coherence is below tol/2) reproduces every coherence of the lattice
// except those of offsets it wraps around, whose offsets are then at
// least L spacings both ways, so both the true and the wrapped coherence
// are below tol/2; the clipped eigenvalues may add tol minus that. Then
// 2(n − 1) per direction and its doublings (maxEmbeddingDoublings), which
// wrap no offset, with clipping within tol. At the higher frequencies of
// the embedded range the short embedding has a third of the points of
// the full one, and its FFTs and phases cost that much less.
func (e *embedder) embedding(kappa, tol float64) (my, mz int, ok bool) {
	limit := tol
	if limit <= 0 {
		limit = 1e-12
	}
	fullY, fullZ := 2*(e.lat.ny-1), 2*(e.lat.nz-1)
	if tol > 0 {
		// Offsets of at least L spacings have coherence ≤ tol/2.
		ly := int(math.Ceil(math.Log(2/tol) / (kappa * e.lat.dy)))
		lz := int(math.Ceil(math.Log(2/tol) / (kappa * e.lat.dz)))
		my, mz := fftSize(e.lat.ny-1+ly), fftSize(e.lat.nz-1+lz)
		if my < fullY || mz < fullZ {
			my, mz = min(my, fftSize(fullY)), min(mz, fftSize(fullZ))
			// The wrapped offsets are at least my − (ny − 1) spacings
			// in y or mz − (nz − 1) in z.
			wrap := 0.0
			if my < fullY {
				wrap = math.Exp(-kappa * float64(my-(e.lat.ny-1)) * e.lat.dy)
			}
			if mz < fullZ {
				wrap = math.Max(wrap, math.Exp(-kappa*float64(mz-(e.lat.nz-1))*e.lat.dz))
			}
			if e.spectrum(kappa, my, mz) <= limit-wrap {
				return my, mz, true
			}
		}
	}
	for d := 0; d <= maxEmbeddingDoublings; d++ {
		my, mz := fftSize(fullY<<d), fftSize(fullZ<<d)
		if e.spectrum(kappa, my, mz) <= limit {
			return my, mz, true
		}
	}
	return 0, 0, false
}

// sample writes into x (one value per simulation point) amp times a
// realisation of the lattice field with coherence exp(−κ·r), its phases
// drawn from rng; ok is false when no embedding keeps the coherence error
// within tol (embedding).
func (e *embedder) sample(x []complex128, kappa, amp, tol float64, rng *rand.PCG) bool {
	my, mz, ok := e.embedding(kappa, tol)
	if !ok {
		return false
	}
	m := my * mz
	if cap(e.y) < m {
		e.y = make([]complex128, m)
	}
	y := e.y[:m]
	hy := my/2 + 1
	scale := 1 / float64(m)
	for b := range mz {
		for a := range my {
			l := e.lam[min(b, mz-b)*hy+min(a, my-a)]
			y[b*my+a] = scaledPhase(amp*math.Sqrt(math.Max(l, 0)*scale), rng)
		}
	}
	// The lattice sits in the corner of the embedding (lattice row jz,
	// column jy is embedding row jz, column jy): transform along z
	// every column, then along y only the rows the lattice uses.
	pz, py := e.cplxPlan(mz), e.cplxPlan(my)
	if cap(e.col) < mz {
		e.col, e.colT = make([]complex128, mz), make([]complex128, mz)
	}
	col, colT := e.col[:mz], e.colT[:mz]
	for a := range my {
		for b := range mz {
			col[b] = y[b*my+a]
		}
		pz.Coefficients(colT, col)
		for b := range e.lat.nz {
			y[b*my+a] = colT[b]
		}
	}
	for b := range e.lat.nz {
		r := y[b*my : (b+1)*my]
		py.Coefficients(r, r)
	}
	for p, li := range e.lat.index {
		jz, jy := li/e.lat.ny, li%e.lat.ny
		x[p] = y[jz*my+jy]
	}
	return true
}
