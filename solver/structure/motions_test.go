package structure

import (
	"math"
	"testing"
)

// The angular velocity reported for each blade load station must be the
// rate at which that station's frame (Motions' Orient) actually turns: the
// blade frame's rotation (rotor speed, tower and yaw motion) plus the rates
// of the bending slopes. Checked against a central difference of the frames
// along the state velocity, with every blade and tower DOF moving. The hub
// rate alone would miss the slope rates (here about 0.1 rad/s at the tip).
func TestBladeStationAngularVelocityMatchesFrameRate(t *testing.T) {
	p := uniformParams()
	p.DOF = DOFFlags{FlapDOF1: true, FlapDOF2: true, EdgeDOF: true, GenDOF: true, YawDOF: true,
		TwFADOF1: true, TwSSDOF1: true}
	m, err := NewModel(p, [][]float64{{10, 40, 60}, {10, 40, 60}, {10, 40, 60}})
	if err != nil {
		t.Fatal(err)
	}
	sys := NewSystem(m)
	st, err := m.InitialState()
	if err != nil {
		t.Fatal(err)
	}
	st.Q[DOFGeAz] = 0.3
	st.QD[DOFGeAz] = 1.2
	st.QD[DOFYaw] = 0.05
	st.QD[DOFTFA1] = 0.2
	st.QD[DOFTSS1] = -0.1
	for k := 0; k < p.NumBl; k++ {
		st.Q[DOFBlade(k, 0)] = 0.5
		st.QD[DOFBlade(k, 0)] = 0.8 * float64(k+1)
		st.QD[DOFBlade(k, 1)] = -0.3
		st.QD[DOFBlade(k, 2)] = 0.4
	}
	pitch := []float64{0.05, 0.05, 0.05}
	mo := m.NewMotions()
	sys.Motions(st, pitch, mo)

	const h = 1e-6
	at := func(sign float64) *Motions {
		s2 := &State{Q: append([]float64(nil), st.Q...), QD: append([]float64(nil), st.QD...)}
		for j := range s2.Q {
			s2.Q[j] += sign * h * st.QD[j]
		}
		out := m.NewMotions()
		NewSystem(m).Motions(s2, pitch, out)
		return out
	}
	plus, minus := at(1), at(-1)
	maxSlopeRate := 0.0
	for k := range mo.Blades {
		for i := range mo.Blades[k].Orient {
			f, fp, fm := toFrame(mo.Blades[k].Orient[i]), toFrame(plus.Blades[k].Orient[i]), toFrame(minus.Blades[k].Orient[i])
			d := frameDiff(&fp, &fm, 1/(2*h))
			want := angularVelocity(&f, &d)
			got := vec3(mo.Blades[k].AngVel[i])
			if e := got.sub(want); math.Sqrt(e.dot(e)) > 1e-3*math.Sqrt(want.dot(want)) {
				t.Errorf("blade %d station %d: angular velocity %v, frame rate %v", k+1, i+1, got, want)
			}
			hub := vec3(mo.HubRotVel)
			if e := want.sub(hub); math.Sqrt(e.dot(e)) > maxSlopeRate {
				maxSlopeRate = math.Sqrt(e.dot(e))
			}
		}
	}
	if maxSlopeRate < 0.01 {
		t.Fatalf("bending slope rates %.3g rad/s too small for the check to mean anything", maxSlopeRate)
	}
	t.Logf("largest station rate beyond the hub's: %.3g rad/s", maxSlopeRate)
}

func toFrame(r [3][3]float64) frame { return frame{r[0], r[1], r[2]} }
