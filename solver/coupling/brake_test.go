package coupling

import (
	"context"
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// TestHSSBrakeDeceleratesTheDrivetrainByHand spins the flexible NREL 5 MW
// (ElastoDyn with drivetrain and generator DOFs) at 12.1 rpm with no
// aerodynamic loads and the generator off, and applies ServoDyn's simple
// HSS brake (HSSBrMode 1) at THSSBrDp = 2 s: the torque ramps to the deck's
// HSSBrTqF = 28116.2 N·m over HSSBrDT = 0.6 s (HSSBrTq, OpenFAST's channel
// of the brake torque on the high-speed shaft). Hand calculation: the
// shaft decelerates at HSSBrTqF·GBRatio / J with the drivetrain inertia
// about the low-speed shaft J = 3·∫ AdjBlMs·BMassDen(r)·r² dr + HubIner +
// GBRatio²·GenIner (the blade integral by the trapezoidal rule on the
// blade file's stations, r from the rotor apex), so from full deployment on
// ω(t) = ω0 − a·(t − THSSBrDp − HSSBrDT/2) until the rotor stops; it then
// stays stopped (the brake holds it: no chatter of the full torque).
func TestHSSBrakeDeceleratesTheDrivetrainByHand(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	ed, sd := d.ElastoDyn, d.ServoDyn
	if !ed.DrTrDOF || !ed.GenDOF {
		t.Fatalf("the deck's drivetrain DOFs are off (DrTrDOF %v, GenDOF %v)", ed.DrTrDOF, ed.GenDOF)
	}
	d.Main.CompAero = 0
	d.Main.DT_Out.Default = true
	ed.RotSpeed = 12.1
	sd.PCMode, sd.VSContrl = 0, 0
	sd.GenTiStr, sd.TimGenOn = true, 1e4 // the generator stays off
	const tBrake = 2.0
	sd.HSSBrMode, sd.THSSBrDp = 1, tBrake
	tqF, dtBr, gb := sd.HSSBrTqF, sd.HSSBrDT, ed.GBRatio

	// Drivetrain inertia about the LSS by hand.
	jBlades := 0.0
	for _, b := range ed.Blades {
		span := ed.TipRad - ed.HubRad
		for i := 1; i < len(b.BlFract); i++ {
			r0, r1 := ed.HubRad+b.BlFract[i-1]*span, ed.HubRad+b.BlFract[i]*span
			f0, f1 := b.AdjBlMs*b.BMassDen[i-1]*r0*r0, b.AdjBlMs*b.BMassDen[i]*r1*r1
			jBlades += 0.5 * (f0 + f1) * (r1 - r0)
		}
	}
	j := jBlades + ed.HubIner + gb*gb*ed.GenIner
	a := tqF * gb / j * 30 / math.Pi // rpm/s
	w0 := 12.1
	tStop := tBrake + dtBr/2 + w0/a
	t.Logf("J = %.4g kg·m² (blades %.4g, hub %.4g, generator %.4g); deceleration %.4f rpm/s, stop at %.2f s", j, jBlades, ed.HubIner, gb*gb*ed.GenIner, a, tStop)

	res, err := Run(context.Background(), d, Options{OutPath: "-", TMax: tStop + 4, KeepData: true,
		Channels: []string{"RotSpeed", "HSSBrTq"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rot, ok1 := res.Column("RotSpeed")
	br, ok2 := res.Column("HSSBrTq")
	if !ok1 || !ok2 {
		t.Fatalf("channels %v: no RotSpeed or HSSBrTq", res.Channels)
	}
	at := func(x []float64, tt float64) float64 {
		for k, v := range res.Time {
			if v >= tt-1e-9 {
				return x[k]
			}
		}
		return x[len(x)-1]
	}
	// The brake torque: none before THSSBrDp, half at THSSBrDp + HSSBrDT/2,
	// all of HSSBrTqF once deployed and while the shaft turns.
	if v := at(br, tBrake-0.1); v != 0 {
		t.Errorf("HSSBrTq %.3f kN·m before THSSBrDp", v)
	}
	if v, want := at(br, tBrake+dtBr/2), tqF/2/1000; math.Abs(v-want) > 0.01*want {
		t.Errorf("HSSBrTq %.3f kN·m half-way through the deployment, want %.3f", v, want)
	}
	if v, want := at(br, tBrake+dtBr+1), tqF/1000; math.Abs(v-want) > 1e-3*want {
		t.Errorf("HSSBrTq %.3f kN·m once deployed, want HSSBrTqF %.3f", v, want)
	}
	// ω(t) on the hand line while the shaft turns.
	for _, tt := range []float64{tBrake + dtBr + 1, tBrake + 8, tBrake + 14, tStop - 1} {
		want := w0 - a*(tt-tBrake-dtBr/2)
		got := at(rot, tt)
		t.Logf("t = %5.2f s: rotor %.4f rpm, hand %.4f rpm", tt, got, want)
		if math.Abs(got-want) > 0.015*w0 {
			t.Errorf("rotor %.3f rpm at %.2f s, hand calculation %.3f rpm", got, tt, want)
		}
	}
	// Stopped and held: from 1 s after the hand stop time the shaft stays
	// within the brake's slip speed 2·HSSBrTqF·DT/GenIner (the regularised
	// friction of structure.System.brakeTorque; 0.10 rpm at this rotor)
	// and the brake applies only the torque that holds it, well below its
	// capacity. A brake that flips its full torque every step with the
	// sense of the shaft (before) rocks it at ±0.07 rpm with ±HSSBrTqF.
	slip := 2 * tqF * d.Main.DT / ed.GenIner / gb * 30 / math.Pi
	held, hold := 0.0, 0.0
	for k, tt := range res.Time {
		if tt > tStop+1 {
			held = math.Max(held, math.Abs(rot[k]))
			hold = math.Max(hold, math.Abs(br[k]))
		}
	}
	t.Logf("from 1 s after the hand stop time: |rotor speed| ≤ %.4f rpm (slip %.4f rpm), |HSSBrTq| ≤ %.2f kN·m", held, slip, hold)
	if held > slip {
		t.Errorf("rotor at up to %.4f rpm after the stop, more than the slip speed %.4f rpm", held, slip)
	}
	if hold > 0.5*tqF/1000 {
		t.Errorf("brake torque up to %.2f kN·m on the stopped shaft, want the holding torque (< half of HSSBrTqF)", hold)
	}
}
