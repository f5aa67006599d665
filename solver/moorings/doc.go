// Package moorings models the mooring lines of a floating platform.
//
// System is the MoorDyn-equivalent lumped-mass model (OpenFAST
// CompMooring = 3): each line is a chain of point masses joined by
// axially elastic, internally damped segments, loaded by weight,
// buoyancy, Morison drag and added mass in still water, and by seabed
// contact and friction (Hall & Goupee 2015, "Validation of a lumped-mass
// mooring line model with DeepCwind semisubmersible model test data",
// Ocean Engineering 104; MoorDyn's documentation for the v2 input file,
// options, output names and segment damping). Lines join fixed anchors,
// points on the platform (moved with its 6-DOF rigid-body motion) and free
// points; the states are integrated with the second-order Runge-Kutta
// scheme at the file's dtM inside each coupling step, after a
// dynamic-relaxation initial condition.
//
// Catenary and QuasiStatic are the MAP++-equivalent quasi-static elastic
// catenary (CompMooring = 1; Irvine, "Cable Structures"; Jonkman 2007,
// NREL/TP-500-41958, §4.2): the fairlead tensions of each line for a given
// fairlead-anchor geometry, with seabed contact and friction, and the
// linearised 6×6 stiffness of the mooring system.
//
// Both plug into the coupling through the module seam: initialise from the
// deck (New/Init, NewQuasiStatic), update states over a coupling step
// (UpdateStates), compute outputs and the loads on the platform reference
// point (CalcOutput), with the mesh mapping between the reference point
// and the attachment points done by RigidPoint and Loads.
package moorings
