// Package hydro computes hydrodynamic loads on offshore substructures, the
// equivalent of OpenFAST's HydroDyn, as functions and types with no coupling
// code of their own.
//
// Potential flow (PotMod 1, one WAMIT body at the origin): the WAMIT files
// of PotFile (.1 added mass and damping, .3 excitation, .hst hydrostatics;
// ParseWAMIT1, ParseWAMIT3, ParseHST with WAMIT's nondimensionalisation)
// give, per Cummins' equation,
//
//	F(t) = F_exc(t) + F_drift(t) + F_hs(q)
//	       − ∫_0^RdtnTMax K(τ) q̇(t−τ) dτ − A∞ q̈ + F_add(q, q̇)
//
// with K(t) = (2/π) ∫ B(ω) cos ωt dω (Kernel, RdtnMod 1) or, for RdtnMod
// 2, the memory term from SS_Fitting's state-space fit of <PotFile>.ss
// (ParseSSRadiation, SSRadiation: x' = A x + B q̇, memory force C x, the
// file's C carrying the sign, C e^{At} B = −K(t); its states advance with
// the coupling's step by the exact discretisation for a velocity linear
// over the step), F_exc = Re Σ c_n conj(X(ω_n, β_n)) e^{−iω_n t}
// from the sea's components (ExctnMod 1; with ExctnDisp 1 or 2 each
// component is taken where the reference point has moved horizontally,
// c_n → c_n e^{i k_n·Δ}, Δ instantaneous or low-pass filtered with the
// corner frequency ExctnCutOff; see below) or,
// for ExctnMod 2, C x of SS_Excitation_Fitting's <PotFile>.ssexctn
// (ParseSSExcitation, SSExcitation: x' = A x + B η(t + tc), η the
// first-order elevation at the WAMIT reference point, tc the file's time
// offset; one heading, so a sea from another direction or spread is
// refused), the
// hydrostatics F_hs of HydroDyn (buoyancy at the CoB offset minus the
// heave-roll-pitch block of C_hst, in the frame yawed with the platform),
// F_add = AddF0 − AddCLin q − Rᵀ(AddBLin v_b + AddBQuad |v_b| v_b) with v_b
// the body-frame velocity, and, with DiffQTF 10/11/12, the full
// difference-frequency load F_drift = Re Σ_m Σ_n c_m c_n* conj(Q(ω_m, ω_n))
// e^{−i(ω_m−ω_n)t} (mean and slow drift; ParseQTF, waves.DifferenceSeries)
// over the difference frequencies within [WvLowCOffD, WvHiCOffD].
// MnDrift, NewmanApp and SumQTF are not modelled: Model.Warnings says so
// when the deck asks for them.
//
// Strip theory (Morison): members not given to potential flow are cut into
// strips of at most MDivSize; each strip carries drag, fluid inertia,
// buoyancy, marine growth and flooding, member ends the joint's axial
// terms (see Morison).
//
// Coupling. Module is the offshore.Module the coupling seam runs
// (solver/coupling builds it for CompSeaSt = 1; docs/offshore-coupling.md).
// Underneath, the coupling owns time stepping and this package only
// evaluates loads and keeps the radiation memory:
//
//	sea, ss, _ := waves.FromDeck(d, root)        // the SeaState
//	m, _ := hydro.FromDeck(d, root, sea, dt)     // HydroDyn: m.Platform, m.Morison
//	M += m.Platform.AInf()                        // implicit added mass (6×6, at the reference point)
//	for each node i: M_i += m.Morison.NodeMass(i) // implicit nodal added/attached mass (3×3)
//	each step, for every evaluation at time t (predictor, corrector …):
//	    pl := m.Platform.Loads(t, hydro.Motion{Q, QD, QDD}) // pl.Total excludes −A∞ q̈
//	    m.Morison.Loads(t, nodeMotions, nodeLoads)          // excludes −NodeMass·q̈
//	    m.Morison.MapToPoints(nodeLoads, structuralNodes, out)
//	once the step at t is final:
//	    m.Platform.Advance(t, motion)                       // radiation velocity history
//
// The platform motion is that of the WAMIT reference point (the origin at
// rest); the loads are about that point in the global frame. Morison
// kinematics are taken at the nodes' rest positions (WaveDisp 0) and loads
// integrated up to SWL (AMMod 0, HstMod 0), as in the reference decks.
//
// Displaced positions (HydroDyn user documentation, ExctnDisp and WaveDisp):
// with WaveDisp 1 each strip takes the kinematics at its node's displaced
// X and Y and its rest Z (waves.Layer; first-order kinematics without
// stretching: WaveDisp 1 with WaveStMod > 0, where HydroDyn also moves nodes
// vertically and smooths the loads at the free surface, or with
// second-order kinematics, is refused). With ExctnDisp 1 the first-order
// excitation is evaluated at the reference point's displaced horizontal
// position, with ExctnDisp 2 at that position through a first-order
// low-pass filter of corner ExctnCutOff (Hz), updated once per step
// (Platform.Advance); the heading of the waves to the body stays PtfmRefY
// (0), so platform yaw does not turn the excitation. Both sum the
// components directly at each evaluation (waves.Field) instead of
// interpolating a precomputed series. The difference-frequency QTF load
// stays at the undisplaced position (the documentation moves the
// first-order excitation; ExctnDisp 2 exists to keep the first-order
// motion's share, which the QTF holds, from being counted twice); a
// warning says so.
//
// Output channels (Outputs): HydroFxi … HydroMzi (all loads about the
// reference point, the added-mass terms included from the accelerations
// given), B1WvsF1xi … B1WvsM1zi, B1HdSFxi … B1HdSMzi, B1RdtFxi … B1RdtMzi
// (memory plus −A∞ q̈, as HydroDyn reports them).
package hydro
