// Package aero is the AeroDyn-equivalent rotor aerodynamics of the solver:
// airfoil tables, blade-element/momentum theory (BEMT) with Prandtl tip/hub
// losses, Buhl's high-induction correction and the Pitt/Peters skewed-wake
// correction, tower influence (potential flow, Powles/Eames shadow) and tower
// drag, Øye's dynamic wake (DBEMT_Mod 1 and 2), and the rotor-integrated
// loads with AeroDyn's output channel names. Unsteady airfoil aerodynamics
// UA_Mod 3 (Beddoes-Leishman, Minnema/Pierce; package unsteady) replace the
// static coefficients in the loads, as AeroDyn does, while the BEMT root
// solve keeps the static polar; other UA_Mod values fall back to steady
// polars with a note.
//
// # Module contract
//
// Like every physics module of the solver it has three calls:
//
//	rot, err := aero.New(params)            // initialise: validate, prepare airfoils
//	err = rot.UpdateStates(t, dt, &in)      // input check (states advance in CalcOutput, see below)
//	err = rot.CalcOutput(t, &in, &out)      // loads at time t for the given motion and wind
//
// With DBEMT or UA on, the Rotor carries the dynamic-wake and airfoil states and advances them
// inside CalcOutput from its time argument (see UpdateStates for the rules
// that make repeated and corrector calls safe); such a Rotor must not be
// shared between goroutines. Without DBEMT a Rotor is stateless and
// CalcOutput may run concurrently with separate Outputs.
//
// The caller (the coupling glue, or perf for steady surfaces) fills an Input
// each time step: for every blade node its position, orientation (a 3x3
// direction-cosine matrix), structural translational velocity and the
// undisturbed inflow at that point, plus the hub position/orientation and the
// rotor speed. Rotor.RigidInput builds that Input for a rigid rotor from
// azimuth, pitch, precone, tilt and yaw, which is also a worked example of the
// conventions below.
//
// # Conventions (those of OpenFAST's ElastoDyn → AeroDyn meshes)
//
// Global (inertial) frame: x downwind for zero yaw and zero wind direction,
// z vertically up, y = z × x (to the left looking downwind). All vectors in
// Input and the loads in Output are expressed in this frame, SI units.
//
// A DCM maps global components to local ones: local = DCM · global, so the
// rows of the matrix are the local unit axes written in global components
// (OpenFAST's mesh Orientation convention).
//
// Hub orientation rows: x_h along the rotor shaft pointing downwind (the rotor
// spins positively about +x_h), y_h and z_h complete a right-handed frame
// (z_h "up" at zero tilt).
//
// Blade-node orientation rows (including twist, pitch, curvature and any
// elastic rotation): z_l along the blade pitch axis towards the tip; y_l along
// the chord from leading to trailing edge; x_l = y_l × z_l, towards the
// suction side for an upwind rotor at zero twist/pitch (≈ downwind). With zero
// twist and pitch, y_l points opposite to the direction of rotation. The
// twist+pitch angle theta used in alpha = phi - theta is recovered from the
// DCM: theta > 0 turns the leading edge into the wind (towards feather).
//
// Node velocity is the total translational velocity of the aerodynamic
// centre (rotation plus elastic motion). The relative wind is
// Wind (+ tower influence) − Velocity.
//
// Loads are per unit blade length (N/m and N·m/m) at each node, in the global
// frame, to be integrated along the blade as a linear (Line2) distribution —
// what OpenFAST maps onto ElastoDyn's blade points. The moment is the airfoil
// pitching moment about z_l (positive nose-up).
package aero
