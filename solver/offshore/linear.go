package offshore

import "strings"

// Linear is a module with a constant load, linear stiffness and damping and
// a constant added mass about the platform reference point, global frame:
//
//	F = F0 − K·x − B·ẋ − A·ẍ,  x = [Disp; Angles],  ẋ = [Vel; AngVel],
//
// the form of HydroDyn's additional platform loads (AddF0, AddCLin,
// AddBLin; HydroDyn user documentation, "Platform Additional Stiffness and
// Damping") with an added mass as potential-flow radiation's A∞. It has no
// states. Its channels LinFxi … LinMzi report the full load, −A·ẍ included.
type Linear struct {
	F0      [6]float64
	K, B, A [6][6]float64
	// Label is the name the module reports (default "Linear").
	Label string
}

// Name implements Module.
func (l *Linear) Name() string {
	if l.Label != "" {
		return l.Label
	}
	return "Linear"
}

// Init implements Module.
func (l *Linear) Init(u *Input, y *Output) error { return l.CalcOutput(0, u, y) }

// UpdateStates implements Module (no states).
func (l *Linear) UpdateStates(t, dt float64, uT, uNext *Input) error { return nil }

func sixOf(a, b Vec3) [6]float64 { return [6]float64{a[0], a[1], a[2], b[0], b[1], b[2]} }

// load returns F0 − K·x − B·ẋ, and with acc also − A·ẍ.
func (l *Linear) load(u *Input, acc bool) [6]float64 {
	r := &u.Platform
	x := sixOf(r.Disp, r.Angles)
	v := sixOf(r.Vel, r.AngVel)
	a := sixOf(r.Acc, r.AngAcc)
	f := l.F0
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			f[i] -= l.K[i][j]*x[j] + l.B[i][j]*v[j]
			if acc {
				f[i] -= l.A[i][j] * a[j]
			}
		}
	}
	return f
}

// CalcOutput implements Module.
func (l *Linear) CalcOutput(t float64, u *Input, y *Output) error {
	f := l.load(u, false)
	y.Platform = Load{Force: Vec3{f[0], f[1], f[2]}, Moment: Vec3{f[3], f[4], f[5]}}
	y.AddedMass = l.A
	return y.Platform.Check(l.Name())
}

// Channel implements Module: LinFxi, LinFyi, LinFzi (N), LinMxi, LinMyi,
// LinMzi (N·m).
func (l *Linear) Channel(name string) (Channel, bool) {
	names := []string{"LinFxi", "LinFyi", "LinFzi", "LinMxi", "LinMyi", "LinMzi"}
	for i, n := range names {
		if strings.EqualFold(n, name) {
			unit := "N"
			if i >= 3 {
				unit = "N-m"
			}
			return Channel{Name: name, Unit: unit, Get: func(u *Input) float64 { return l.load(u, true)[i] }}, true
		}
	}
	return Channel{}, false
}
