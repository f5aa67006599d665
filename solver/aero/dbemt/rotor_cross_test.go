package dbemt_test

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/aero"
	"github.com/turbinesim/turbinesim/solver/aero/dbemt"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// TestFilterMatchesAeroRotorDBEMT drives this package with the quasi-steady
// inductions of a rigid NREL 5MW rotor (engineer C's aero.Rotor with DBEMT
// off) through a wind step 8 -> 11 m/s, and compares the filtered axial
// induction with aero.Rotor's own DBEMT (DBEMT_Mod 1 and 2) node by node:
// two independent implementations of the same discretisation.
func TestFilterMatchesAeroRotorDBEMT(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := aero.ParamsFromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	p.TwrPotent, p.TwrShadow, p.TwrAero, p.SkewMod = aero.TwrPotentNone, aero.TwrShadowNone, false, 0
	for _, mod := range []int{dbemt.ModTauConst, dbemt.ModTauVaries} {
		pq := p
		pq.DBEMTMod = aero.DBEMTNone
		pd := p
		pd.DBEMTMod, pd.Tau1Const = mod, 4
		qs, err := aero.New(pq)
		if err != nil {
			t.Fatal(err)
		}
		dyn, err := aero.New(pd)
		if err != nil {
			t.Fatal(err)
		}
		nb, nn := p.NumBlades, qs.NumNodes(0)
		const dt = 0.05
		m, err := dbemt.New(dbemt.Params{Mod: mod, Tau1Const: 4, DT: dt, NumBlades: nb, NumNodes: nn})
		if err != nil {
			t.Fatal(err)
		}
		st, err := aero.RigidStateFromDeck(d, 0, 1.0, 0)
		if err != nil {
			t.Fatal(err)
		}
		st.Tilt, st.Yaw, st.Precone = 0, 0, []float64{0}
		var in aero.Input
		oq, od := qs.NewOutput(), dyn.NewOutput()
		vind := m.NewOutput()
		var prev *dbemt.Input
		var prevInd [][][2]float64 // quasi-steady (a, a') of every node at the previous time
		var weights [][]float64
		maxDiff, maxLag := 0.0, 0.0
		for k := 0; k <= 200; k++ {
			tt := float64(k) * dt
			u := 8.0
			if tt >= 1 {
				u = 11
			}
			st.Azimuth = 1.0 * tt
			if err := qs.RigidInput(st, func(aero.Vec3) aero.Vec3 { return aero.Vec3{u, 0, 0} }, &in); err != nil {
				t.Fatal(err)
			}
			if err := qs.CalcOutput(tt, &in, oq); err != nil {
				t.Fatal(err)
			}
			if err := dyn.CalcOutput(tt, &in, od); err != nil {
				t.Fatal(err)
			}
			cur := &dbemt.Input{}
			rTip, aSum := 0.0, 0.0
			for b := 0; b < nb; b++ {
				for j := 0; j < nn; j++ {
					rTip = math.Max(rTip, oq.Blades[b][j].RLocal)
				}
			}
			if weights == nil {
				rl := make([][]float64, nb)
				for b := range rl {
					for j := 0; j < nn; j++ {
						rl[b] = append(rl[b], oq.Blades[b][j].RLocal)
					}
				}
				weights = dbemt.DiskWeights(rl)
			}
			for b := 0; b < nb; b++ {
				nodes := make([]dbemt.NodeInput, nn)
				for j := 0; j < nn; j++ {
					o := &oq.Blades[b][j]
					nodes[j] = dbemt.NodeInput{VindQS: [2]float64{-o.AxInd * o.Vx, o.TanInd * o.Vy}, SpanRatio: o.RLocal / rTip}
					aSum += o.AxInd * weights[b][j]
				}
				cur.Nodes = append(cur.Nodes, nodes)
			}
			// Un_disk: the disk-averaged relative wind along the shaft
			// axis (the hub-frame x component of RotorOutput.VAvg).
			cur.AxIndAvg, cur.UnAvg, cur.TipRadius = aSum, oq.Rotor.VAvg[0], rTip
			if prev != nil {
				// AeroDyn forms the input at the start of the step with the
				// inflow of its end (AD_UpdateStates evaluates the wind once,
				// at the newest time): the previous quasi-steady inductions
				// applied to the current Vx, Vy (the rigid, untilted rotor's
				// Vx and Vy do not depend on azimuth), as aero.Rotor does.
				start := &dbemt.Input{AxIndAvg: prev.AxIndAvg, UnAvg: prev.UnAvg, TipRadius: prev.TipRadius}
				for b := 0; b < nb; b++ {
					nodes := make([]dbemt.NodeInput, nn)
					for j := 0; j < nn; j++ {
						o := &oq.Blades[b][j]
						nodes[j] = dbemt.NodeInput{VindQS: [2]float64{-prevInd[b][j][0] * o.Vx, prevInd[b][j][1] * o.Vy}, SpanRatio: prev.Nodes[b][j].SpanRatio}
					}
					start.Nodes = append(start.Nodes, nodes)
				}
				if err := m.UpdateStates(tt-dt, start, cur); err != nil {
					t.Fatal(err)
				}
			}
			if err := m.CalcOutput(cur, vind); err != nil {
				t.Fatal(err)
			}
			prev = cur
			prevInd = make([][][2]float64, nb)
			for b := 0; b < nb; b++ {
				for j := 0; j < nn; j++ {
					o := &oq.Blades[b][j]
					prevInd[b] = append(prevInd[b], [2]float64{o.AxInd, o.TanInd})
				}
			}
			for b := 0; b < nb; b++ {
				for j := 1; j < nn-1; j++ {
					mine := -vind[b][j][0] / oq.Blades[b][j].Vx
					maxDiff = math.Max(maxDiff, math.Abs(mine-od.Blades[b][j].AxInd))
					maxLag = math.Max(maxLag, math.Abs(mine-oq.Blades[b][j].AxInd))
				}
			}
		}
		t.Logf("DBEMT_Mod %d: max |a_dbemt - a_aero.Rotor| = %.3g; max dynamic-wake lag |a_dbemt - a_qs| = %.3g", mod, maxDiff, maxLag)
		if maxLag < 0.01 {
			t.Errorf("DBEMT_Mod %d: the wind step produced no dynamic-wake lag (%.3g); test not exercising the filter", mod, maxLag)
		}
		// aero.Rotor's solves start from the previous step's root and stop
		// within rootXTol (1e-6 rad), as AeroDyn's do; the reference's
		// quasi-steady solves here start cold.
		if maxDiff > 1e-6 {
			t.Errorf("DBEMT_Mod %d: filtered axial induction differs from aero.Rotor's by %.3g", mod, maxDiff)
		}
	}
}
