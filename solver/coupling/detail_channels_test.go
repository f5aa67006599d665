package coupling

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// runColumns runs d for tmax seconds writing every step and returns the
// channels by name with their units.
func runColumns(t *testing.T, d *deck.Deck, tmax float64, names []string) (time []float64, col map[string][]float64, unit map[string]string) {
	t.Helper()
	d.Main.DT_Out.Default = true
	res, err := Run(context.Background(), d, Options{OutPath: "-", TMax: tmax, KeepData: true, Channels: names}, nil)
	if err != nil {
		t.Fatal(err)
	}
	col, unit = map[string][]float64{}, map[string]string{}
	for i, c := range res.Channels {
		col[c.Name], unit[c.Name] = res.Data[i], c.Unit
	}
	return res.Time, col, unit
}

// level is the largest magnitude of a series.
func level(x []float64) float64 {
	l := 0.0
	for _, v := range x {
		l = math.Max(l, math.Abs(v))
	}
	return l
}

// rateMatches reports the first step where rate is not the central
// difference of x within tol (steps 2 … n−3, away from the start).
func rateMatches(time, x, rate []float64, tol float64) (int, float64, bool) {
	for k := 2; k < len(time)-2; k++ {
		fd := (x[k+1] - x[k-1]) / (time[k+1] - time[k-1])
		if math.Abs(fd-rate[k]) > tol {
			return k, fd, false
		}
	}
	return 0, 0, true
}

// ElastoDyn's motion channels beyond the common set (structure.DetailOutputs)
// on the NREL 5 MW flexible onshore deck, starting up at 8 m/s:
//   - the "relative to g" accelerations differ from the absolute ones by
//     gravity's (0, 0, +g) turned into the channel's frame: |ALg − AL| = g
//     to 1e-9 in every frame (tower top p, shaft s, tower gage, blade tip
//     and blade gage element frames), and its vertical share is g·cos of
//     the frame's small tilt (p, tower gage) or g·cos(azimuth) along blade
//     1's axis (within the shaft tilt, precone and flap slope, 5 % of g);
//   - rates: the tower top's velocity in frame p is the central difference
//     of its deflection, its acceleration that of its velocity, its
//     angular velocity about y_p that of its pitch deflection and its
//     angular acceleration that of its angular velocity (2 % of each
//     channel's level);
//   - a tower gage's local acceleration is the second difference of its
//     deflection (3 % of its level);
//   - positions: on land the tower top's displacement in the inertial
//     frame is its deflection (x and z equal to 1e-12), a tower gage's
//     height minus its rest height is its axial deflection, the gage's
//     rotation in the inertial frame equals its angular deflection to
//     second order, two neighbouring gages' mean slope is the secant of
//     their deflections (1 %), the tip's slopes are the secant of the deflection over
//     the last half element (3 % of their level) and its acceleration
//     along the blade scales with the radius from the last node's (2 %);
//   - the shaft gage's bending moment in the non-rotating frame has the
//     rotating frame's magnitude and is the apex moment plus ShftGagL times
//     the shear force; the LSS gage azimuth is the rotor azimuth less the
//     drivetrain's torsion; the yaw-bearing loads in the nacelle frame are
//     those of frame p turned by the yaw angle;
//   - the other names give the same values, and pitch-rate and
//     yaw-friction channels are INVALID.
func TestElastoDynDetailChannels(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-outputs", "nrel5mw_steady8_flex_bem", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	ed := d.ElastoDyn
	ed.NTwGages, ed.TwrGagNd = 3, []int{ed.TwrNodes / 2, ed.TwrNodes, ed.TwrNodes - 1}
	ed.NBlGages, ed.BldGagNd = 1, []int{ed.BldNodes}
	names := []string{"Azimuth", "Q_DrTr", "RotSpeed", "NacYaw", "YawPos", "BldPitch1", "BlPitch1", "PtchPMzb1",
		"YawBrTAxp", "YawBrTAyp", "YawBrTAzp", "YawBrTAgxp", "YawBrTAgyp", "YawBrTAgzp",
		"YawBrTDxp", "YawBrTDyp", "YawBrTDzp", "YawBrTDxt", "YawBrTDyt", "YawBrTDzt", "TTDspAx", "TwrTpTDxi", "TwrTpTDyi", "TwrTpTDzi", "YawBrTDxi",
		"YawBrTVxp", "YawBrTVyp", "YawBrRDxt", "YawBrRDyt", "TTDspPtch", "YawBrRVxp", "YawBrRVyp", "YawBrRAxp", "YawBrRAyp",
		"NcIMUTAxs", "NcIMUTAys", "NcIMUTAzs", "NcIMUTAgxs", "NcIMUTAgys", "NcIMUTAgzs",
		"TwHt1ALxt", "TwHt1ALyt", "TwHt1ALzt", "TwHt1ALgxt", "TwHt1ALgyt", "TwHt1ALgzt",
		"TwHt2ALxt", "TwHt2ALyt", "TwHt2ALzt", "TwHt2ALgxt", "TwHt2ALgyt", "TwHt2ALgzt",
		"TwHt2TPzi", "TwHt2TDxt", "TwHt2TDyt", "TwHt2TDzt", "TwHt2RDxt", "TwHt2RDyt", "TwHt2RPxi", "TwHt2RPyi", "TwHt2RPzi",
		"TwHt3TDxt", "TwHt3TDyt", "TwHt3RDxt", "TwHt3RDyt",
		"TipALxb1", "TipALyb1", "TipALzb1", "TipALgxb1", "TipALgyb1", "TipALgzb1", "TipRDxb1", "TipRDyb1", "RollDefl1", "PtchDefl1",
		"TipDxb1", "TipDyb1", "Spn1TDxb1", "Spn1TDyb1", "Spn1ALzb1", "Spn1ALxb1", "Spn1ALyb1", "Spn1ALgxb1", "Spn1ALgyb1", "Spn1ALgzb1",
		"LSSGagMya", "LSSGagMza", "LSSGagMys", "LSSGagMzs", "LSSTipMys", "LSSTipMzs", "LSShftFys", "LSShftFzs", "LSSGagPxa",
		"YawBrFxp", "YawBrFyp", "YawBrFzp", "YawBrFxn", "YawBrFyn", "YawBrFzn", "YawBrMxp", "YawBrMyp", "YawBrMxn", "YawBrMzn", "YawBrMzp",
		"LSShftTq", "RotTorq", "LSSGagFxa", "RotThrust", "NacYawA", "BldPRate1", "BldPAcc2", "YawFriMom", "YawFriMz", "OmegaYF"}
	time, col, unit := runColumns(t, d, 3, names)
	last := len(time) - 1
	const g = 9.80665
	if d.Main.Gravity != g {
		t.Fatalf("the deck's gravity %g", d.Main.Gravity)
	}

	// Gravity turned into each frame.
	for _, f := range []struct{ a, ag string }{
		{"YawBrTA%sp", "YawBrTAg%sp"}, {"NcIMUTA%ss", "NcIMUTAg%ss"}, {"TwHt1AL%st", "TwHt1ALg%st"},
		{"TwHt2AL%st", "TwHt2ALg%st"}, {"TipAL%sb1", "TipALg%sb1"}, {"Spn1AL%sb1", "Spn1ALg%sb1"},
	} {
		for k := range time {
			var d [3]float64
			for i, ax := range []string{"x", "y", "z"} {
				d[i] = col[fmt.Sprintf(f.ag, ax)][k] - col[fmt.Sprintf(f.a, ax)][k]
			}
			if n := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2]); math.Abs(n-g) > 1e-9*g {
				t.Fatalf("t=%g s: |%s − %s| = %.12g, want g", time[k], f.ag, f.a, n)
			}
		}
	}
	for k := range time {
		for _, n := range []string{"YawBrTA%sp", "TwHt1AL%st", "TwHt2AL%st"} {
			ag := "YawBrTAgzp"
			if n[0] == 'T' {
				ag = n[:5] + "ALgzt"
			}
			if dz := col[ag][k] - col[fmt.Sprintf(n, "z")][k]; math.Abs(dz-g) > 1e-4*g {
				t.Fatalf("t=%g s: %s − %s = %g, want g·cos(tilt) ≈ g", time[k], ag, fmt.Sprintf(n, "z"), dz)
			}
		}
		want := g * math.Cos(col["Azimuth"][k]*deg)
		if dz := col["TipALgzb1"][k] - col["TipALzb1"][k]; math.Abs(dz-want) > 0.05*g {
			t.Fatalf("t=%g s: TipALgzb1 − TipALzb1 = %g, want g·cos(azimuth) = %g", time[k], dz, want)
		}
	}

	// Rates.
	for _, r := range []struct{ x, rate string }{
		{"YawBrTDxp", "YawBrTVxp"}, {"YawBrTDyp", "YawBrTVyp"}, {"YawBrTVxp", "YawBrTAxp"}, {"YawBrTVyp", "YawBrTAyp"},
		{"YawBrRDyt", "YawBrRVyp"}, {"YawBrRDxt", "YawBrRVxp"}, {"YawBrRVyp", "YawBrRAyp"}, {"YawBrRVxp", "YawBrRAxp"},
	} {
		tol := 0.02 * level(col[r.rate])
		if tol == 0 {
			t.Fatalf("%s is zero throughout", r.rate)
		}
		if k, fd, ok := rateMatches(time, col[r.x], col[r.rate], tol); !ok {
			t.Errorf("t=%g s: %s = %g, the rate of %s is %g (± %g)", time[k], r.rate, col[r.rate][k], r.x, fd, tol)
		}
	}

	// The tower gage's acceleration along its local axes is the second
	// difference of its deflection (the local frame is tilted by a slope of
	// a few hundredths of a degree; 3 % of the level).
	for _, ax := range []string{"x", "y"} {
		x, a := col["TwHt2TD"+ax+"t"], col["TwHt2AL"+ax+"t"]
		tol := 0.03 * level(a)
		for k := 2; k < len(time)-2; k++ {
			h := time[k+1] - time[k]
			if dd := (x[k+1] - 2*x[k] + x[k-1]) / (h * h); math.Abs(dd-a[k]) > tol {
				t.Fatalf("t=%g s: TwHt2AL%st %g, the second difference of TwHt2TD%st %g (± %g)", time[k], ax, a[k], ax, dd, tol)
			}
		}
	}

	// Positions and slopes.
	dh := (ed.TowerHt - ed.TowerBsHt) / float64(ed.TwrNodes)
	hGage := ed.TowerBsHt + (float64(ed.TwrNodes)-0.5)*dh
	dr := (ed.TipRad - ed.HubRad) / float64(ed.BldNodes)
	rNode := ed.HubRad + (float64(ed.BldNodes)-0.5)*dr
	rdx, rdy := level(col["TipRDxb1"]), level(col["TipRDyb1"])
	for k := range time {
		for _, c := range []struct {
			what      string
			got, want float64
			tol       float64
		}{
			{"TwrTpTDxi vs YawBrTDxt", col["TwrTpTDxi"][k], col["YawBrTDxt"][k], 1e-12},
			{"TwrTpTDyi vs YawBrTDyt", col["TwrTpTDyi"][k], col["YawBrTDyt"][k], 1e-12},
			{"TwrTpTDzi vs YawBrTDzt", col["TwrTpTDzi"][k], col["YawBrTDzt"][k], 1e-12},
			{"YawBrTDxp vs YawBrTDxt", col["YawBrTDxp"][k], col["YawBrTDxt"][k], 1e-3 * level(col["YawBrTDxt"])},
			{"TwHt2TPzi − rest height vs TwHt2TDzt", col["TwHt2TPzi"][k] - hGage, col["TwHt2TDzt"][k], 1e-9},
			{"TwHt2RPxi vs TwHt2RDxt", col["TwHt2RPxi"][k], col["TwHt2RDxt"][k], 1e-4},
			{"TwHt2RPyi vs TwHt2RDyt", col["TwHt2RPyi"][k], col["TwHt2RDyt"][k], 1e-4},
			{"TwHt2RPzi", col["TwHt2RPzi"][k], 0, 1e-4},
			// Between two neighbouring gages the mean slope is the secant
			// of the deflection (deflection toward +y turns about −x).
			{"TwHt2/3 RDyt vs the secant of TDxt (deg)", (col["TwHt2RDyt"][k] + col["TwHt3RDyt"][k]) / 2, (col["TwHt2TDxt"][k] - col["TwHt3TDxt"][k]) / dh * r2d, 0.01 * level(col["TwHt2RDyt"])},
			{"TwHt2/3 RDxt vs the secant of −TDyt (deg)", (col["TwHt2RDxt"][k] + col["TwHt3RDxt"][k]) / 2, -(col["TwHt2TDyt"][k] - col["TwHt3TDyt"][k]) / dh * r2d, 0.01 * level(col["TwHt2RDxt"])},
			{"TipRDyb1 vs the secant of TipDxb1 (deg)", col["TipRDyb1"][k], (col["TipDxb1"][k] - col["Spn1TDxb1"][k]) / (ed.TipRad - rNode) * r2d, 0.03 * rdy},
			{"TipRDxb1 vs the secant of −TipDyb1 (deg)", col["TipRDxb1"][k], -(col["TipDyb1"][k] - col["Spn1TDyb1"][k]) / (ed.TipRad - rNode) * r2d, 0.03 * rdx},
			{"TipALzb1 vs Spn1ALzb1·TipRad/r", col["TipALzb1"][k], col["Spn1ALzb1"][k] * ed.TipRad / rNode, 0.02 * level(col["TipALzb1"])},
		} {
			if math.Abs(c.got-c.want) > c.tol {
				t.Fatalf("t=%g s: %s: %g, want %g ± %g", time[k], c.what, c.got, c.want, c.tol)
			}
		}
	}
	if ax := col["YawBrTDzt"][last]; !(ax < 0 && ax > -0.01*math.Abs(col["YawBrTDxt"][last])) {
		t.Errorf("tower-top axial deflection %g m with fore-aft %g m: want a small shortening", ax, col["YawBrTDxt"][last])
	}
	if col["TwHt2TDzt"][last] >= 0 {
		t.Errorf("TwHt2TDzt %g m: want a shortening", col["TwHt2TDzt"][last])
	}
	if rdy == 0 || col["RotSpeed"][last] == 0 {
		t.Fatalf("no flap slope (%g) or rotor speed (%g)", rdy, col["RotSpeed"][last])
	}

	// Shaft and yaw bearing.
	for k := range time {
		ma := math.Hypot(col["LSSGagMya"][k], col["LSSGagMza"][k])
		ms := math.Hypot(col["LSSGagMys"][k], col["LSSGagMzs"][k])
		mys := col["LSSTipMys"][k] + ed.ShftGagL*col["LSShftFzs"][k]
		mzs := col["LSSTipMzs"][k] - ed.ShftGagL*col["LSShftFys"][k]
		// The nacelle frame n is frame p turned by the yaw angle.
		sy, cy := math.Sincos(col["NacYaw"][k] * deg)
		fx, fy := col["YawBrFxp"][k], col["YawBrFyp"][k]
		scale := math.Max(1, math.Hypot(fx, fy))
		for _, c := range []struct {
			what      string
			got, want float64
		}{
			{"|LSSGagM| s vs a", ms, ma},
			{"LSSGagMys", col["LSSGagMys"][k], mys},
			{"LSSGagMzs", col["LSSGagMzs"][k], mzs},
			{"YawBrFxn", col["YawBrFxn"][k], fx*cy + fy*sy},
			{"YawBrFyn", col["YawBrFyn"][k], -fx*sy + fy*cy},
			{"YawBrFzn", col["YawBrFzn"][k], col["YawBrFzp"][k]},
			{"YawBrMxn", col["YawBrMxn"][k], col["YawBrMxp"][k]*cy + col["YawBrMyp"][k]*sy},
		} {
			if math.Abs(c.got-c.want) > 1e-9*math.Max(scale, math.Abs(c.want)) {
				t.Fatalf("t=%g s: %s %.12g, want %.12g", time[k], c.what, c.got, c.want)
			}
		}
		az := math.Mod(col["Azimuth"][k]-col["Q_DrTr"][k]*r2d+720, 360)
		if diff := math.Abs(col["LSSGagPxa"][k] - az); math.Min(diff, 360-diff) > 1e-9 {
			t.Fatalf("t=%g s: LSSGagPxa %g deg, Azimuth − Q_DrTr = %g", time[k], col["LSSGagPxa"][k], az)
		}
	}
	if col["Q_DrTr"][last] == 0 {
		t.Error("no drivetrain torsion: the LSS gage check is idle")
	}

	// Other names and INVALID channels.
	for _, p := range [][2]string{
		{"NacYaw", "YawPos"}, {"BldPitch1", "BlPitch1"}, {"BldPitch1", "PtchPMzb1"}, {"YawBrTDzt", "TTDspAx"},
		{"YawBrRDyt", "TTDspPtch"}, {"TipRDxb1", "RollDefl1"}, {"TipRDyb1", "PtchDefl1"}, {"TwrTpTDxi", "YawBrTDxi"},
		{"RotTorq", "LSShftTq"}, {"RotThrust", "LSSGagFxa"}, {"YawBrMzp", "YawBrMzn"},
	} {
		if a, b := col[p[0]][last], col[p[1]][last]; a != b || unit[p[0]] != unit[p[1]] {
			t.Errorf("%s = %g %s but %s = %g %s", p[0], a, unit[p[0]], p[1], b, unit[p[1]])
		}
	}
	for _, n := range []string{"BldPRate1", "BldPAcc2", "YawFriMom", "YawFriMz", "OmegaYF"} {
		if unit[n] != "INVALID" {
			t.Errorf("%s unit %q, want INVALID", n, unit[n])
		}
	}
	for n, u := range map[string]string{"YawBrTAgxp": "m/s^2", "YawBrRVyp": "deg/s", "YawBrRAyp": "deg/s^2", "TwHt2RPyi": "deg", "TipRDyb1": "deg", "NacYawA": "deg/s^2", "LSSGagPxa": "deg"} {
		if unit[n] != u {
			t.Errorf("%s unit %q, want %q", n, unit[n], u)
		}
	}
}

// The floating platform's detail channels in free fall: the IEA 15 MW
// semi's turbine (rigid tower and blades, parked rotor) with every
// platform DOF free, displaced and rotated (3, −2, 1 m; 3°, 5°, 20°), and
// no hydrodynamics, moorings or aerodynamics. Nothing but gravity acts, so
// every point falls at g and every accelerometer reading "relative to g"
// is zero (platform in frames i and t, tower top, nacelle IMU, tower gage,
// blade tip: 1e-6 g), while the absolute heave acceleration is −g. The
// platform's displacement in its own frame is the inertial displacement
// turned by the transpose of Rz(yaw)·Ry(pitch)·Rx(roll) (1e-9), the rigid
// tower's gage has the platform's roll, pitch and yaw, and the tower top's
// inertial displacement is the platform's plus the rotated tower (1e-9 m).
func TestPlatformDetailChannelsInFreeFall(t *testing.T) {
	d := semiDeckWithoutModules(t)
	ed := d.ElastoDyn
	ed.PtfmSgDOF, ed.PtfmSwDOF, ed.PtfmHvDOF, ed.PtfmRDOF, ed.PtfmPDOF, ed.PtfmYDOF = true, true, true, true, true, true
	ed.PtfmSurge, ed.PtfmSway, ed.PtfmHeave, ed.PtfmRoll, ed.PtfmPitch, ed.PtfmYaw = 3, -2, 1, 3, 5, 20
	var names []string
	for _, ax := range []string{"x", "y", "z"} {
		for _, f := range []string{"PtfmTAg%si", "PtfmTAg%st", "YawBrTAg%sp", "NcIMUTAg%ss", "TwHt1ALg%st", "TipALg%sb1",
			"PtfmTD%si", "PtfmTD%st", "PtfmTA%si", "TwHt1RP%si", "TwrTpTD%si"} {
			names = append(names, fmt.Sprintf(f, ax))
		}
	}
	names = append(names, "PtfmRoll", "PtfmPitch", "PtfmYaw")
	time, col, _ := runColumns(t, d, 2, names)
	g := d.Main.Gravity
	for k := range time {
		for _, n := range names {
			if strings.Contains(n, "TAg") || strings.Contains(n, "ALg") {
				if v := col[n][k]; math.Abs(v) > 1e-6*g {
					t.Fatalf("t=%g s: %s = %g m/s² in free fall, want 0", time[k], n, v)
				}
			}
		}
		if a := col["PtfmTAzi"][k]; math.Abs(a+g) > 1e-6*g {
			t.Fatalf("t=%g s: PtfmTAzi %g, want −g", time[k], a)
		}
		roll, pitch, yaw := col["PtfmRoll"][k]*deg, col["PtfmPitch"][k]*deg, col["PtfmYaw"][k]*deg
		R := rotZYX(roll, pitch, yaw)
		di := [3]float64{col["PtfmTDxi"][k], col["PtfmTDyi"][k], col["PtfmTDzi"][k]}
		// The tower top at rest is TowerHt above the reference point's
		// rest position, which is PtfmRefzt above MSL.
		tower := [3]float64{0, 0, ed.TowerHt - ed.PtfmRefzt}
		for i, ax := range []string{"x", "y", "z"} {
			var dt, top float64
			for j := 0; j < 3; j++ {
				dt += R[j][i] * di[j]
				top += R[i][j] * tower[j]
			}
			top += di[i] - tower[i]
			if got := col["PtfmTD"+ax+"t"][k]; math.Abs(got-dt) > 1e-9*math.Max(1, math.Abs(dt)) {
				t.Fatalf("t=%g s: PtfmTD%st %.12g, want Rᵀ·PtfmTDi = %.12g", time[k], ax, got, dt)
			}
			if got := col["TwrTpTD"+ax+"i"][k]; math.Abs(got-top) > 1e-9*math.Max(1, math.Abs(top)) {
				t.Fatalf("t=%g s: TwrTpTD%si %.12g, want %.12g", time[k], ax, got, top)
			}
			if got, want := col["TwHt1RP"+ax+"i"][k], col[[]string{"PtfmRoll", "PtfmPitch", "PtfmYaw"}[i]][k]; math.Abs(got-want) > 1e-9 {
				t.Fatalf("t=%g s: TwHt1RP%si %.12g deg, want the platform's %.12g", time[k], ax, got, want)
			}
		}
	}
	last := len(time) - 1
	if dz := col["PtfmTDzi"][last] - col["PtfmTDzi"][0]; math.Abs(dz+0.5*g*time[last]*time[last]) > 1e-6 {
		t.Errorf("heave fell %g m in %g s, want −g t²/2", dz, time[last])
	}
}

// rotZYX is Rz(yaw)·Ry(pitch)·Rx(roll), body axes to inertial.
func rotZYX(roll, pitch, yaw float64) [3][3]float64 {
	sr, cr := math.Sincos(roll)
	sp, cp := math.Sincos(pitch)
	sy, cy := math.Sincos(yaw)
	return [3][3]float64{
		{cy * cp, cy*sp*sr - sy*cr, cy*sp*cr + sy*sr},
		{sy * cp, sy*sp*sr + cy*cr, sy*sp*cr - cy*sr},
		{-sp, cp * sr, cp * cr},
	}
}

// A rigid NREL 5 MW rotor turning at a fixed 10 rpm (every DOF off):
// each blade tip moves on a circle of radius TipRad·cos(PreCone) about the
// shaft, so its acceleration is the centripetal Ω²·TipRad·cos(PreCone)
// toward the shaft, Ω²·TipRad·cos²(PreCone) of it inward along the blade
// axis zb (1e-9 relative), whatever the blade's pitch and twist turn xb
// and yb to.
func TestTipAccelerationOfARigidRotorIsCentripetal(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-outputs", "nrel5mw_steady8_rigid_bem", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	ed := d.ElastoDyn
	ed.GenDOF = false
	var names []string
	for b := 1; b <= 3; b++ {
		for _, ax := range []string{"x", "y", "z"} {
			names = append(names, fmt.Sprintf("TipAL%sb%d", ax, b))
		}
	}
	names = append(names, "RotSpeed", "BldPitch1")
	time, col, _ := runColumns(t, d, 2, names)
	omega := ed.RotSpeed * math.Pi / 30
	cone := ed.PreCone[0] * deg
	radial := omega * omega * ed.TipRad * math.Cos(cone)
	for k := range time {
		if w := col["RotSpeed"][k]; math.Abs(w-ed.RotSpeed) > 1e-9 {
			t.Fatalf("t=%g s: RotSpeed %g rpm, want the fixed %g", time[k], w, ed.RotSpeed)
		}
		for b := 1; b <= 3; b++ {
			x, y, z := col[fmt.Sprintf("TipALxb%d", b)][k], col[fmt.Sprintf("TipALyb%d", b)][k], col[fmt.Sprintf("TipALzb%d", b)][k]
			if n := math.Sqrt(x*x + y*y + z*z); math.Abs(n-radial) > 1e-9*radial {
				t.Fatalf("t=%g s: blade %d tip acceleration %.12g m/s², want Ω²·TipRad·cos(PreCone) = %.12g", time[k], b, n, radial)
			}
			if want := -radial * math.Cos(cone); math.Abs(z-want) > 1e-9*radial {
				t.Fatalf("t=%g s: TipALzb%d %.12g m/s², want %.12g", time[k], b, z, want)
			}
		}
	}
	if col["BldPitch1"][len(time)-1] == 0 && math.Abs(cone) == 0 {
		t.Fatal("no pitch and no cone: the frame checks are idle")
	}
}

// The IEA 15 MW semi's turbine toppling about the platform reference point
// (pitch the only DOF, rigid tower, nothing but gravity, 5° initial
// pitch): the tower top's frame p is the platform's, so its angular
// velocity and acceleration are the platform's (1e-9), and the tower top,
// H = TowerHt − PtfmRefzt above the pivot, moves at ω·H along x_p with
// the tangential acceleration α·H along x_p and the centripetal −ω²·H
// along z_p (1e-9 relative).
func TestTowerTopMotionOnAPitchingPlatform(t *testing.T) {
	d := semiDeckWithoutModules(t)
	ed := d.ElastoDyn
	ed.PtfmPitch = 5
	names := []string{"PtfmRVyt", "PtfmRAyt", "YawBrRVxp", "YawBrRVyp", "YawBrRVzp", "YawBrRAxp", "YawBrRAyp", "YawBrRAzp",
		"YawBrTVxp", "YawBrTVyp", "YawBrTVzp", "YawBrTAxp", "YawBrTAzp"}
	time, col, _ := runColumns(t, d, 2, names)
	h := ed.TowerHt - ed.PtfmRefzt
	if w := col["PtfmRVyt"][len(time)-1] * deg; !(math.Abs(w) > 1e-3) {
		t.Fatalf("the platform does not topple: pitch rate %g rad/s", w)
	}
	for k := range time {
		w, a := col["PtfmRVyt"][k]*deg, col["PtfmRAyt"][k]*deg
		scale := math.Max(1, math.Max(math.Abs(a), w*w)*h)
		for _, c := range []struct {
			what      string
			got, want float64
			tol       float64
		}{
			{"YawBrRVyp vs PtfmRVyt", col["YawBrRVyp"][k], col["PtfmRVyt"][k], 1e-9 * math.Max(1, math.Abs(col["PtfmRVyt"][k]))},
			{"YawBrRAyp vs PtfmRAyt", col["YawBrRAyp"][k], col["PtfmRAyt"][k], 1e-9 * math.Max(1, math.Abs(col["PtfmRAyt"][k]))},
			{"YawBrRVxp", col["YawBrRVxp"][k], 0, 1e-9},
			{"YawBrRVzp", col["YawBrRVzp"][k], 0, 1e-9},
			{"YawBrRAxp", col["YawBrRAxp"][k], 0, 1e-9},
			{"YawBrRAzp", col["YawBrRAzp"][k], 0, 1e-9},
			{"YawBrTVxp vs ω·H", col["YawBrTVxp"][k], w * h, 1e-9 * math.Max(1, math.Abs(w*h))},
			{"YawBrTVyp", col["YawBrTVyp"][k], 0, 1e-9},
			{"YawBrTVzp", col["YawBrTVzp"][k], 0, 1e-9},
			{"YawBrTAxp vs α·H", col["YawBrTAxp"][k], a * h, 1e-9 * scale},
			{"YawBrTAzp vs −ω²·H", col["YawBrTAzp"][k], -w * w * h, 1e-9 * scale},
		} {
			if math.Abs(c.got-c.want) > c.tol {
				t.Fatalf("t=%g s: %s: %.12g, want %.12g", time[k], c.what, c.got, c.want)
			}
		}
	}
}

// A channel name with a leading "-", "_", or an "m" or "M" that does not
// begin a channel's name is the channel negated, under the name as written
// with the channel's unit (OpenFAST's output lists); an INVALID channel
// stays INVALID and zero, and a name that is a channel's own is never
// read as "minus" (M1N1... would be SubDyn's, MTwrBsMyt is minus
// TwrBsMyt).
func TestNegatedChannelNames(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-outputs", "nrel5mw_steady8_flex_bem", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"TwrBsMyt", "-TwrBsMyt", "_TwrBsMyt", "MTwrBsMyt", "RotSpeed", "mRotSpeed", "YawBrTAgzp", "-YawBrTAgzp", "-BldPRate1", "-RtFldFxh", "RtFldFxh"}
	time, col, unit := runColumns(t, d, 1, names)
	last := len(time) - 1
	for _, p := range [][2]string{{"TwrBsMyt", "-TwrBsMyt"}, {"TwrBsMyt", "_TwrBsMyt"}, {"TwrBsMyt", "MTwrBsMyt"}, {"RotSpeed", "mRotSpeed"}, {"YawBrTAgzp", "-YawBrTAgzp"}, {"RtFldFxh", "-RtFldFxh"}} {
		a, b := col[p[0]], col[p[1]]
		if b == nil {
			t.Fatalf("no column named %s", p[1])
		}
		if a[last] == 0 || b[last] != -a[last] || unit[p[0]] != unit[p[1]] {
			t.Errorf("%s = %g %s, %s = %g %s: want the negative, same unit", p[0], a[last], unit[p[0]], p[1], b[last], unit[p[1]])
		}
	}
	if unit["-BldPRate1"] != "INVALID" || col["-BldPRate1"][last] != 0 || math.Signbit(col["-BldPRate1"][last]) {
		t.Errorf("-BldPRate1 %g %q, want +0 INVALID", col["-BldPRate1"][last], unit["-BldPRate1"])
	}
	d.Main.DT_Out.Default = true
	if _, err := Run(context.Background(), d, Options{OutPath: "-", TMax: 0.1, Channels: []string{"xTwrBsMyt"}}, nil); err == nil {
		t.Error("xTwrBsMyt was accepted")
	}
}

// The structure computes the detail outputs and the tower gages' section
// loads only for a run that asks for one of their channels: a deck with
// tower gages whose OutList names only their positions, or no tower-gage
// channel at all, leaves Outputs.TowerGages and Outputs.Detail empty.
func TestDetailAndGageOutputsOnlyWhenAsked(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-outputs", "nrel5mw_steady8_flex_bem", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	d.ElastoDyn.NTwGages, d.ElastoDyn.TwrGagNd = 2, []int{3, 9}
	for _, c := range []struct {
		channels      []string
		gages, detail bool
	}{
		{[]string{"RotSpeed", "TwHt1TPxi", "TwHt2TDxt", "YawBrTAxp"}, false, false},
		{[]string{"RotSpeed", "TwHt2MLyt"}, true, false},
		{[]string{"RotSpeed", "TwHt1ALxt"}, true, true},
		{[]string{"RotSpeed", "YawBrTAgxp"}, false, true},
	} {
		s, _, _, _, err := build(d, Options{OutPath: "-", TMax: 0.1, Channels: c.channels})
		if err != nil {
			t.Fatal(err)
		}
		if gages := len(s.edOut.TowerGages) == 2; gages != c.gages {
			t.Errorf("%v: tower gages computed %v (%v), want %v", c.channels, gages, s.edOut.TowerGages, c.gages)
		}
		if detail := s.edOut.Detail != nil; detail != c.detail {
			t.Errorf("%v: detail computed %v, want %v", c.channels, detail, c.detail)
		}
	}
}
