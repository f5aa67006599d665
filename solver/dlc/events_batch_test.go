package dlc

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/turbinesim/turbinesim/solver/control"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// load5MWWithBaseline is the shared NREL 5 MW land deck with the NREL
// baseline controller through the Bladed interface (PCMode = VSContrl = 5),
// the turbine as Jonkman et al. 2009 §7 define it and as the bundled demo
// runs it; the shared deck itself has no pitch control.
func load5MWWithBaseline(t *testing.T) *deck.Deck {
	t.Helper()
	d := load5MW(t)
	sd := d.ServoDyn
	sd.PCMode, sd.VSContrl = 5, 5
	sd.DLL_FileName, sd.DLL_InFile, sd.DLL_ProcName = "DISCON.dll", "unused", "DISCON"
	return d
}

// eventRun is one prepared and simulated run of the batch test.
type eventRun struct {
	run                   Run
	time                  []float64
	rotSpeed, pitch       []float64 // rpm, deg (blade 1)
	pitchCom              []float64 // deg (blade 1 command)
	genTq, twrBsMyt       []float64 // kN·m
	hssBrTq               []float64 // kN·m
	maxRot, maxTwr, maxPR float64   // rpm, kN·m, deg/s
	tRot, tTwr, tPR       float64   // when the maxima occur, s
}

// simulateRun prepares run on d with the wind written every dt and runs
// it through solver/coupling to tMax, with output at every time step.
func simulateRun(t *testing.T, d *deck.Deck, run Run, tMax float64) *eventRun {
	t.Helper()
	run.TMax = tMax
	fst, err := PrepareRun(context.Background(), d, run, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	nd, err := deck.Load(fst)
	if err != nil {
		t.Fatal(err)
	}
	nd.Main.DT_Out.Default = true // every step: the rate check sees each one
	res, err := coupling.Run(context.Background(), nd, coupling.Options{OutPath: "-", KeepData: true,
		Channels: []string{"RotSpeed", "BldPitch1", "BlPitchC1", "GenTq", "TwrBsMyt", "HSSBrTq"}}, nil)
	if err != nil {
		t.Fatalf("%s: %v", run.ID, err)
	}
	col := func(name string) []float64 {
		v, ok := res.Column(name)
		if !ok {
			t.Fatalf("no channel %s", name)
		}
		return v
	}
	r := &eventRun{run: run, time: res.Time, rotSpeed: col("RotSpeed"), pitch: col("BldPitch1"), pitchCom: col("BlPitchC1"),
		genTq: col("GenTq"), twrBsMyt: col("TwrBsMyt"), hssBrTq: col("HSSBrTq")}
	for k, tt := range r.time {
		// Speed and load after the first settleTime seconds: the deck
		// starts every run at its own initial conditions (10 rpm, 0°
		// pitch whatever the wind), a start-of-run transient that
		// post-processing discards.
		if v := math.Abs(r.rotSpeed[k]); v > r.maxRot && tt >= settleTime {
			r.maxRot, r.tRot = v, tt
		}
		if v := math.Abs(r.twrBsMyt[k]); v > r.maxTwr && tt >= settleTime {
			r.maxTwr, r.tTwr = v, tt
		}
		// Pitch rate at every time step of the whole run.
		if k > 0 {
			if v := math.Abs(r.pitch[k]-r.pitch[k-1]) / (tt - r.time[k-1]); v > r.maxPR {
				r.maxPR, r.tPR = v, tt
			}
		}
	}
	return r
}

// settleTime is when the start-of-run transient has passed [s].
const settleTime = 20

// at returns the sample of x at the first output time ≥ tt.
func (r *eventRun) at(x []float64, tt float64) float64 {
	for k, v := range r.time {
		if v >= tt-1e-9 {
			return x[k]
		}
	}
	return x[len(x)-1]
}

// pickRun is the run id of DLC dlcID as Expand makes it for the NREL 5 MW
// (class IB), the DLC's wind speeds extended by V_r + 2 = 13.4 m/s (DLC 1.3
// steps from V_in by 2 m/s and would miss it).
func pickRun(t *testing.T, dlcID, id string) Run {
	t.Helper()
	req := Request{Turbine: nrel5MW, DLCs: []string{dlcID}, Class: "I", Category: "B", Grid: smallGrid, BatchSeed: 7}
	if dlcID == "1.3" {
		req.Overrides = map[string]Override{dlcID: {Speeds: []float64{13.4, 25}}}
	}
	runs, err := Expand(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no run %s in DLC %s", id, dlcID)
	return Run{}
}

// TestEventBatchStaysWithinPhysicalBounds runs, through solver/coupling,
// the transient DLCs on the NREL 5 MW with its baseline controller, each
// as the load basis expands it (event at 40 s): DLC 2.3 (EOG with grid
// loss at V_r + 2), 3.2 (start-up into an EOG at V_r + 2 and at cut-out),
// 4.2 (normal shut-down at cut-out with an EOG), 5.1 (emergency stop at
// cut-out in NTM turbulence), and DLC 1.3 (ETM, one seed) at the same two
// wind speeds for reference. The stops and the grid loss run 20 s past the
// event, the start-ups the whole 60 s the run-up takes. Speeds and loads are
// taken from 20 s on (settleTime), the pitch rate at every step of the whole
// run. Bounds (numbers from Jonkman et al. 2009):
//
//   - |pitch rate| ≤ the deck's actuator limit (control.DeckActuatorLimits:
//     the baseline's PC_MaxRat = 8°/s, Table 7-1) at every time step;
//   - rotor speed ≤ 1.2 × rated (14.5 rpm) for every event: the controller
//     keeps the speed of a start-up, a stop and a grid loss at or below
//     the overspeed a turbine's supervisor tolerates before it trips
//     (usual settings 1.1–1.3 × rated [U]); the start-up at cut-out reached
//     1.56 × before the controller's start-up logic (docs/events.md §2);
//   - tower-base fore-aft moment ≤ 2 × the DLC 1.3 maximum at the same wind
//     speed (one seed, the 40-s window): a gust with a grid loss or during
//     a start-up may exceed a short window of production in extreme
//     turbulence, but a load far beyond it is the signature of a
//     non-physical step (the 90° → 0° pitch step at a start-up gave 10.8 ×).
func TestEventBatchStaysWithinPhysicalBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs seven simulations of 60–100 s")
	}
	d := load5MWWithBaseline(t)
	const rated = 12.1    // rpm
	const maxRotRel = 1.2 // × rated
	const maxTwrRel = 2.0 // × DLC 1.3 at the same wind
	const stopTMax = 60.0 // 20 s past the event
	cases := []struct {
		dlc, id string
		tMax    float64 // 0: the run's own
		refWind float64 // the DLC 1.3 run to compare with; 0: a reference run itself
	}{
		{"1.3", "DLC1.3_V13.4_S1_Y+0", stopTMax, 0},
		{"1.3", "DLC1.3_V25.0_S1_Y+0", stopTMax, 0},
		{"2.3", "DLC2.3_V13.4_Y+0", stopTMax, 13.4},
		{"3.2", "DLC3.2_V13.4_Y+0", 0, 13.4},
		{"3.2", "DLC3.2_V25.0_Y+0", 0, 25},
		{"4.2", "DLC4.2_V25.0_Y+0", stopTMax, 25},
		{"5.1", "DLC5.1_V25.0_S1_Y+0", stopTMax, 25},
	}
	lim, _, err := control.DeckActuatorLimits(d)
	if err != nil || !(lim.PitchRate > 0) {
		t.Fatalf("the deck's pitch actuator limit: %v (%g rad/s)", err, lim.PitchRate)
	}
	limit := lim.PitchRate * 180 / math.Pi
	results := make([]*eventRun, len(cases))
	var wg sync.WaitGroup
	for i, c := range cases {
		run := pickRun(t, c.dlc, c.id)
		tMax := c.tMax
		if tMax == 0 {
			tMax = run.TMax
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = simulateRun(t, d, run, tMax)
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	ref := map[float64]float64{}
	for i, c := range cases {
		if c.refWind == 0 {
			ref[results[i].run.WindSpeed] = results[i].maxTwr
		}
	}
	for i, c := range cases {
		r := results[i]
		t.Logf("%-22s max rotor %5.2f rpm (%.2f × rated, t=%.2f s)  max |TwrBsMyt| %7.0f kN·m (t=%.2f s)  max |pitch rate| %.3f °/s (t=%.4f s)",
			c.id, r.maxRot, r.maxRot/rated, r.tRot, r.maxTwr, r.tTwr, r.maxPR, r.tPR)
		if r.maxPR > limit*(1+1e-4) {
			t.Errorf("%s: pitch rate %.3f °/s exceeds the actuator limit %.3f °/s", c.id, r.maxPR, limit)
		}
		if c.refWind == 0 {
			continue
		}
		rel := r.maxTwr / ref[c.refWind]
		t.Logf("%-22s tower-base moment %.2f × DLC 1.3 at %g m/s", c.id, rel, c.refWind)
		if r.maxRot > maxRotRel*rated {
			t.Errorf("%s: rotor speed %.2f rpm exceeds %.1f × rated", c.id, r.maxRot, maxRotRel)
		}
		if rel > maxTwrRel {
			t.Errorf("%s: tower-base moment %.0f kN·m exceeds %.0f × the DLC 1.3 maximum at %g m/s (%.0f kN·m)", c.id, r.maxTwr, maxTwrRel, c.refWind, ref[c.refWind])
		}
	}
	checkEventHandCalcs(t, results[2:], limit)
}

// checkEventHandCalcs compares each event with its hand calculation.
func checkEventHandCalcs(t *testing.T, rs []*eventRun, rate float64) {
	t.Helper()
	for _, r := range rs {
		te := r.run.EventTime
		switch r.run.State {
		case NormalShutdown, EmergencyStop, ProductionFault:
			// The blades leave their pitch θ0 at TPitManS and move at the
			// manoeuvre rate r toward 90°: θ(t) = θ0 + r (t − t0) until
			// t0 + (90 − θ0)/r. Normal: 4°/s; emergency and grid loss: the
			// actuator limit.
			want := rate
			if r.run.State == NormalShutdown {
				want = NormalPitchRate
			}
			th0 := r.at(r.pitch, te)
			for _, dt := range []float64{1, 3, 5} {
				wantTh := math.Min(FeatherPitch, th0+want*dt)
				if got := r.at(r.pitch, te+dt); math.Abs(got-wantTh) > 0.1 {
					t.Errorf("%s: pitch %.2f° at t0+%gs, hand calculation θ0 + r·Δt = %.2f°", r.run.ID, got, dt, wantTh)
				}
			}
			tEnd := te + (FeatherPitch-th0)/want
			if got := r.at(r.pitch, tEnd+0.1); math.Abs(got-FeatherPitch) > 1e-6 {
				t.Errorf("%s: pitch %.4f° at t0 + (90 − θ0)/r + 0.1 s = %.2f s, want feathered", r.run.ID, got, tEnd+0.1)
			}
			// The generator is off from the event on.
			if g := r.at(r.genTq, te+0.1); g != 0 {
				t.Errorf("%s: generator torque %g kN·m after TimGenOf", r.run.ID, g)
			}
			// The emergency stop deploys the deck's HSS brake at the
			// event: HSSBrTqF = 28116.2 N·m reached over HSSBrDT = 0.6 s
			// (half at 0.3 s) while the shaft turns; the other stops none.
			brake := map[float64]float64{-0.1: 0, 0.3: 14.0581, 2: 28.1162}
			for dt, want := range brake {
				if r.run.State != EmergencyStop {
					want = 0
				}
				if got := r.at(r.hssBrTq, te+dt); math.Abs(got-want) > 0.01*math.Max(1, want) {
					t.Errorf("%s: HSSBrTq %.3f kN·m at the event %+g s, want %.3f", r.run.ID, got, dt, want)
				}
			}
		case StartUp:
			// Held at feather until TPCOn, then out of feather at the
			// actuator rate, 90° − r·Δt, until the blades meet the
			// baseline PI's output, 90° + GK(θ)·PC_KP·(−PC_RefSpd) ≈ 80.4°
			// with the rotor nearly standing (its integral term starts at
			// PC_MaxPit: docs/events.md §2), about 1.2 s later; from there
			// the PI brings them in more slowly than the actuator could (at
			// 8°/s they would be at 50° 5 s after TPCOn).
			if got := r.at(r.pitch, te-0.5); got != FeatherPitch {
				t.Errorf("%s: pitch %.4f° before TPCOn, want feathered", r.run.ID, got)
			}
			for _, dt := range []float64{0.25, 0.5, 1} {
				want := FeatherPitch - rate*dt
				if got := r.at(r.pitch, te+dt); math.Abs(got-want) > 0.1 {
					t.Errorf("%s: pitch %.2f° at TPCOn + %gs, hand calculation 90° − r·Δt = %.2f°", r.run.ID, got, dt, want)
				}
			}
			if got := r.at(r.pitch, te+5); got < 65 || got > 80.4 {
				t.Errorf("%s: pitch %.2f° at TPCOn + 5 s, want the PI's descent from 80.4° (not below 65°; 50° at the actuator limit)", r.run.ID, got)
			}
			// No generator torque until the rotor reaches the cut-in
			// generator speed VS_CtInSp = 670 rpm (6.91 rpm at the rotor).
			for k, tt := range r.time {
				if r.genTq[k] > 0 && r.rotSpeed[k] < 670.0/97*0.98 {
					t.Errorf("%s: generator torque %.1f kN·m at t=%.2f s with the rotor at %.2f rpm, below cut-in", r.run.ID, r.genTq[k], tt, r.rotSpeed[k])
					break
				}
			}
		}
	}
}
