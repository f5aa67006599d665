package unsteady_test

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/aero"
	"github.com/turbinesim/turbinesim/solver/aero/unsteady"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// airfoilPolar adapts aero.Airfoil (the lookup the BEMT uses,
// with the file's InterpOrd) to unsteady.StaticPolar; this is the adapter
// aero.Rotor would carry.
type airfoilPolar struct{ af *aero.Airfoil }

func (p airfoilPolar) Static(a float64) (cl, cd, cm float64) {
	c := p.af.Coefs(a, 0, 0)
	return c.Cl, c.Cd, c.Cm
}

// TestReplayIEA15Reference replays every blade-1 node of the OpenFAST v5.0.0
// IEA-15-240-RWT onshore runs (steady 10 m/s below rated, and 13 m/s with
// ROSCO pitching; UA_Mod 3, outputs at every 0.005 s step): the Alpha and Vrel OpenFAST wrote are the exact inputs its
// UA saw, so the Cn and Ct the model returns must reproduce OpenFAST's to
// the 16-bit packing precision of the .outb file. Nodes 1-5 use airfoil
// tables without a UA block, whose constants OpenFAST derives from the polar
// (ConstantsFromTable); UA runs where rlocal/R >= UAStartRad = 0.1.
func TestReplayIEA15Reference(t *testing.T) {
	for _, run := range []string{"iea15_onshore_steady10_rosco", "iea15_onshore_steady13_rosco"} {
		t.Run(run, func(t *testing.T) { replayIEA15(t, run) })
	}
}

func replayIEA15(t *testing.T, run string) {
	dir := testshared.Path(t, "reference-outputs", run)
	f, err := outfile.ReadOutbFile(filepath.Join(dir, "IEA-15-240-RWT-Onshore", "IEA-15-240-RWT-Onshore.outb"))
	if err != nil {
		t.Fatal(err)
	}
	bl, err := deck.ReadADBlade(filepath.Join(dir, "IEA-15-240-RWT", "IEA-15-240-RWT_AeroDyn15_blade.dat"))
	if err != nil {
		t.Fatal(err)
	}
	const hubRad, uaStartRad = 3.97, 0.1 // ElastoDyn HubRad, AeroDyn UAStartRad of the run
	rTip := hubRad + bl.BlSpn[len(bl.BlSpn)-1]
	dt := f.Time[1] - f.Time[0]
	// Start-up check: t < startupEnd s, RMS bound startupTol. Tip nodes of
	// these runs show isolated one-sample Cn differences of about 0.02
	// during the first 0.5 s (e.g. steady13 node 40 at t = 0.26, 0.275,
	// 0.29 s, where the written Vrel dips for one sample) with the steps
	// before and after agreeing to 1e-4; they put the window RMS at up to
	// 2e-3 there, hence 3e-3 rather than the 1e-3 of the settled window.
	const startupEnd, startupTol = 2.0, 3e-3
	for k := 1; k <= bl.NumBlNds; k++ {
		al, ok1 := f.Column(fmt.Sprintf("AB1N%03dAlpha", k))
		vr, ok2 := f.Column(fmt.Sprintf("AB1N%03dVrel", k))
		cnRef, ok3 := f.Column(fmt.Sprintf("AB1N%03dCn", k))
		ctRef, ok4 := f.Column(fmt.Sprintf("AB1N%03dCt", k))
		if !ok1 || !ok2 || !ok3 || !ok4 {
			t.Fatalf("node %d: channels missing", k)
		}
		d, err := deck.ReadAirfoil(filepath.Join(dir, "IEA-15-240-RWT", "Airfoils", fmt.Sprintf("IEA-15-240-RWT_AeroDyn15_Polar_%02d.dat", bl.BlAFID[k-1]-1)))
		if err != nil {
			t.Fatal(err)
		}
		af, err := aero.AirfoilFromDeck(d, "af", aero.AFTabFirst)
		if err != nil {
			t.Fatal(err)
		}
		polar := airfoilPolar{af}
		c, err := unsteady.ConstantsFromTable(&d.Tables[0])
		if err != nil {
			t.Fatalf("node %d: %v", k, err)
		}
		active := unsteady.ActiveSpan((hubRad+bl.BlSpn[k-1])/rTip, uaStartRad, 1)
		node, err := unsteady.NewNode(unsteady.Params{DT: dt, FLookup: true}, c, polar, bl.BlChord[k-1], d.Tables[0].Cm != nil, active)
		if err != nil {
			t.Fatal(err)
		}
		var sCn, sCt, sSt float64
		n := 0
		// Start-up window: the first pass (states from the second update
		// on, AeroDyn's n=1) and the steep initial alpha transient, also
		// at the nodes whose relative speed dips below UOff there (nodes
		// 42, 46, 48 at 10 m/s, 42 at 13 m/s: down to 0.55 m/s), where the
		// states keep integrating as OpenFAST's do (restarting them put
		// the window RMS of ΔCn at 0.008-0.05).
		var s0Cn, s0Ct float64
		n0 := 0
		for i := range f.Time {
			in := unsteady.Input{Alpha: al[i] * math.Pi / 180, U: vr[i]}
			y, err := node.CalcOutput(in)
			if err != nil {
				t.Fatal(err)
			}
			if f.Time[i] < startupEnd {
				ca, sa := math.Cos(in.Alpha), math.Sin(in.Alpha)
				cn, ct := y.Cl*ca+y.Cd*sa, y.Cl*sa-y.Cd*ca
				s0Cn += (cn - cnRef[i]) * (cn - cnRef[i])
				s0Ct += (ct - ctRef[i]) * (ct - ctRef[i])
				n0++
			}
			if f.Time[i] >= 30 {
				ca, sa := math.Cos(in.Alpha), math.Sin(in.Alpha)
				cn, ct := y.Cl*ca+y.Cd*sa, y.Cl*sa-y.Cd*ca
				sCn += (cn - cnRef[i]) * (cn - cnRef[i])
				sCt += (ct - ctRef[i]) * (ct - ctRef[i])
				cl, cd, _ := polar.Static(in.Alpha)
				cnS := cl*ca + cd*sa
				sSt += (cnS - cnRef[i]) * (cnS - cnRef[i])
				n++
			}
			next := in
			if i+1 < len(f.Time) {
				next = unsteady.Input{Alpha: al[i+1] * math.Pi / 180, U: vr[i+1]}
			}
			if err := node.UpdateStates(f.Time[i], in, next); err != nil {
				t.Fatal(err)
			}
		}
		rCn, rCt, rSt := math.Sqrt(sCn/float64(n)), math.Sqrt(sCt/float64(n)), math.Sqrt(sSt/float64(n))
		t.Logf("node %2d (UA %-5v C_nalpha %.3f): RMS ΔCn %.5f, ΔCt %.5f; static polar ΔCn %.5f", k, active && !node.Off(), c.CNAlpha, rCn, rCt, rSt)
		if rCn > 1e-3 || rCt > 1e-3 {
			t.Errorf("node %d: Cn/Ct differ from OpenFAST by RMS %.5f / %.5f", k, rCn, rCt)
		}
		r0Cn, r0Ct := math.Sqrt(s0Cn/float64(n0)), math.Sqrt(s0Ct/float64(n0))
		if r0Cn > startupTol || r0Ct > startupTol {
			t.Errorf("node %d: start-up (t < %g s) Cn/Ct differ from OpenFAST by RMS %.5f / %.5f", k, startupEnd, r0Cn, r0Ct)
		}
	}
}
