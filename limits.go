package turbinesim

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// RateLimits are the requests per minute a plan allows. API keys count against their creator and their organization.
type RateLimits struct {
	PerUser int `json:"per_user"`
	PerOrg  int `json:"per_org"`
}

// Caps are the monthly spend and token budgets of an organization. These
// defaults per plan are the service's choice, and an administrator can lower or raise them.
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
	SetCaps(ctx context.Context, orgID string, caps Caps) error
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
