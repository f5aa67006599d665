package handlers_test

import (
	"net/http"
	"testing"
)

// Well-formed JSON with a value of the wrong type is 422 naming the field
// by its JSON path and the JSON type it wants, on every JSON endpoint:
// not Go's names ("TurbineParams.rated_power_kw: expected float64")
// and not 400 "malformed JSON body" (the analysis bodies). Blobs: see
// TestTurbineCreateErrorsNameTheField.
func TestWrongJSONTypesNameTheField(t *testing.T) {
	t.Parallel()
	te := newTurbineEnv(t, fakeDemos{})
	v := te.verified
	resp, body := te.call(v, "POST", "/turbines", `{"name":"Rotor A","rated_power_kw":5000,"hub_height_m":90}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	id := decodeInto[struct{ ID string }](t, body).ID
	for _, c := range []struct{ method, path, body, want string }{
		{"POST", "/turbines", `{"name":"X","rated_power_kw":"big"}`, "rated_power_kw: expected a number"},
		{"PUT", "/turbines/" + id, `{"hub_height_m":"abc"}`, "hub_height_m: expected a number"},
		{"POST", "/analysis/jobs/00000000-0000-0000-0000-000000000000/time-series", `{"channels":["GenPwr"],"downsample_factor":1.5}`,
			"downsample_factor: expected an integer"},
		{"POST", "/analysis/jobs/00000000-0000-0000-0000-000000000000/statistics", `{"channels":"GenPwr"}`,
			"channels: expected an array"},
	} {
		resp, body := te.call(v, c.method, c.path, c.body)
		if d := assertDetail(t, resp, body, http.StatusUnprocessableEntity); d != c.want && d != "body: "+c.want {
			t.Errorf("%s %s %s: detail %q, want %q", c.method, c.path, c.body, d, c.want)
		}
	}
}
