package rosco

// highPass1 is the first-order high-pass filter H(s) = s/(s+ω), bilinear
// transform; on reset its history is set to init (ROSCO HPFilter).
type highPass1 struct{ yLast, uLast float64 }

func (f *highPass1) step(u, dt, omega float64, reset bool, init float64) float64 {
	if reset {
		f.yLast, f.uLast = init, init
	}
	k := 2 / dt
	y := (k*(u-f.uLast) - (omega-k)*f.yLast) / (k + omega)
	f.yLast, f.uLast = y, u
	return y
}

// floatFeedback is ROSCO's nacelle-velocity feedback to collective pitch
// (Fl_Mode 1: tower-top fore-aft acceleration, record 53; Fl_Mode 2: nacelle
// nodding angular acceleration, record 83). The acceleration is band-passed
// (2nd-order low-pass F_FlCornerFreq, 1st-order high-pass F_FlHighPassFreq,
// optional notches F_TwrTopNotch_Ind), integrated to a velocity and fed back
// with gain −Fl_Kp, scheduled on the filtered wind estimate when Fl_n > 1
// (Abbas et al. 2022 §2.6, "floating feedback").
type floatFeedback struct {
	lp      lowPass2
	hp      highPass1
	notches []notch
	vel     piController
}

// step returns the filtered acceleration and the pitch increment (rad).
func (f *floatFeedback) step(p *Params, acc, windF, dt float64, reset bool) (accF, pitch float64) {
	accF = f.lp.step(acc, dt, p.FFlCornerFreq[0], p.FFlCornerFreq[1], reset)
	accF = f.hp.step(accF, dt, p.FFlHighPassFreq, reset, accF)
	for i, k := range p.FTwrTopNotchInd {
		accF = f.notches[i].step(accF, dt, p.FNotchFreqs[k-1], p.FNotchBetaNum[k-1], p.FNotchBetaDen[k-1], reset)
	}
	// Integration with a PI of gains (0, 1), saturated at ±100 m/s as in ROSCO.
	vel := f.vel.step(accF, 0, 1, -100, 100, dt, 0, reset)
	kp := p.FlKp[0]
	if len(p.FlKp) > 1 {
		kp = interp1(p.FlU, p.FlKp, windF)
	}
	// The velocity is an error from a zero set point: the increment is
	// (0 − v)·Fl_Kp (ROSCO FloatingFeedback), so with ROSCO's negative
	// gains a nacelle moving downwind pitches the blades to feather.
	return accF, -kp * vel
}
