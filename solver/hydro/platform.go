package hydro

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/turbinesim/turbinesim/solver/waves"
)

// Motion is the rigid-body motion of the platform reference point (the
// WAMIT reference point, at the origin at rest): displacement (surge, sway,
// heave in m; roll, pitch, yaw in rad: the intrinsic Z-Y-X Euler angles of
// the body, as HydroDyn extracts them from its mesh orientation), its
// velocity and acceleration (translational and angular velocity vectors),
// in the global frame.
type Motion struct {
	Q, QD, QDD [6]float64
	// Orient is the body's direction-cosine matrix, global to body (rows:
	// body axes in global coordinates); the zero matrix stands for the
	// unrotated body.
	Orient [3][3]float64
}

// orient returns m.Orient, or the identity for the zero matrix.
func (m *Motion) orient() [3][3]float64 {
	if m.Orient == ([3][3]float64{}) {
		return [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	}
	return m.Orient
}

// PlatformLoads are the potential-flow, hydrostatic and additional loads on
// the reference point (N, N·m, global frame), split as HydroDyn reports
// them.
type PlatformLoads struct {
	Total       [6]float64 // everything except −A∞·q̈
	Excitation  [6]float64 // first-order wave excitation (B1WvsF1xi …)
	SecondOrder [6]float64 // difference-frequency (mean- and slow-drift) load (B1WvsF2xi …)
	Hydrostat   [6]float64 // buoyancy and hydrostatic restoring (B1HdSFxi …)
	Radiation   [6]float64 // radiation memory (B1RdtFxi …)
	Additional  [6]float64 // AddF0 − AddCLin q − AddBLin q̇ − AddBQuad|q̇|q̇
}

// PlatformConfig holds the potential-flow body of a HydroDyn deck (PotMod 1,
// one body), dimensional.
type PlatformConfig struct {
	Rho, G float64
	Vol0   float64    // displaced volume at rest (PtfmVol0), m³
	COB    [2]float64 // centre of buoyancy offset (PtfmCOBxt, PtfmCOByt), m
	Hst    [6][6]float64
	Rad    *Radiation  // nil: no radiation (added mass and memory)
	Exc    *Excitation // nil: no wave excitation
	// DiffQTF is the full difference-frequency QTF (DiffQTF 10, 11, 12);
	// nil: no second-order load.
	DiffQTF *QTF
	// ExctnDisp is where the first-order excitation is taken: 0 at the
	// undisplaced position, 1 at the reference point's displaced
	// horizontal position, 2 at that position low-pass filtered with the
	// corner frequency ExctnCutOff (Hz).
	ExctnDisp   int
	ExctnCutOff float64
	RdtnMod     int // 0 none, 1 convolution, 2 state-space (SSRad)
	RdtnDT      float64
	RdtnTMax    float64
	// SSRad is the radiation fit of the .ss file (RdtnMod 2); SSExc the
	// excitation fit of the .ssexctn file (ExctnMod 2, used instead of Exc)
	// and ExcDT the step its states are integrated on.
	SSRad, SSExc *StateSpace
	ExcDT        float64

	AddF0                      [6]float64
	AddCLin, AddBLin, AddBQuad [6][6]float64
}

// Platform computes HydroDyn's potential-flow body loads in time. Use:
//
//	p, _ := NewPlatform(cfg, sea)
//	mass += p.AInf()           // added mass, in the structure's mass matrix
//	f := p.Loads(t, motion)    // any number of times per step (predictor, corrector)
//	p.Advance(t, motion)       // once the step at t is final
type Platform struct {
	cfg PlatformConfig
	exc [6]*waves.Series
	// excField is the excitation at any horizontal position (ExctnDisp 1
	// and 2; exc is then unused), pos the filter of that position
	excField *waves.Field
	pos      lowPass
	diff     [6]*waves.Series
	kern     *Kernel
	mem      radiationMemory
	ssExc    *SSExcitation
}

// fitHeading refuses a sea with waves from another heading than the
// excitation fit's: a .ssexctn file holds one heading, so a spread sea or
// another WaveDir has no excitation in it.
func fitHeading(ss *StateSpace, sea *waves.Sea) error {
	for _, c := range sea.Components() {
		if d := c.Dir * 180 / math.Pi; math.Abs(d-ss.Heading) > 1e-6 {
			return fmt.Errorf("hydro: ExctnMod 2: the .ssexctn fit is for waves heading %g° only; the sea has waves heading %g° (WaveDir, or spreading with WaveDirMod)", ss.Heading, d)
		}
	}
	return nil
}

// radiationMemory is the radiation memory force's state: the convolution
// (Memory, RdtnMod 1) or the state-space fit (SSRadiation, RdtnMod 2).
type radiationMemory interface {
	// Force returns the memory force at t for the velocity qd at t,
	// without changing the state.
	Force(t float64, qd [6]float64) [6]float64
	// Advance records the final velocity of the step at t.
	Advance(t float64, qd [6]float64)
}

// NewPlatform precomputes the wave-excitation time series at the reference
// point for the sea (ExctnDisp 0: the undisplaced position; excitation
// = Re Σ c_n conj(X(ω_n, β_n)) e^{−iω_n t}, conj because WAMIT's time factor
// is e^{+iωt}) or the state-space excitation (ExctnMod 2, SSExc: waves
// from the fit's heading only), and the radiation kernel (RdtnMod 1) or
// state-space radiation (RdtnMod 2).
func NewPlatform(cfg PlatformConfig, sea *waves.Sea) (*Platform, error) {
	p := &Platform{cfg: cfg}
	switch {
	case cfg.Exc == nil || sea == nil:
	case cfg.ExctnDisp == 1 || cfg.ExctnDisp == 2:
		// HydroDyn user documentation, ExctnDisp: the excitation of the
		// WAMIT body at its reference point's displaced horizontal
		// position (instantaneous, or low-pass filtered). The body's
		// heading to the waves stays PtfmRefY (PtfmYMod 0, both zero
		// here), so the displacement Δ only delays each component by its
		// travel: c_n → c_n e^{i k_n·Δ}.
		if cfg.ExctnDisp == 2 && !(cfg.ExctnCutOff > 0) {
			return nil, fmt.Errorf("hydro: ExctnCutOff %g Hz: must be > 0 with ExctnDisp 2", cfg.ExctnCutOff)
		}
		p.excField = sea.Field(6, func(c waves.Component, dst []complex128) {
			x := cfg.Exc.At(c.Omega, c.Dir*180/math.Pi)
			for d := range dst {
				dst[d] = c.C * cmplx.Conj(x[d])
			}
		})
		p.pos = lowPass{omega: 2 * math.Pi * cfg.ExctnCutOff, on: cfg.ExctnDisp == 2}
	case cfg.ExctnDisp != 0:
		return nil, fmt.Errorf("hydro: ExctnDisp %d is not one of 0, 1, 2", cfg.ExctnDisp)
	default:
		for d := 0; d < 6; d++ {
			p.exc[d] = sea.Synthesize(func(c waves.Component) complex128 {
				x := cfg.Exc.At(c.Omega, c.Dir*180/math.Pi)
				return c.C * cmplx.Conj(x[d])
			})
		}
	}
	if q := cfg.DiffQTF; q != nil && sea != nil {
		sc := sea.Config()
		for _, c := range sea.Components() {
			if math.Abs(c.Dir*180/math.Pi-q.Heading) > 1e-6 {
				return nil, fmt.Errorf("hydro: the difference-frequency QTF is read for the heading %g° only; a wave component travels at %g°", q.Heading, c.Dir*180/math.Pi)
			}
		}
		// Excitation at the undisplaced reference point, like the first
		// order (ExctnDisp 0); the pair weight is conj(Q) in this
		// package's e^{−iωt} convention.
		for d := 0; d < 6; d++ {
			p.diff[d] = sea.DifferenceSeries(func(a, b waves.Component) complex128 {
				return cmplx.Conj(q.At(d, a.Omega, b.Omega))
			}, sc.WvLowCOffD, sc.WvHiCOffD)
		}
	}
	if cfg.SSExc != nil && sea != nil && len(sea.Components()) > 0 {
		if err := fitHeading(cfg.SSExc, sea); err != nil {
			return nil, err
		}
		if cfg.ExcDT <= 0 {
			return nil, fmt.Errorf("hydro: ExctnMod 2 needs a time step > 0")
		}
		eta := sea.Synthesize(func(c waves.Component) complex128 { return c.C })
		p.ssExc = NewSSExcitation(cfg.SSExc, eta.At, cfg.ExcDT)
	}
	switch cfg.RdtnMod {
	case 0:
	case 1:
		if cfg.Rad == nil {
			return nil, fmt.Errorf("hydro: RdtnMod 1 needs the WAMIT .1 data")
		}
		if cfg.RdtnDT <= 0 || cfg.RdtnTMax <= 0 {
			return nil, fmt.Errorf("hydro: RdtnDT (%g s) and RdtnTMax (%g s) must be > 0 for the convolution", cfg.RdtnDT, cfg.RdtnTMax)
		}
		if cfg.RdtnTMax/cfg.RdtnDT > 1e6 {
			return nil, fmt.Errorf("hydro: RdtnTMax/RdtnDT = %g kernel steps is too many", cfg.RdtnTMax/cfg.RdtnDT)
		}
		p.kern = NewKernel(cfg.Rad, cfg.RdtnDT, cfg.RdtnTMax)
		p.mem = NewMemory(p.kern)
	case 2:
		if cfg.SSRad == nil {
			return nil, fmt.Errorf("hydro: RdtnMod 2 needs the state-space fit of the .ss file")
		}
		p.mem = NewSSRadiation(cfg.SSRad)
	default:
		return nil, fmt.Errorf("hydro: RdtnMod %d is not one of 0, 1, 2", cfg.RdtnMod)
	}
	if cfg.Rad != nil && !cfg.Rad.HasInf {
		return nil, fmt.Errorf("hydro: the WAMIT .1 data has no infinite-frequency rows (period 0)")
	}
	return p, nil
}

// AInf returns the infinite-frequency added mass (zero without radiation):
// the coupling adds it to the structure's mass matrix so that the added-mass
// load −A∞ q̈ is treated implicitly; Loads leaves it out.
func (p *Platform) AInf() [6][6]float64 {
	if p.cfg.Rad == nil {
		return [6][6]float64{}
	}
	return p.cfg.Rad.AInf
}

// Kernel returns the radiation kernel (nil without convolution).
func (p *Platform) Kernel() *Kernel { return p.kern }

// Loads returns the loads at time t for the motion m, excluding −A∞ q̈.
// It does not change the state (the state-space excitation extends its
// precomputed series as far as t, which depends on t only).
func (p *Platform) Loads(t float64, m Motion) PlatformLoads {
	var l PlatformLoads
	for d := 0; d < 6; d++ {
		l.Excitation[d] = p.exc[d].At(t)
		l.SecondOrder[d] = p.diff[d].At(t)
	}
	if p.ssExc != nil {
		l.Excitation = p.ssExc.At(t)
	}
	if p.excField != nil {
		at := p.pos.at(t, [2]float64{m.Q[0], m.Q[1]})
		p.excField.At(at[0], at[1], t, l.Excitation[:])
	}
	l.Hydrostat = p.hydrostatic(m.Q)
	if p.mem != nil {
		l.Radiation = p.mem.Force(t, m.QD)
	}
	l.Additional = p.additional(&m)
	for i := 0; i < 6; i++ {
		l.Total[i] = l.Excitation[i] + l.SecondOrder[i] + l.Hydrostat[i] + l.Radiation[i] + l.Additional[i]
	}
	return l
}

// Advance records the final motion of the step at time t in the radiation
// memory.
func (p *Platform) Advance(t float64, m Motion) {
	if p.mem != nil {
		p.mem.Advance(t, m.QD)
	}
	if p.excField != nil {
		p.pos.advance(t, [2]float64{m.Q[0], m.Q[1]})
	}
}

// ExcitationPosition returns the horizontal position (x, y) of the
// reference point the excitation is taken at for the motion m at time t:
// the origin with ExctnDisp 0, the displaced position with 1, the filtered
// one with 2.
func (p *Platform) ExcitationPosition(t float64, m Motion) [2]float64 {
	if p.excField == nil {
		return [2]float64{}
	}
	return p.pos.at(t, [2]float64{m.Q[0], m.Q[1]})
}

// lowPass is the first-order low-pass filter dy/dt = ω_c (x − y) of a
// horizontal position (HydroDyn user documentation: ExctnDisp 2 filters the
// platform reference point's position with the corner frequency
// ExctnCutOff, as PtfmYMod 1 filters the yaw with a first-order low-pass
// filter). It is discretised exactly for an input held at its value at the
// end of each interval, y(t) = a y(t_c) + (1 − a) x(t), a = e^{−ω_c (t −
// t_c)}: unit gain at zero frequency and, for ω_c Δt ≪ 1, gain 1/√2 at the
// corner. Off (on false), it passes the position through.
type lowPass struct {
	omega   float64 // corner, rad/s
	on      bool
	started bool
	tc      float64    // time of the committed state
	y       [2]float64 // committed filtered position at tc
}

// at returns the filtered position at t > tc for the input x(t), without
// changing the state; the input itself before the first commit.
func (f *lowPass) at(t float64, x [2]float64) [2]float64 {
	if !f.on || !f.started || t <= f.tc {
		if f.on && f.started {
			return f.y
		}
		return x
	}
	a := math.Exp(-f.omega * (t - f.tc))
	return [2]float64{a*f.y[0] + (1-a)*x[0], a*f.y[1] + (1-a)*x[1]}
}

// advance commits the filtered position at t for the final input x(t); the
// first commit starts the filter at its input.
func (f *lowPass) advance(t float64, x [2]float64) {
	if !f.on {
		return
	}
	if !f.started {
		f.y, f.tc, f.started = x, t, true
		return
	}
	if t <= f.tc {
		return
	}
	f.y, f.tc = f.at(t, x), t
}

// additional returns HydroDyn's additional platform load (HydroDyn user
// documentation, PLATFORM ADDITIONAL STIFFNESS AND DAMPING): AddF0 and
// AddCLin act in the earth-fixed frame on the displacement q, while AddBLin
// and AddBQuad act in the body-fixed frame, on the body-frame velocity
// v_b = R q̇ (R = blockdiag(Orient, Orient)), and the load is turned back:
// F = AddF0 − AddCLin q − Rᵀ AddBLin v_b − Rᵀ AddBQuad |v_b| v_b. With the
// platform pitched 4° at rated thrust, surge velocity feeds the body-frame
// heave damping.
func (p *Platform) additional(m *Motion) [6]float64 {
	c := &p.cfg
	o := m.orient()
	var vb, lin, quad [6]float64
	for b := 0; b < 2; b++ {
		for i := 0; i < 3; i++ {
			for k := 0; k < 3; k++ {
				vb[3*b+i] += o[i][k] * m.QD[3*b+k]
			}
		}
	}
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			lin[i] += c.AddBLin[i][j] * vb[j]
			quad[i] += c.AddBQuad[i][j] * math.Abs(vb[j]) * vb[j]
		}
	}
	var f [6]float64
	for i := 0; i < 6; i++ {
		f[i] = c.AddF0[i]
		for j := 0; j < 6; j++ {
			f[i] -= c.AddCLin[i][j] * m.Q[j]
		}
	}
	for b := 0; b < 2; b++ {
		for k := 0; k < 3; k++ {
			for i := 0; i < 3; i++ {
				f[3*b+k] -= o[i][k] * (lin[3*b+i] + quad[3*b+i])
			}
		}
	}
	return f
}

// hydrostatic returns HydroDyn's linear hydrostatic load (HydroDyn user and
// theory documentation, WAMIT hydrostatics; OpenFAST v4+): in the frame
// yawed with the platform, the buoyancy ρ g V0 acting at the centre of
// buoyancy offset (PtfmCOBxt, PtfmCOByt) minus the heave-roll-pitch block of
// the .hst matrix times (heave, roll, pitch); force and moment are then
// turned about the vertical by the platform yaw. Surge, sway and yaw carry
// no hydrostatic restoring (the .hst rows and columns 1, 2 and 6 are not
// used), and the pitch restoring moment, turned with the yaw, has a roll
// component.
func (p *Platform) hydrostatic(q [6]float64) [6]float64 {
	c := &p.cfg
	fb := c.Rho * c.G * c.Vol0
	h := [6]float64{2: fb, 3: fb * c.COB[1], 4: -fb * c.COB[0]}
	for i := 2; i < 5; i++ {
		for j := 2; j < 5; j++ {
			h[i] -= c.Hst[i][j] * q[j]
		}
	}
	cz, sz := math.Cos(q[5]), math.Sin(q[5])
	return [6]float64{
		cz*h[0] - sz*h[1], sz*h[0] + cz*h[1], h[2],
		cz*h[3] - sz*h[4], sz*h[3] + cz*h[4], h[5],
	}
}
