package waves

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/dsp/fourier"
)

// Wave models (SeaState WaveMod).
const (
	StillWater = 0
	Regular    = 1
	JONSWAPSea = 2
	UserElev   = 5
)

// Config is a sea state in SI units. Zero values mean still water.
type Config struct {
	Gravity float64 // m/s²
	WtrDens float64 // kg/m³
	WtrDpth float64 // water depth below MSL, m
	MSL2SWL float64 // SWL above MSL, m

	WaveMod   int
	WaveStMod int     // 0 none, 1 vertical, 2 extrapolation
	WaveTMax  float64 // s: the sea repeats after this time; Δω = 2π/WaveTMax
	WaveDT    float64 // s: time step of the precomputed series; ωmax = π/WaveDT
	WaveHs    float64 // m: height (regular) or significant height
	WaveTp    float64 // s: period (regular) or peak period
	WavePkShp float64 // JONSWAP γ; ignored when PkShpDefault
	PkShpDflt bool    // γ from IEC 61400-3-1 Annex B (PeakShapeDefault)
	WvLowCOff float64 // rad/s
	WvHiCOff  float64 // rad/s
	// WvLowCOffD and WvHiCOffD bound the difference frequencies of the
	// second-order difference-frequency terms, rad/s.
	WvLowCOffD, WvHiCOffD float64
	// WvLowCOffS and WvHiCOffS bound the sum frequencies of the
	// second-order sum-frequency terms, rad/s.
	WvLowCOffS, WvHiCOffS float64
	// WvDiffQTF and WvSumQTF add the second-order difference- and
	// sum-frequency elevation to the WaveNElev outputs.
	WvDiffQTF, WvSumQTF bool
	WaveDir             float64 // deg, 0 = propagating towards +X
	WaveDirMod          int     // 0 long-crested, 1 cos^2S spreading
	WaveDirSpr          float64 // spreading exponent S
	WaveNDir            int     // number of equal-energy directions (odd)
	WaveDirRng          float64 // deg, full range of directions
	WaveSeed            [2]int64
	RanLux              bool // WaveSeed(2) was the word RANLUX
	WaveNDAmp           bool // normally distributed amplitudes
	// RegularPhase is the phase in degrees of a regular wave (WaveMod 1P#);
	// nil draws it from the seed.
	RegularPhase *float64
	// Elev is the elevation time series at the origin for WaveMod 5, sampled
	// every WaveDT from t = 0.
	Elev []float64

	Current Current
}

// Depth returns the water depth below SWL used by the wave kinematics.
func (c *Config) Depth() float64 { return c.WtrDpth + c.MSL2SWL }

// component is one wave: η = Re(c e^{i(k(x cosβ + y sinβ) − ω t)}).
type component struct {
	omega, k   float64
	cosB, sinB float64
	c          complex128
}

// Sea is an initialised sea state. It is read-only after New and safe for
// concurrent use.
type Sea struct {
	cfg   Config
	h     float64 // depth below SWL
	comps []component
	// nStep and period of the precomputed series (period = nStep·dt)
	nStep  int
	dt     float64
	period float64
	fft    *fourier.FFT

	// Warnings lists inputs the deck gave that are not modelled (file:line:
	// variable: message), for the run's warnings.
	Warnings []string
	// spreadNotes are the adjustments SeaState makes to the spreading
	// inputs (FromDeck turns them into Warnings with their file and line).
	spreadNotes []Unsupported
}

// New builds the sea state: the wave components from the spectrum or the
// regular-wave parameters, with the seeded random phases and amplitudes.
func New(cfg Config) (*Sea, error) {
	if cfg.Gravity <= 0 {
		cfg.Gravity = 9.80665
	}
	if cfg.WtrDens <= 0 {
		cfg.WtrDens = 1025
	}
	s := &Sea{cfg: cfg, h: cfg.Depth()}
	if cfg.WaveMod == StillWater {
		return s, nil
	}
	if cfg.WaveStMod == 3 {
		return nil, errors.New("waves: WaveStMod 3 (Wheeler stretching) is not supported; use 0, 1 or 2")
	}
	if cfg.WaveStMod < 0 || cfg.WaveStMod > 3 {
		return nil, fmt.Errorf("waves: WaveStMod %d is not one of 0, 1, 2", cfg.WaveStMod)
	}
	if cfg.WaveTMax <= 0 || cfg.WaveDT <= 0 {
		return nil, fmt.Errorf("waves: WaveTMax (%g s) and WaveDT (%g s) must be > 0", cfg.WaveTMax, cfg.WaveDT)
	}
	if cfg.WaveTMax/cfg.WaveDT > 1<<22 {
		return nil, fmt.Errorf("waves: WaveTMax/WaveDT = %g steps is too many (limit %d)", cfg.WaveTMax/cfg.WaveDT, 1<<22)
	}
	n := seriesSteps(cfg.WaveMod, cfg.WaveTMax, cfg.WaveDT)
	s.nStep, s.dt = n, cfg.WaveDT
	s.period = float64(n) * cfg.WaveDT
	s.fft = fourier.NewFFT(n)
	dw := 2 * math.Pi / s.period
	var src uniformSource
	if cfg.WaveMod == Regular || cfg.WaveMod == JONSWAPSea {
		var err error
		if src, err = seaStateGenerator(cfg); err != nil {
			return nil, err
		}
	}
	dir := cfg.WaveDir * math.Pi / 180
	switch cfg.WaveMod {
	case Regular:
		if cfg.WaveTp <= 0 {
			return nil, fmt.Errorf("waves: WaveTp = %g s, must be > 0 for regular waves", cfg.WaveTp)
		}
		nw := math.Max(1, math.Round(2*math.Pi/cfg.WaveTp/dw))
		if int(nw) >= n/2 {
			return nil, fmt.Errorf("waves: regular wave of period %g s is shorter than 2·WaveDT (%g s)", cfg.WaveTp, 2*cfg.WaveDT)
		}
		var phase float64
		if cfg.RegularPhase != nil {
			phase = *cfg.RegularPhase * math.Pi / 180
		} else {
			// the phase of the draw SeaState makes for the wave's
			// frequency bin; c is the conjugate of its amplitude
			w := seaStateDraws(src, n/2, true)[int(nw)]
			phase = -cmplx.Phase(w)
		}
		s.add(nw*dw, dir, complex(cfg.WaveHs/2, 0)*cmplx.Exp(complex(0, phase)))
	case JONSWAPSea:
		if cfg.WaveHs < 0 || cfg.WaveTp <= 0 {
			return nil, fmt.Errorf("waves: WaveHs = %g m and WaveTp = %g s: need Hs ≥ 0 and Tp > 0", cfg.WaveHs, cfg.WaveTp)
		}
		gamma := cfg.WavePkShp
		if cfg.PkShpDflt {
			gamma = PeakShapeDefault(cfg.WaveHs, cfg.WaveTp)
		}
		if gamma < 1 || gamma > 7 {
			return nil, fmt.Errorf("waves: WavePkShp = %g, must be within [1, 7]", gamma)
		}
		draws := seaStateDraws(src, n/2, cfg.WaveNDAmp)
		// With spreading, one direction per frequency bin, drawn after
		// the phases as SeaState draws it (spreading.go).
		offsets, notes, err := spreadOffsets(cfg, n/2, src)
		if err != nil {
			return nil, err
		}
		s.spreadNotes = notes
		for i := 1; i < n/2; i++ {
			w := float64(i) * dw
			if w < cfg.WvLowCOff || w > cfg.WvHiCOff {
				continue
			}
			sd := JONSWAP(w, cfg.WaveHs, cfg.WaveTp, gamma)
			// SeaState's amplitude W·√(S Δω) multiplies e^{+iωt}; ours
			// multiplies e^{−iωt}, hence the conjugate.
			c := cmplx.Conj(draws[i]) * complex(math.Sqrt(sd*dw), 0)
			d := dir
			if offsets != nil {
				d += offsets[i]
			}
			s.add(w, d, c)
		}
	case UserElev:
		if len(cfg.Elev) < n {
			return nil, fmt.Errorf("waves: the elevation series has %d samples, need %d (WaveTMax/WaveDT)", len(cfg.Elev), n)
		}
		coef := s.fft.Coefficients(nil, cfg.Elev[:n])
		for i := 1; i < n/2; i++ {
			w := float64(i) * dw
			if (cfg.WvLowCOff > 0 && w < cfg.WvLowCOff) || (cfg.WvHiCOff > 0 && w > cfg.WvHiCOff) {
				continue
			}
			// η(t) = (1/n)(X0 + 2 Re Σ X_k e^{iωt}) and η = Re(c e^{-iωt})
			s.add(w, dir, 2*cmplx.Conj(coef[i])/complex(float64(n), 0))
		}
	default:
		return nil, fmt.Errorf("waves: WaveMod %d is not supported (0 still water, 1 regular, 2 JONSWAP, 5 elevation series)", cfg.WaveMod)
	}
	return s, nil
}

func (s *Sea) add(omega, dir float64, c complex128) {
	if c == 0 {
		return
	}
	s.comps = append(s.comps, component{
		omega: omega, k: WaveNumber(omega, s.cfg.Gravity, s.h),
		cosB: math.Cos(dir), sinB: math.Sin(dir), c: c,
	})
}

// seriesSteps is the number of time steps of a sea's period: an even
// number covering WaveTMax (at least 4); for the seas SeaState synthesises
// from a spectrum or a regular wave, twice a product of the primes up to
// 23, the length SeaState gives its FFT, which sets the frequency step of
// the components (OpenFAST SeaState: WaveTMax is rounded up; WaveDOmega =
// 2π/WaveTMax). The effective period is steps·WaveDT.
func seriesSteps(waveMod int, tmax, dt float64) int {
	n := int(math.Ceil(tmax/dt - 1e-9))
	if n%2 == 1 {
		n++
	}
	if n < 4 {
		n = 4
	}
	if waveMod != UserElev {
		n = 2 * smoothAtLeast(n/2)
	}
	return n
}

// Config returns the configuration the sea was built from.
func (s *Sea) Config() Config { return s.cfg }

// Period returns the time after which the waves repeat (0 for still water).
func (s *Sea) Period() float64 { return s.period }

// NumComponents returns the number of wave components.
func (s *Sea) NumComponents() int { return len(s.comps) }

// Kin is the wave kinematics at a point: velocity and acceleration in the
// global frame (m/s, m/s²) and dynamic pressure (Pa).
type Kin struct {
	V, A [3]float64
	P    float64
}

// Elevation returns the wave elevation above SWL at (x, y) and time t,
// summed directly over the components, with the second-order terms the
// deck asks for (a double sum: use a Probe for many components).
func (s *Sea) Elevation(x, y, t float64) float64 {
	var e float64
	for i := range s.comps {
		c := &s.comps[i]
		th := c.k*(x*c.cosB+y*c.sinB) - c.omega*t
		e += real(c.c * cmplx.Rect(1, th))
	}
	s.secondOrderTerms(x, y, 0, false, func(q *secondOrderTerm) {
		e += real(q.elev * cmplx.Rect(1, -q.omega*t))
	})
	return e
}

// At returns the wave kinematics (first order, and second order when the
// deck asks for it) and current at (x, y, z) and time t, summed directly
// over the components, with the stretching option applied (see the package
// documentation). Cheap for regular waves; use a Probe for many components
// at a fixed point.
func (s *Sea) At(x, y, z, t float64) Kin {
	zk, scale, ok := s.stretch(z, func() float64 { return s.Elevation(x, y, t) })
	var k Kin
	if !ok {
		return k
	}
	var v [7]float64
	addTerm := func(omega float64, q, dq *[7]complex128) {
		e := cmplx.Rect(1, -omega*t)
		for j := range v {
			v[j] += real(q[j] * e)
			if scale {
				v[j] += z * real(dq[j]*e)
			}
		}
	}
	for i := range s.comps {
		c := &s.comps[i]
		q := s.transfer(c, x, y, zk)
		var d [7]complex128
		if scale {
			d = s.dzTransfer(c, x, y)
		}
		addTerm(c.omega, &q, &d)
	}
	s.secondOrderTerms(x, y, zk, scale, func(q *secondOrderTerm) { addTerm(q.omega, &q.q, &q.dq) })
	k.V = [3]float64{v[0], v[1], v[2]}
	k.A = [3]float64{v[3], v[4], v[5]}
	k.P = v[6]
	cv := s.cfg.Current.Velocity(math.Min(z, 0), s.h)
	for j := range cv {
		k.V[j] += cv[j]
	}
	return k
}

// stretch decides where to evaluate the kinematics of a point at height z:
// it returns the height to evaluate at, whether the extrapolation term
// z·∂/∂z at SWL is to be added, and false when the point is dry.
func (s *Sea) stretch(z float64, elev func() float64) (zEval float64, extrap bool, wet bool) {
	if z < -s.h {
		return 0, false, false
	}
	switch s.cfg.WaveStMod {
	case 0:
		return z, false, z <= 0
	case 1:
		if z > elev() {
			return 0, false, false
		}
		return math.Min(z, 0), false, true
	default: // 2: extrapolation above SWL
		if z > elev() {
			return 0, false, false
		}
		if z > 0 {
			return 0, true, true
		}
		return z, false, true
	}
}

// transfer returns the complex amplitudes of (u, v, w, ax, ay, az, p) of
// one component at (x, y, z ≤ 0): each quantity is Re(q e^{-iωt}).
func (s *Sea) transfer(c *component, x, y, z float64) [7]complex128 {
	cp := c.c * cmplx.Rect(1, c.k*(x*c.cosB+y*c.sinB))
	ch, sh, cc := depthFactors(c.k, s.h, z)
	w := c.omega
	uh := complex(w*ch, 0) * cp
	wz := complex(0, -w*sh) * cp
	ah := complex(0, -w*w*ch) * cp
	az := complex(-w*w*sh, 0) * cp
	p := complex(s.cfg.WtrDens*s.cfg.Gravity*cc, 0) * cp
	return [7]complex128{
		uh * complex(c.cosB, 0), uh * complex(c.sinB, 0), wz,
		ah * complex(c.cosB, 0), ah * complex(c.sinB, 0), az, p,
	}
}

// dzTransfer returns ∂/∂z of the transfer amplitudes at z = 0, for
// extrapolation stretching: d/dz of the cosh/sinh ratios at SWL are k,
// k/tanh(kh) and k tanh(kh).
func (s *Sea) dzTransfer(c *component, x, y float64) [7]complex128 {
	cp := c.c * cmplx.Rect(1, c.k*(x*c.cosB+y*c.sinB))
	// at z = 0 the ratios are 1/tanh(kh), 1 and 1; their z-derivatives are
	// k sinh/sinh = k, k cosh/sinh = k/tanh(kh) and k sinh/cosh = k tanh(kh)
	ch, _, _ := depthFactors(c.k, s.h, 0)
	k, w := c.k, c.omega
	dch, dsh, dcc := k, k*ch, k/ch
	uh := complex(w*dch, 0) * cp
	wz := complex(0, -w*dsh) * cp
	ah := complex(0, -w*w*dch) * cp
	az := complex(-w*w*dsh, 0) * cp
	p := complex(s.cfg.WtrDens*s.cfg.Gravity*dcc, 0) * cp
	return [7]complex128{
		uh * complex(c.cosB, 0), uh * complex(c.sinB, 0), wz,
		ah * complex(c.cosB, 0), ah * complex(c.sinB, 0), az, p,
	}
}
