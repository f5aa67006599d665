// Package waves is the sea-state model: incident-wave elevation and
// kinematics (velocity, acceleration, dynamic pressure) and current at any
// point and time, the equivalent of OpenFAST's SeaState module.
//
// The waves are first-order (linear, Airy) waves on a flat seabed of depth
// h = WtrDpth + MSL2SWL, a sum of components
//
//	η(x, y, t) = Re Σ c_n exp(i(k_n (x cos β_n + y sin β_n) − ω_n t))
//
// with ω_n² = g k_n tanh(k_n h) (linear dispersion), c_n = a_n e^{iφ_n}. A
// phase of zero is a crest at the origin at t = 0 (SeaState input-file
// documentation, WaveMod 1P#). Velocity, acceleration and dynamic pressure
// follow from the linear potential (DNV-RP-C205 §3.2, Table 3-1):
//
//	u_h = ω a cosh(k(z+h))/sinh(kh) cos θ       w = ω a sinh(k(z+h))/sinh(kh) sin θ
//	p_d = ρ g a cosh(k(z+h))/cosh(kh) cos θ      θ = k·x − ω t + φ
//
// with z upward from the still-water level (SWL).
//
// Sea states (WaveMod):
//
//   - 0: still water.
//   - 1: one regular wave of height WaveHs and period WaveTp; the phase is
//     random from the seed, or given ("1P20" = 20°). As in SeaState the
//     frequency is rounded to a multiple of Δω = 2π/WaveTMax so the wave
//     repeats after WaveTMax.
//   - 2: irregular waves from the JONSWAP spectrum (IEC 61400-3-1 Annex B /
//     DNV-RP-C205 §3.5.5), WavePkShp "DEFAULT" per IEC (γ from Tp/√Hs),
//     1 for Pierson–Moskowitz; components at multiples of Δω up to π/WaveDT
//     within [WvLowCOff, WvHiCOff]; random phases, and with WaveNDAmp
//     normally distributed complex amplitudes (Rayleigh heights). Optional
//     cos^2S directional spreading (WaveDirMod 1) over WaveNDir equal-energy
//     directions, one direction per frequency, as SeaState draws it
//     (spreading.go).
//   - 5: a user elevation time series at the origin (.Elev file), taken
//     apart into components by FFT.
//
// Random numbers. The sea is OpenFAST's own realisation of the deck's
// seeds: with WaveSeed(2) = RANLUX the uniform numbers come from Lüscher's
// RANLUX generator at luxury level 3 seeded with |WaveSeed(1)|
// (solver/internal/ranlux), with an integer WaveSeed(2) from gfortran's
// RANDOM_NUMBER seeded as OpenFAST seeds it (solver/internal/gfortranrng);
// one Box–Muller pair per frequency bin in SeaState's order, and the series
// has SeaState's length (WaveTMax/WaveDT rounded up to twice a product of
// primes ≤ 23); seastate_rng.go lists the facts. Wave1Elev of the RANLUX
// reference cases agrees with OpenFAST's record to 0.2 mm
// (TestRanLuxSeaMatchesOpenFAST); the integer-seed stream is checked
// against gfortran 12.2's numbers (no OpenFAST reference run uses it).
// A spread sea continues the same stream after the phases: WaveNDir draws
// per group of WaveNDir frequency bins deal the directions by rank, as in
// SeaState; no OpenFAST reference output uses spreading, so that part is
// checked against the equal-energy definition and hand-worked draws, not an
// OpenFAST record (docs/validation.md §10).
//
// Second-order waves. With WvDiffQTF / WvSumQTF the sea adds the
// difference- and sum-frequency waves of Sharma and Dean (secondorder.go)
// within WvLowCOffD–WvHiCOffD and WvLowCOffS–WvHiCOffS (cut-offs on the
// difference or sum frequency itself, as SeaState's documentation says)
// to the elevation and to the kinematics: velocity ∇φ₂, acceleration
// ∂_t∇φ₂ and dynamic pressure −ρ∂_tφ₂ of the second-order potential, so
// strip-theory (Morison) loads see them through the same Probe. Every pair
// of components counts, the self-interaction sum terms (Stokes' second-order
// wave) included, the mean set-down of the difference terms left out;
// spread seas use the pairs' true wavenumber vectors. As SeaState, any
// wave model but still water takes them (regular, JONSWAP, elevation
// series). Second-order terms are evaluated at the point's height like the
// first-order ones (up to SWL, or extrapolated above it with WaveStMod 2),
// and the elevation the stretching compares with includes them.
//
// Evaluation. Kinematics can be evaluated directly at any (x, y, z, t)
// (Sea.At: a sum over components, cheap for regular waves). For the nodes
// of a structure at fixed (undisplaced) positions, Sea.Probe precomputes
// the time series of every quantity at the point over one wave period
// WaveTMax by inverse FFT (gonum dsp/fourier) and interpolates in time with
// SeaState's periodic cubic (Catmull–Rom) interpolation, so a step costs
// the same for 1 or 2000 components — what SeaState does on its grid, but
// only at the points asked for and exactly in space (SeaState interpolates
// its grid in space too: the X_HalfWidth, NX … NZ inputs, which set only
// that discretisation, are not used). A Probe with at most eight
// components sums them directly, exact in time.
// For points that move (HydroDyn's WaveDisp 1, ExctnDisp 1 and 2),
// Sea.Layer and Sea.Field sum the first-order components directly at any
// horizontal position, one sine and cosine per component, with the depth
// dependence fixed once per plane.
//
// Stretching (WaveStMod): 0 — kinematics up to SWL, zero above it;
// 1 — vertical stretching: above SWL and below the instantaneous surface the
// SWL values; 2 — extrapolation stretching: above SWL the first-order Taylor
// extrapolation u(0) + z ∂u/∂z(0). With 1 and 2 a point above the surface
// gets zero. Wheeler stretching (3) is refused.
//
// Current (CurrMod 1) is added to the velocity: sub-surface power law
// U(z) = U0 ((z+h)/h)^(1/7), near-surface linear U(z) = U0 (z+href)/href for
// −href ≤ z ≤ 0, and depth-independent (SeaState input-file documentation).
//
// Outputs use SeaState's channel names: Wave1Elev … Wave9Elev at the
// WaveElevxi/yi points; Wave1Vxi, Wave1Vyi, Wave1Vzi, Wave1Axi, Wave1Ayi,
// Wave1Azi, Wave1DynP … at the WaveKinxi/yi/zi points.
package waves
