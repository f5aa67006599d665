package aero

import "math"

// BEMTOptions are the AeroDyn blade-element/momentum switches.
type BEMTOptions struct {
	TipLoss bool // Prandtl tip loss
	HubLoss bool // Prandtl hub loss
	TanInd  bool // include tangential induction
	AIDrag  bool // drag term in the axial-induction equation
	TIDrag  bool // drag term in the tangential-induction equation
	// IndToler is the tolerance on the BEM residual (<=0: 5e-10), as in
	// AeroDyn: the root search stops when the residual is below it or the
	// inflow angle is known to rootXTol.
	IndToler float64
	MaxIter  int // iteration limit of the bracketed root solve; <=0: 500
}

// DefaultBEMTOptions are AeroDyn's defaults: all corrections on.
func DefaultBEMTOptions() BEMTOptions {
	return BEMTOptions{TipLoss: true, HubLoss: true, TanInd: true, AIDrag: true, TIDrag: true, IndToler: 5e-10, MaxIter: 500}
}

// NodeSection is the blade-element data the BEMT solve needs for one node.
type NodeSection struct {
	Chord     float64 // m
	Theta     float64 // twist + pitch (rad); alpha = phi - Theta
	RLocal    float64 // radius perpendicular to the rotor axis, used in the solidity (m)
	TipConst  float64 // B (zTip - z) / (2 z): Prandtl tip-loss constant (0 at the tip)
	HubConst  float64 // B (z - zHub) / (2 zHub): Prandtl hub-loss constant (0 at the root)
	NumBlades int
	Airfoil   *Airfoil
	KinVisc   float64 // for the Reynolds number (m^2/s)
	UserProp  float64
}

// NodeSolution is the converged state of one blade element.
type NodeSolution struct {
	Phi       float64 // inflow angle (rad), from the rotor plane toward the rotor axis
	Alpha     float64 // angle of attack (rad)
	AxInd     float64 // axial induction a
	TanInd    float64 // tangential induction a'
	Coefs     Coefs   // Cl, Cd, Cm at Alpha
	W         float64 // relative speed including induction (m/s)
	Re        float64 // Reynolds number
	F         float64 // combined tip/hub loss factor
	Iter      int     // root-solver iterations
	Converged bool    // false when no bracket was found and the no-induction/best state was used
	Fixed     bool    // induction fixed (zero inflow component, WakeMod 0, or a = 1 at a zero tip/hub-loss node)
	// RootPhi is the inflow angle (rad) the momentum balance was solved
	// for, in the node's frame, when HasRoot: a valid BEM root with Vy > 0.
	// It differs from Phi where the inductions were limited. AeroDyn keeps
	// it as the BEMT constraint state (z%phi) and derives the inductions
	// at the start of the next step from it (InductionsAtPhi).
	RootPhi float64
	HasRoot bool
}

// bemtCase is the problem in the first-quadrant frame (Vx > 0, Vy > 0): the
// sign combinations with Vy < 0 are mirrored into it (see SolveNode); Vx < 0
// with Vy > 0 is solved in the node's own frame, as AeroDyn does (reversedVx).
type bemtCase struct {
	vx, vy   float64
	sec      *NodeSection
	opt      *BEMTOptions
	mirrorCl bool    // airfoil seen mirrored: cl(alpha) -> -Cl(-alpha), cd -> Cd(-alpha)
	theta    float64 // twist in the mirrored frame
	re       float64
	sigma    float64 // local solidity B c / (2 pi r)
	lambdaR  float64 // local speed ratio vy / vx
	// reversedVx: Vx < 0 (vx holds the signed value); the momentum region
	// is then phi < 0 and the tangential-induction constant k' changes sign
	// (AeroDyn v5 BEMTUncoupled inductionFactors0 and
	// getTangentialInduction, BEM_Mod 1).
	reversedVx bool
	// The latest evaluations, newest at recent[next-1]: the search asks
	// again for the root it settled on (is it a valid solution, what are
	// its inductions), which is one of the points it evaluated last.
	recent  [4]bemtEval
	nRecent int
	next    int
}

// bemtEval is one evaluation of the momentum balance at an inflow angle.
type bemtEval struct {
	phi, a, ap, f, F float64
	valid            bool
}

// newBemtCase sets up the problem of one node in its own frame (the
// caller mirrors it as needed); re is the Reynolds number of the airfoil
// lookups.
func newBemtCase(vx, vy float64, sec *NodeSection, opt *BEMTOptions, re float64) bemtCase {
	return bemtCase{vx: vx, vy: vy, sec: sec, opt: opt, theta: sec.Theta, re: re,
		sigma: float64(sec.NumBlades) * sec.Chord / (2 * math.Pi * sec.RLocal), lambdaR: vy / vx}
}

func (c *bemtCase) coefs(alpha float64) Coefs {
	if c.mirrorCl {
		k := c.sec.Airfoil.Coefs(-alpha, c.re, c.sec.UserProp)
		return Coefs{Cl: -k.Cl, Cd: k.Cd, Cm: -k.Cm}
	}
	return c.sec.Airfoil.Coefs(alpha, c.re, c.sec.UserProp)
}

// lossFactor is Prandtl's tip and hub loss, F = (2/pi) acos(exp(-f)) with
// f = B(R-r)/(2 r |sin phi|) (Ning 2014 eq. 7-8), floored at 1e-4 as AeroDyn does.
func (c *bemtCase) lossFactor(sphi float64) float64 {
	s := math.Abs(sphi)
	if s < 1e-12 {
		s = 1e-12
	}
	F := 1.0
	if c.opt.TipLoss {
		F *= prandtl(c.sec.TipConst / s)
	}
	if c.opt.HubLoss {
		F *= prandtl(c.sec.HubConst / s)
	}
	if F < 1e-4 {
		F = 1e-4
	}
	return F
}

// prandtl is (2/pi) acos(exp(-f)); for f > 40 it equals 1 to double
// precision (exp(-40) = 4e-18), which skips exp and acos for most nodes.
// For x = exp(-f) <= 2^-27 (f >= 18.72) acos(x) is pi/2 - x to the last
// bit (asin(x) = x there: 1 - x^2 rounds to 1 and the arctangent's
// correction is below half an ulp of x), so the arc cosine is not
// evaluated; TestPrandtlShortcutIsExact holds it to math.Acos.
func prandtl(f float64) float64 {
	if f > 40 {
		return 1
	}
	x := math.Exp(-f)
	if x <= 0x1p-27 {
		return 2 / math.Pi * (math.Pi/2 - x)
	}
	return 2 / math.Pi * math.Acos(math.Min(1, x))
}

// inductions returns a, a', the residual f(phi) and F for an inflow angle phi
// (Ning 2014 §2: eqs. 15-21 and the Buhl high-induction branch).
func (c *bemtCase) inductions(phi float64) (a, ap, f, F float64) {
	a, ap, f, F, _ = c.inductionsValid(phi)
	return a, ap, f, F
}

// inductionsValid is inductions plus whether phi can be a BEM solution:
// k < -1 in the momentum region (a > 1) and k <= 1 in the propeller-brake
// region (a < 1) cannot (Ning 2014 §2.3; AeroDyn's IsValidSolution).
func (c *bemtCase) inductionsValid(phi float64) (a, ap, f, F float64, valid bool) {
	bits := math.Float64bits(phi)
	for i := 0; i < c.nRecent; i++ {
		if e := &c.recent[i]; math.Float64bits(e.phi) == bits {
			return e.a, e.ap, e.f, e.F, e.valid
		}
	}
	a, ap, f, F, valid = c.balance(phi)
	c.recent[c.next] = bemtEval{phi: phi, a: a, ap: ap, f: f, F: F, valid: valid}
	c.next = (c.next + 1) % len(c.recent)
	if c.nRecent < len(c.recent) {
		c.nRecent++
	}
	return a, ap, f, F, valid
}

// balance evaluates the momentum balance at phi (see inductionsValid).
func (c *bemtCase) balance(phi float64) (a, ap, f, F float64, valid bool) {
	valid = true
	sphi, cphi := math.Sincos(phi)
	k0 := c.coefs(phi - c.theta)
	cn := k0.Cl * cphi
	ct := k0.Cl * sphi
	if c.opt.AIDrag {
		cn += k0.Cd * sphi
	}
	if c.opt.TIDrag {
		ct -= k0.Cd * cphi
	}
	sigma := c.sigma
	F = c.lossFactor(sphi)
	if math.Abs(sphi) < 1e-12 {
		sphi = math.Copysign(1e-12, sphi)
	}
	if math.Abs(cphi) < 1e-12 {
		cphi = math.Copysign(1e-12, cphi)
	}
	k := sigma * cn / (4 * F * sphi * sphi)
	kp := sigma * ct / (4 * F * sphi * cphi)
	if !c.opt.TanInd {
		kp = 0
	}
	if c.reversedVx {
		kp = -kp
	}
	lambdaR := c.lambdaR
	momentumRegion := phi > 0
	if c.reversedVx {
		momentumRegion = phi < 0
	}
	if momentumRegion {
		if k <= 2.0/3 { // momentum region, a = k/(1+k)
			a = k / (1 + k)
			valid = k >= -1
		} else { // Buhl's empirical high-induction correction (Ning 2014 eq. 17)
			g1 := 2*F*k - (10.0/9 - F)
			g2 := math.Max(2*F*k-F*(4.0/3-F), 0)
			g3 := 2*F*k - (25.0/9 - 2*F)
			if math.Abs(g3) < 1e-6 {
				a = 1 - 1/(2*math.Sqrt(math.Max(g2, 1e-12)))
			} else {
				a = (g1 - math.Sqrt(g2)) / g3
			}
		}
		den := 1 - a
		if math.Abs(den) < 1e-12 {
			den = math.Copysign(1e-12, den)
		}
		f = sphi/den - cphi/lambdaR*(1-kp)
	} else { // propeller-brake region (Ning 2014 eq. 19)
		if k > 1 {
			a = k / (k - 1)
		} else {
			valid = false
		}
		f = sphi*(1-k) - cphi/lambdaR*(1-kp)
	}
	if math.Abs(1-kp) < 1e-12 {
		ap = 0
	} else {
		ap = kp / (1 - kp)
	}
	if !c.opt.TanInd {
		ap = 0
	}
	return a, ap, f, F, valid
}

// velocityIsZero is the speed below which AeroDyn treats an inflow
// component as zero (the NWTC library's VelocityIsZero, 1 mm/s): with Vx
// zero its BEMT takes phi = 0, with Vy zero phi = pi/2, and the momentum
// balance gives no induction there. At start-up the outer blade swings
// downwind through the wind speed, and Vx passes within millimetres per
// second of zero; below 1 mm/s the node's quasi-steady input to the
// dynamic wake is then zero, as in AeroDyn, not an induction solved from
// an ill-conditioned balance.
const velocityIsZero = 1e-3

// rootXTol is the tolerance on the inflow angle (rad) at which AeroDyn's
// Brent search stops (its mod_root1dim default); the search also stops
// as soon as the residual is below the deck's IndToler.
const rootXTol = 1e-6

// SolveNode solves the BEMT equations of one blade element without a
// previous solution; see SolveNodeFrom.
func SolveNode(vx, vy float64, sec *NodeSection, opt *BEMTOptions, useInduction bool) NodeSolution {
	return SolveNodeFrom(vx, vy, sec, opt, useInduction, 0)
}

// SolveNodeFrom solves the BEMT equations of one blade element for the
// relative velocity components Vx (normal to the rotor plane, positive
// downwind through the rotor) and Vy (in the rotor plane, positive in the
// direction the air moves relative to a blade rotating forward), following
// Ning (2014), "A simple solution method for the blade element momentum
// equations with guaranteed convergence", Wind Energy 17:1327-1345: a 1-D
// residual in phi, solved with Brent's method in a bracket.
//
// The search is AeroDyn's (v5 BEMT): phiPrev, the node's root at the
// previous time (its constraint state z%phi; 0 when there is none), is
// accepted when its residual is already below IndToler; otherwise the
// regions (0, pi/2), then (-pi/4, 0) and (pi/2, pi) are searched, the last
// two in the opposite order when phiPrev lies outside (-pi/4, pi/4), and a
// previous root inside the bracketing region narrows it. The roots are as
// loose as AeroDyn's (rootXTol, or the residual below IndToler). Where a
// node's Vx passes through zero (the start-up swing of the outer blade)
// the inductions re-derived at the next step from this root
// (InductionsAtPhi) depend on where within that tolerance the root lies,
// and the dynamic wake's first filter amplifies the difference (k tau1
// du/dt); with a tight root the NREL 5 MW's tip tangential induction after
// the start-up swing was 2.5 times smaller than OpenFAST's, and the
// tower's side-side sway that it sets off differed accordingly
// (docs/validation.md §4).
//
// Negative Vy is mirrored into Vy > 0 (the airfoil is then seen mirrored),
// so every inflow gives a finite answer; such roots are angles of the
// mirrored frame and are not kept (HasRoot false). When useInduction is
// false (WakeMod=0) the geometric inflow angle is used.
func SolveNodeFrom(vx, vy float64, sec *NodeSection, opt *BEMTOptions, useInduction bool, phiPrev float64) NodeSolution {
	return solveInduction(vx, vy, sec, opt, useInduction, phiPrev).solution(sec)
}

// induction is a node's BEMT result before the inflow angle, angle of
// attack and airfoil coefficients are formed from it (finish): what a
// correction that changes the induction afterwards (the skewed-wake
// redistribution) needs, without the lookup it would discard.
type induction struct {
	vx, vy    float64 // inflow as solved (non-finite components as 0)
	a, ap     float64
	re, F     float64
	converged bool
	fixed     bool
	iter      int
	rootPhi   float64
	hasRoot   bool
}

// solution finishes the induction into the node's NodeSolution.
func (d induction) solution(sec *NodeSection) NodeSolution {
	s := finish(d.vx, d.vy, d.a, d.ap, sec, d.re, d.F, d.converged)
	s.Fixed, s.Iter = d.fixed, d.iter
	s.RootPhi, s.HasRoot = d.rootPhi, d.hasRoot
	return s
}

// solveInduction is SolveNodeFrom without the final finish.
func solveInduction(vx, vy float64, sec *NodeSection, opt *BEMTOptions, useInduction bool, phiPrev float64) induction {
	if !finite(vx) {
		vx = 0
	}
	if !finite(vy) {
		vy = 0
	}
	w0 := math.Hypot(vx, vy)
	re := 0.0
	if sec.KinVisc > 0 {
		re = w0 * sec.Chord / sec.KinVisc
	}
	zeroTip := (opt.TipLoss && sec.TipConst <= 0) || (opt.HubLoss && sec.HubConst <= 0)
	zeroVx, zeroVy := math.Abs(vx) < velocityIsZero, math.Abs(vy) < velocityIsZero
	if !useInduction || sec.RLocal <= 0 || zeroTip {
		// Induction fixed: none without a wake model, and a = 1 where the
		// tip or hub loss factor is zero (the momentum balance drives a
		// to 1 there; AeroDyn's FixedInductions, which the dynamic wake
		// leaves alone).
		a := 0.0
		if useInduction && zeroTip && !zeroVx && !zeroVy {
			a = 1
		}
		return induction{vx: vx, vy: vy, a: a, re: re, converged: true, fixed: true}
	}
	if zeroVx || zeroVy {
		// AeroDyn's phi for a zero inflow component, with no induction;
		// the node stays in the dynamic wake, whose filters then relax
		// toward zero induction.
		d := induction{vx: vx, vy: vy, re: re, F: 1, converged: true}
		if vy > 0 {
			d.rootPhi, d.hasRoot = 0, true
			if zeroVy {
				d.rootPhi = math.Pi / 2
			}
		}
		return d
	}
	c := newBemtCase(math.Abs(vx), math.Abs(vy), sec, opt, re)
	// Reversed rotation (Vy < 0) is mirrored into Vy > 0: in the mirrored
	// frame the chord angle becomes pi-theta (or theta-pi with Vx < 0 as
	// well) and the airfoil is seen from the other side once per mirror.
	// Reversed axial inflow alone (Vx < 0, Vy > 0: the outer blade swinging
	// downwind faster than the wind at start-up) is solved in the node's
	// own frame, as AeroDyn does: the momentum region is phi < 0 with the
	// airfoil seen as it is. Mirroring it into Vx > 0 reversed the sign of
	// the thrust constant k = sigma Cn/(4 F sin^2 phi) there, so those nodes
	// left Buhl's branch (a ~ 1.2, continuous through Vx = 0 in AeroDyn) for
	// the a = -1 bound (IEA-15 onshore start-up, outer third of the blade,
	// t = 0.065-0.45 s).
	switch {
	case vx < 0 && vy > 0:
		c.vx, c.reversedVx = vx, true
		c.lambdaR = c.vy / c.vx
	case vx > 0 && vy < 0:
		c.theta, c.mirrorCl = math.Pi-sec.Theta, true
	case vx < 0 && vy < 0:
		c.theta = sec.Theta - math.Pi
	}
	if vy < 0 || !finite(phiPrev) {
		phiPrev = 0 // a previous root is an angle of the node's own frame
	}
	resTol := opt.IndToler
	if !(resTol > 0) {
		resTol = 5e-10
	}
	maxIter := opt.MaxIter
	if maxIter <= 0 {
		maxIter = 500
	}
	solved := func(phi float64, iter int, ok bool) induction {
		a, ap, _, F, _ := c.inductionsValid(phi)
		a, ap = limitInductions(clamp(a, minAxInd, maxAxInd), ap)
		// Inductions are frame-independent (Vx(1-a), Vy(1+a')): the
		// solution is finished in the caller's frame.
		return induction{vx: vx, vy: vy, a: a, ap: ap, re: re, F: F, converged: ok, iter: iter, rootPhi: phi, hasRoot: vy > 0}
	}
	// The previous root, if it still balances the momentum equations.
	fPrev, prevValid := 0.0, false
	if phiPrev != 0 && math.Abs(math.Abs(phiPrev)-math.Pi/2) > 1e-14 {
		_, _, f, _, valid := c.inductionsValid(phiPrev)
		if math.Abs(f) < resTol && valid {
			return solved(phiPrev, 0, true)
		}
		fPrev, prevValid = f, valid && finite(f)
	}
	// Regions as AeroDyn searches them (its BEMT_epsilon2 keeps them off
	// the singular angles), for Vx > 0; for Vx < 0 their mirror images in
	// phi. A root that cannot be a BEM solution sends the search on to the
	// next region, and with none the inflow is geometric (no induction),
	// as in AeroDyn. The inductions are limited to -1 <= a <= 1.5 and
	// -1 <= a' <= 1 (AeroDyn's limitInductionFactors). At start-up, while
	// the outer blade swings downwind and Vx collapses, the brake region's
	// invalid roots (k <= 1) are reached; returning them with a = 0 gave
	// the full, uninduced load at those nodes.
	const eps = 1.4901161193847656e-07 // 10 sqrt(machine epsilon)
	regions := [3][2]float64{{eps, math.Pi/2 - eps}, {-math.Pi / 4, -eps}, {math.Pi/2 + eps, math.Pi - eps}}
	if !(math.Abs(phiPrev) < math.Pi/4) {
		regions[1], regions[2] = regions[2], regions[1]
	}
	if c.reversedVx {
		for i := range regions {
			regions[i] = [2]float64{-regions[i][0], -regions[i][1]}
		}
	}
	resid := func(phi float64) float64 { _, _, f, _ := c.inductions(phi); return f }
	for _, b := range regions {
		lo, hi := b[0], b[1]
		_, _, fLo, _, validLo := c.inductionsValid(lo)
		_, _, fHi, _, validHi := c.inductionsValid(hi)
		if !finite(fLo) || !finite(fHi) {
			continue
		}
		// A bound that already balances the equations is the root.
		if math.Abs(fLo) < resTol {
			if math.Abs(fHi) < math.Abs(fLo) && validHi {
				return solved(hi, 0, true)
			}
			if validLo {
				return solved(lo, 0, true)
			}
		} else if math.Abs(fHi) < resTol && validHi {
			return solved(hi, 0, true)
		}
		if math.Signbit(fLo) == math.Signbit(fHi) {
			continue
		}
		// A previous root inside the region replaces the bound whose
		// residual has its sign: the bracket stays valid and is shorter.
		if prevValid && (lo < phiPrev) == (phiPrev < hi) {
			if math.Signbit(fPrev) == math.Signbit(fHi) {
				hi, fHi = phiPrev, fPrev
			} else {
				lo, fLo = phiPrev, fPrev
			}
		}
		phi, iter, ok := brent(resid, lo, hi, fLo, fHi, rootXTol, resTol, maxIter)
		if _, _, _, _, valid := c.inductionsValid(phi); !valid {
			continue
		}
		return solved(phi, iter, ok)
	}
	return induction{vx: vx, vy: vy, re: re, F: 1}
}

// InductionsAtPhi returns the axial and tangential inductions the BEM
// momentum balance gives at the inflow angle phi (node frame) for the
// relative velocity components vx, vy, without solving for phi: AeroDyn's
// calculate_Inductions_from_BEMT, which its BEMT_UpdateStates applies to
// the stored root (z%phi) with the inputs at the start of a step to form
// the dynamic wake's input there. At a given phi the inductions depend on
// the inflow only through the sign of Vx (the momentum region is phi > 0
// for Vx > 0 and phi < 0 for Vx < 0, and k' changes sign; AeroDyn v5
// BEMTUncoupled) and the Reynolds number; a phi that is no BEM solution
// for that inflow (AeroDyn's IsValidSolution) gives no induction, as a
// zero inflow component does. ok is false for Vy <= 0 (mirrored inflow,
// whose roots are not kept).
func InductionsAtPhi(phi, vx, vy float64, sec *NodeSection, opt *BEMTOptions) (a, ap float64, ok bool) {
	if !(vy > 0) || !finite(vx) || !finite(phi) {
		return 0, 0, false
	}
	// AeroDyn's root for a zero inflow component is phi = 0 (or pi/2)
	// with no induction; so is a zero inflow component now.
	if phi == 0 || math.Abs(vx) < velocityIsZero || vy < velocityIsZero || sec.RLocal <= 0 {
		return 0, 0, true
	}
	if (opt.TipLoss && sec.TipConst <= 0) || (opt.HubLoss && sec.HubConst <= 0) {
		return 1, 0, true // as SolveNode: F = 0 drives a -> 1
	}
	re := 0.0
	if sec.KinVisc > 0 {
		re = math.Hypot(vx, vy) * sec.Chord / sec.KinVisc
	}
	c := newBemtCase(vx, vy, sec, opt, re)
	c.reversedVx = vx < 0
	a, ap, _, _, valid := c.inductionsValid(phi)
	if !valid {
		return 0, 0, true
	}
	a, ap = limitInductions(clamp(a, minAxInd, maxAxInd), ap)
	return a, ap, true
}

// Bound of the tangential induction after the BEMT solve: -1 <= a' <= 1,
// AeroDyn's BEMT limit, applied before DBEMT so that its filtered
// inductions are not dominated by single nodes. It matters where the
// momentum equations are ill-conditioned: near phi = 90° with a small
// tangential speed (feathered blades of a parked or idling rotor, Vy/Vx ~
// 0.005), k' = sigma Ct/(4 F sin(phi) cos(phi)) approaches 1 and a' =
// k'/(1-k') grows without bound (a' ~ 2300 on node 8 of the NREL 5 MW at
// 30 m/s and 1 rpm), which turned W = |(Vx(1-a), Vy(1+a'))| into a
// supersonic relative speed and stopped DLC 6.x runs in the unsteady
// airfoil model ("Mach number >= 1").
//
// The axial induction is bounded by SolveNode and finishInduced
// (minAxInd, maxAxInd) together with the check that a root is a valid BEM
// solution: on the full NREL 5 MW deck the bound alone, without the
// validity check and the skew redistribution at a >= 1, moved the
// start-up loads away from OpenFAST.
const maxTanInd, minTanInd = 1.0, -1.0

// limitInductions bounds a' (see maxTanInd); a is returned unchanged.
func limitInductions(a, ap float64) (float64, float64) {
	return a, math.Max(minTanInd, math.Min(maxTanInd, ap))
}

func finish(vx, vy, a, ap float64, sec *NodeSection, re, F float64, ok bool) NodeSolution {
	if !finite(a) {
		a = 0
	}
	if !finite(ap) {
		ap = 0
	}
	ux, uy := vx*(1-a), vy*(1+ap)
	phi := math.Atan2(ux, uy)
	alpha := WrapAngle(phi - sec.Theta)
	w := math.Hypot(ux, uy)
	re2 := re
	if sec.KinVisc > 0 {
		re2 = w * sec.Chord / sec.KinVisc
	}
	k := sec.Airfoil.Coefs(alpha, re2, sec.UserProp)
	return NodeSolution{Phi: phi, Alpha: alpha, AxInd: a, TanInd: ap, Coefs: k, W: w, Re: re2, F: F, Converged: ok}
}

// brent finds a root of f in [a, b] given f(a), f(b) of opposite sign
// (Brent 1973, "Algorithms for Minimization without Derivatives", ch. 4,
// procedure zero): it stops when the bracket is within 2 eps|b| + xTol, or,
// as AeroDyn's search does, as soon as |f| < fTol at a new point.
func brent(f func(float64) float64, a, b, fa, fb, xTol, fTol float64, maxIter int) (float64, int, bool) {
	const macheps = 2.220446049250313e-16
	if fa == 0 {
		return a, 0, true
	}
	if fb == 0 {
		return b, 0, true
	}
	c, fc := a, fa
	d := b - a
	e := d
	for it := 1; it <= maxIter; it++ {
		if (fb > 0) == (fc > 0) {
			c, fc = a, fa
			d = b - a
			e = d
		}
		if math.Abs(fc) < math.Abs(fb) {
			a, b, c = b, c, b
			fa, fb, fc = fb, fc, fb
		}
		tol1 := 2*macheps*math.Abs(b) + xTol
		xm := 0.5 * (c - b)
		if math.Abs(xm) <= tol1 || fb == 0 {
			return b, it, true
		}
		if math.Abs(e) >= tol1 && math.Abs(fa) > math.Abs(fb) {
			s := fb / fa
			var p, q float64
			if a == c { // secant
				p = 2 * xm * s
				q = 1 - s
			} else { // inverse quadratic interpolation
				qq := fa / fc
				r := fb / fc
				p = s * (2*xm*qq*(qq-r) - (b-a)*(r-1))
				q = (qq - 1) * (r - 1) * (s - 1)
			}
			if p > 0 {
				q = -q
			}
			p = math.Abs(p)
			if 2*p < math.Min(3*xm*q-math.Abs(tol1*q), math.Abs(e*q)) {
				e = d
				d = p / q
			} else {
				d = xm
				e = d
			}
		} else {
			d = xm
			e = d
		}
		a, fa = b, fb
		if math.Abs(d) > tol1 {
			b += d
		} else {
			b += math.Copysign(tol1, xm)
		}
		fb = f(b)
		if math.Abs(fb) < fTol {
			return b, it, true
		}
	}
	return b, maxIter, false
}

// Bounds of the axial induction (AeroDyn's BEMT_MinInduction,
// BEMT_MaxInduction); the tangential bounds are minTanInd, maxTanInd.
const minAxInd, maxAxInd = -1.0, 1.5

// finishInduced builds the solution from filtered induced velocities
// (axial vix = -a Vx, tangential viy = a' Vy), as AeroDyn does after DBEMT.
func finishInduced(vx, vy, vix, viy float64, sec *NodeSection, F float64) NodeSolution {
	// The filtered velocities become induction factors limited to
	// -1 <= a <= 1.5 and -1 <= a' <= 1 before the inflow angle is formed
	// (AeroDyn's limits on induction, BEMT_MinInduction/BEMT_MaxInduction):
	// while a blade swings downwind at start-up, Vx at the outer nodes drops
	// far faster than the filtered induced velocity, and -vix/vx would
	// otherwise reverse the inflow there.
	a, ap := 0.0, 0.0
	if math.Abs(vx) > 1e-6 {
		a = clamp(-vix/vx, minAxInd, maxAxInd)
	}
	if math.Abs(vy) > 1e-6 {
		ap = clamp(viy/vy, minTanInd, maxTanInd)
	}
	ux, uy := vx*(1-a), vy*(1+ap)
	phi := math.Atan2(ux, uy)
	alpha := WrapAngle(phi - sec.Theta)
	w := math.Hypot(ux, uy)
	re := 0.0
	if sec.KinVisc > 0 {
		re = w * sec.Chord / sec.KinVisc
	}
	k := sec.Airfoil.Coefs(alpha, re, sec.UserProp)
	return NodeSolution{Phi: phi, Alpha: alpha, AxInd: a, TanInd: ap, Coefs: k, W: w, Re: re, F: F, Converged: true}
}
