package rosco

import "math"

// The discrete blocks below follow ROSCO's documented discretisations
// (Abbas et al. 2022, §2; ROSCO v2.9 Filters/Functions): bilinear
// (Tustin) transforms of the continuous filters, evaluated with the
// controller's sample interval, and every block reset to its input on the
// first call. Each call site owns its own value (ROSCO indexes them by a
// call-order counter instead).

// lowPass1 is the first-order low-pass filter H(s) = ω/(s+ω).
type lowPass1 struct{ yLast, uLast float64 }

// step advances the filter; when reset, its history is set to init first.
func (f *lowPass1) step(u, dt, omega float64, reset bool, init float64) float64 {
	if reset {
		f.yLast, f.uLast = init, init
	}
	wdt := omega * dt
	y := (-(wdt-2)*f.yLast + wdt*(u+f.uLast)) / (2 + wdt)
	f.yLast, f.uLast = y, u
	return y
}

// lowPass2 is the second-order low-pass filter H(s) = ω²/(s²+2ζωs+ω²).
type lowPass2 struct{ y1, y2, u1, u2 float64 }

func (f *lowPass2) step(u, dt, omega, zeta float64, reset bool) float64 {
	if reset {
		f.y1, f.y2, f.u1, f.u2 = u, u, u, u
	}
	w2 := dt * dt * omega * omega
	a2 := w2 + 4 + 4*zeta*omega*dt
	a1 := 2*w2 - 8
	a0 := w2 + 4 - 4*zeta*omega*dt
	y := (w2*u + 2*w2*f.u1 + w2*f.u2 - a1*f.y1 - a0*f.y2) / a2
	f.y2, f.y1 = f.y1, y
	f.u2, f.u1 = f.u1, u
	return y
}

// notch is the notch filter H(s) = (s²+2ωβ_num s+ω²)/(s²+2ωβ_den s+ω²).
type notch struct{ y1, y2, u1, u2 float64 }

func (f *notch) step(u, dt, omega, betaNum, betaDen float64, reset bool) float64 {
	if reset {
		f.y1, f.y2, f.u1, f.u2 = u, u, u, u
	}
	k := 2 / dt
	den := k*k + 2*omega*betaDen*k + omega*omega
	b2 := (k*k + 2*omega*betaNum*k + omega*omega) / den
	b1 := (2*omega*omega - 2*k*k) / den
	b0 := (k*k - 2*omega*betaNum*k + omega*omega) / den
	a1 := (2*omega*omega - 2*k*k) / den
	a0 := (k*k - 2*omega*betaDen*k + omega*omega) / den
	y := b2*u + b1*f.u1 + b0*f.u2 - a1*f.y1 - a0*f.y2
	f.y2, f.y1 = f.y1, y
	f.u2, f.u1 = f.u1, u
	return y
}

// piController is a PI with anti-windup by integrator clamping:
// I ← sat(I + Δt·ki·e), out = sat(kp·e + I). On reset the integrator and
// output are set to init (bumpless start from the current actuator value).
type piController struct{ iTerm float64 }

func (c *piController) step(e, kp, ki, lo, hi, dt, init float64, reset bool) float64 {
	if reset {
		c.iTerm = init
		return init
	}
	c.iTerm = saturate(c.iTerm+dt*ki*e, lo, hi)
	return saturate(kp*e+c.iTerm, lo, hi)
}

func saturate(v, lo, hi float64) float64 {
	return math.Max(math.Min(v, hi), lo)
}

// rateLimit limits the change from last to v to [minRate, maxRate]·dt.
func rateLimit(v, last, minRate, maxRate, dt float64) float64 {
	return last + saturate((v-last)/dt, minRate, maxRate)*dt
}

// rateLimitReset is ROSCO's ratelimit with its restart branch: on the
// controller's first call (reset) it does not limit anything and returns
// resetValue (ROSCO passes the measured pitch for the pitch limiters and the
// unlimited signal itself for the torque limiter), so the first demand starts
// from that value instead of one rate step away from it.
func rateLimitReset(v, last, minRate, maxRate, dt float64, reset bool, resetValue float64) float64 {
	if reset {
		return resetValue
	}
	return rateLimit(v, last, minRate, maxRate, dt)
}

// interp1 is clamped linear interpolation on increasing x.
func interp1(x, y []float64, q float64) float64 {
	n := len(x)
	if n == 0 {
		return 0
	}
	if q <= x[0] {
		return y[0]
	}
	if q >= x[n-1] {
		return y[n-1]
	}
	i := 1
	for i < n-1 && x[i] < q {
		i++
	}
	return y[i-1] + (y[i]-y[i-1])*(q-x[i-1])/(x[i]-x[i-1])
}

// bracket returns i, w such that q ≈ x[i]·(1−w) + x[i+1]·w with q clamped to
// the table range.
func bracket(x []float64, q float64) (int, float64) {
	n := len(x)
	if n == 1 || q <= x[0] {
		return 0, 0
	}
	if q >= x[n-1] {
		return n - 2, 1
	}
	i := 0
	for i < n-2 && x[i+1] < q {
		i++
	}
	return i, (q - x[i]) / (x[i+1] - x[i])
}
