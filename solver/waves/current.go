package waves

import "math"

// Current is SeaState's standard current model (CurrMod 1): three
// horizontal currents summed as vectors. Speeds in m/s, headings in degrees
// with WaveDir's convention (0 = towards +X).
type Current struct {
	Mod   int     // 0 none, 1 standard
	SSV0  float64 // sub-surface current speed at SWL
	SSDir float64
	NSRef float64 // near-surface reference depth (> 0)
	NSV0  float64 // near-surface current speed at SWL
	NSDir float64
	DIV   float64 // depth-independent current speed
	DIDir float64
}

// Velocity returns the current velocity at height z (≤ 0, from SWL) in water
// of depth h: sub-surface U0((z+h)/h)^(1/7), near-surface U0(z+href)/href
// down to −href, and the depth-independent speed.
func (c Current) Velocity(z, h float64) [3]float64 {
	var v [3]float64
	if c.Mod != 1 || z < -h {
		return v
	}
	add := func(u, dirDeg float64) {
		d := dirDeg * math.Pi / 180
		v[0] += u * math.Cos(d)
		v[1] += u * math.Sin(d)
	}
	if c.SSV0 != 0 && h > 0 {
		add(c.SSV0*math.Pow((z+h)/h, 1.0/7), c.SSDir)
	}
	if c.NSV0 != 0 && c.NSRef > 0 && z >= -c.NSRef {
		add(c.NSV0*(z+c.NSRef)/c.NSRef, c.NSDir)
	}
	if c.DIV != 0 {
		add(c.DIV, c.DIDir)
	}
	return v
}
