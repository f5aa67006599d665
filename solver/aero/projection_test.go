package aero

import (
	"math"
	"testing"
)

func TestEulerRoundTrip(t *testing.T) {
	for _, th := range [][3]float64{{0.3, -0.2, 1.1}, {-2.5, 0.7, -0.4}, {2 * math.Pi / 3, -0.0436, 0.13}, {0, 0, 0}} {
		got := eulerExtract(eulerConstruct(th))
		for i := range th {
			if d := math.Remainder(got[i]-th[i], 2*math.Pi); math.Abs(d) > 1e-12 {
				t.Errorf("angles %v: extracted %v", th, got)
			}
		}
		// The matrix is a rotation: rows orthonormal.
		m := eulerConstruct(th)
		p := mulT(m, m)
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				want := 0.0
				if i == j {
					want = 1
				}
				if math.Abs(p[i][j]-want) > 1e-12 {
					t.Fatalf("angles %v: E·Eᵀ = %v", th, p)
				}
			}
		}
	}
}

// rotAbout rotates the rows of f (a frame) about unit axis a by angle q.
func rotAbout(f DCM, a Vec3, q float64) DCM {
	s, c := math.Sincos(q)
	var r DCM
	for i := range f {
		v := f[i]
		r[i] = add(add(scale(v, c), scale(cross(a, v), s)), scale(a, dot(a, v)*(1-c)))
	}
	return r
}

// A rigid rotor gives identical loads with and without the blade-root
// frames: for undeflected blades the legacy projection is the plane
// through the shaft axis and the span axis.
func TestLegacyProjectionRigidUnchanged(t *testing.T) {
	rot := simpleRotor(t, thinAirfoil(0.01))
	st := RigidState{HubPosition: Vec3{-5, 0, 90}, Tilt: -5 * math.Pi / 180, Precone: []float64{-2.5 * math.Pi / 180},
		Azimuth: 0.7, RotorSpeed: 1.1, Pitch: []float64{0.05, 0.08, 0.11}}
	wind := func(p Vec3) Vec3 { return Vec3{9 + 0.01*p[2], 0.5, 0} }
	var in Input
	if err := rot.RigidInput(st, wind, &in); err != nil {
		t.Fatal(err)
	}
	ref := rot.NewOutput()
	if err := rot.CalcOutput(0, &in, ref); err != nil {
		t.Fatal(err)
	}
	// Root frames: the pitched blade frame, i.e. the first node's frame
	// with its twist taken out about its span axis.
	in.BladeRoot = make([]DCM, 3)
	for k := range in.BladeRoot {
		n := in.Blades[k][0].Orientation
		in.BladeRoot[k] = rotAbout(n, n[2], rot.blades[k].Twist[0])
	}
	got := rot.NewOutput()
	if err := rot.CalcOutput(0, &in, got); err != nil {
		t.Fatal(err)
	}
	for k := range ref.Blades {
		for j := range ref.Blades[k] {
			a, b := ref.Blades[k][j], got.Blades[k][j]
			if math.Abs(a.Theta-b.Theta) > 1e-12 || math.Abs(a.Alpha-b.Alpha) > 1e-12 || norm(sub(a.Force, b.Force)) > 1e-9*(1+norm(a.Force)) {
				t.Fatalf("blade %d node %d: theta %g/%g alpha %g/%g force %v/%v", k+1, j+1, a.Theta, b.Theta, a.Alpha, b.Alpha, a.Force, b.Force)
			}
		}
	}
}

// An in-plane (edgewise) slope of a coned blade is "live sweep": the legacy
// projection drops it, so it neither twists the section nor tilts the
// (x', y') frame, whereas the plane through the shaft axis and the deflected
// span axis is turned by about slope × sin(cone). A flapwise slope is kept
// in the frame and does not twist the section either.
func TestLegacyProjectionDropsLiveSweep(t *testing.T) {
	hub := HubOrientation(0, -5*math.Pi/180)
	beta := -4 * math.Pi / 180
	root := mul(eulerConstruct([3]float64{0.4, beta, -0.1}), hub) // azimuth 0.4, cone, pitch 0.1
	noPitch := unpitchedRoot(root, hub)
	const slope = 0.02
	edge := rotAbout(root, noPitch[0], slope) // in-plane slope: about the root x axis
	theta, w := legacyProjection(edge, noPitch)
	if math.Abs(theta-0.1) > 1e-12 {
		t.Errorf("in-plane slope: theta %g, want the pitch 0.1", theta)
	}
	for i := 0; i < 3; i++ {
		if norm(sub(w[i], noPitch[i])) > 1e-12 {
			t.Errorf("in-plane slope: frame axis %d %v, want the unpitched root %v", i, w[i], noPitch[i])
		}
	}
	// The shaft-axis construction: y' ⊥ shaft and span, theta from y_l.
	zl := edge[2]
	yp := unit(cross(zl, hub[0]))
	xp := cross(yp, zl)
	shaftTheta := math.Atan2(dot(edge[1], xp), dot(edge[1], yp))
	if d := math.Abs(shaftTheta - 0.1); d < 0.3*slope*math.Abs(math.Sin(beta)) {
		t.Errorf("shaft-axis theta differs by only %g; the test no longer shows the second-order difference", d)
	}
	flap := rotAbout(root, noPitch[1], 0.08) // flapwise slope about the root y axis
	theta, w = legacyProjection(flap, noPitch)
	if math.Abs(theta-0.1) > 1e-12 {
		t.Errorf("flap slope: theta %g, want 0.1", theta)
	}
	if norm(sub(w[2], flap[2])) > 1e-12 || norm(sub(w[1], noPitch[1])) > 1e-12 {
		t.Errorf("flap slope: frame %v, want span axis %v and y %v", w, flap[2], noPitch[1])
	}
}
