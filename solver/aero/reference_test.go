package aero

import (
	"fmt"
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// TestAgainstOpenFASTRigidBEM replays the rotor speed, azimuth and pitch of
// OpenFAST v5.0.0's rigid-rotor, quasi-steady BEM runs of the NREL 5 MW
// (steady wind, no tower influence) and compares AeroDyn's rotor outputs at
// every sample with t >= 30 s.
func TestAgainstOpenFASTRigidBEM(t *testing.T) {
	for _, c := range []string{"nrel5mw_steady8_rigid_bem", "nrel5mw_steady11_rigid_bem"} {
		t.Run(c, func(t *testing.T) {
			fst := testshared.Path(t, "reference-outputs", c, "Main_Onshore.fst")
			d, err := deck.Load(fst)
			if err != nil {
				t.Fatal(err)
			}
			p, notes, err := ParamsFromDeck(d)
			if err != nil {
				t.Fatal(err)
			}
			if len(notes) > 0 {
				t.Fatalf("the rigid BEM case should need no substitutions: %v", notes)
			}
			rot, err := New(p)
			if err != nil {
				t.Fatal(err)
			}
			of, err := outfile.ReadOutbFile(testshared.Path(t, "reference-outputs", c, "Main_Onshore.outb"))
			if err != nil {
				t.Fatal(err)
			}
			col := func(name string) []float64 {
				v, ok := of.Column(name)
				if !ok {
					t.Fatalf("channel %s missing", name)
				}
				return v
			}
			wind, rpm, pitch, azim := col("Wind1VelX"), col("RotSpeed"), col("BldPitch1"), col("Azimuth")
			names := []string{"RtFldFxh", "RtFldMxh", "RtFldPwr", "RtFldCp", "RtFldCt", "RtTSR", "RtVAvgxh"}
			ref := make([][]float64, len(names))
			for i, n := range names {
				ref[i] = col(n)
			}
			type nodal struct {
				name string
				ref  []float64
				node int
			}
			var nodes []nodal
			for j := 1; j <= rot.NumNodes(0); j++ {
				for _, q := range []string{"alpha", "Cl", "Fx", "Fy"} {
					nm := fmt.Sprintf("AB1N%03d%s", j, q)
					if v, ok := of.Column(nm); ok {
						nodes = append(nodes, nodal{nm, v, j})
					}
				}
			}
			maxNode := map[string]float64{}
			var in Input
			out := rot.NewOutput()
			maxRel := make([]float64, len(names))
			sumOF := make([]float64, len(names))
			sumGo := make([]float64, len(names))
			n := 0
			for k, tt := range of.Time {
				if tt < 30 {
					continue
				}
				// Steady uniform wind (the case's InflowWind file: WindType 1, PLExp 0).
				u := wind[k]
				st, err := RigidStateFromDeck(d, azim[k]*deg2rad, rpm[k]*math.Pi/30, pitch[k]*deg2rad)
				if err != nil {
					t.Fatal(err)
				}
				if err := rot.RigidInput(st, func(Vec3) Vec3 { return Vec3{u, 0, 0} }, &in); err != nil {
					t.Fatal(err)
				}
				if err := rot.CalcOutput(tt, &in, out); err != nil {
					t.Fatal(err)
				}
				for i, nm := range names {
					v, _, ok := Channel(out, nm, nil)
					if !ok {
						t.Fatalf("channel %s not produced", nm)
					}
					sumOF[i] += ref[i][k]
					sumGo[i] += v
					maxRel[i] = math.Max(maxRel[i], math.Abs(v-ref[i][k])/math.Abs(ref[i][k]))
				}
				for _, nd := range nodes {
					v, _, ok := Channel(out, nd.name, nil)
					if !ok {
						t.Fatalf("channel %s not produced", nd.name)
					}
					q := nd.name[7:]
					maxNode[q] = math.Max(maxNode[q], math.Abs(v-nd.ref[k]))
				}
				n++
			}
			// Blade-1 node channels: alpha (deg), Cl, Fx and Fy (N/m).
			t.Logf("blade-1 nodes, worst absolute difference over all nodes and samples: alpha %.4f deg, Cl %.4f, Fx %.2f N/m, Fy %.2f N/m",
				maxNode["alpha"], maxNode["Cl"], maxNode["Fx"], maxNode["Fy"])
			if maxNode["alpha"] > 0.01 || maxNode["Cl"] > 0.002 || maxNode["Fx"] > 5 || maxNode["Fy"] > 5 {
				t.Errorf("nodal outputs differ more than 0.01 deg / 0.002 / 5 N/m")
			}
			for i, nm := range names {
				mo, mg := sumOF[i]/float64(n), sumGo[i]/float64(n)
				rel := (mg - mo) / mo
				t.Logf("%-9s OpenFAST mean %14.6g  ours %14.6g  mean diff %+.3f%%  max per-sample %.3f%%", nm, mo, mg, 100*rel, 100*maxRel[i])
				if math.Abs(rel) > 0.01 || maxRel[i] > 0.001 {
					t.Errorf("%s: mean differs by %.3f%% (limit 1%%), worst sample by %.3f%% (limit 0.1%%)", nm, 100*rel, 100*maxRel[i])
				}
			}
		})
	}
}
