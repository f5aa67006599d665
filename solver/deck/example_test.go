package deck_test

import (
	"fmt"
	"log"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// Load a deck, read typed values, check it and write it back in v5 syntax.
func Example() {
	d, err := deck.Load("Main_Onshore.fst") // any OpenFAST 3.x-5.x .fst
	if err != nil {
		log.Fatal(err) // e.g. "ElastoDyn.dat:42: TipRad: expected a real number, got "abc""
	}
	ed := d.ElastoDyn
	fmt.Println(ed.TipRad, ed.Blades[0].BMassDen[0], ed.Tower.TwFAM1Sh)
	ad := d.AeroDyn
	polar := ad.Airfoils[ad.Blades[0].BlAFID[10]-1].Tables[0] // BlAFID is 1-based
	fmt.Println(polar.Re, polar.Alpha[0], polar.Cl[0], polar.UA.Alpha0.Or(0))
	if d.Controller != nil {
		k, _, _ := d.Controller.Float("VS_Rgn2K")
		fmt.Println(k)
	}
	for _, p := range deck.Validate(d) {
		fmt.Println(p) // file:line: variable: error|warning: message
	}
	fmt.Println(deck.DetectDeck(d)) // dialect, modules, missing files
	if _, err := deck.Write("out", d); err != nil {
		log.Fatal(err)
	}
}

// Read one file of any kind, e.g. a single uploaded file.
func ExampleReadAny() {
	kind, v, err := deck.ReadAny("DU21_A17.dat")
	if err != nil {
		log.Fatal(err) // errors.Is(err, deck.ErrUnsupported) for AeroDyn 14 files
	}
	if af, ok := v.(*deck.Airfoil); ok {
		fmt.Println(kind, af.NumTabs, af.Tables[0].NumAlf)
	}
}
