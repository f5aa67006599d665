package dlc

import (
	"context"
	"math"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/equilibrium"
	"github.com/turbinesim/turbinesim/solver/structure"
)

// PlatformStart is where a run's floating platform starts: the static
// equilibrium under the run's mean rotor load (equilibrium.Platform).
type PlatformStart struct {
	// Disp holds PtfmSurge, PtfmSway, PtfmHeave (m) and PtfmRoll,
	// PtfmPitch, PtfmYaw (deg), as ElastoDyn's initial conditions.
	Disp [6]float64
	// Thrust and Torque are the rotor load balanced (N, N·m).
	Thrust, Torque float64
}

// MeanRotorLoad is the mean rotor load of a run in an operating state at
// wind speed v (m/s, hub height) with yaw misalignment yaw (deg): from the
// steady operating point of ss, the thrust ½ρAv²·Ct and the aerodynamic
// torque ½ρAv³·Cp/Ω of the deck's performance table at that point's
// tip-speed ratio and pitch (the rotor model the controller itself is
// tuned with; ROSCO's Cp_Ct_Cq table), reduced by momentum theory's cos²γ
// (thrust) and cos³γ (power) of the yaw misalignment γ (Burton et al.,
// Wind Energy Handbook, §3.10: the axial induction sees the wind's
// component along the shaft). The blade pitch is returned in rad. ok is
// false outside the table or without a thrust coefficient.
func MeanRotorLoad(ss SteadyState, v, yaw, airDensity, radius float64) (structure.RotorStaticLoad, float64, bool) {
	op, ok := ss.Point(v)
	if !ok || !(op.Ct > 0) || !(op.RotorSpeed > 0) {
		return structure.RotorStaticLoad{}, 0, false
	}
	q := 0.5 * airDensity * math.Pi * radius * radius * v * v
	c := math.Cos(yaw * math.Pi / 180)
	omega := op.RotorSpeed * rpmToRadPerSec
	return structure.RotorStaticLoad{Thrust: q * op.Ct * c * c, Torque: q * v * op.Cp * c * c * c / omega}, op.Pitch * math.Pi / 180, true
}

// PlatformStartFor computes the static equilibrium of a floating
// platform for a run: under the mean rotor load (MeanRotorLoad) when the
// run's state is operating and ss has the point, otherwise — parked,
// idling, start-up from a standing rotor, or no performance table — with no
// rotor load (the drag of a parked rotor and of the tower is left out). A
// deck without a floating platform returns an error wrapping
// equilibrium.ErrNotFloating.
func PlatformStartFor(ctx context.Context, d *deck.Deck, run Run, ss SteadyState) (PlatformStart, error) {
	if !FloatingPlatform(d) {
		return PlatformStart{}, equilibrium.ErrNotFloating
	}
	p, err := equilibrium.FromDeck(d)
	if err != nil {
		return PlatformStart{}, err
	}
	var rotor structure.RotorStaticLoad
	pitch := FeatherPitch * math.Pi / 180
	if operating(run.State) {
		rho := d.Main.AirDens
		if !(rho > 0) {
			rho = 1.225
		}
		if r, bp, ok := MeanRotorLoad(ss, run.WindSpeed, run.Yaw, rho, d.ElastoDyn.TipRad); ok {
			rotor, pitch = r, bp
		}
	}
	q, _, err := p.Equilibrium(ctx, pitch, rotor)
	if err != nil {
		return PlatformStart{}, err
	}
	deg := 180 / math.Pi
	return PlatformStart{Disp: [6]float64{q[0], q[1], q[2], q[3] * deg, q[4] * deg, q[5] * deg}, Thrust: rotor.Thrust, Torque: rotor.Torque}, nil
}

// LoadedPlatformStart says whether the operating runs of a deck start with
// its floating platform at the equilibrium under the rotor's load: the
// deck has a floating platform and a steady-state table with thrust
// coefficients (SteadyStateFromDeck). Without one they start at the
// equilibrium without rotor load and drift from there.
func LoadedPlatformStart(d *deck.Deck) bool {
	if !FloatingPlatform(d) {
		return false
	}
	ss, err := SteadyStateFromDeck(d)
	if err != nil {
		return false
	}
	for _, op := range ss {
		if op.Ct > 0 {
			return true
		}
	}
	return false
}
