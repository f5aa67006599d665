// Package unsteady is the unsteady airfoil aerodynamics of the solver:
// AeroDyn's UA_Mod 3, the Beddoes-Leishman dynamic-stall model in the
// Minnema/Pierce variant, as described by Damiani & Hayman (2019), "The
// Unsteady Aerodynamics Module for FAST 8", NREL/TP-5000-66347 (equation
// numbers in comments refer to it), with the separation point taken from the
// static polar (FLookup true; the S1..S4 exponential fit when false).
//
// Per blade node the model keeps discrete states (the "n-1" values of the
// Kelvin chain): the low-pass-filtered angle of attack, pitch rate and its
// derivative; the Wagner deficiency functions X1, X2 of the circulatory
// attached-flow response; the impulsive (non-circulatory) lags; the
// leading-edge pressure lag Dp; the trailing-edge separation point f', its
// boundary-layer lag fpp (normal and chordwise); the lag of the separation
// angle for Cm; the vortex lift Cn_v with the vortex position tau_V; and the
// time-constant modifiers sigma1, sigma3 of the Minnema/Pierce logic. The
// Mach number M = U/SpdSound enters through Prandtl-Glauert factors exactly
// as in AeroDyn; the M -> 0 limit is evaluated analytically, so
// SpeedOfSound = +Inf gives the incompressible form.
//
// Outputs are Cn, Cc, Cl, Cd, Cm. Near UACutout (cosine blend over
// UACutout_delta below it) and below UOff = 1 m/s the outputs are blended to
// the static polar; airfoils with C_nalpha = 0 (cylinders) and nodes outside
// UAStartRad..UAEndRad always return the static polar. An update with
// |alpha| > 90° (flow from the trailing edge) restarts the node's states
// from the first pass, so a parked or idling rotor whose sections see
// reversed flow resumes UA cleanly; below UOff the states keep integrating
// with U raised to UMin, as AeroDyn's do.
//
// # Module contract and use from the time loop (solver/coupling)
//
// Initialise once per blade node:
//
//	tab := &deckAirfoil.Tables[0]                // AFTabMod=1: first table
//	polar := ...                                 // a StaticPolar: the node's airfoil lookup
//	c, err := unsteady.ConstantsFromTable(tab)   // UA block, or derived from the polar when absent
//	node, err := unsteady.NewNode(unsteady.Params{DT: dt, SpeedOfSound: ad.SpdSound.Or(340.3), FLookup: ad.FLookup},
//	        c, polar, chord, tab.Cm != nil, active)
//
// polar should be C's aero.Airfoil lookup at the node's Re/UserProp, wrapped
// in a one-method adapter (Static(alpha) returning Coefs(alpha, re, up));
// NewTablePolar is a linear-interpolation stand-in. This package does not
// import package aero, so aero can import it.
//
// where active = ActiveSpan(rlocal/R, UAStartRad, UAEndRad) with rlocal the
// node's distance from the rotor axis and R the tip's (AeroDyn decides this
// once, at initialisation; the IEA-15 replay confirms rlocal/R, hub radius
// included). A table without a UA block (InclUAdata false) still runs UA,
// with constants derived from the polar, as OpenFAST v5 does; cylinders
// come out with C_nalpha = 0 and stay static.
//
// In each glue step t -> t+DT, after the BEMT (and DBEMT, package dbemt)
// update of the inductions, AeroDyn's order is:
//
//  1. inputs at t: alpha_t = phi - theta from the inductions at t (DBEMT
//     filtered and skew-corrected), U_t = Vrel (relative speed with induction);
//  2. inputs at t+DT: the same with the inductions after the DBEMT update;
//  3. node.UpdateStates(t, Input{alpha_t, U_t}, Input{alpha_tdt, U_tdt}).
//     The first call of a simulation only starts the clock (AeroDyn's n=0).
//
// and in CalcOutput at any time whose states are current:
//
//	y, err := node.CalcOutput(unsteady.Input{Alpha: alpha, U: Vrel})
//
// then use y.Cl, y.Cd, y.Cm in place of the static table values in the
// blade-element loads ½ρW²c(Cl, Cd, Cm). The quasi-steady BEMT solve itself
// (the root finding for phi) keeps using the static polar, as in AeroDyn;
// only the loads use the unsteady coefficients.
//
// # Hook in aero.Rotor
//
// aero.Rotor advances its DBEMT states inside CalcOutput; UA fits the same
// pattern, and this package does not import aero, so aero can import it:
//
//   - Params gains UAMod (0 or 3), FLookup, SpeedOfSound, UAStartRad,
//     UAEndRad, and per airfoil the UA constants (ConstantsFromTable on
//     table 1) — ParamsFromDeck fills them from deck.AeroDyn and the
//     airfoil files instead of noting "UA_Mod not modelled".
//   - New builds an unsteady.Rotor (NewRotor with one NodeSpec per blade
//     node: chord, ActiveSpan(rlocal/R, UAStartRad, UAEndRad), HasCm, and a
//     StaticPolar adapter over the node's *aero.Airfoil at its Re/UserProp:
//     a one-method type whose Static(alpha) returns Coefs(alpha, re, up)).
//   - CalcOutput(t): after the BEMT/DBEMT/skew step has set phi, alpha and W
//     of every node, and before the loads: if t is later than the committed
//     time, first call UpdateStates(tPrev, inputs at tPrev, inputs at t) from
//     the committed RotorState (State/SetState give the committed/latest
//     pair, exactly like the DBEMT states), then CalcOutput(inputs at t),
//     and use Cl, Cd, Cm (and Cn, Ct from them) in ½ρW²c(...). Repeated or
//     corrector calls at the same t restart from the committed state.
//   - The BEMT root solve keeps the static polar; NodeOutput Cl/Cd/Cm report
//     the unsteady values (that is what AeroDyn writes to AB#N###Cl).
package unsteady
