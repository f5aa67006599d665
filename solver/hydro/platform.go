package hydro

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/turbinesim/turbinesim/solver/waves"
)

// Motion is the rigid-body motion of the platform reference point (the
// WAMIT reference point, at the origin at rest): displacement (surge, sway,
// heave in m; roll, pitch, yaw in rad), its velocity and acceleration, in
// the global frame.
type Motion struct {
	Q, QD, QDD [6]float64
}

// PlatformLoads are the potential-flow, hydrostatic and additional loads on
// the reference point (N, N·m, global frame), split as HydroDyn reports
// them.
type PlatformLoads struct {
	Total      [6]float64 // everything except −A∞·q̈
	Excitation [6]float64 // first-order wave excitation (B1WvsF1xi …)
	Hydrostat  [6]float64 // buoyancy and hydrostatic restoring (B1HdSFxi …)
	Radiation  [6]float64 // radiation memory (B1RdtFxi …)
	Additional [6]float64 // AddF0 − AddCLin q − AddBLin q̇ − AddBQuad|q̇|q̇
}

// PlatformConfig holds the potential-flow body of a HydroDyn deck (PotMod 1,
// one body), dimensional.
type PlatformConfig struct {
	Rho, G   float64
	Vol0     float64    // displaced volume at rest (PtfmVol0), m³
	COB      [2]float64 // centre of buoyancy offset (PtfmCOBxt, PtfmCOByt), m
	Hst      [6][6]float64
	Rad      *Radiation  // nil: no radiation (added mass and memory)
	Exc      *Excitation // nil: no wave excitation
	RdtnMod  int         // 0 none, 1 convolution
	RdtnDT   float64
	RdtnTMax float64

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
	cfg  PlatformConfig
	exc  [6]*waves.Series
	kern *Kernel
	mem  *Memory
}

// NewPlatform precomputes the wave-excitation time series at the reference
// point for the sea (ExctnDisp 0: the undisplaced position; excitation
// = Re Σ c_n conj(X(ω_n, β_n)) e^{−iω_n t}, conj because WAMIT's time factor
// is e^{+iωt}) and the radiation kernel.
func NewPlatform(cfg PlatformConfig, sea *waves.Sea) (*Platform, error) {
	p := &Platform{cfg: cfg}
	if cfg.Exc != nil && sea != nil {
		for d := 0; d < 6; d++ {
			p.exc[d] = sea.Synthesize(func(c waves.Component) complex128 {
				x := cfg.Exc.At(c.Omega, c.Dir*180/math.Pi)
				return c.C * cmplx.Conj(x[d])
			})
		}
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
		return nil, fmt.Errorf("hydro: RdtnMod 2 (state-space radiation from a .ss file) is not supported; use 1 (convolution)")
	default:
		return nil, fmt.Errorf("hydro: RdtnMod %d is not one of 0, 1", cfg.RdtnMod)
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
// It does not change the state.
func (p *Platform) Loads(t float64, m Motion) PlatformLoads {
	var l PlatformLoads
	for d := 0; d < 6; d++ {
		l.Excitation[d] = p.exc[d].At(t)
	}
	l.Hydrostat = p.hydrostatic(m.Q)
	if p.mem != nil {
		l.Radiation = p.mem.Force(t, m.QD)
	}
	c := &p.cfg
	for i := 0; i < 6; i++ {
		f := c.AddF0[i]
		for j := 0; j < 6; j++ {
			f -= c.AddCLin[i][j]*m.Q[j] + c.AddBLin[i][j]*m.QD[j] + c.AddBQuad[i][j]*math.Abs(m.QD[j])*m.QD[j]
		}
		l.Additional[i] = f
	}
	for i := 0; i < 6; i++ {
		l.Total[i] = l.Excitation[i] + l.Hydrostat[i] + l.Radiation[i] + l.Additional[i]
	}
	return l
}

// Advance records the final motion of the step at time t in the radiation
// memory.
func (p *Platform) Advance(t float64, m Motion) {
	if p.mem != nil {
		p.mem.Advance(t, m.QD)
	}
}

// hydrostatic returns the buoyancy ρ g V0 (upward, acting at the centre of
// buoyancy offset rotated with the platform, so its moment is exact in
// rotation) minus the linear restoring C_hst q of the .hst matrix, which
// holds the waterplane and the vertical-CoB terms.
func (p *Platform) hydrostatic(q [6]float64) [6]float64 {
	c := &p.cfg
	fb := c.Rho * c.G * c.Vol0
	r := rotate(q[3], q[4], q[5], [3]float64{c.COB[0], c.COB[1], 0})
	f := [6]float64{0, 0, fb, r[1] * fb, -r[0] * fb, 0}
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			f[i] -= c.Hst[i][j] * q[j]
		}
	}
	return f
}

// rotate applies the rotation of roll φ, pitch θ, yaw ψ (about the global x,
// y, z axes in that order, R = Rz Ry Rx) to v.
func rotate(phi, theta, psi float64, v [3]float64) [3]float64 {
	cx, sx := math.Cos(phi), math.Sin(phi)
	cy, sy := math.Cos(theta), math.Sin(theta)
	cz, sz := math.Cos(psi), math.Sin(psi)
	// Rx
	v = [3]float64{v[0], cx*v[1] - sx*v[2], sx*v[1] + cx*v[2]}
	// Ry
	v = [3]float64{cy*v[0] + sy*v[2], v[1], -sy*v[0] + cy*v[2]}
	// Rz
	return [3]float64{cz*v[0] - sz*v[1], sz*v[0] + cz*v[1], v[2]}
}
