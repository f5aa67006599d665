package deck

import (
	"reflect"
	"strings"
	"testing"
)

// Seeds: small files written for these tests (not copies of third-party
// decks), covering the syntax each reader accepts.
var seedMain = `------- OpenFAST INPUT FILE -------
seed deck
---------------------- SIMULATION CONTROL ----
False   Echo   - flag
"FATAL" AbortLevel - x
 30     TMax   - s
0.01    DT     - s
1       InterpOrder - x
0       NumCrctn - x
1.5     DT_UJac - s
1E+06   UJacSclFact - x
---------------------- FEATURE SWITCHES ----
1 CompElast - x
1 CompInflow - x
2 CompAero - x
0 CompServo - x
0 CompHydro - x
0 CompSub - x
0 CompMooring - x
0 CompIce - x
---------------------- ENVIRONMENTAL CONDITIONS ----
9.81 Gravity - x
---------------------- INPUT FILES ----
"ed.dat" EDFile - x
"ifw.dat" InflowFile - x
"ad.dat" AeroFile - x
"unused" ServoFile - x
---------------------- OUTPUT ----
False SumPrint - x
"default" DT_Out - x
0 TStart - x
2 OutFileFmt - x
30.0, 60.0 LinTimes - x
`

var seedBlade = `--- blade ---
seed blade
---------------------- BLADE PARAMETERS ----
3 NBlInpSt - x
1 BldFlDmp(1) - x
1 BldFlDmp(2) - x
1 BldEdDmp(1) - x
1 FlStTunr(1) - x
1 FlStTunr(2) - x
1 AdjBlMs - x
1 AdjFlSt - x
1 AdjEdSt - x
BlFract StrcTwst BMassDen FlpStff EdgStff
(-) (deg) (kg/m) (Nm^2) (Nm^2)
0 10 500 1e10 2e10
0.5 5 300 1e9 2e9
1 0 100 1e8 2e8
0.1 BldFl1Sh(2) - x
0.2 BldFl1Sh(3) - x
0.3 BldFl1Sh(4) - x
0.2 BldFl1Sh(5) - x
0.2 BldFl1Sh(6) - x
1 BldFl2Sh(2) - x
0 BldFl2Sh(3) - x
0 BldFl2Sh(4) - x
0 BldFl2Sh(5) - x
0 BldFl2Sh(6) - x
1 BldEdgSh(2) - x
0 BldEdgSh(3) - x
0 BldEdgSh(4) - x
0 BldEdgSh(5) - x
0 BldEdgSh(6) - x
`

var seedADBlade = `--- ad blade ---
seed
====== Blade Properties ====
3 NumBlNds - x
BlSpn BlCrvAC BlSwpAC BlCrvAng BlTwist BlChord BlAFID
(m) (m) (m) (deg) (deg) (m) (-)
0 0 0 0 10 3 1
30 0 0 0 5 2 2
60 0 0 0 0 1 2
`

var seedAirfoil = `! airfoil seed
! second comment
"DEFAULT" InterpOrd ! x
1 NonDimArea ! x
2 NumCoords ! x
0.25 0
1.0 0.0
"unused" BL_file ! x
2 NumTabs ! x
0.5 Re ! x
0 UserProp ! x
True InclUAdata ! x
-2 alpha0 ! x
default T_f0 ! x
3 NumAlf ! x
-180 0 0.1 0
0 0.3 0.01 -0.1
180 0 0.1 0
1.5 Re ! x
0 Ctrl ! x
False InclUAdata ! x
2 NumAlf ! x
-180 0 0.1 0
180 0 0.1 0
`

var seedDiscon = `! Controller parameter input file
!------- SECTION ----
1                   ! LoggingLevel - x
0.79168             ! PC_RefSpd - x
3 3.2 3.5           ! PS_WindSpeeds - x
"perf.txt"          ! PerfFileName - x
2                   ! VS_ControlMode - x
`

var seedInflow = `--- ifw ---
seed
----
False Echo - x
1 WindType - x
0 PropagationDir - x
1 NWindVel - x
0 WindVxiList - x
0 WindVyiList - x
90 WindVziList - x
8 HWindSpeed - x
90 RefHt - x
0.2 PLExp - x
"w.wnd" FileName_Uni - x
90 RefHt_Uni - x
125 RefLength - x
"w.bts" FileName_BTS - x
"w" FileNameRoot - x
False SumPrint - x
OutList - x
"Wind1VelX, Wind1VelY"
END
`

func fuzzSeeds(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(""))
	f.Add([]byte("\x00\x01binary"))
	f.Add([]byte("@\"missing.txt\" NumCoords\n"))
}

// roundTrip checks parse → encode → parse gives the same structure.
func roundTrip[T any](t *testing.T, v T, encode func(T) (string, error), parse func(*Source) (T, error)) {
	s, err := encode(v)
	if err != nil {
		return // structures the writer refuses (inconsistent tables) are fine
	}
	src, err := sourceFromBytes("rt.dat", []byte(s), false)
	if err != nil {
		t.Fatalf("written text rejected: %v\n%s", err, s)
	}
	w, err := parse(src)
	if err != nil {
		t.Fatalf("written text does not parse: %v\n%s", err, s)
	}
	if d := diffNoTitle(reflect.ValueOf(v), reflect.ValueOf(w)); d != "" {
		t.Fatalf("round trip differs at %s\n%s", d, s)
	}
}

func diffNoTitle(a, b reflect.Value) string {
	a, b = a.Elem(), b.Elem()
	for i := 0; i < a.NumField(); i++ {
		f := a.Type().Field(i)
		if !f.IsExported() || f.Name == "Title" || f.Name == "Meta" {
			continue
		}
		if s := diff(f.Name, a.Field(i), b.Field(i)); s != "" {
			return s
		}
	}
	return ""
}

func FuzzTokenize(f *testing.F) {
	fuzzSeeds(f, seedMain, seedAirfoil, `"a, b" 'c' d;e,f ! comment`, `x "unterminated`)
	f.Fuzz(func(t *testing.T, b []byte) {
		s := string(b)
		if strings.ContainsAny(s, "\n") {
			return
		}
		toks := tokenize(stripComment(s))
		for _, tk := range toks {
			if !tk.Quoted && tk.Text == "" {
				t.Fatalf("empty bare token from %q", s)
			}
			if !tk.Quoted && strings.ContainsAny(tk.Text, " \t,;") {
				t.Fatalf("separator inside bare token %q from %q", tk.Text, s)
			}
		}
		k := labelCandidates(toks)
		for _, c := range k {
			if c.pos >= len(toks) {
				t.Fatalf("label position %d beyond %d tokens", c.pos, len(toks))
			}
		}
	})
}

func fuzzParse[T any](f *testing.F, includes bool, parse func(*Source) (T, error), encode func(T) (string, error), seeds ...string) {
	fuzzSeeds(f, seeds...)
	f.Fuzz(func(t *testing.T, b []byte) {
		src, err := sourceFromBytes("fuzz.dat", b, includes)
		if err != nil {
			return
		}
		v, err := parse(src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if encode != nil {
			roundTrip(t, v, encode, parse)
		}
	})
}

func FuzzMain(f *testing.F) {
	fuzzParse(f, false, parseMain, (*Main).encode, seedMain)
}

func FuzzEDBlade(f *testing.F) {
	fuzzParse(f, false, parseEDBlade, (*EDBlade).encode, seedBlade)
}

func FuzzADBlade(f *testing.F) {
	fuzzParse(f, false, parseADBlade, (*ADBlade).encode, seedADBlade)
}

func FuzzAirfoil(f *testing.F) {
	enc := func(a *Airfoil) (string, error) {
		s, c, err := a.encode()
		if c != "" {
			return "", nil
		}
		return s, err
	}
	fuzzParse(f, false, parseAirfoil, enc, seedAirfoil)
}

func FuzzInflowWind(f *testing.F) {
	fuzzParse(f, false, parseInflowWind, (*InflowWind).encode, seedInflow)
}

func FuzzDiscon(f *testing.F) {
	fuzzParse(f, false, parseDiscon, nil, seedDiscon)
}

func FuzzReadAnyKinds(f *testing.F) {
	fuzzSeeds(f, seedMain, seedBlade, seedADBlade, seedAirfoil, seedDiscon, seedInflow)
	f.Fuzz(func(t *testing.T, b []byte) {
		src, err := sourceFromBytes("fuzz.dat", b, false)
		if err != nil {
			return
		}
		// every parser must fail cleanly or succeed on any input
		_, _ = parseElastoDyn(src)
		_, _ = parseEDTower(src)
		_, _ = parseAeroDyn(src)
		_, _ = parseServoDyn(src)
		g := parseGeneric(src, "x")
		_, _, _ = g.Float("WaveHs")
		_, _, _ = g.Table("LineType", -1)
		_ = SniffKind(src)
	})
}

// The seeds themselves must parse (they are also the package's tests that
// need no shared material).
func TestSeedsParse(t *testing.T) {
	src := func(s string) *Source {
		t.Helper()
		x, err := sourceFromBytes("seed.dat", []byte(s), false)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	m, err := parseMain(src(seedMain))
	if err != nil {
		t.Fatal(err)
	}
	if m.TMax != 30 || !m.DT_Out.Default || len(m.LinTimes) != 2 || m.LinTimes[1] != 60 || m.ModCoupling != 1 || m.EDFile != "ed.dat" || m.Title != "seed deck" {
		t.Errorf("main %+v", m)
	}
	b, err := parseEDBlade(src(seedBlade))
	if err != nil {
		t.Fatal(err)
	}
	if b.NBlInpSt != 3 || b.BMassDen[1] != 300 || b.PitchAxis != nil || b.BldFl1Sh[4] != 0.2 {
		t.Errorf("blade %+v", b)
	}
	ab, err := parseADBlade(src(seedADBlade))
	if err != nil {
		t.Fatal(err)
	}
	if ab.BlSpn[2] != 60 || ab.BlAFID[1] != 2 {
		t.Errorf("ad blade %+v", ab)
	}
	a, err := parseAirfoil(src(seedAirfoil))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Tables) != 2 || a.NumCoords != 2 || a.Coords[1] != [2]float64{1, 0} || a.Tables[1].Re != 1.5 || a.Tables[0].UA.Alpha0.Value != -2 ||
		!a.Tables[0].UA.T_f0.Default || a.Tables[1].InclUAdata || a.Tables[0].Cl[1] != 0.3 || a.Tables[1].NumAlf != 2 {
		t.Errorf("airfoil %+v", a)
	}
	// UserProp of table 1 must not be taken from table 2's "Ctrl" line
	if a.Tables[0].UserProp != 0 {
		t.Errorf("table 1 UserProp %g", a.Tables[0].UserProp)
	}
	d, err := parseDiscon(src(seedDiscon))
	if err != nil {
		t.Fatal(err)
	}
	if ws, _, _ := d.Floats("PS_WindSpeeds"); len(ws) != 3 || ws[2] != 3.5 {
		t.Errorf("discon %v", ws)
	}
	stray, err := parseDiscon(src(seedDiscon + "5 6 7\n"))
	if err != nil || len(stray.Stray) != 1 || stray.Stray[0] != 8 {
		t.Errorf("stray DISCON line: %v %v", stray.Stray, err)
	}
	w, err := parseInflowWind(src(seedInflow))
	if err != nil {
		t.Fatal(err)
	}
	// a quoted "A, B" OutList entry gives two channels
	if len(w.OutList) != 2 || w.OutList[1] != "Wind1VelY" || w.PLExp != 0.2 {
		t.Errorf("inflow %+v", w)
	}
}

// seedOf writes a structure with the package's own writer to serve as a
// complete, valid seed of its file kind.
func seedOf(f *testing.F, enc func() (string, error)) string {
	s, err := enc()
	if err != nil {
		f.Fatal(err)
	}
	return s
}

func FuzzElastoDyn(f *testing.F) {
	ed := &ElastoDyn{Title: "seed", Method: 3, DT: DefReal{Default: true}, NumBl: 3, TipRad: 63, HubRad: 1.5, BldFile: [3]string{"b.dat", "b.dat", "b.dat"},
		TwrFile: "t.dat", GBRatio: 97, GBoxEff: 100, TwrNodes: 20, BldNodes: 17, NTwGages: 1, TwrGagNd: []int{10}, OutList: OutList{"RotSpeed"},
		Nodal: NodalOutputs{Present: true, BladesOut: 1, BlOutNd: "All", OutList: OutList{"TDx"}}}
	fuzzParse(f, false, parseElastoDyn, (*ElastoDyn).encode, seedOf(f, ed.encode))
}

func FuzzEDTower(f *testing.F) {
	tw := &EDTower{Title: "seed", NTwInpSt: 2, HtFract: []float64{0, 1}, TMassDen: []float64{5000, 3000}, TwFAStif: []float64{1e11, 1e10}, TwSSStif: []float64{1e11, 1e10},
		TwFAM1Sh: [5]float64{0.7, 2.2, -5.6, 6.2, -2.5}}
	fuzzParse(f, false, parseEDTower, (*EDTower).encode, seedOf(f, tw.encode))
}

func FuzzAeroDyn(f *testing.F) {
	ad := &AeroDyn{Title: "seed", Wake_Mod: 1, TwrPotent: 1, TwrAero: true, InCol_Alfa: 1, InCol_Cl: 2, InCol_Cd: 3, InCol_Cm: 4, NumAFfiles: 2, AFNames: []string{"a.dat", "b.dat"},
		ADBlFile: [3]string{"bl.dat", "bl.dat", "bl.dat"}, NumTwrNds: 2, TwrElev: []float64{0, 87.6}, TwrDiam: []float64{6, 3.87}, TwrCd: []float64{1, 1},
		TwrTI: []float64{0.1, 0.1}, TwrCb: []float64{0, 0}, TwrCp: []float64{0, 0}, TwrCa: []float64{0, 0}, NacCenB: []float64{0, 0, 0}, OutList: OutList{"RtFldCp"}}
	legacy := strings.Replace(seedOf(f, ad.encode), "1                      Wake_Mod", "2 WakeMod - legacy\n2 AFAeroMod - legacy", 1)
	fuzzParse(f, false, parseAeroDyn, (*AeroDyn).encode, seedOf(f, ad.encode), legacy)
}

func FuzzServoDyn(f *testing.F) {
	s := &ServoDyn{Title: "seed", DT: DefReal{Default: true}, PCMode: 5, VSContrl: 5, GenModel: 1, GenEff: 94.4, DLL_FileName: "d.so", DLL_InFile: "DISCON.IN", DLL_ProcName: "DISCON",
		NumBStC: 1, BStCfiles: []string{"stc.dat"}, DLL_NumTrq: 2, GenSpd_TLU: []float64{0, 1000}, GenTrq_TLU: []float64{0, 4e4}, OutList: OutList{"GenPwr"}}
	fuzzParse(f, false, parseServoDyn, (*ServoDyn).encode, seedOf(f, s.encode))
}
