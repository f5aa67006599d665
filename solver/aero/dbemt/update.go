package dbemt

// step advances one component of one node's filters over dt.
//
// With the quasi-steady input linear over the step, q(s) = q0 + B s,
// B = (q1-q0)/dt, and tau1, tau2 constant, the first filter
// W_int + tau1 W_int' = q + k tau1 q' has the exact solution
//
//	W_int(s) = P1 + B s + C1 exp(-s/tau1),  P1 = q0 - (1-k) tau1 B,  C1 = W_int(0) - P1
//
// and the second, W + tau2 W' = W_int, driven by it,
//
//	W(s) = P1 - B tau2 + B s + C1 tau1/(tau1-tau2) exp(-s/tau1) + C2 exp(-s/tau2)
//	C2   = W(0) - (P1 - B tau2) - C1 tau1/(tau1-tau2)
//
// (particular solutions of a first-order lag for a ramp and an exponential
// forcing). tau2 < tau1 always (tau2/tau1 is in [0.13, 0.39]), so the
// denominators are safe. e1 = exp(-dt/tau1), e2 = exp(-dt/tau2).
func step(wInt0, w0, q0, q1, dt, tau1, tau2, e1, e2 float64) (wInt, w float64) {
	b := (q1 - q0) / dt
	p1 := q0 - (1-KOye)*tau1*b
	c1 := wInt0 - p1
	wInt = p1 + b*dt + c1*e1
	g := tau1 / (tau1 - tau2)
	c2 := w0 - (p1 - b*tau2) - c1*g
	w = p1 - b*tau2 + b*dt + c1*g*e1 + c2*e2
	return wInt, w
}
