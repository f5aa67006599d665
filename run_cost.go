package turbinesim

import (
	"fmt"
	"math"
)

// Bounds of one run, the same on every submission path (JSON run of a
// stored turbine, ZIP deck, DLC batch, parametric sweep). A run outside
// them is refused with 422 naming the field (or the file, line and
// option of a deck) and the bound, before anything is stored or charged.
const (
	// MinRunDT is the smallest solver time step. The bundled decks use
	// 0.0002 s (IEA 22 MW) to 0.025 s; OpenFAST's own guidance for
	// ElastoDyn is a step well below the period of the highest mode
	// modelled (about 0.1 s for blade edge modes of multi-MW rotors), so
	// 1e-4 s leaves room while refusing steps that only burn a worker.
	MinRunDT = 1e-4
	// MaxRunDT is the largest solver time step: above one second no
	// rotor dynamics are resolved at all.
	MaxRunDT = 1.0
	// MaxRunTMax is the longest simulated time of one run (two hours;
	// IEC 61400-1 load cases use 10-minute or 1-hour series).
	MaxRunTMax = 7200.0
	// MaxRunSteps bounds TMax/DT: e.g. 2,000 s at 0.0002 s.
	MaxRunSteps = 10_000_000
	// WorkPerToken is the work one token pays for: one model node
	// advanced by 20,000 time steps (see RunWork). The NREL 5 MW
	// land-based deck (191 nodes at DT 0.01 s) then costs about one token
	// per simulated second, the IEA 15 MW onshore deck (298 nodes at
	// 0.005 s) about three.
	WorkPerToken = 20_000
	// maxRunTokens bounds the tokens of one run, far above any cap, so
	// that the price arithmetic stays exact in int64.
	maxRunTokens = 1 << 40
)

// RunWork is what a run costs to compute: its time steps times the size
// of its model. A run's tokens are ceil(Steps × ModelSize / WorkPerToken),
// at least one; its price follows from its tokens (Plan.JobPriceCents).
type RunWork struct {
	// Steps is ceil(TMax/DT - 1e-9): the solver steps of the run.
	Steps int64 `json:"steps"`
	// ModelSize is the number of model nodes (ModelSize).
	ModelSize int64 `json:"model_size"`
}

// Tokens is the run's token count; an empty, negative or absurd work is
// EINVALID (the charge never wraps around).
func (w RunWork) Tokens() (int64, error) {
	if w.Steps <= 0 || w.ModelSize <= 0 {
		return 0, Errorf(EINVALID, "run work: %d steps of a model of %d nodes cannot be priced", w.Steps, w.ModelSize)
	}
	work := float64(w.Steps) * float64(w.ModelSize)
	tokens := math.Ceil(work / WorkPerToken)
	if math.IsNaN(tokens) || math.IsInf(tokens, 0) || tokens > maxRunTokens {
		return 0, Errorf(EINVALID, "run work: %d steps of a model of %d nodes is beyond what one run may cost", w.Steps, w.ModelSize)
	}
	return max(int64(tokens), 1), nil
}

// RunSteps is the number of solver steps of a run of tMax seconds at
// time step dt, after the bounds; it refuses NaN, infinities and
// anything outside MinRunDT..MaxRunDT, (0, MaxRunTMax] or MaxRunSteps,
// returning the option at fault ("TMax" or "DT") and the problem.
func RunSteps(tMax, dt float64) (steps int64, option, problem string) {
	switch {
	case math.IsNaN(tMax) || !(tMax > 0):
		return 0, "TMax", fmt.Sprintf("%g s is not a positive simulated time", tMax)
	case tMax > MaxRunTMax:
		return 0, "TMax", fmt.Sprintf("%g s is above the longest run of %g s", tMax, MaxRunTMax)
	case math.IsNaN(dt) || dt < MinRunDT:
		return 0, "DT", fmt.Sprintf("%g s is below the smallest time step of %g s", dt, MinRunDT)
	case dt > MaxRunDT:
		return 0, "DT", fmt.Sprintf("%g s is above the largest time step of %g s", dt, MaxRunDT)
	}
	n := math.Ceil(tMax/dt - 1e-9)
	if n > MaxRunSteps {
		return 0, "DT", fmt.Sprintf("%g s over TMax %g s makes %.0f steps, above the limit of %d steps per run (a larger DT or a shorter TMax)",
			dt, tMax, n, MaxRunSteps)
	}
	return max(int64(n), 1), "", ""
}

// PricingRule states the billing rules in one place; the OpenAPI document
// and the organization page both show it.
const PricingRule = "A run is priced by its work: steps × model size. Steps = ceil(TMax / DT); " +
	"model size = the structural degrees of freedom ElastoDyn switches on (three blade modes per blade, drivetrain, generator, " +
	"yaw, four tower modes, six platform motions) + the AeroDyn blade nodes (NumBlNds of every blade) + the output channels " +
	"requested (every OutList). Tokens = ceil(steps × model size / 20,000), at least 1 (the NREL 5 MW land deck, 191 nodes at " +
	"DT 0.01 s, costs about one token per simulated second). Price = the plan's fee per run + its rate per 60 tokens, " +
	"rounded up to the cent (Beta 10 ¢ + 30 ¢, Pro 5 ¢ + 20 ¢, Academic 5 ¢ + 10 ¢, Enterprise 2 ¢ + 15 ¢). " +
	"Bounds on every submission path: DT from 0.0001 s to 1 s, TMax above 0 up to 7,200 s, at most 10,000,000 steps; " +
	"outside them the run is refused with 422 naming the field (or the file, line and option) and nothing is charged. " +
	"Charged at submission against the monthly caps (402 over a cap). Refunded in full: a run cancelled before it starts, " +
	"a run refused at submission (never charged), and a run that fails for the service's own reason (the sandbox, storage, " +
	"a crash or internal error of the solver, every attempt lost). A run cancelled while running is charged pro rata of " +
	"the simulated time it reached (cancelled at 10 % of TMax: 10 % of its price and tokens, rounded up). A run the " +
	"solver refuses because of the deck (a deck error, a diverging model) or that exceeds its wall-time, CPU or output " +
	"limit is charged in full."
