package moorings

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// Env holds the environment the mooring model needs from the primary input
// file (Gravity, WtrDens, WtrDpth); MoorDyn options of the same name
// override it, as in MoorDyn-F.
type Env struct {
	Gravity      float64 // m/s²
	WaterDensity float64 // kg/m³
	WaterDepth   float64 // m (seabed at z = −WaterDepth)
}

// EnvFromDeck returns the environment of a loaded deck.
func EnvFromDeck(d *deck.Deck) Env {
	return Env{Gravity: d.Main.Gravity, WaterDensity: d.Main.WtrDens, WaterDepth: d.Main.WtrDpth}
}

// point is a MoorDyn point: an anchor, a vessel attachment or a free node.
type point struct {
	id    int
	kind  string // deck.MDFixed, deck.MDVessel or deck.MDFree
	body  RigidPoint
	m     float64 // point mass, kg
	vol   float64 // displaced volume, m³
	cdA   float64
	ca    float64
	r, v  [3]float64
	a     [3]float64 // prescribed acceleration (vessel points)
	f     [3]float64 // net force from the attached lines and the point's own weight, buoyancy and drag
	ends  []lineEnd
	state int // offset of a free point's states in the state vector, −1 otherwise
	// vessel points: kinematics at the start and end of the coupling step
	r0, v0, r1, v1 [3]float64
}

type lineEnd struct {
	line *line
	end  int // 0: end A (node 0), 1: end B (node N)
}

// System is a MoorDyn-equivalent mooring system (CompMooring = 3): lumped-
// mass lines between fixed, vessel and free points, integrated with
// MoorDyn's second-order Runge-Kutta scheme at its own time step dtM inside
// each coupling step. It follows the module seam of the coupling:
// New (initialise) → UpdateStates over [t, t+dt] → CalcOutput at t+dt, with
// the platform motion mapped to the fairleads (RigidPoint) and the line
// loads mapped back to the platform reference point (Loads).
type System struct {
	stepDt float64 // length of the coupling step UpdateStatesAt is advancing
	md     *deck.MoorDyn
	ref    [3]float64 // undisplaced platform reference point
	h      hydro
	bed    seabed
	dtM    float64
	lines  []*line
	points []*point
	vessel []*point // the vessel points, in file order
	// vessel-point motion scratch for the Motion-based methods
	pm0, pm1 []PointMotion
	nState   int
	// RK2 work vectors
	y, y0, dy, ym []float64
	chans         []channel
	values        []float64
	t             float64
	// Notes records modelling decisions taken at initialisation (IC
	// convergence, ...), for the run log.
	Notes []string
	// free-point mass solve
	freeM   *mat.Dense
	freeF   *mat.VecDense
	freeAcc *mat.VecDense
}

// MaxSegments bounds the segments of all lines together (memory and time
// of a run; real mooring models have a few hundred).
const MaxSegments = 5000

// New builds the mooring system of a MoorDyn input file. ref is the
// undisplaced platform reference point (PtfmRefxt, PtfmRefyt, PtfmRefzt),
// the origin of the vessel points' coordinates. Output channels that are not
// supported are an error wrapping deck.ErrNotRun.
func New(md *deck.MoorDyn, env Env, ref [3]float64) (*System, error) {
	o := md.Options
	s := &System{md: md, ref: ref, dtM: o.DtM}
	s.h = hydro{rho: env.WaterDensity, g: env.Gravity}
	depth := env.WaterDepth
	if o.WtrDens > 0 {
		s.h.rho = o.WtrDens
	}
	if o.Gravity > 0 {
		s.h.g = o.Gravity
	}
	if o.WtrDpth > 0 {
		depth = o.WtrDpth
	}
	if !(s.h.g > 0) || !(s.h.rho > 0) || !(depth > 0) {
		return nil, fmt.Errorf("moorings: gravity %g, water density %g and water depth %g must be > 0", s.h.g, s.h.rho, depth)
	}
	s.bed = seabed{depth: depth, kbot: o.KBot, cbot: o.CBot, muT: o.MuKT, muA: o.MuKA, fricDamp: o.FricDamp}
	idx := map[int]int{}
	for _, p := range md.Points {
		idx[p.ID] = len(s.points)
		pt := &point{id: p.ID, kind: p.Attachment, m: p.M, vol: p.V, cdA: p.CdA, ca: p.CA, state: -1}
		switch p.Attachment {
		case deck.MDVessel:
			pt.body = RigidPoint{Body: [3]float64{p.X, p.Y, p.Z}}
		default:
			pt.r = [3]float64{p.X, p.Y, p.Z}
		}
		s.points = append(s.points, pt)
	}
	segs := 0
	for _, dl := range md.Lines {
		segs += dl.NumSegs
		if segs > MaxSegments {
			return nil, &deck.Error{File: md.Path, Line: dl.Line, Variable: "LINES NumSegs", Msg: fmt.Sprintf("more than %d segments in all", MaxSegments), Err: deck.ErrNotRun}
		}
	}
	for _, dl := range md.Lines {
		lt := md.LineType(dl.Type)
		if lt == nil {
			return nil, fmt.Errorf("moorings: line %d: unknown line type %q", dl.ID, dl.Type)
		}
		ln := newLine(dl.ID, dl.NumSegs, dl.UnstrLen, lt.Diam, lt.MassDen, lt.EA, lt.BA, lt.Cd, lt.Ca, lt.CdAx, lt.CaAx, s.h.rho, s.h.g)
		ln.ptA, ln.ptB = idx[dl.AttachA], idx[dl.AttachB]
		s.points[ln.ptA].ends = append(s.points[ln.ptA].ends, lineEnd{ln, 0})
		s.points[ln.ptB].ends = append(s.points[ln.ptB].ends, lineEnd{ln, 1})
		ln.stateOff = s.nState
		s.nState += 6 * (ln.n - 1)
		s.lines = append(s.lines, ln)
	}
	for _, pt := range s.points {
		switch pt.kind {
		case deck.MDFree:
			pt.state = s.nState
			s.nState += 6
		case deck.MDVessel:
			s.vessel = append(s.vessel, pt)
		}
	}
	s.pm0 = make([]PointMotion, len(s.vessel))
	s.pm1 = make([]PointMotion, len(s.vessel))
	s.y = make([]float64, s.nState)
	s.y0 = make([]float64, s.nState)
	s.dy = make([]float64, s.nState)
	s.ym = make([]float64, s.nState)
	s.freeM = mat.NewDense(3, 3, nil)
	s.freeF = mat.NewVecDense(3, nil)
	s.freeAcc = mat.NewVecDense(3, nil)
	chans, err := parseChannels(md, s)
	if err != nil {
		return nil, err
	}
	s.chans = chans
	s.values = make([]float64, len(chans))
	return s, nil
}

// Init places the vessel points for the platform's initial motion, gives
// every line its elastic-catenary shape between its ends and finds the
// static equilibrium MoorDyn's initial-condition generation tends to,
// directly by Newton's method (solveStatic). Should Newton fail (slack or
// compressed lines), it falls back to MoorDyn's dynamic relaxation: the
// equations of motion with the drag scaled by CdScaleIC, until the fairlead
// tensions change by less than threshIC (relative) between three successive
// checks dtIC apart, or TmaxIC has passed. Velocities are then zero.
func (s *System) Init(ctx context.Context, u Motion) error {
	if err := s.InitAt(ctx, s.vesselMotion(&u, s.pm0)); err != nil {
		return err
	}
	return s.CalcOutput(0, u, nil)
}

// InitAt is Init with the vessel points' positions given directly (in the
// order of VesselPoints); velocities are taken as zero.
func (s *System) InitAt(ctx context.Context, p []PointMotion) error {
	if len(p) != len(s.vessel) {
		return fmt.Errorf("moorings: %d vessel point motions for %d vessel points", len(p), len(s.vessel))
	}
	for i, pt := range s.vessel {
		pt.r = p[i].Pos
		pt.v, pt.a = [3]float64{}, [3]float64{}
		pt.r0, pt.r1 = pt.r, pt.r
		pt.v0, pt.v1 = [3]float64{}, [3]float64{}
	}
	s.stepDt = 0 // the points are held while the lines relax
	for _, ln := range s.lines {
		s.shapeLine(ln)
	}
	s.gather(s.y)
	o := s.md.Options
	worst, err := s.solveStatic(50)
	if err != nil || worst > 1e-3*s.maxEndTension() {
		// Newton did not find the equilibrium from the catenary shapes
		// (e.g. a free point placed far from its equilibrium): MoorDyn's
		// dynamic relaxation, then Newton again from where it ends.
		for _, ln := range s.lines {
			s.shapeLine(ln)
		}
		s.gather(s.y)
		converged, tRelax, err := s.relax(ctx, o.TmaxIC, o.DtIC, o.ThreshIC, o.CdScaleIC)
		if err != nil {
			return err
		}
		relaxed := append([]float64(nil), s.y...)
		worst, err = s.solveStatic(50)
		if err != nil || worst > 1e-3*s.maxEndTension() {
			copy(s.y, relaxed)
			s.scatter(s.y)
			s.evaluate(1)
			state := "converged"
			if !converged {
				state = fmt.Sprintf("not converged to threshIC=%g", o.ThreshIC)
			}
			s.Notes = append(s.Notes, fmt.Sprintf("mooring initial condition from %.3g s of dynamic relaxation (%s; the static solve left %.3g N, %v)", tRelax, state, worst, err))
		}
	}
	s.t = 0
	s.scatter(s.y)
	s.evaluate(1)
	s.fillChannels()
	return nil
}

// shapeLine sets the nodes of a line on the elastic catenary between its
// end points (seabed contact when the lower end is on the seabed), or on
// the straight chord when the catenary has no solution (e.g. a vertical
// line).
func (s *System) shapeLine(ln *line) {
	ra, rb := s.points[ln.ptA].r, s.points[ln.ptB].r
	for i := 0; i <= ln.n; i++ {
		f := float64(i) / float64(ln.n)
		for c := 0; c < 3; c++ {
			ln.r[3*i+c] = ra[c] + f*(rb[c]-ra[c])
			ln.v[3*i+c] = 0
		}
	}
	lo, hi, rev := ra, rb, false
	if rb[2] < ra[2] {
		lo, hi, rev = rb, ra, true
	}
	X := math.Hypot(hi[0]-lo[0], hi[1]-lo[1])
	cat := Catenary{L: ln.length, W: ln.w, EA: ln.ea}
	onBed := lo[2] <= -s.bed.depth+1e-6*s.bed.depth
	st, err := cat.Solve(X, hi[2]-lo[2], onBed, nil)
	if err != nil || X == 0 {
		return
	}
	ex, ey := (hi[0]-lo[0])/X, (hi[1]-lo[1])/X
	for i := 0; i <= ln.n; i++ {
		sArc := ln.length * float64(i) / float64(ln.n)
		node := i
		if rev {
			node = ln.n - i
		}
		x, z := cat.Profile(st, sArc)
		ln.r[3*node] = lo[0] + x*ex
		ln.r[3*node+1] = lo[1] + x*ey
		ln.r[3*node+2] = lo[2] + z
	}
	// Nodes on the seabed start at the penetration that carries their
	// weight (kbot·d·pen = w), inside the contact model's smooth range.
	if s.bed.kbot > 0 {
		pen := ln.w / (s.bed.kbot * ln.d)
		for i := 1; i < ln.n; i++ {
			if ln.r[3*i+2] <= -s.bed.depth+1e-9 {
				ln.r[3*i+2] = -s.bed.depth - pen
			}
		}
	}
	// The profile ends where the catenary puts the fairlead; pin the end
	// nodes to the points exactly.
	for c := 0; c < 3; c++ {
		ln.r[c], ln.r[3*ln.n+c] = ra[c], rb[c]
	}
}

// relax runs dynamic relaxation (see Init).
// It returns whether the tensions met threshIC and the time relaxed.
func (s *System) relax(ctx context.Context, tMax, dtIC, thresh, cdScale float64) (bool, float64, error) {
	steps := int(math.Round(dtIC / s.dtM))
	if steps < 1 {
		steps = 1
	}
	prev := [][]float64{}
	for t := 0.0; t < tMax-1e-12; t += float64(steps) * s.dtM {
		if err := ctx.Err(); err != nil {
			return false, t, err
		}
		for k := 0; k < steps; k++ {
			if err := s.rk2Step(0, 0, s.dtM, cdScale); err != nil {
				return false, t, err
			}
		}
		if err := checkFinite(s.y); err != nil {
			return false, t, err
		}
		ten := make([]float64, len(s.lines))
		s.scatter(s.y)
		s.evaluate(1)
		for i, ln := range s.lines {
			ten[i] = norm(ln.endForce(1))
		}
		prev = append(prev, ten)
		if n := len(prev); n >= 3 {
			ok := true
			for i := range ten {
				for _, back := range [][]float64{prev[n-2], prev[n-3]} {
					if math.Abs(ten[i]-back[i]) > thresh*math.Abs(ten[i]) {
						ok = false
					}
				}
			}
			if ok {
				s.zeroVelocities()
				return true, t + float64(steps)*s.dtM, nil
			}
		}
	}
	s.zeroVelocities()
	return false, tMax, nil
}

func (s *System) zeroVelocities() {
	for _, ln := range s.lines {
		for i := range ln.v {
			ln.v[i] = 0
		}
	}
	for _, pt := range s.points {
		if pt.kind == deck.MDFree {
			pt.v = [3]float64{}
		}
	}
	s.gather(s.y)
}

// gather copies the interior-node and free-point states into y.
func (s *System) gather(y []float64) {
	for _, ln := range s.lines {
		k := ln.stateOff
		m := 3 * (ln.n - 1)
		copy(y[k:k+m], ln.r[3:3*ln.n])
		copy(y[k+m:k+2*m], ln.v[3:3*ln.n])
	}
	for _, pt := range s.points {
		if pt.state >= 0 {
			copy(y[pt.state:pt.state+3], pt.r[:])
			copy(y[pt.state+3:pt.state+6], pt.v[:])
		}
	}
}

// scatter sets the line nodes and free points from y, and the line end
// nodes from their points.
func (s *System) scatter(y []float64) {
	for _, pt := range s.points {
		if pt.state >= 0 {
			copy(pt.r[:], y[pt.state:pt.state+3])
			copy(pt.v[:], y[pt.state+3:pt.state+6])
		}
	}
	for _, ln := range s.lines {
		k := ln.stateOff
		m := 3 * (ln.n - 1)
		copy(ln.r[3:3*ln.n], y[k:k+m])
		copy(ln.v[3:3*ln.n], y[k+m:k+2*m])
		a, b := s.points[ln.ptA], s.points[ln.ptB]
		copy(ln.r[0:3], a.r[:])
		copy(ln.v[0:3], a.v[:])
		copy(ln.r[3*ln.n:], b.r[:])
		copy(ln.v[3*ln.n:], b.v[:])
	}
}

// evaluate computes all line forces and the net force on every point.
func (s *System) evaluate(cdScale float64) {
	for _, ln := range s.lines {
		ln.forces(s.h, &s.bed, cdScale)
	}
	for _, pt := range s.points {
		f := [3]float64{0, 0, (s.h.rho*pt.vol - pt.m) * s.h.g}
		if pt.cdA > 0 {
			sp := norm(pt.v)
			for c := 0; c < 3; c++ {
				f[c] -= 0.5 * s.h.rho * pt.cdA * cdScale * sp * pt.v[c]
			}
		}
		for _, e := range pt.ends {
			fe := e.line.endForce(e.end)
			for c := 0; c < 3; c++ {
				f[c] += fe[c]
			}
		}
		pt.f = f
	}
}

// deriv evaluates dy/dt at time fraction tau of the current coupling step.
func (s *System) deriv(tau float64, y, dy []float64, cdScale float64) error {
	for _, pt := range s.points {
		if pt.kind == deck.MDVessel {
			pt.r, pt.v = hermite(tau, s.stepDt, pt.r0, pt.v0, pt.r1, pt.v1)
		}
	}
	s.scatter(y)
	s.evaluate(cdScale)
	for _, ln := range s.lines {
		k := ln.stateOff
		m := 3 * (ln.n - 1)
		copy(dy[k:k+m], ln.v[3:3*ln.n])
		copy(dy[k+m:k+2*m], ln.acc[3:3*ln.n])
	}
	for _, pt := range s.points {
		if pt.state < 0 {
			continue
		}
		// Point mass and added mass plus the end nodes' mass matrices.
		M := s.freeM
		M.Zero()
		for c := 0; c < 3; c++ {
			M.Set(c, c, pt.m+s.h.rho*pt.vol*pt.ca)
		}
		for _, e := range pt.ends {
			me := e.line.endMass(e.end)
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					M.Set(i, j, M.At(i, j)+me[i][j])
				}
			}
		}
		for c := 0; c < 3; c++ {
			s.freeF.SetVec(c, pt.f[c])
		}
		if err := s.freeAcc.SolveVec(M, s.freeF); err != nil {
			return fmt.Errorf("moorings: point %d: singular mass matrix: %w", pt.id, err)
		}
		copy(dy[pt.state:pt.state+3], pt.v[:])
		for c := 0; c < 3; c++ {
			dy[pt.state+3+c] = s.freeAcc.AtVec(c)
		}
	}
	return nil
}

// hermite returns the position and velocity at fraction tau of a step of
// length h from the cubic Hermite curve through (r0, v0) at its start and
// (r1, v1) at its end, so the velocity is the derivative of the position
// along the way. Interpolating position and velocity linearly each on its
// own leaves them inconsistent by about a·h/2 inside the step; a fairlead's
// end segment is stiff (EA/l about 2e8 N/m on the IEA 15 MW semi) and
// damped through the stretch rate (BA), which turns that inconsistency
// into a tension error in the wave band: 3 % of the leeward fairlead
// tensions' wave-band standard deviation at a 0.025-s coupling step
// (docs/validation.md §10.2). With h = 0 (dynamic relaxation, where the
// points are held) it returns the start values.
func hermite(tau, h float64, r0, v0, r1, v1 [3]float64) (r, v [3]float64) {
	if h <= 0 {
		return r0, v0
	}
	t2, t3 := tau*tau, tau*tau*tau
	// Basis functions of the position and their derivatives in tau.
	h00, h10, h01, h11 := 2*t3-3*t2+1, t3-2*t2+tau, -2*t3+3*t2, t3-t2
	d00, d10, d01, d11 := 6*t2-6*tau, 3*t2-4*tau+1, 6*tau-6*t2, 3*t2-2*tau
	for c := 0; c < 3; c++ {
		r[c] = h00*r0[c] + h10*h*v0[c] + h01*r1[c] + h11*h*v1[c]
		v[c] = (d00*r0[c]+d01*r1[c])/h + d10*v0[c] + d11*v1[c]
	}
	return r, v
}

// errDiverged reports non-finite line states.
var errDiverged = errors.New("moorings: the line states diverged (non-finite accelerations); dtM may be too large for the line discretisation")

// checkFinite returns errDiverged if any of x is NaN or infinite. A
// non-finite acceleration propagates into every later state, so the
// integration checks once per coupling step (or relaxation interval), not
// in every derivative: the scan cost as much as a tenth of the line forces.
func checkFinite(x []float64) error {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errDiverged
		}
	}
	return nil
}

// rk2Step advances s.y by one mooring time step h with the midpoint rule
// (MoorDyn's RK2): the derivative at the half step, from an Euler
// half-step, advances the full step. tau0 is the step's start as a
// fraction of the coupling step, dtau its length as a fraction.
func (s *System) rk2Step(tau0, dtau, h, cdScale float64) error {
	if err := s.deriv(tau0, s.y, s.dy, cdScale); err != nil {
		return err
	}
	for i := range s.y {
		s.ym[i] = s.y[i] + h/2*s.dy[i]
	}
	if err := s.deriv(tau0+dtau/2, s.ym, s.dy, cdScale); err != nil {
		return err
	}
	for i := range s.y {
		s.y[i] += h * s.dy[i]
	}
	return nil
}

// UpdateStates advances the line states from t to t+dt with sub-steps of at
// most dtM. The vessel points follow the platform motion u0 at t and u1 at
// t+dt, interpolated linearly in between; with u1 nil they move on with
// u0's velocity.
func (s *System) UpdateStates(ctx context.Context, t, dt float64, u0 Motion, u1 *Motion) error {
	var p1 []PointMotion
	if u1 != nil {
		p1 = s.vesselMotion(u1, s.pm1)
	}
	return s.UpdateStatesAt(ctx, t, dt, s.vesselMotion(&u0, s.pm0), p1)
}

// UpdateStatesAt is UpdateStates with the vessel points' motions given
// directly (order of VesselPoints) at t (p0) and t+dt (p1, may be nil).
func (s *System) UpdateStatesAt(ctx context.Context, t, dt float64, p0, p1 []PointMotion) error {
	if !(dt > 0) {
		return fmt.Errorf("moorings: time step must be > 0, got %g", dt)
	}
	if len(p0) != len(s.vessel) || (p1 != nil && len(p1) != len(s.vessel)) {
		return fmt.Errorf("moorings: vessel point motions do not match the %d vessel points", len(s.vessel))
	}
	for i, pt := range s.vessel {
		pt.r0, pt.v0 = p0[i].Pos, p0[i].Vel
		if p1 != nil {
			pt.r1, pt.v1, pt.a = p1[i].Pos, p1[i].Vel, p1[i].Acc
		} else {
			for c := 0; c < 3; c++ {
				pt.r1[c] = pt.r0[c] + dt*pt.v0[c]
			}
			pt.v1, pt.a = pt.v0, p0[i].Acc
		}
	}
	s.stepDt = dt
	nSub := int(math.Ceil(dt/s.dtM - 1e-9))
	if nSub < 1 {
		nSub = 1
	}
	h := dt / float64(nSub)
	dtau := 1 / float64(nSub)
	for k := 0; k < nSub; k++ {
		if err := s.rk2Step(float64(k)*dtau, dtau, h, 1); err != nil {
			return &StepError{Time: t + float64(k)*h, Err: err}
		}
	}
	if err := checkFinite(s.y); err != nil {
		return &StepError{Time: t, Err: err}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	s.t = t + dt
	return nil
}

// StepError is a failure of the line integration at a time.
type StepError struct {
	Time float64
	Err  error
}

func (e *StepError) Error() string { return fmt.Sprintf("moorings at t=%.6g s: %v", e.Time, e.Err) }
func (e *StepError) Unwrap() error { return e.Err }

// CalcOutput evaluates the line forces for the platform motion u at time t
// (the states as left by UpdateStates), fills the output channels, and
// returns the mooring loads on the platform about its displaced reference
// point, the inertia of the line ends it carries included. loads may be nil.
func (s *System) CalcOutput(t float64, u Motion, loads *Loads) error {
	if err := s.CalcOutputAt(t, s.vesselMotion(&u, s.pm0)); err != nil {
		return err
	}
	if loads != nil {
		*loads = s.platformLoads(u)
	}
	return nil
}

// CalcOutputAt is CalcOutput with the vessel points' motions given
// directly; VesselForce then returns each point's load.
func (s *System) CalcOutputAt(t float64, p []PointMotion) error {
	if len(p) != len(s.vessel) {
		return fmt.Errorf("moorings: %d vessel point motions for %d vessel points", len(p), len(s.vessel))
	}
	for i, pt := range s.vessel {
		pt.r, pt.v, pt.a = p[i].Pos, p[i].Vel, p[i].Acc
		pt.r0, pt.r1, pt.v0, pt.v1 = pt.r, pt.r, pt.v, pt.v
	}
	s.scatter(s.y)
	s.evaluate(1)
	s.fillChannels()
	return nil
}

// PointMotion is the position, velocity and acceleration of a point.
type PointMotion struct {
	Pos, Vel, Acc [3]float64
}

// VesselPoints returns the undisplaced positions of the points attached to
// the platform (the reference point plus their platform-frame coordinates),
// in the order of the input file: the nodes the coupling moves with the
// platform and loads through VesselForce.
func (s *System) VesselPoints() [][3]float64 {
	out := make([][3]float64, len(s.vessel))
	for i, pt := range s.vessel {
		for c := 0; c < 3; c++ {
			out[i][c] = s.ref[c] + pt.body.Body[c]
		}
	}
	return out
}

// VesselForce returns the force the mooring applies to the i-th vessel
// point at the last output: the attached line ends' forces plus the
// point's own weight and buoyancy, without the inertia of the masses it
// carries (VesselMass).
func (s *System) VesselForce(i int) [3]float64 { return s.vessel[i].f }

// VesselMass returns the mass matrix the i-th vessel point carries: the
// point's mass and added mass and the attached line-end nodes' (half a
// segment's structural and added mass).
func (s *System) VesselMass(i int) [3][3]float64 {
	pt := s.vessel[i]
	var m [3][3]float64
	for _, e := range pt.ends {
		me := e.line.endMass(e.end)
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				m[r][c] += me[r][c]
			}
		}
	}
	for c := 0; c < 3; c++ {
		m[c][c] += pt.m + s.h.rho*pt.vol*pt.ca
	}
	return m
}

// vesselMotion maps the platform motion to the vessel points (into buf).
func (s *System) vesselMotion(u *Motion, buf []PointMotion) []PointMotion {
	for i, pt := range s.vessel {
		buf[i].Pos, buf[i].Vel, buf[i].Acc = pt.body.Kinematics(s.ref, u)
	}
	return buf
}

// platformLoads sums the forces the vessel points pass to the platform:
// the line-end forces and the points' own weight and buoyancy, less the
// inertia of the line-end masses carried by the platform.
func (s *System) platformLoads(u Motion) Loads {
	var l Loads
	o := [3]float64{s.ref[0] + u.Disp[0], s.ref[1] + u.Disp[1], s.ref[2] + u.Disp[2]}
	for i, pt := range s.vessel {
		f := pt.f
		ma := mulMat(s.VesselMass(i), pt.a)
		for c := 0; c < 3; c++ {
			f[c] -= ma[c]
		}
		l.add(o, pt.r, f)
	}
	return l
}

func (s *System) maxEndTension() float64 {
	m := 0.0
	for _, ln := range s.lines {
		m = math.Max(m, math.Max(norm(ln.endForce(0)), norm(ln.endForce(1))))
	}
	return m
}

// Time returns the time the states are at.
func (s *System) Time() float64 { return s.t }
