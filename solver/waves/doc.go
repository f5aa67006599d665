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
//     cos^2S directional spreading over WaveNDir equal-energy directions,
//     one direction per frequency.
//   - 5: a user elevation time series at the origin (.Elev file), taken
//     apart into components by FFT.
//
// Random numbers. With WaveSeed(2) = RANLUX the sea is OpenFAST's own
// realisation: the draws come from Lüscher's RANLUX generator at luxury
// level 3 seeded with |WaveSeed(1)| (solver/internal/ranlux), one Box–Muller
// pair per frequency bin in SeaState's order, and the series has SeaState's
// length (WaveTMax/WaveDT rounded up to twice a product of primes ≤ 23);
// seastate_rng.go lists the facts. Wave1Elev of the reference cases then
// agrees with OpenFAST's record to 0.1 mm (TestRanLuxSeaMatchesOpenFAST).
// With an integer WaveSeed(2) the numbers are Go's PCG generator seeded
// from both seeds: a seed gives the same sea on every run and machine, but
// not OpenFAST's realisation (gfortran's intrinsic generator is not
// reproduced); the statistics agree: the spectrum integrates to Hs²/16 and
// the elevation's standard deviation tends to Hs/4. Directional spreading
// assigns the directions to frequencies with the PCG generator in either
// case.
//
// Second-order elevation. With WvDiffQTF / WvSumQTF the WaveNElev outputs
// add the difference- and sum-frequency elevation of Sharma and Dean
// (secondorder.go) within WvLowCOffD–WvHiCOffD and WvLowCOffS–WvHiCOffS, and
// are interpolated in time with SeaState's periodic cubic (Catmull–Rom)
// interpolation. The kinematics stay first-order.
//
// Evaluation. Kinematics can be evaluated directly at any (x, y, z, t)
// (Sea.At: a sum over components, cheap for regular waves). For the nodes
// of a structure at fixed (undisplaced) positions, Sea.Probe precomputes
// the time series of every quantity at the point over one wave period
// WaveTMax by inverse FFT (gonum dsp/fourier) and interpolates linearly in
// time, so a step costs the same for 1 or 2000 components — what SeaState
// does on its grid, but only at the points asked for.
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
