package deck

import (
	"reflect"
	"strings"
	"testing"
)

// seedSubDyn is a small SubDyn model written by WriteV5 (every table kind).
func seedSubDyn() string {
	sd := &SubDyn{IntMethod: 3, SttcSolve: true, FEMMod: 3, NDiv: 2, Nmodes: 2, JDampings: []float64{1, 2},
		GuyanDampMod: 1, RayleighDamp: [2]float64{0.01, 0.002}, Title: "fuzz seed",
		Joints:     []SDJoint{{ID: 1, Type: 1}, {ID: 2, Z: 10, Type: 3, Dir: [3]float64{0, 1, 0}, Stiff: 1e6}, {ID: 3, Z: 20, Type: 1}, {ID: 4, X: 3, Z: 20, Type: 1}},
		Reactions:  []SDReaction{{JointID: 1, Fixed: [6]bool{true, true, true, false, false, true}, SSIFile: "soil.ssi"}},
		Interfaces: []SDInterface{{JointID: 3, TPID: 1, Locked: [6]bool{true, true, true, true, true, true}}},
		Members: []SDMember{{ID: 1, J1: 1, J2: 2, P1: 1, P2: 2, Type: SDBeamCircular}, {ID: 2, J1: 2, J2: 3, P1: 5, P2: 5, Type: SDBeamArbitrary, Spin: 30},
			{ID: 3, J1: 3, J2: 4, P1: 7, P2: 7, Type: SDRigidLink}, {ID: 4, J1: 1, J2: 4, P1: 9, P2: 9, Type: SDCable}},
		PropsCyl: []SDCylProp{{ID: 1, E: 2e11, G: 8e10, Rho: 7850, D: 6, T: 0.05}, {ID: 2, E: 2e11, G: 8e10, Rho: 7850, D: 5, T: 0.04}},
		PropsArb: []SDArbProp{{ID: 5, E: 2e11, G: 8e10, Rho: 7850, A: 1, Asx: 0.5, Asy: 0.5, Jxx: 2, Jyy: 3, J0: 5, Jt: 4}},
		Cables:   []SDCableProp{{ID: 9, EA: 1e9, Rho: 10, T0: 1e5}},
		Rigids:   []SDRigidProp{{ID: 7, Rho: 100}},
		CMasses:  []SDCMass{{JointID: 3, M: 1e5, Jxx: 1, Jyy: 2, Jzz: 3, Jxy: 0.1, CG: [3]float64{0, 0, 1}}},
		SumPrint: true, OutSwtch: 2, TabDelim: true, OutDec: 1, OutFmt: "ES11.4e2", OutSFmt: "A11",
		MemberOutputs: []SDMemberOutput{{MemberID: 1, Nodes: []int{1, 2}}},
		OutList:       []string{"M1N1MKxe", "-ReactFXss", "IntfMYss"},
	}
	var b strings.Builder
	if err := sd.WriteV5(&b); err != nil {
		panic(err)
	}
	return b.String()
}

// Any text: the SubDyn reader returns a structure or an *Error (never a
// panic), and what it reads writes back in the v5 layout to the same values.
func FuzzSubDyn(f *testing.F) {
	fuzzSeeds(f, seedSubDyn())
	f.Fuzz(func(t *testing.T, b []byte) {
		src, err := sourceFromBytes("fuzz.dat", b, false)
		if err != nil {
			return
		}
		sd, err := parseSubDyn(src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		var w strings.Builder
		if err := sd.WriteV5(&w); err != nil {
			return
		}
		src2, err := sourceFromBytes("rt.dat", []byte(w.String()), false)
		if err != nil {
			t.Fatalf("written text rejected: %v\n%s", err, w.String())
		}
		back, err := parseSubDyn(src2)
		if err != nil {
			t.Fatalf("written text does not parse: %v\n%s", err, w.String())
		}
		a, c := normalizedSubDyn(sd), normalizedSubDyn(back)
		a.Title, c.Title = "", ""
		for i := range a.Members {
			a.Members[i].COSMID = 0
		}
		if !reflect.DeepEqual(a, c) {
			t.Fatalf("round trip differs:\n got %+v\nwant %+v\n%s", c, a, w.String())
		}
	})
}
