package turbinesim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
)

// The charge arithmetic never wraps: NaN, infinities, TMax 1e308 and a
// time step of 1e-9 s are refused with the option and the bound, and a
// work beyond what one run may cost is refused instead of becoming a
// negative or one-token charge (JobTokens turned Ceil(1e308) into
// MinInt64, then max(…, 1) = 1 token).
func TestRunChargeRefusesNaNInfAndOverflow(t *testing.T) {
	for _, tc := range []struct {
		tMax, dt float64
		option   string
	}{
		{1e308, 0.01, "TMax"}, {math.Inf(1), 0.01, "TMax"}, {math.NaN(), 0.01, "TMax"}, {-1, 0.01, "TMax"},
		{7200.5, 0.01, "TMax"}, {1, 1e-9, "DT"}, {1, math.NaN(), "DT"}, {1, math.Inf(1), "DT"}, {1, 2, "DT"},
		{7200, 0.0002, "DT"}, // 36 million steps
	} {
		if steps, option, problem := turbinesim.RunSteps(tc.tMax, tc.dt); option != tc.option || steps != 0 || problem == "" {
			t.Errorf("RunSteps(%g, %g) = %d, %q, %q; want refused naming %s", tc.tMax, tc.dt, steps, option, problem, tc.option)
		}
	}
	if steps, option, _ := turbinesim.RunSteps(600, 0.00625); option != "" || steps != 96000 {
		t.Errorf("RunSteps(600, 0.00625) = %d, %q; want 96000 steps", steps, option)
	}
	for _, w := range []turbinesim.RunWork{{Steps: math.MaxInt64, ModelSize: math.MaxInt64}, {Steps: 0, ModelSize: 100}, {Steps: 10, ModelSize: -1}} {
		if n, err := w.Tokens(); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
			t.Errorf("%+v.Tokens() = %d, %v; want EINVALID", w, n, err)
		}
	}
	if _, err := turbinesim.PlanBeta.JobPriceCents(math.MaxInt64 / 2); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
		t.Errorf("price of MaxInt64/2 tokens: %v, want EINVALID", err)
	}
	// Work, not simulated time: halving DT doubles the tokens; the 5 MW
	// land deck's 10 s (1000 steps × 191 nodes) is 10 tokens.
	a, _ := turbinesim.RunWork{Steps: 1000, ModelSize: 191}.Tokens()
	b, _ := turbinesim.RunWork{Steps: 2000, ModelSize: 191}.Tokens()
	if a != 10 || b != 20 {
		t.Errorf("tokens %d and %d, want 10 and 20", a, b)
	}
	if p, err := turbinesim.PlanBeta.JobPriceCents(10); err != nil || p != 15 || !strings.Contains(turbinesim.PricingRule, "20,000") {
		t.Errorf("beta price of 10 tokens %d, %v; want 15 cents", p, err)
	}
}
