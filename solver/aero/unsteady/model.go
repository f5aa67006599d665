package unsteady

import (
	"errors"
	"fmt"
	"math"
)

// ModMinnemaPierce is AeroDyn's UA_Mod 3, the only model of this package.
const ModMinnemaPierce = 3

// UMin is the smallest relative speed the equations see (m/s); smaller
// speeds are raised to it (AeroDyn's UA_u_min), and UA is blended out below
// UOff.
const UMin = 0.01

// UOff is the relative speed (m/s) below which the output is blended to
// the static polar (cosine blend from UMin to UOff, AeroDyn's UA_BlendSteady).
// The states keep integrating there, as in AeroDyn v5's UA_UpdateStates for
// the Beddoes-Leishman models: the input speed is only raised to UMin
// (UA_fixInputs) so the 1/U terms stay finite. Restarting them instead (what
// this model did before) left the IEA-15 start-up, where the outer nodes'
// relative speed dips to about 0.5 m/s for a few steps, with Cn off
// OpenFAST's by up to 0.05 RMS for the following seconds.
const UOff = 1.0

// maxAttachedAlpha is the largest |alpha| at which the states are kept.
// Beyond ±90° the section sees the flow from its trailing edge: the
// Beddoes-Leishman chain (Wagner response about alpha0, separation point
// from the leading edge, vortex shed from it) has no meaning there, and a
// jump across ±180° would enter the filters as a step of 2π. The model is
// reset (UACutout, at most 90° in practice, has already blended the output
// to the static polar before this angle).
const maxAttachedAlpha = math.Pi / 2

// DefaultSpeedOfSound is AeroDyn's default SpdSound (m/s).
const DefaultSpeedOfSound = 340.3

// Params are the settings shared by all nodes.
type Params struct {
	DT           float64 // glue time step (s)
	SpeedOfSound float64 // m/s; 0 = DefaultSpeedOfSound; +Inf = incompressible (M = 0)
	FLookup      bool    // separation point from the static polar (true) or from the S1..S4 fit
}

// Input is what one node needs at one instant.
type Input struct {
	Alpha float64 // angle of attack (rad), as the BEMT gives it (AoA34 sampling point)
	U     float64 // relative speed including induction (m/s)
}

// Output are the coefficients of one node.
type Output struct {
	Cn, Cc, Cl, Cd, Cm float64
	// Weight is the share of the unsteady model in the output (1 = fully
	// unsteady, 0 = static polar): UACutout and low-speed blending, the
	// first step, and nodes where UA is off for good give less than 1.
	Weight float64
}

// ErrMach is returned when the relative speed reaches the speed of sound.
var ErrMach = errors.New("Mach number >= 1")

// state are the discrete states of one node after an update (the "n-1"
// values of the next evaluation), and the other states sigma1, sigma3, tauV.
type state struct {
	alphaFilt, q, qFilt  float64
	kAlphaF, kqF         float64
	x1, x2               float64
	kPrimeAlpha, kPrimeQ float64
	k3PrimeQ, k2PrimeQ   float64
	dp, cnPot, cnPrime   float64
	fPrime, df, fpp      float64
	fPrimeC, dfC         float64
	alphaF, dAlphaF      float64
	cnV, cV              float64
	sigma1, sigma3, tauV float64
	tesf, lesf, vrtx     bool
	firstPass            bool
	updates              int
}

// Node is the Beddoes-Leishman model (UA_Mod 3) of one blade node.
type Node struct {
	p     Params
	c     Constants
	polar StaticPolar
	chord float64
	hasCm bool
	off   bool // UA off for good (C_nalpha = 0 or outside UAStartRad..UAEndRad)
	s     state

	// The last Kelvin chain CalcOutput evaluated, reused by UpdateStates
	// when the glue advances the states with the same input (AeroDyn's
	// order: outputs at t, then the update from t): the chain depends only
	// on the input and the states, so the result is identical.
	cache      chain
	cacheIn    Input
	cacheValid bool
}

// NewNode initialises one node (Init). chord in m; hasCm false when the
// airfoil table has no Cm column (Cm is then 0, as in AeroDyn); active
// false when the node lies outside UAStartRad..UAEndRad. A zero C_nalpha
// (cylinders) also switches UA off for good at this node.
func NewNode(p Params, c Constants, polar StaticPolar, chord float64, hasCm, active bool) (*Node, error) {
	if !(p.DT > 0) || math.IsInf(p.DT, 0) {
		return nil, fmt.Errorf("unsteady: time step must be > 0, got %g", p.DT)
	}
	if p.SpeedOfSound == 0 {
		p.SpeedOfSound = DefaultSpeedOfSound
	}
	if !(p.SpeedOfSound > 0) {
		return nil, fmt.Errorf("unsteady: speed of sound must be > 0, got %g", p.SpeedOfSound)
	}
	if !(chord > 0) || math.IsInf(chord, 0) {
		return nil, fmt.Errorf("unsteady: chord must be > 0, got %g", chord)
	}
	if polar == nil {
		return nil, fmt.Errorf("unsteady: no static polar")
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if !p.FLookup && (c.S1 == 0 || c.S2 == 0 || c.S3 == 0 || c.S4 == 0) && c.CNAlpha != 0 && active {
		return nil, fmt.Errorf("unsteady: FLookup false needs non-zero S1..S4")
	}
	if p.FLookup {
		c.EtaE = 1 // AeroDyn overrides eta_e when the separation point is looked up
	}
	n := &Node{p: p, c: c, polar: polar, chord: chord, hasCm: hasCm, off: !active || c.CNAlpha == 0}
	n.Reset()
	return n, nil
}

// Reset puts the node back to its initial (first-pass) state.
func (n *Node) Reset() {
	n.s = state{sigma1: 1, sigma3: 1, firstPass: true}
	n.cacheValid = false
}

// restart puts the states back to the first pass but keeps the update
// count, so the next update evaluates the chain from the input it gets.
func (n *Node) restart() {
	if n.s.firstPass {
		return
	}
	updates := n.s.updates
	n.Reset()
	n.s.updates = updates
}

// Off reports whether UA is switched off for good at this node.
func (n *Node) Off() bool { return n.off }

// fixInput wraps alpha and keeps U away from zero.
func fixInput(u Input) (Input, error) {
	if math.IsNaN(u.Alpha) || math.IsInf(u.Alpha, 0) || math.IsNaN(u.U) || math.IsInf(u.U, 0) {
		return u, fmt.Errorf("unsteady: input not finite (alpha=%g, U=%g)", u.Alpha, u.U)
	}
	u.Alpha = wrapPi(u.Alpha)
	u.U = math.Abs(u.U)
	if u.U < UMin {
		u.U = UMin
	}
	return u, nil
}

// chain holds the quantities of one evaluation of the Kelvin chain.
type chain struct {
	m, beta2, beta       float64
	cnAlphaCirc          float64
	ds                   float64
	alphaFilt, dAlpha0   float64
	q, qFilt             float64
	kAlphaF, kqF         float64
	kAlpha               float64
	x1, x2               float64
	alphaE               float64 // effective angle relative to alpha0
	cnCirc               float64
	kPrimeAlpha, kPrimeQ float64
	cnAlphaNC, cnQNC     float64
	cnNC                 float64
	k3PrimeQ, k2PrimeQ   float64
	cmQCirc, cmQNC       float64
	cnPot, ccPot         float64
	dp, cnPrime          float64
	alphaF               float64
	fPrime, df, fpp      float64
	fPrimeC, dfC, fppC   float64
	cnFS                 float64
	dAlphaF              float64
	cV, cnV, tF, tV      float64
}

// kelvinChain evaluates the discrete Beddoes-Leishman model (incompressible
// limit handled analytically) for input u with the states of the previous
// update (Damiani & Hayman 2019, §1.2-1.6, UA_Mod 3 variant).
func (n *Node) kelvinChain(u Input) (chain, error) {
	var k chain
	c, s, dt, ch := &n.c, &n.s, n.p.DT, n.chord
	k.m = u.U / n.p.SpeedOfSound
	if k.m >= 1 {
		return k, fmt.Errorf("unsteady: U=%g m/s: %w", u.U, ErrMach)
	}
	k.beta2 = 1 - k.m*k.m
	k.beta = math.Sqrt(k.beta2)
	k.cnAlphaCirc = c.CNAlpha / k.beta // eq. 1.13 (Prandtl-Glauert)
	k.ds = 2 * u.U * dt / ch           // eq. 1.5b: semi-chords travelled per step

	alphaFiltPrev := s.alphaFilt
	if s.firstPass {
		alphaFiltPrev = u.Alpha
	}
	// First-order low-pass on alpha, q and dq/dt with a cut-off at the
	// reduced frequency filtCutOff (eq. 1.7-1.8): f_c = max(1,U) k_c/(π c).
	cutHz := math.Max(1, u.U) * c.FiltCutOff / (math.Pi * ch)
	lp := math.Exp(-2 * math.Pi * dt * cutHz)
	k.alphaFilt = lp*alphaFiltPrev + (1-lp)*u.Alpha
	k.dAlpha0 = k.alphaFilt - c.Alpha0
	kAlpha := (k.alphaFilt - alphaFiltPrev) / dt
	k.q = kAlpha * ch / u.U
	qPrev, qFiltPrev, kAlphaFPrev, kqFPrev := s.q, s.qFilt, s.kAlphaF, s.kqF
	if s.firstPass {
		qPrev, qFiltPrev, kAlphaFPrev, kqFPrev = k.q, k.q, 0, 0
	}
	k.qFilt = lp*qFiltPrev + (1-lp)*k.q
	k.kAlphaF = k.qFilt * u.U / ch
	kq := (k.q - qPrev) / dt
	k.kqF = lp*kqFPrev + (1-lp)*kq

	// Non-circulatory (impulsive) terms, eq. 1.10-1.11 and 1.17-1.19. With
	// T_I = c/a, T_I/M = c/U, so the M -> 0 limit stays finite.
	ab := c.A1*c.B1 + c.A2*c.B2
	k.kAlpha = 1 / ((1 - k.m) + 0.5*c.CNAlpha*k.m*k.m*k.beta*ab)
	kQ := 1 / ((1 - k.m) + c.CNAlpha*k.m*k.m*k.beta*ab)
	tI := ch / n.p.SpeedOfSound
	cOverU := ch / u.U
	tAlpha := 0.75 * k.kAlpha * tI
	tQ := 0.75 * kQ * tI
	k.kPrimeAlpha = lagUpdate(dt, tAlpha, s.kPrimeAlpha, k.kAlphaF, kAlphaFPrev)
	k.cnAlphaNC = 4 * 0.75 * k.kAlpha * cOverU * (k.kAlphaF - k.kPrimeAlpha)
	k.kPrimeQ = lagUpdate(dt, tQ, s.kPrimeQ, k.kqF, kqFPrev)
	k.cnQNC = -0.75 * kQ * cOverU * (k.kqF - k.kPrimeQ)
	k.cnNC = k.cnAlphaNC + k.cnQNC

	// Circulatory attached flow: Wagner deficiency functions on the
	// filtered alpha (eq. 1.13-1.15).
	dAlpha := k.alphaFilt - alphaFiltPrev
	k.x1 = lagUpdate(k.ds*k.beta2*c.B1, 1, s.x1, c.A1*dAlpha, 0)
	k.x2 = lagUpdate(k.ds*k.beta2*c.B2, 1, s.x2, c.A2*dAlpha, 0)
	k.alphaE = k.dAlpha0 - k.x1 - k.x2
	k.cnCirc = k.cnAlphaCirc * k.alphaE

	// Pitch-rate moments (eq. 1.25-1.31, UA_Mod 3 form of Cm_q^nc).
	k.k3PrimeQ = lagUpdate(c.B5*k.beta2*k.ds, 1, s.k3PrimeQ, c.A5*(k.qFilt-qFiltPrev), 0)
	k.cmQCirc = -c.CNAlpha * (k.qFilt - k.k3PrimeQ) * ch / (16 * k.beta * u.U)
	kmq := 7 / (15*(1-k.m) + 1.5*c.CNAlpha*c.A5*c.B5*k.beta*k.m*k.m)
	k.k2PrimeQ = lagUpdate(dt, kmq*kmq*tI, s.k2PrimeQ, k.kqF, kqFPrev)
	k.cmQNC = -k.cnQNC/4 - k.kAlpha*k.kAlpha*cOverU*(k.kqF-k.k2PrimeQ)/3

	k.cnPot = k.cnCirc + k.cnNC // eq. 1.20
	// Cc_pot = Cn_circ tan(alpha_e + alpha0) (eq. 1.21); the tangent is
	// bounded so that angles near ±90° (where UA is blended out anyway)
	// cannot overflow.
	ae := k.alphaE + c.Alpha0
	const tanMax = 1e3
	k.ccPot = k.cnCirc * math.Max(-tanMax, math.Min(tanMax, math.Tan(ae)))

	// Leading-edge pressure lag (eq. 1.35).
	cnPotPrev := s.cnPot
	if s.firstPass {
		cnPotPrev = k.cnPot
	}
	k.dp = lagUpdate(k.ds, c.Tp, s.dp, k.cnPot, cnPotPrev)
	k.cnPrime = k.cnPot - k.dp

	// Trailing-edge separation (eq. 1.34-1.39): effective angle from the
	// lagged normal force, separation point at it, then its boundary-layer lag.
	k.alphaF = k.cnPrime/k.cnAlphaCirc + c.Alpha0
	// The polar at alpha_f serves both separation points (the chordwise
	// one looks it up at the same angle unless alpha_f wraps differently).
	var atF polarPoint
	if n.p.FLookup {
		atF = staticAt(n.polar, separationAngle(k.alphaF, c.Alpha0))
		k.fPrime, _ = separationAt(atF, c.Alpha0, c.Cd0, k.cnAlphaCirc)
	} else {
		k.fPrime = separationFit(k.alphaF, c)
	}
	k.tF = c.Tf0 / s.sigma1
	if !s.firstPass {
		k.df = lagUpdate(k.ds, k.tF, s.df, k.fPrime, s.fPrime)
	}
	k.fpp = k.fPrime - k.df
	if n.p.FLookup {
		k.fPrimeC = chordSeparation(n.polar, k.alphaF, c.Alpha0, c.Cd0, k.cnAlphaCirc, c.EtaE, &atF)
		if !s.firstPass {
			k.dfC = lagUpdate(k.ds, c.Tf0, s.dfC, k.fPrimeC, s.fPrimeC)
		}
		k.fppC = k.fPrimeC - k.dfC
	} else {
		k.fPrimeC, k.dfC, k.fppC = k.fPrime, k.df, k.fpp
	}
	// f'' enters Cn_FS linearly as computed (eq. 1.38 in the Kirchhoff
	// blending form of the Minnema/Pierce variant); where a square root is
	// taken it is limited to [0, 1] so a small overshoot of the lag cannot
	// produce NaN.
	_, cnFSStatic := separation(n.polar, k.alphaE+c.Alpha0, c.Alpha0, c.Cd0, k.cnAlphaCirc)
	k.cnFS = k.cnNC + k.cnAlphaCirc*k.alphaE*k.fpp + cnFSStatic*(1-k.fpp)
	fpp := clamp01(k.fpp)

	// Lag of the separation angle used for Cm (Minnema/Pierce, eq. 1.43).
	if !s.firstPass {
		k.dAlphaF = lagUpdate(k.ds, 0.1*k.tF, s.dAlphaF, k.alphaF, s.alphaF)
	}

	// Vortex lift (eq. 1.47-1.52).
	sq := 0.5 + 0.5*math.Sqrt(fpp)
	k.cV = k.cnCirc * (1 - sq*sq)
	k.tV = c.TV0 / s.sigma3
	if !s.firstPass {
		if s.tauV > c.TVL && k.kAlphaF*k.dAlpha0 > 0 {
			k.cnV = s.cnV * math.Exp(-k.ds/k.tV)
		} else {
			k.cnV = lagUpdate(k.ds, k.tV, s.cnV, k.cV, s.cV)
		}
		if k.cnV < 0 {
			k.cnV = 0
		}
	}
	return k, nil
}

func clamp01(x float64) float64 {
	if x < 0 || math.IsNaN(x) {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// UpdateStates advances the node's discrete states from t to t+DT, using
// the inputs at t (uNow); uNext (inputs at t+DT) is accepted for the common
// module contract and not needed by this discrete model. As in AeroDyn, the
// very first call only starts the clock: states are first evaluated on the
// second call, and until then CalcOutput returns the static polar.
func (n *Node) UpdateStates(t float64, uNow, uNext Input) error {
	_ = uNext
	if n.off {
		return nil
	}
	n.s.updates++
	if n.s.updates == 1 {
		return nil
	}
	u, err := fixInput(uNow)
	if err != nil {
		return fmt.Errorf("t=%g: %w", t, err)
	}
	if math.Abs(u.Alpha) > maxAttachedAlpha {
		// Reversed flow: UA off at this step, states back to the first
		// pass (see maxAttachedAlpha); the clock keeps running. Low speed
		// does not restart (see UOff).
		n.restart()
		return nil
	}
	var k chain
	if n.cacheValid && n.cacheIn == u {
		k = n.cache
	} else if k, err = n.kelvinChain(u); err != nil {
		return fmt.Errorf("t=%g: %w", t, err)
	}
	n.cacheValid = false
	c, s := &n.c, &n.s

	tSh := 2 * (1 - k.fpp) / c.StSh // eq. 1.54: shedding period in semi-chords
	lesf := k.cnPrime > c.Cn1 || k.cnPrime < c.Cn2
	tesf := k.fpp < s.fpp
	vrtx := s.tauV > 0 && s.tauV <= c.TVL
	away := k.kAlphaF * k.dAlpha0 // > 0 moving away from alpha0

	// Time-constant modifiers for the next step (Minnema/Pierce logic).
	sigma1 := 1.0
	if tesf {
		switch {
		case away < 0:
			sigma1 = 2
		case !lesf:
			sigma1 = 1
		case s.fpp <= 0.7:
			sigma1 = 2
		default:
			sigma1 = 1.75
		}
	} else {
		if !lesf {
			sigma1 = 0.5
		}
		if vrtx {
			sigma1 = 0.25
		}
		if away > 0 {
			sigma1 = 0.75
		}
	}
	sigma3 := 1.0
	switch {
	case s.tauV >= c.TVL && s.tauV <= 2*c.TVL: // vortex past the trailing edge
		sigma3 = 3
		if !tesf {
			sigma3 = 4
		}
	case vrtx: // vortex over the chord
		if away < 0 {
			sigma3 = 2
		}
	case away < 0:
		sigma3 = 4
	}
	if !tesf && k.kqF*k.dAlpha0 < 0 {
		sigma3 = 1
	}

	tauV := s.tauV
	if tauV > 0 || lesf {
		tauV += k.ds // eq. 1.51: vortex position in semi-chords
	}
	if tauV >= c.TVL+tSh && tesf {
		tauV = 0 // shed it; a new vortex may start at the leading edge
	}

	*s = state{
		alphaFilt: k.alphaFilt, q: k.q, qFilt: k.qFilt,
		kAlphaF: k.kAlphaF, kqF: k.kqF,
		x1: k.x1, x2: k.x2,
		kPrimeAlpha: k.kPrimeAlpha, kPrimeQ: k.kPrimeQ,
		k3PrimeQ: k.k3PrimeQ, k2PrimeQ: k.k2PrimeQ,
		dp: k.dp, cnPot: k.cnPot, cnPrime: k.cnPrime,
		fPrime: k.fPrime, df: k.df, fpp: k.fpp,
		fPrimeC: k.fPrimeC, dfC: k.dfC,
		alphaF: k.alphaF, dAlphaF: k.dAlphaF,
		cnV: k.cnV, cV: k.cV,
		sigma1: sigma1, sigma3: sigma3, tauV: tauV,
		tesf: tesf, lesf: lesf, vrtx: vrtx,
		updates: s.updates,
	}
	for _, v := range []float64{k.cnPot, k.cnPrime, k.fpp, k.cnV, k.x1, k.x2, k.dp, tauV} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			n.Reset()
			return fmt.Errorf("unsteady: t=%g: non-finite state (alpha=%g, U=%g); node reset", t, u.Alpha, u.U)
		}
	}
	return nil
}

// static returns the static coefficients with Cn, Cc formed without Cd0
// (as AeroDyn does when UA is off).
func (n *Node) static(u Input) Output {
	cl, cd, cm := n.polar.Static(u.Alpha)
	if !n.hasCm {
		cm = 0
	}
	sa, ca := math.Sincos(u.Alpha)
	pt := polarPoint{a: u.Alpha, cl: cl, cd: cd, sa: sa, ca: ca}
	return Output{Cl: cl, Cd: cd, Cm: cm, Cn: pt.cn(n.c.Cd0), Cc: pt.cc(n.c.Cd0)}
}

// CalcOutput returns the unsteady coefficients for the input at the time of
// the current states (Damiani & Hayman eq. 1.53-1.60, UA_Mod 3), blended
// towards the static polar near UACutout and below 1 m/s.
func (n *Node) CalcOutput(uIn Input) (Output, error) {
	u, err := fixInput(uIn)
	if err != nil {
		return Output{}, err
	}
	if n.off || n.s.firstPass {
		return n.static(u), nil
	}
	c, s := &n.c, &n.s
	// Weight of the unsteady model (UA_BlendSteady): off above UACutout,
	// cosine blend over UACutout_delta below it, and off at zero speed.
	w := (1 - blendCosine(math.Abs(u.Alpha), c.UACutout-c.UACutoutDelta, c.UACutout)) * blendCosine(u.U, UMin, UOff)
	if math.Abs(u.Alpha) > maxAttachedAlpha {
		w = 0
	}
	if w == 0 {
		return n.static(u), nil
	}
	k, err := n.kelvinChain(u)
	if err != nil {
		return Output{}, err
	}
	n.cache, n.cacheIn, n.cacheValid = k, u, true
	var y Output
	y.Cn = k.cnFS
	if s.tauV > 0 {
		y.Cn += k.cnV
	}
	ccFS := c.EtaE * k.ccPot * math.Sqrt(math.Max(0, k.fppC))
	if n.p.FLookup {
		ccFS = c.EtaE * k.ccPot * (math.Sqrt(math.Max(0, k.fppC)) - fcOffset)
	}
	y.Cc = ccFS + k.cnV*k.alphaE*(1-s.tauV/c.TVL) // eq. 1.55 with tan(alpha_e) ≈ alpha_e
	sa, ca := math.Sincos(u.Alpha)
	y.Cl = y.Cn*ca + y.Cc*sa
	y.Cd = y.Cn*sa - y.Cc*ca + c.Cd0
	y.Cn = y.Cl*ca + y.Cd*sa
	y.Cc = y.Cl*sa - y.Cd*ca
	if n.hasCm {
		cmAlphaNC := -k.cnAlphaNC / 4 // eq. 1.27
		common := k.cmQCirc + cmAlphaNC + k.cmQNC
		_, _, cmF := n.polar.Static(k.alphaF - k.dAlphaF) // eq. 1.43-1.44
		cmV := -c.XcpBar * (1 - math.Cos(math.Pi*s.tauV/c.TVL)) * k.cnV
		y.Cm = cmF + common + cmV
	}
	y.Weight = w
	if w < 1 {
		st := n.static(u)
		y.Cn = w*y.Cn + (1-w)*st.Cn
		y.Cc = w*y.Cc + (1-w)*st.Cc
		y.Cl = w*y.Cl + (1-w)*st.Cl
		y.Cd = w*y.Cd + (1-w)*st.Cd
		y.Cm = w*y.Cm + (1-w)*st.Cm
	}
	for _, v := range []float64{y.Cn, y.Cc, y.Cl, y.Cd, y.Cm} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return n.static(u), fmt.Errorf("unsteady: non-finite coefficient at alpha=%g, U=%g; static polar returned", u.Alpha, u.U)
		}
	}
	return y, nil
}

// State is a copy of one node's states. It is a plain value: keeping one
// per time level lets a caller that re-evaluates a step (predictor-corrector
// glue, or a rotor that advances states inside its CalcOutput like
// aero.Rotor's DBEMT) restart from the committed level.
type State struct{ s state }

// State returns a copy of the node's current states.
func (n *Node) State() State { return State{n.s} }

// SetState restores states taken with State from a node with the same
// constants.
func (n *Node) SetState(st State) { n.s = st.s; n.cacheValid = false }
