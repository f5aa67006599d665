package structure

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

func loadFlexDeck(t *testing.T) *deck.Deck {
	t.Helper()
	path := testshared.Path(t, "reference-outputs", "nrel5mw_steady8_flex_bem", "Main_Onshore.fst")
	d, err := deck.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Reference values are ElastoDyn's Coeff results for the NREL 5 MW onshore
// model as reproduced by openfast_toolbox/welib's ElastoDyn port and its unit
// test (test_ED_tower_params): tower mass 347,460.2316 kg, KTFA(1,1) =
// 1.910902930730452e6 N/m, side-side frequencies 0.931115438 and 3.080181973
// Hz, CTFA(1,1) = 6420.56966 N·s/m, and a rotor mass of 107,107.00928 kg
// with AdjBlMs = 1 (this deck's blade file uses AdjBlMs = 1.04536).
func TestNREL5MWCoefficientsMatchElastoDyn(t *testing.T) {
	d := loadFlexDeck(t)
	p, err := ParamsFromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewModel(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want, rtol float64) {
		t.Helper()
		if math.Abs(got-want) > rtol*math.Abs(want) {
			t.Errorf("%s = %.10g, ElastoDyn %.10g", name, got, want)
		}
	}
	bladeMass := 0.0
	for _, v := range m.bElmMass[0] {
		bladeMass += v
	}
	check("blade mass", bladeMass, (107107.00927723547-56780)/3*p.Blades[0].AdjBlMs, 1e-9)
	twrMass := 0.0
	for _, v := range m.tElmMass {
		twrMass += v
	}
	check("tower mass", twrMass, 347460.2316, 1e-9)
	check("KTFA(1,1)", m.kFA[0][0], 1.910902930730452e6, 1e-9)
	check("KTSS(2,2)", m.kSS[1][1], 1.319779713916086e10, 1e-9)
	check("FreqTSS(1)", m.FreqTSS[0], 0.931115438458394, 1e-9)
	check("FreqTSS(2)", m.FreqTSS[1], 3.080181973131150, 1e-9)
	check("CTFA(1,1)", m.cFA[0][0], 6.420569660348690e3, 1e-9)
	check("CTFA(2,1)", m.cFA[1][0], 9.772015298550068e3, 1e-9)
	check("AxRedTFA(1,1,top)", m.tShape[p.TwrNodes+1].axFA[0][0], 1.417295499349627e-02, 1e-9)
	t.Logf("blade mass %.1f kg, flap %.3f/%.3f Hz, edge %.3f Hz, tower FA %.3f/%.3f Hz, SS %.3f/%.3f Hz",
		bladeMass, m.FreqBF[0], m.FreqBF[1], m.FreqBE, m.FreqTFA[0], m.FreqTFA[1], m.FreqTSS[0], m.FreqTSS[1])
}
