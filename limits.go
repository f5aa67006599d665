package turbinesim

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// RateLimits are the requests per minute a plan allows. API keys count
// against their creator and their organization.
type RateLimits struct {
	PerUser int `json:"per_user"`
	PerOrg  int `json:"per_org"`
}

// Caps are the monthly spend and token budgets of an organization. These
// defaults per plan are the service's choice, and an administrator can lower
// or raise them.
type Caps struct {
	SpendCapCents int64 `json:"spend_cap_cents" db:"spend_cap_cents"`
	TokenCap      int64 `json:"token_cap" db:"token_cap"`
}

// Limits returns the rate limits of plan p.
func (p Plan) Limits() RateLimits {
	switch p {
	case PlanPro, PlanAcademic:
		return RateLimits{PerUser: 300, PerOrg: 600}
	case PlanEnterprise:
		return RateLimits{PerUser: 1000, PerOrg: 2000}
	}
	return RateLimits{PerUser: 30, PerOrg: 60}
}

// BrowserAllowance is how many times its plan's rate limits a signed-in
// browser session may make. The plan's limits are for API callers
// (bearer tokens and API keys, which count in one bucket per user and
// organization). The service's own pages cost several requests each (the
// page, its htmx fragments and chart data: four for a job's results page),
// so an engineer clicking through the interface hit the Beta plan's 30
// requests per user within a minute. Browser requests therefore count in
// their own buckets at ten times the plan's limits, which still stops a
// runaway page or a script riding a session cookie.
const BrowserAllowance = 10

// BrowserLimits returns the rate limits of plan p for requests of a
// signed-in browser session (BrowserAllowance times Limits).
func (p Plan) BrowserLimits() RateLimits {
	l := p.Limits()
	return RateLimits{PerUser: BrowserAllowance * l.PerUser, PerOrg: BrowserAllowance * l.PerOrg}
}

// DefaultCaps returns the monthly caps an organization of plan p starts with.
func (p Plan) DefaultCaps() Caps {
	switch p {
	case PlanPro:
		return Caps{SpendCapCents: 100_000, TokenCap: 50_000_000}
	case PlanAcademic:
		return Caps{SpendCapCents: 50_000, TokenCap: 20_000_000}
	case PlanEnterprise:
		return Caps{SpendCapCents: 2_000_000, TokenCap: 1_000_000_000}
	}
	return Caps{SpendCapCents: 5_000, TokenCap: 1_000_000}
}

// RateDecision is the outcome of counting one request.
type RateDecision struct {
	Allowed bool
	// Limit and Remaining describe the bucket closest to exhaustion (user
	// or organization); Reset is the time until the window ends.
	Limit     int
	Remaining int
	Reset     time.Duration
	// Scope names the exhausted bucket ("user" or "organization") when
	// Allowed is false.
	Scope string
}

// RateLimiter counts requests in fixed one-minute windows shared by every
// server process (the counters live in PostgreSQL). A refused request
// consumes no quota.
type RateLimiter interface {
	Allow(ctx context.Context, userID, orgID string, limits RateLimits, now time.Time) (*RateDecision, error)
}

// Usage is an organization's consumption in one calendar month (UTC).
type Usage struct {
	OrganizationID string    `json:"org_id" db:"organization_id"`
	Month          time.Time `json:"month" db:"month"`
	SpentCents     int64     `json:"spent_cents" db:"spent_cents"`
	Tokens         int64     `json:"tokens" db:"tokens"`
	Caps
}

// CapService charges spend and tokens against an organization's monthly
// caps. Charge is atomic: concurrent charges never overshoot a cap, and a
// charge that would gets EPAYMENT naming the cap.
type CapService interface {
	Charge(ctx context.Context, orgID string, amountCents, tokens int64) (*Usage, error)
	CurrentUsage(ctx context.Context, orgID string) (*Usage, error)
	// UsageByClient breaks the current month's charges down by the API
	// key Client ID the runs were submitted with (nil: interactively);
	// refunded runs are left out, so the rows sum to CurrentUsage.
	UsageByClient(ctx context.Context, orgID string) ([]ClientUsage, error)
	// UsageByDay is the current month's charges per UTC day of submission;
	// days without runs and refunded runs are left out.
	UsageByDay(ctx context.Context, orgID string) ([]DayUsage, error)
	// SetCaps sets the caps and records the change (old and new values)
	// in the audit log in the same transaction.
	SetCaps(ctx context.Context, orgID string, caps Caps) error
}

// DayUsage is one day of the month's charges.
type DayUsage struct {
	Day        time.Time `json:"day" db:"day"`
	Runs       int64     `json:"runs" db:"runs"`
	SpentCents int64     `json:"spent_cents" db:"spent_cents"`
	Tokens     int64     `json:"tokens" db:"tokens"`
}

// ClientUsage is one row of the monthly billing breakdown by API key
// Client ID.
type ClientUsage struct {
	// ClientID is nil for runs submitted with a password, SSO or browser
	// session.
	ClientID   *string `json:"client_id" db:"client_id"`
	Runs       int64   `json:"runs" db:"runs"`
	SpentCents int64   `json:"spent_cents" db:"spent_cents"`
	Tokens     int64   `json:"tokens" db:"tokens"`
}

// CapRefusal is the EPAYMENT of a charge of cents and tokens that would
// pass one of u's monthly caps, stated in that cap's own unit (dollars for
// the spend cap, tokens for the token cap): the cap, what is spent of it
// this month and what the request (what: "this run", "the batch of 6
// runs") needs, and where an administrator raises it.
func CapRefusal(u *Usage, cents, tokens int64, what string) error {
	const raise = "an organization administrator can raise the cap on the organization page, /org (PUT /org/settings)"
	if u.SpentCents+cents > u.SpendCapCents {
		return Errorf(EPAYMENT, "monthly spend cap of %s reached: %s spent this month, %s costs %s; %s",
			Dollars(u.SpendCapCents), Dollars(u.SpentCents), what, Dollars(cents), raise)
	}
	return Errorf(EPAYMENT, "monthly token cap of %s tokens reached: %s tokens used this month, %s needs %s tokens; %s",
		thousands(u.TokenCap), thousands(u.Tokens), what, thousands(tokens), raise)
}

// Dollars formats cents as $1,234.56.
func Dollars(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s$%s.%02d", sign, thousands(cents/100), cents%100)
}

// thousands formats n with a comma every three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// MaxRunningJobs is how many runs of one organization a plan lets run at
// once. The rest wait in the queue; a free worker goes first to the
// organization with the fewest runs going (db.JobService.ClaimJob), so no
// tenant's runs hold every worker while another's wait.
func (p Plan) MaxRunningJobs() int {
	switch p {
	case PlanPro, PlanAcademic:
		return 8
	case PlanEnterprise:
		return 32
	}
	return 2
}

// Plans lists every plan.
var Plans = []Plan{PlanBeta, PlanPro, PlanAcademic, PlanEnterprise}

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

// FormatCents writes an amount of cents as dollars: "$12.34".
func FormatCents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s$%d.%02d", sign, c/100, c%100)
}
