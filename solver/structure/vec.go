package structure

import "math"

// vec3 is a vector in the global (inertial) frame unless stated otherwise.
type vec3 [3]float64

func (a vec3) add(b vec3) vec3             { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec3) sub(b vec3) vec3             { return vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a vec3) scale(s float64) vec3        { return vec3{a[0] * s, a[1] * s, a[2] * s} }
func (a vec3) dot(b vec3) float64          { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a vec3) axpy(s float64, b vec3) vec3 { return vec3{a[0] + s*b[0], a[1] + s*b[1], a[2] + s*b[2]} }
func (a vec3) cross(b vec3) vec3 {
	return vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// frame is an orthonormal triad; f[i] is the i-th local axis expressed in the
// global frame. Applying it to local coordinates l gives Σ l_i f[i].
type frame [3]vec3

var identityFrame = frame{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

func (f *frame) apply(l vec3) vec3 {
	return vec3{
		l[0]*f[0][0] + l[1]*f[1][0] + l[2]*f[2][0],
		l[0]*f[0][1] + l[1]*f[1][1] + l[2]*f[2][1],
		l[0]*f[0][2] + l[1]*f[1][2] + l[2]*f[2][2],
	}
}

// local expresses global vector v in the frame's axes.
func (f *frame) local(v vec3) vec3 { return vec3{f[0].dot(v), f[1].dot(v), f[2].dot(v)} }

// rotX rotates the frame about its own x axis by a (right hand).
func (f frame) rotX(a float64) frame {
	c, s := math.Cos(a), math.Sin(a)
	return frame{f[0], f[1].scale(c).axpy(s, f[2]), f[2].scale(c).axpy(-s, f[1])}
}

// rotY rotates the frame about its own y axis by a.
func (f frame) rotY(a float64) frame {
	c, s := math.Cos(a), math.Sin(a)
	return frame{f[0].scale(c).axpy(-s, f[2]), f[1], f[0].scale(s).axpy(c, f[2])}
}

// rotZ rotates the frame about its own z axis by a.
func (f frame) rotZ(a float64) frame {
	c, s := math.Cos(a), math.Sin(a)
	return frame{f[0].scale(c).axpy(s, f[1]), f[1].scale(c).axpy(-s, f[0]), f[2]}
}

// rotationVector returns the frame obtained by rotating the global axes by
// the rotation vector v (Rodrigues' formula).
func rotationVector(v vec3) frame {
	th := math.Sqrt(v.dot(v))
	var f frame
	if th < 1e-12 {
		for i := 0; i < 3; i++ {
			f[i] = identityFrame[i].add(v.cross(identityFrame[i]))
		}
		return f
	}
	k := v.scale(1 / th)
	c, s := math.Cos(th), math.Sin(th)
	for i := 0; i < 3; i++ {
		e := identityFrame[i]
		f[i] = e.scale(c).add(k.cross(e).scale(s)).add(k.scale(k.dot(e) * (1 - c)))
	}
	return f
}

// bendFrame returns frame f turned by the rotation vector rx·f[0] + ry·f[1]
// (a blade section's bending slopes). In f's own axes the rotation vector
// is v = (rx, ry, 0) and Rodrigues' formula reads
// R = I + A·[v×] + B·(v vᵀ − θ² I), A = sin θ/θ, B = (1 − cos θ)/θ²; the
// turned axes are f·R's columns. For the small slopes of a blade, A and B
// come from their Taylor series (exact to round-off below θ = 0.1), so no
// square root or sine is evaluated.
func bendFrame(f *frame, rx, ry float64) frame {
	t2 := rx*rx + ry*ry
	var a, b float64
	if t2 < 0.01 {
		a = 1 - t2/6*(1-t2/20*(1-t2/42*(1-t2/72*(1-t2/110))))
		b = 0.5 * (1 - t2/12*(1-t2/30*(1-t2/56*(1-t2/90*(1-t2/132)))))
	} else {
		th := math.Sqrt(t2)
		s, c := math.Sincos(th)
		a, b = s/th, (1-c)/t2
	}
	return frame{
		f.apply(vec3{1 - b*ry*ry, b * rx * ry, -a * ry}),
		f.apply(vec3{b * rx * ry, 1 - b*rx*rx, a * rx}),
		f.apply(vec3{a * ry, -a * rx, 1 - b*t2}),
	}
}
