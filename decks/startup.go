package decks

import (
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// FloatingStartupTransient is the start-up transient (s) of a run on a
// floating platform that starts from its deck's initial conditions, as
// every job but a DLC batch's runs does: the platform released at rest at
// its undisplaced position drifts to its mean offset and swings at its
// surge and pitch periods for minutes. That is the transient a DLC needs
// from rest, dlc.FloatingParkedTransient (200 s on the IEA 15 MW
// VolturnUS-S: largest fairlead tension within 2.4 % of the settled run's,
// from 100 s on still 5.8 %), not dlc.FloatingTransient, which is for DLC
// runs started at the platform's static equilibrium (docs/events.md §6).
const FloatingStartupTransient = dlc.FloatingParkedTransient

// StartupTransient is the start-up transient (s) a finished run that
// started from its deck's initial conditions leaves out by default, in
// its plausibility checks and in every analysis not given a t_start:
// analysis.DefaultTransient, or FloatingStartupTransient on a floating
// platform (RunSetup.Floating, dlc.FloatingPlatform). A record shorter
// than twice the transient keeps its second half
// (analysis.StartupWindowOf).
func StartupTransient(floating bool) float64 {
	if floating {
		return FloatingStartupTransient
	}
	return analysis.DefaultTransient
}
