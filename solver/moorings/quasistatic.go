package moorings

import (
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// QuasiStatic is a mooring system of independent elastic catenaries between
// fixed anchors and platform fairleads (the MAP++-equivalent model,
// CompMooring = 1): the line loads follow the platform position instantly,
// with no line dynamics.
type QuasiStatic struct {
	ref   [3]float64
	depth float64
	lines []qsLine
}

type qsLine struct {
	id     int
	cat    Catenary
	anchor [3]float64
	fair   RigidPoint
	guess  [2]float64 // last solution, to start the next Newton solve
	noBed  bool
}

// QSLine describes one line for NewQuasiStatic.
type QSLine struct {
	ID       int
	Catenary Catenary
	Anchor   [3]float64 // inertial frame, m
	Fairlead [3]float64 // platform frame, relative to the reference point, m
	NoSeabed bool       // no seabed contact even with the anchor on the seabed
}

// NewQuasiStatic builds the quasi-static system. ref is the undisplaced
// platform reference point; depth the water depth (an anchor at z = −depth
// lets its line rest on the seabed).
func NewQuasiStatic(lines []QSLine, ref [3]float64, depth float64) (*QuasiStatic, error) {
	q := &QuasiStatic{ref: ref, depth: depth}
	for _, l := range lines {
		if !(l.Catenary.L > 0) || !(l.Catenary.W > 0) || !(l.Catenary.EA > 0) {
			return nil, fmt.Errorf("moorings: line %d: length, apparent weight and EA must be > 0", l.ID)
		}
		q.lines = append(q.lines, qsLine{id: l.ID, cat: l.Catenary, anchor: l.Anchor, fair: RigidPoint{Body: l.Fairlead}, noBed: l.NoSeabed})
	}
	return q, nil
}

// QuasiStaticFromMoorDyn builds the catenary equivalent of a MoorDyn system
// whose lines each run from a fixed point to a vessel point (friction from
// the axial seabed friction coefficient). Other topologies are refused.
func QuasiStaticFromMoorDyn(md *deck.MoorDyn, env Env, ref [3]float64) (*QuasiStatic, error) {
	rho, g, depth := env.WaterDensity, env.Gravity, env.WaterDepth
	if md.Options.WtrDens > 0 {
		rho = md.Options.WtrDens
	}
	if md.Options.Gravity > 0 {
		g = md.Options.Gravity
	}
	if md.Options.WtrDpth > 0 {
		depth = md.Options.WtrDpth
	}
	var lines []QSLine
	for _, dl := range md.Lines {
		lt := md.LineType(dl.Type)
		a, b := md.Point(dl.AttachA), md.Point(dl.AttachB)
		if lt == nil || a == nil || b == nil {
			return nil, fmt.Errorf("moorings: line %d: undefined line type or point", dl.ID)
		}
		if a.Attachment == deck.MDVessel {
			a, b = b, a
		}
		if a.Attachment != deck.MDFixed || b.Attachment != deck.MDVessel {
			return nil, &deck.Error{File: md.Path, Line: dl.Line, Variable: "LINES", Msg: fmt.Sprintf("line %d: the quasi-static catenary model needs lines from a fixed anchor to a vessel fairlead", dl.ID), Err: deck.ErrNotRun}
		}
		area := math.Pi / 4 * lt.Diam * lt.Diam
		lines = append(lines, QSLine{
			ID:       dl.ID,
			Catenary: Catenary{L: dl.UnstrLen, W: (lt.MassDen - rho*area) * g, EA: lt.EA, CB: md.Options.MuKA},
			Anchor:   [3]float64{a.X, a.Y, a.Z},
			Fairlead: [3]float64{b.X, b.Y, b.Z},
		})
	}
	return NewQuasiStatic(lines, ref, depth)
}

// LineForce is one line's solution: the force the line applies to its
// fairlead (inertial frame) and its fairlead and anchor tensions.
type LineForce struct {
	Force    [3]float64
	Fairlead [3]float64 // fairlead position
	State    CatenaryState
}

// Tension returns the fairlead tension magnitude.
func (f LineForce) Tension() float64 { return math.Hypot(f.State.HF, f.State.VF) }

// AnchorTension returns the anchor tension magnitude.
func (f LineForce) AnchorTension() float64 { return math.Hypot(f.State.HA, f.State.VA) }

// Loads returns the mooring loads on the platform about its displaced
// reference point for the platform motion u, and each line's solution.
func (q *QuasiStatic) Loads(u Motion) (Loads, []LineForce, error) {
	var total Loads
	o, out, err := q.solveAll(u)
	if err != nil {
		return Loads{}, nil, err
	}
	for _, lf := range out {
		total.add(o, lf.Fairlead, lf.Force)
	}
	return total, out, nil
}

// solveAll solves every line for the platform motion u; o is the displaced
// reference point.
func (q *QuasiStatic) solveAll(u Motion) ([3]float64, []LineForce, error) {
	o := [3]float64{q.ref[0] + u.Disp[0], q.ref[1] + u.Disp[1], q.ref[2] + u.Disp[2]}
	out := make([]LineForce, len(q.lines))
	for i := range q.lines {
		l := &q.lines[i]
		r, _, _ := l.fair.Kinematics(q.ref, &u)
		lf, err := l.solve(r, q.depth)
		if err != nil {
			return o, nil, err
		}
		out[i] = lf
	}
	return o, out, nil
}

func (l *qsLine) solve(r [3]float64, depth float64) (LineForce, error) {
	dx, dy := r[0]-l.anchor[0], r[1]-l.anchor[1]
	X := math.Hypot(dx, dy)
	Z := r[2] - l.anchor[2]
	onBed := !l.noBed && l.anchor[2] <= -depth+1e-6*depth
	var guess *[2]float64
	if l.guess[0] > 0 {
		guess = &l.guess
	}
	st, err := l.cat.Solve(X, Z, onBed, guess)
	if err != nil && guess != nil {
		st, err = l.cat.Solve(X, Z, onBed, nil)
	}
	if err != nil {
		return LineForce{}, fmt.Errorf("moorings: line %d: %w", l.id, err)
	}
	l.guess = [2]float64{st.HF, st.VF}
	ex, ey := dx/X, dy/X
	return LineForce{Force: [3]float64{-st.HF * ex, -st.HF * ey, -st.VF}, Fairlead: r, State: st}, nil
}

// Stiffness returns the linearised 6×6 stiffness K = −∂F/∂q of the mooring
// loads F (forces and moments about the displaced reference point) with
// respect to the platform displacement q (surge, sway, heave and small
// rotations about the inertial axes), at the platform position u. Each
// line's 3×3 fairlead stiffness comes from the inverse of the catenary
// flexibility ∂(x, z)/∂(HF, VF) and the turning of its horizontal plane;
// the rigid-body transfer to the reference point adds the geometric terms
// of the force moving with the fairlead.
func (q *QuasiStatic) Stiffness(u Motion) ([6][6]float64, error) {
	var K [6][6]float64
	o, sols, err := q.solveAll(u)
	if err != nil {
		return K, err
	}
	for i, lf := range sols {
		r := lf.Fairlead
		D := q.lines[i].forceGradient(r, lf.State)
		a := [3]float64{r[0] - o[0], r[1] - o[1], r[2] - o[2]}
		A := skew(a)
		Fx := skew(lf.Force)
		DA := matMul(D, A)
		AD := matMul(A, D)
		ADA := matMul(A, DA)
		FA := matMul(Fx, A)
		for m := 0; m < 3; m++ {
			for n := 0; n < 3; n++ {
				// dF = D dx − D[a×] dθ;
				// dM = [a×]D dx − [a×]D[a×] dθ + [F×][a×] dθ.
				K[m][n] -= D[m][n]
				K[m][3+n] -= -DA[m][n]
				K[3+m][n] -= AD[m][n]
				K[3+m][3+n] -= -ADA[m][n] + FA[m][n]
			}
		}
	}
	return K, nil
}

// forceGradient returns ∂F/∂r of the force a line applies to its fairlead
// with respect to the fairlead position.
func (l *qsLine) forceGradient(r [3]float64, st CatenaryState) [3][3]float64 {
	dx, dy := r[0]-l.anchor[0], r[1]-l.anchor[1]
	X := math.Hypot(dx, dy)
	e := [2]float64{dx / X, dy / X}
	J := st.Jac
	det := J[0][0]*J[1][1] - J[0][1]*J[1][0]
	// ∂(HF, VF)/∂(X, Z) = J⁻¹.
	dHdX, dHdZ := J[1][1]/det, -J[0][1]/det
	dVdX, dVdZ := -J[1][0]/det, J[0][0]/det
	var D [3][3]float64
	for m := 0; m < 2; m++ {
		for n := 0; n < 2; n++ {
			// F_h = −HF e; ∂e/∂r_h = (I − e eᵀ)/X.
			id := 0.0
			if m == n {
				id = 1
			}
			D[m][n] = -dHdX*e[m]*e[n] - st.HF/X*(id-e[m]*e[n])
		}
		D[m][2] = -dHdZ * e[m]
		D[2][m] = -dVdX * e[m]
	}
	D[2][2] = -dVdZ
	return D
}

func skew(a [3]float64) [3][3]float64 {
	return [3][3]float64{{0, -a[2], a[1]}, {a[2], 0, -a[0]}, {-a[1], a[0], 0}}
}

func matMul(a, b [3][3]float64) [3][3]float64 {
	var c [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}

// QuasiStaticFromMAP builds the system of a MAP++ input file: each line
// from its fix node to its vessel node, copied about the vertical axis by
// the file's repeat angles (counter-clockwise seen from above). A fix node
// at Z = "depth" lies on the seabed.
func QuasiStaticFromMAP(m *deck.MAPFile, env Env, ref [3]float64) (*QuasiStatic, error) {
	var lines []QSLine
	angles := append([]float64{0}, m.Repeat...)
	for k, ang := range angles {
		c, s := math.Cos(ang*math.Pi/180), math.Sin(ang*math.Pi/180)
		rot := func(x, y, z float64) [3]float64 { return [3]float64{c*x - s*y, s*x + c*y, z} }
		for _, ml := range m.Lines {
			lt := m.LineType(ml.Type)
			a, f := m.Node(ml.NodeAnch), m.Node(ml.NodeFair)
			if lt == nil || a == nil || f == nil {
				return nil, fmt.Errorf("moorings: MAP++ line %d: undefined line type or node", ml.ID)
			}
			az := a.Z
			if a.ZDepth {
				az = -env.WaterDepth
			}
			area := math.Pi / 4 * lt.Diam * lt.Diam
			cat := Catenary{L: ml.UnstrLen, W: (lt.MassDen - env.WaterDensity*area) * env.Gravity, EA: lt.EA, CB: lt.CB}
			q := QSLine{ID: k*len(m.Lines) + ml.ID, Catenary: cat, Anchor: rot(a.X, a.Y, az), Fairlead: rot(f.X, f.Y, f.Z)}
			if ml.OmitContact {
				q.NoSeabed = true
			}
			lines = append(lines, q)
		}
	}
	return NewQuasiStatic(lines, ref, env.WaterDepth)
}
