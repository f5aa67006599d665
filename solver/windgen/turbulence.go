package windgen

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/dsp/fourier"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// TurbulenceModel selects the IEC turbulence model of a box.
type TurbulenceModel int

// Turbulence models (TurbSim IEC_WindType NTM, xETM, xEWM50, xEWM1).
const (
	NTM   TurbulenceModel = iota + 1 // normal turbulence model, IEC 61400-1 ed.3 §6.3.1.3
	ETM                              // extreme turbulence model, §6.3.2.3
	EWM50                            // turbulent extreme wind model, 50-year, §6.3.2.1
	EWM1                             // turbulent extreme wind model, 1-year, §6.3.2.1
)

// String returns TurbSim's name of the model.
func (m TurbulenceModel) String() string {
	switch m {
	case NTM:
		return "NTM"
	case ETM:
		return "ETM"
	case EWM50:
		return "EWM50"
	case EWM1:
		return "EWM1"
	}
	return fmt.Sprintf("TurbulenceModel(%d)", int(m))
}

// ParseTurbulenceModel accepts NTM, ETM, EWM50, EWM1 (TurbSim's class
// prefix, as in "1ETM", is not part of the name here: the class is a
// separate field).
func ParseTurbulenceModel(s string) (TurbulenceModel, error) {
	switch s {
	case "NTM", "ntm":
		return NTM, nil
	case "ETM", "etm":
		return ETM, nil
	case "EWM50", "ewm50":
		return EWM50, nil
	case "EWM1", "ewm1":
		return EWM1, nil
	}
	return 0, fmt.Errorf("windgen: unknown turbulence model %q (want NTM, ETM, EWM50 or EWM1)", s)
}

// ScaleMode says whether the synthesised fluctuations are rescaled to the
// target standard deviations afterwards (TurbSim's ScaleIEC input).
//
// Without scaling, a finite record only holds the spectrum above 1/T: for a
// 600 s, class-B NTM box at 12 m/s the Kaimal variance below the first
// frequency bin (≈ 1/1200 Hz) is 8.5 % of σ1², so the expected hub σ_u is
// about 4 % below σ1. TurbSim's default (ScaleIEC = 0, as in its example
// inputs and the reference box of this project) behaves the same way.
type ScaleMode int

// Scale modes, numbered as TurbSim's ScaleIEC.
const (
	ScaleNone       ScaleMode = 0 // no rescaling (TurbSim ScaleIEC = 0)
	ScaleHub        ScaleMode = 1 // one factor per component from the hub point, applied to all points (ScaleIEC = 1)
	ScaleIndividual ScaleMode = 2 // every point and component rescaled to its own target (ScaleIEC = 2)
)

// DefaultCoherenceTol is the default coherence below which the u-component
// cross-spectral matrix is treated as diagonal (see TurbulenceSpec).
const DefaultCoherenceTol = 1e-3

// TurbulenceSpec is everything needed to generate one IEC Kaimal box.
type TurbulenceSpec struct {
	Class    TurbineClass
	Category TurbulenceCategory
	Model    TurbulenceModel
	// VHub is the hub-height 10-min mean speed [m/s]; for EWM50 and EWM1 it
	// is ignored and set to V_ref and 0.8·V_ref (IEC 61400-1 ed.3 §6.3.2.1).
	VHub float64
	// ETMc is the ETM parameter c [m/s]; zero means the IEC value 2 m/s.
	ETMc float64
	// ShearExponent is the power-law exponent of the mean profile; nil means
	// 0.2 (NWP) for NTM/ETM and 0.11 for EWM.
	ShearExponent *float64
	Grid          GridSpec
	Dt            float64 // time step [s]
	Duration      float64 // length of the usable time series [s]
	// Periodic boxes (TurbSim UsableTime = "ALL", .bts FileID 8) span
	// exactly Duration; non-periodic ones are lengthened by Width/VHub so
	// that InflowWind's Taylor shift of the box still covers Duration.
	Periodic bool
	Seed     uint64 // random seed; the same spec and seed give the same box
	Scale    ScaleMode
	// CoherenceTol: IEC coherences below this value are set to zero. Since
	// the coherence exp(−κ(f)·r) falls with distance and frequency, above
	// the frequency where the two closest points are less coherent than
	// this the u matrix is diagonal (no factorisation), and below it, with
	// points ordered by height, the matrix is banded, which a band Cholesky
	// factorises at a fraction of the dense cost (the dense factorisation is
	// used when the band is wider than a third of the matrix, or if the
	// truncated matrix is not positive definite). The largest coherence
	// error this makes is CoherenceTol. Zero means DefaultCoherenceTol; a
	// negative value factorises the whole matrix at every frequency, as
	// TurbSim does.
	CoherenceTol float64
	// Workers is the number of goroutines; zero means GOMAXPROCS.
	Workers int
}

// TurbulenceTargets are the IEC quantities a spec resolves to.
type TurbulenceTargets struct {
	VHub    float64 // hub-height mean speed [m/s]
	Sigma1  float64 // longitudinal standard deviation [m/s]
	Lambda1 float64 // turbulence scale parameter Λ1 [m]
	Alpha   float64 // power-law shear exponent
	IRef    float64
	Spectra Kaimal
}

// TI is the target hub-height turbulence intensity σ1/V_hub.
func (t TurbulenceTargets) TI() float64 { return t.Sigma1 / t.VHub }

// Targets resolves the IEC model of the spec: V_hub, σ1, Λ1, shear.
func (s TurbulenceSpec) Targets() (TurbulenceTargets, error) {
	var t TurbulenceTargets
	vref, err := s.Class.VRef()
	if err != nil {
		return t, err
	}
	iref, err := s.Category.IRef()
	if err != nil {
		return t, err
	}
	t.IRef = iref
	t.Alpha = NormalShearExponent
	switch s.Model {
	case NTM, ETM:
		if !(s.VHub > 0) || math.IsInf(s.VHub, 0) {
			return t, fmt.Errorf("windgen: hub speed %g m/s must be positive and finite", s.VHub)
		}
		t.VHub = s.VHub
		if s.Model == NTM {
			t.Sigma1 = NTMSigma(iref, s.VHub)
		} else {
			c := s.ETMc
			if c == 0 {
				c = 2
			}
			if !(c > 0) {
				return t, fmt.Errorf("windgen: ETM c = %g m/s must be positive", c)
			}
			t.Sigma1 = ETMSigma(iref, 0.2*vref, s.VHub, c)
		}
	case EWM50, EWM1:
		t.VHub = vref
		if s.Model == EWM1 {
			t.VHub = 0.8 * vref
		}
		t.Sigma1 = EWMSigma(t.VHub)
		t.Alpha = ExtremeShearExponent
	default:
		return t, fmt.Errorf("windgen: unknown turbulence model %d", int(s.Model))
	}
	if s.ShearExponent != nil {
		t.Alpha = *s.ShearExponent
		if math.IsNaN(t.Alpha) || math.Abs(t.Alpha) > 2 {
			return t, fmt.Errorf("windgen: shear exponent %g out of range [−2, 2]", t.Alpha)
		}
	}
	t.Lambda1 = TurbulenceScale(s.Grid.HubHeight)
	t.Spectra = NewKaimal(t.Sigma1, t.VHub, t.Lambda1)
	return t, nil
}

// steps is the number of time steps simulated (even, for the real FFT).
func (s TurbulenceSpec) steps(vHub float64) (int, error) {
	if !(s.Dt > 0) || math.IsInf(s.Dt, 0) {
		return 0, fmt.Errorf("windgen: time step %g s must be positive", s.Dt)
	}
	if !(s.Duration > 0) || math.IsInf(s.Duration, 0) {
		return 0, fmt.Errorf("windgen: duration %g s must be positive", s.Duration)
	}
	length := s.Duration
	if !s.Periodic {
		length += s.Grid.Width / vHub
	}
	n := int(math.Ceil(length/s.Dt - 1e-9))
	if n%2 == 1 {
		n++
	}
	if n < 4 {
		return 0, fmt.Errorf("windgen: %g s at dt %g s gives %d steps, fewer than 4", length, s.Dt, n)
	}
	if n > 1<<22 {
		return 0, fmt.Errorf("windgen: %d time steps is more than this generator supports", n)
	}
	return n, nil
}

// FullField is a generated box: velocities on the y–z grid, the tower
// points and the hub point, over NT steps of Dt. Velocities are total
// (mean plus fluctuation) in the wind frame: u along the mean wind, v
// lateral (positive to the left looking downwind, TurbSim's y), w up.
type FullField struct {
	NY, NZ    int
	DY, DZ    float64
	ZBottom   float64 // height of grid row 0 [m]
	HubHeight float64 // [m]
	URef      float64 // mean u at the hub, the box's advection speed [m/s]
	Dt        float64
	NT        int
	Periodic  bool
	TowerZ    []float64 // tower point heights, top (grid bottom) first
	// Grid holds, per component (0 u, 1 v, 2 w), the series of grid point
	// (iy, iz) at [(iz*NY+iy)*NT : (iz*NY+iy+1)*NT].
	Grid [3][]float32
	// Tower holds, per component, the series of tower point k at
	// [k*NT : (k+1)*NT].
	Tower [3][]float32
	// Hub holds the series at the hub point (a copy of the grid series when
	// the hub lies on the grid).
	Hub [3][]float32
	// Description says how the box was made (for file headers).
	Description string
}

// GridSeries returns the series of component c at grid point (iy, iz).
func (f *FullField) GridSeries(c, iy, iz int) []float32 {
	i := (iz*f.NY + iy) * f.NT
	return f.Grid[c][i : i+f.NT]
}

// HubStats returns the mean and standard deviation of each component at
// the hub point.
func (f *FullField) HubStats() (mean, sigma [3]float64) {
	for c := range 3 {
		mean[c], sigma[c] = meanStd(f.Hub[c])
	}
	return mean, sigma
}

func meanStd(x []float32) (mean, std float64) {
	for _, v := range x {
		mean += float64(v)
	}
	mean /= float64(len(x))
	for _, v := range x {
		d := float64(v) - mean
		std += d * d
	}
	return mean, math.Sqrt(std / float64(len(x)))
}

// Validate checks the spec as GenerateTurbulence does before it
// synthesises anything: the IEC model resolves (class, category, hub speed,
// shear), the grid is valid, the scale mode is known and the time step and
// duration give a positive number of steps. It costs microseconds, so a
// service can check many runs' specs and generate the boxes later.
func (s TurbulenceSpec) Validate() error {
	_, _, err := s.resolve()
	return err
}

// resolve is Validate returning the IEC targets and the number of steps.
func (s TurbulenceSpec) resolve() (TurbulenceTargets, int, error) {
	tg, err := s.Targets()
	if err != nil {
		return tg, 0, fmt.Errorf("windgen: turbulence spec: %w", err)
	}
	if err := s.Grid.Validate(); err != nil {
		return tg, 0, fmt.Errorf("windgen: turbulence spec: %w", err)
	}
	if s.Scale < ScaleNone || s.Scale > ScaleIndividual {
		return tg, 0, fmt.Errorf("windgen: turbulence spec: unknown scale mode %d", int(s.Scale))
	}
	nt, err := s.steps(tg.VHub)
	if err != nil {
		return tg, 0, fmt.Errorf("windgen: turbulence spec: %w", err)
	}
	return tg, nt, nil
}

// GenerateTurbulence synthesises an IEC Kaimal box by the Veers (1988)
// method: for every frequency f_k = k/(NT·dt) and component, Fourier
// coefficients X(f_k) = H(f_k)·(√(2·S(f_k)·Δf)·e^{iθ}) with H the lower
// Cholesky factor of the coherence matrix (u: IEC exponential coherence;
// v, w: identity, as IEC 61400-1 ed.3 Annex B specifies) and θ independent
// uniform phases; an inverse real FFT turns them into time series; the
// power-law mean profile is added afterwards. Phases come from a PCG
// generator seeded per (seed, component, frequency), so the result does not
// depend on the number of workers.
func GenerateTurbulence(ctx context.Context, spec TurbulenceSpec) (*FullField, error) {
	b, err := planBox(spec)
	if err != nil {
		return nil, err
	}
	ff := b.header()
	nt := b.syn.nt
	lay := b.lay
	for c := range 3 {
		series, k, err := b.component(ctx, c)
		if err != nil {
			return nil, err
		}
		fill := func(dst []float32, p int, z float64) {
			src := series[p*nt : (p+1)*nt]
			mean := b.mean(c, z)
			for i, v := range src {
				dst[i] = float32(mean + k[p]*float64(v))
			}
		}
		ff.Grid[c] = make([]float32, len(lay.grid)*nt)
		for i, p := range lay.grid {
			fill(ff.Grid[c][i*nt:(i+1)*nt], p, lay.points[p].z)
		}
		ff.Tower[c] = make([]float32, len(lay.tower)*nt)
		for i, p := range lay.tower {
			fill(ff.Tower[c][i*nt:(i+1)*nt], p, lay.points[p].z)
		}
		ff.Hub[c] = make([]float32, nt)
		fill(ff.Hub[c], lay.hub, spec.Grid.HubHeight)
	}
	return ff, nil
}

// boxPlan is what the synthesis of one box needs before any component is
// made: the resolved IEC targets, the simulation points and the synthesis
// settings.
type boxPlan struct {
	spec TurbulenceSpec
	tg   TurbulenceTargets
	lay  pointLayout
	syn  *synthesis
}

func planBox(spec TurbulenceSpec) (*boxPlan, error) {
	tg, nt, err := spec.resolve()
	if err != nil {
		return nil, err
	}
	workers := spec.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	tol := spec.CoherenceTol
	if tol == 0 {
		tol = DefaultCoherenceTol
	}
	lay := newPointLayout(spec.Grid)
	syn := &synthesis{
		targets: tg,
		points:  lay.points,
		nt:      nt,
		dt:      spec.Dt,
		seed:    spec.Seed,
		workers: workers,
		tol:     tol,
		minSep:  lay.minSeparation(),
	}
	if lat, ok := newLattice(spec.Grid, lay.points); ok {
		syn.lat = &lat
	}
	return &boxPlan{spec: spec, tg: tg, lay: lay, syn: syn}, nil
}

// header is the generated box without its series.
func (b *boxPlan) header() *FullField {
	g, tg := b.spec.Grid, b.tg
	return &FullField{
		NY: g.NY, NZ: g.NZ, DY: g.DY(), DZ: g.DZ(), ZBottom: g.ZBottom(),
		HubHeight: g.HubHeight, URef: tg.VHub, Dt: b.spec.Dt, NT: b.syn.nt,
		Periodic: b.spec.Periodic, TowerZ: g.TowerHeights(),
		Description: fmt.Sprintf("windgen IEC 61400-1 ed.3 Kaimal, class %v%v %v, V_hub %.3g m/s, sigma1 %.4g m/s, alpha %.3g, seed %d",
			b.spec.Class, b.spec.Category, b.spec.Model, tg.VHub, tg.Sigma1, tg.Alpha, b.spec.Seed),
	}
}

// mean is the mean of component c at height z: the power-law profile for
// u, zero for v and w.
func (b *boxPlan) mean(c int, z float64) float64 {
	if c != 0 {
		return 0
	}
	return PowerLaw(b.tg.VHub, b.spec.Grid.HubHeight, z, b.tg.Alpha)
}

// component synthesises the fluctuations of component c at every
// simulation point ([p*nt : (p+1)*nt]) and the scale factor of each point.
func (b *boxPlan) component(ctx context.Context, c int) ([]float32, []float64, error) {
	series, err := b.syn.component(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	return series, scaleFactors(b.spec.Scale, c, series, b.lay, b.syn.nt, b.tg), nil
}

// scaleFactors returns the factor applied to the fluctuation of component
// c at each simulation point (TurbSim ScaleIEC semantics).
func scaleFactors(mode ScaleMode, c int, series []float32, lay pointLayout, nt int, tg TurbulenceTargets) []float64 {
	out := make([]float64, len(lay.points))
	target := tg.Spectra.Sigma[c]
	switch mode {
	case ScaleHub:
		_, s := meanStd(series[lay.hub*nt : (lay.hub+1)*nt])
		k := 1.0
		if s > 0 {
			k = target / s
		}
		for p := range out {
			out[p] = k
		}
	case ScaleIndividual:
		for p := range out {
			_, s := meanStd(series[p*nt : (p+1)*nt])
			out[p] = 1
			if s > 0 {
				out[p] = target / s
			}
		}
	default:
		for p := range out {
			out[p] = 1
		}
	}
	return out
}

// synthesis holds what the per-component Veers synthesis needs.
type synthesis struct {
	targets TurbulenceTargets
	points  []simPoint
	nt      int
	dt      float64
	seed    uint64
	workers int
	tol     float64
	minSep  float64
	// lat places the points on the grid's lattice (nil when one is off
	// it): the u coherence is then sampled by circulant embedding
	// (embedding.go) instead of a Cholesky factorisation.
	lat *lattice
	// coeff is the Fourier coefficient matrix the components share, and
	// series the buffer of their series (component's answer, valid until
	// the next call).
	coeff  []complex64
	series []float32
}

// phaseSource returns the generator of the phases of component c at
// frequency index k: one PCG stream per (seed, c, k). The stream state is
// hashed from the three numbers (SplitMix64 finaliser) because PCG streams
// whose states differ by small integers are not independent enough.
func (s *synthesis) phaseSource(c, k int) *rand.PCG {
	h1 := splitMix64(s.seed ^ splitMix64(uint64(c+1)<<40|uint64(k)))
	h2 := splitMix64(h1 ^ 0x6a09e667f3bcc909)
	return rand.NewPCG(h1, h2)
}

// phaseTableBits sets the table of unitPhase: 2^10 points of the unit
// circle (16 KiB, in the first-level cache).
const phaseTableBits = 10

// phaseTable holds e^{2πi·j/2^phaseTableBits}.
var phaseTable = func() (t [1 << phaseTableBits]complex128) {
	for j := range t {
		s, c := math.Sincos(2 * math.Pi * float64(j) / (1 << phaseTableBits))
		t[j] = complex(c, s)
	}
	return t
}()

// unitPhase returns e^{iθ} with θ uniform on [0, 2π), from one 64-bit
// draw: its top phaseTableBits bits pick the table point e^{iθ_j} below θ,
// the next 54 bits the remaining angle δ < 2π/2^phaseTableBits (6.1e-3
// rad), and e^{iθ} = e^{iθ_j}·e^{iδ} with e^{iδ} by its Taylor series to
// δ³ (error below δ⁴/24 ≈ 6e-11, far under the float32 of the box). The
// synthesis draws one phase per point, component and frequency (20
// million for a 31 × 31, 600-s box), and this costs a table load and a
// few multiplications where a draw in the unit disk, normalised, took a
// rejection test, a square root and two divisions.
func unitPhase(rng *rand.PCG) complex128 {
	u := rng.Uint64()
	const dTheta = 2 * math.Pi / (1 << phaseTableBits)
	d := float64(u<<phaseTableBits>>(64-54)) * (dTheta / (1 << 54))
	d2 := d * d
	base := phaseTable[u>>(64-phaseTableBits)]
	c, s := 1-d2*(0.5-d2/24), d*(1-d2/6)
	return complex(real(base)*c-imag(base)*s, real(base)*s+imag(base)*c)
}

// scaledPhase is amp·e^{iθ}, θ uniform (unitPhase).
func scaledPhase(amp float64, rng *rand.PCG) complex128 {
	u := unitPhase(rng)
	return complex(amp*real(u), amp*imag(u))
}

// splitMix64 is the SplitMix64 output function (Steele, Lea & Flood 2014).
func splitMix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// component returns the fluctuations of component c at every simulation
// point, [p*nt : (p+1)*nt], zero mean, in a buffer the next call reuses:
// the three components of a box take one series buffer and one
// coefficient matrix (a fresh ~46 MB each per component was paid in page
// faults, system CPU time).
func (s *synthesis) component(ctx context.Context, c int) ([]float32, error) {
	np := len(s.points)
	nf := s.nt/2 + 1 // coefficient count of the real FFT, k = 0..nt/2
	df := 1 / (float64(s.nt) * s.dt)
	// [p*nf + k]: each point's coefficients in a row for its inverse FFT.
	// complex64 halves the memory of the matrix (the box is float32), and
	// the components share it. Every coefficient below the Nyquist one is
	// written for each component; that one stays zero.
	if len(s.coeff) != np*nf {
		s.coeff = make([]complex64, np*nf)
	}
	coeff := s.coeff

	// The u coherence matrix is built over the points sorted by height,
	// then lateral position, so that on a grid the pairs that are close
	// (and coherent) have nearby indices: the matrix is then nearly banded.
	order := make([]int, np)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		pa, pb := s.points[order[a]], s.points[order[b]]
		if pa.z != pb.z {
			return pa.z < pb.z
		}
		return pa.y < pb.y
	})
	// Distances between sorted points (upper triangle) and, per index
	// offset d = j − i, the smallest distance of a pair that far apart.
	var dist, minAtOffset []float64
	if c == 0 {
		dist = make([]float64, np*np)
		minAtOffset = make([]float64, np)
		for d := range minAtOffset {
			minAtOffset[d] = math.Inf(1)
		}
		for i := range np {
			pi := s.points[order[i]]
			for j := i + 1; j < np; j++ {
				pj := s.points[order[j]]
				r := math.Hypot(pi.y-pj.y, pi.z-pj.z)
				dist[i*np+j] = r
				minAtOffset[j-i] = math.Min(minAtOffset[j-i], r)
			}
		}
	}
	// Coherence is exp(−κ r); at κ·r_min ≥ ln(1/tol) the matrix is diagonal
	// to within tol. Below that, pairs farther apart than r_c = ln(1/tol)/κ
	// have coherence below tol and are dropped, which makes the matrix
	// banded with half-bandwidth max{d : minAtOffset[d] < r_c}.
	kappaDiagonal := math.Inf(1)
	logInvTol := math.Inf(1)
	if s.tol > 0 && s.tol < 1 {
		logInvTol = math.Log(1 / s.tol)
		kappaDiagonal = logInvTol / s.minSep
	}
	bandwidth := func(kappa float64) int {
		rc := logInvTol / kappa
		k := 0
		for d := 1; d < np; d++ {
			if minAtOffset[d] < rc {
				k = d
			}
		}
		return k
	}

	// Workers take blocks of freqBlock frequencies and write each point's
	// block as one run of its row: written one frequency at a time, the
	// matrix took a cache line (and often a page) per point and frequency.
	// The phases are seeded per (component, frequency), so the box does
	// not depend on the blocks or the workers.
	const freqBlock = 32
	var next atomic.Int64
	errs := make([]error, s.workers)
	var wg sync.WaitGroup
	for w := range s.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fw := frequencyWork{s: s, c: c, df: df, kappaDiagonal: kappaDiagonal, logInvTol: logInvTol, bandwidth: bandwidth,
				dist: dist, order: order, z: make([]complex128, np), x: make([]complex128, np)}
			block := make([]complex64, np*freqBlock) // [p*freqBlock + j]
			for {
				k0 := int(next.Add(1)-1) * freqBlock
				// k = 0 (the mean) stays zero, and so does the Nyquist
				// coefficient (k = nt/2): its phase cannot be random for a
				// real series.
				if k0 >= nf-1 {
					return
				}
				if err := ctx.Err(); err != nil {
					errs[w] = fmt.Errorf("windgen: turbulence synthesis cancelled: %w", err)
					return
				}
				k1 := min(k0+freqBlock, nf-1)
				for k := k0; k < k1; k++ {
					j := k - k0
					if k == 0 {
						for p := range np {
							block[p*freqBlock] = 0
						}
						continue
					}
					if err := fw.coefficients(k); err != nil {
						errs[w] = err
						return
					}
					for p, v := range fw.x {
						block[p*freqBlock+j] = complex64(v)
					}
				}
				for p := range np {
					copy(coeff[p*nf+k0:p*nf+k1], block[p*freqBlock:p*freqBlock+k1-k0])
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}

	// Inverse FFT of every point, into the series buffer the components
	// share (the caller is done with a component before the next).
	if len(s.series) != np*s.nt {
		s.series = make([]float32, np*s.nt)
	}
	out := s.series
	var nextP atomic.Int64
	for range s.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fft := fourier.NewFFT(s.nt)
			buf := make([]float64, s.nt)
			row := make([]complex128, nf)
			for {
				p := int(nextP.Add(1) - 1)
				if p >= np {
					return
				}
				for k, v := range coeff[p*nf : (p+1)*nf] {
					row[k] = complex128(v)
				}
				fft.Sequence(buf, row)
				dst := out[p*s.nt : (p+1)*s.nt]
				for i, v := range buf {
					dst[i] = float32(v)
				}
			}
		}()
	}
	wg.Wait()
	return out, nil
}

// frequencyWork is one worker's state for the coefficients of one
// component: the synthesis, the coherence set-up of component, and the
// worker's own buffers and factorisations.
type frequencyWork struct {
	s                        *synthesis
	c                        int
	df                       float64
	kappaDiagonal, logInvTol float64
	bandwidth                func(kappa float64) int
	dist                     []float64
	order                    []int
	z, x                     []complex128
	emb                      *embedder
	chol, band               []float64
}

// coefficients writes into w.x, indexed by simulation point, the Fourier
// coefficients c_k of the component at frequency index k: half the
// amplitude X_k of Veers' method, since gonum's Sequence returns
// c_0 + 2·Re Σ c_k e^{2πi jk/n}, so c_k = X_k/2 gives Re Σ X_k e^{2πi f_k t}.
func (w *frequencyWork) coefficients(k int) error {
	s, x, z := w.s, w.x, w.z
	np := len(s.points)
	f := float64(k) * w.df
	// The ½ of c_k = X_k/2 is in the amplitude: every step below is
	// linear in it.
	amp := 0.5 * math.Sqrt(2*s.targets.Spectra.PSD(w.c, f)*w.df)
	rng := s.phaseSource(w.c, k)
	kappa := coherenceDecay(f, s.targets.VHub, s.targets.Lambda1)
	if w.c == 0 && s.lat != nil && s.tol > 0 && kappa < w.kappaDiagonal {
		if w.emb == nil {
			w.emb = newEmbedder(*s.lat)
		}
		// x is indexed by simulation point here, not by the sorted order
		// of the factorisations below.
		if w.emb.sample(x, kappa, amp, s.tol, rng) {
			return nil
		}
		rng = s.phaseSource(w.c, k)
	}
	if w.c != 0 || kappa >= w.kappaDiagonal {
		// No coherence: the points' phases are independent, drawn in the
		// sorted order as the factorisations draw them, so a point keeps
		// its phase whichever path a frequency takes.
		for _, p := range w.order {
			x[p] = scaledPhase(amp, rng)
		}
		return nil
	}
	for i := range z {
		z[i] = scaledPhase(amp, rng)
	}
	switch {
	case s.tol > 0 && 3*w.bandwidth(kappa) < np:
		kb := w.bandwidth(kappa)
		if cap(w.band) < np*(kb+1) {
			w.band = make([]float64, np*(kb+1))
		}
		band := w.band[:np*(kb+1)]
		if bandCholeskyCoherence(band, w.dist, np, kb, kappa, w.logInvTol/kappa) {
			// x = Uᵀ z over the band of U, in the sorted order.
			clear(x)
			for m := range np {
				zm := z[m]
				row := band[m*(kb+1) : (m+1)*(kb+1)]
				for d := 0; d <= kb && m+d < np; d++ {
					x[m+d] += complex(row[d], 0) * zm
				}
			}
			break
		}
		// Dropping the small coherences made the matrix indefinite:
		// factorise it whole instead.
		fallthrough
	default:
		if w.chol == nil {
			w.chol = make([]float64, np*np)
		}
		if err := choleskyCoherence(w.chol, w.dist, np, kappa); err != nil {
			return fmt.Errorf("windgen: u coherence matrix at %.5g Hz: %w", f, err)
		}
		// x = Uᵀ z with U the upper Cholesky factor (A = UᵀU), i.e.
		// x = L z with L = Uᵀ lower (Veers 1988), in the sorted order.
		clear(x)
		for m := range np {
			zm := z[m]
			row := w.chol[m*np : (m+1)*np]
			for j := m; j < np; j++ {
				x[j] += complex(row[j], 0) * zm
			}
		}
	}
	// From the sorted order to simulation points (z is free now).
	for i, p := range w.order {
		z[p] = x[i]
	}
	copy(x, z)
	return nil
}

// bandCholeskyCoherence fills band (upper band storage, row i holding
// A[i][i..i+kb]) with the IEC coherence exp(−κ·r_ij) of the pairs closer
// than rc, zero beyond, and factorises it in place, A = UᵀU. It reports
// whether the truncated matrix was positive definite.
func bandCholeskyCoherence(band, dist []float64, n, kb int, kappa, rc float64) bool {
	stride := kb + 1
	for i := range n {
		row := band[i*stride : (i+1)*stride]
		row[0] = 1
		d := dist[i*n : (i+1)*n]
		for o := 1; o <= kb; o++ {
			j := i + o
			row[o] = 0
			if j < n && d[j] < rc {
				row[o] = math.Exp(-kappa * d[j])
			}
		}
	}
	sym := blas64.SymmetricBand{Uplo: blas.Upper, N: n, K: kb, Data: band, Stride: stride}
	_, ok := lapack64.Pbtrf(sym)
	return ok
}

// choleskyCoherence fills a (row-major, upper triangle) with the IEC
// coherence matrix exp(−κ·r_ij) and factorises it in place, A = UᵀU. If
// rounding makes the matrix numerically indefinite a tiny diagonal load is
// added and the factorisation retried.
func choleskyCoherence(a, dist []float64, n int, kappa float64) error {
	for _, load := range []float64{0, 1e-12, 1e-9, 1e-6} {
		for i := range n {
			row := a[i*n : (i+1)*n]
			row[i] = 1 + load
			d := dist[i*n : (i+1)*n]
			for j := i + 1; j < n; j++ {
				row[j] = math.Exp(-kappa * d[j])
			}
		}
		sym := blas64.Symmetric{N: n, Stride: n, Data: a, Uplo: blas.Upper}
		if _, ok := lapack64.Potrf(sym); ok {
			return nil
		}
	}
	return fmt.Errorf("coherence matrix of %d points is not positive definite", n)
}

// SeriesStats summarises one velocity series.
type SeriesStats struct {
	Mean, Sigma, Min, Max float64 // [m/s]
}

// HubReport returns the statistics of each component at the hub point (the
// "hub-height realisation" lines of a TurbSim summary).
func (f *FullField) HubReport() [3]SeriesStats {
	var out [3]SeriesStats
	for c := range 3 {
		s := &out[c]
		s.Mean, s.Sigma = meanStd(f.Hub[c])
		s.Min, s.Max = math.Inf(1), math.Inf(-1)
		for _, v := range f.Hub[c] {
			s.Min = math.Min(s.Min, float64(v))
			s.Max = math.Max(s.Max, float64(v))
		}
	}
	return out
}
