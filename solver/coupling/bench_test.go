package coupling

import (
	"context"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// BenchmarkNREL5MWFlex60s runs the 60-s flexible NREL 5 MW case (16 DOFs,
// DT = 0.01 s, ABM4, quasi-steady BEM). The target is ≥ 10× real time,
// i.e. under 6 s per run; the simulated/wall ratio is reported.
func BenchmarkNREL5MWFlex60s(b *testing.B) {
	fst := testshared.Path(b, "reference-outputs", "nrel5mw_steady8_flex_bem", "Main_Onshore.fst")
	ch := []string{"RotSpeed", "GenPwr", "OoPDefl1", "TTDspFA", "RootMyc1", "TwrBsMyt"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res, err := runPath(context.Background(), fst, Options{OutPath: "-", Channels: ch}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(res.SimTime/res.Wall.Seconds(), "sim/wall")
	}
}

// BenchmarkNREL5MWRigid60s runs the 60-s rigid (GenDOF only) case.
func BenchmarkNREL5MWRigid60s(b *testing.B) {
	fst := testshared.Path(b, "reference-outputs", "nrel5mw_steady8_rigid_bem", "Main_Onshore.fst")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res, err := runPath(context.Background(), fst, Options{OutPath: "-", Channels: []string{"RotSpeed", "GenPwr"}}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(res.SimTime/res.Wall.Seconds(), "sim/wall")
	}
}

// BenchmarkNREL5MWFull60s runs the shared deck as the reference case
// nrel5mw_steady8_full does: tower potential flow and drag, its 520-channel
// OutList (ElastoDyn and AeroDyn blade-node channels included).
func BenchmarkNREL5MWFull60s(b *testing.B) {
	fst := testshared.Path(b, "reference-outputs", "nrel5mw_steady8_full", "Main_Onshore.fst")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res, err := runPath(context.Background(), fst, Options{OutPath: "-"}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(res.SimTime/res.Wall.Seconds(), "sim/wall")
	}
}
