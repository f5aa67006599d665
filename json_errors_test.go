package turbinesim

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestJSONTypeProblem(t *testing.T) {
	type inner struct {
		SpanM []float64 `json:"span_m"`
	}
	var dst struct {
		TurbineParams
		Stations inner `json:"stations"`
		Count    int   `json:"count"`
	}
	for body, want := range map[string]string{
		`{"rated_power_kw":"big"}`:        "rated_power_kw: expected a number",
		`{"stations":{"span_m":"x"}}`:     "stations.span_m: expected an array",
		`{"stations":{"span_m":["x"]}}`:   "stations.span_m: expected a number",
		`{"count":1.5}`:                   "count: expected an integer",
		`{"stations":[]}`:                 "stations: expected an object",
		`[1]`:                             "body: expected an object",
		`{"rated_power_kw":{"nested":1}}`: "rated_power_kw: expected a number",
	} {
		err := json.Unmarshal([]byte(body), &dst)
		got, ok := JSONTypeProblem(err)
		if !ok || got != want {
			t.Errorf("%s: %q (%v), want %q", body, got, ok, want)
		}
	}
	if _, ok := JSONTypeProblem(errors.New("unexpected EOF")); ok {
		t.Error("a syntax error reported as a type problem")
	}
}
