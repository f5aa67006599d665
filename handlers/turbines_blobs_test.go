package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
)

// The page's blob editor sends PUT /turbines/{id} form-encoded, one field
// per JSON blob: broken JSON is a 422 naming the blob with line and column
// and changes nothing; valid JSON is stored, other blobs and parameters
// keep their values, is_validated drops to false; a demo row refuses with
// 403 whatever the body.
func TestTurbineBlobEditorForm(t *testing.T) {
	t.Parallel()
	te := newTurbineEnv(t, fakeDemos{})
	ctx := context.Background()
	hub := 90.0
	tb := &turbinesim.Turbine{OrganizationID: te.org.ID, Name: "Blob target", IsValidated: true,
		TurbineParams: turbinesim.TurbineParams{HubHeightM: &hub},
		TowerConfig:   turbinesim.ConfigBlob(`{"sections": 10}`)}
	if err := te.turbines.CreateTurbine(ctx, tb, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := te.db.ExecContext(ctx, `UPDATE turbines SET is_validated = true WHERE id = $1`, tb.ID); err != nil {
		t.Fatal(err)
	}
	putForm := func(id string, form url.Values) (*http.Response, string) {
		return te.do(nil, request{method: "PUT", path: "/turbines/" + id, body: form.Encode(), header: map[string]string{
			"Authorization": "Bearer " + te.verified, "Accept": "application/json",
			"Content-Type": "application/x-www-form-urlencoded"}})
	}

	resp, body := putForm(tb.ID, url.Values{"controller_config": {"{\n  \"kp\": 0.01,\n  \"ki\": \n}"}})
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("broken JSON: %d %s", resp.StatusCode, body)
	}
	detail := decodeInto[map[string]string](t, body)["detail"]
	if !strings.HasPrefix(detail, "controller_config: invalid JSON at line 4, column 1") {
		t.Errorf("detail %q should name controller_config and line 4, column 1", detail)
	}
	resp, body = putForm(tb.ID, url.Values{"blade_config": {`[1, 2]`}, "controller_config": {"{"}})
	if d := decodeInto[map[string]string](t, body)["detail"]; resp.StatusCode != 422 || d != "blade_config: must be a JSON object" {
		t.Errorf("array blob: %d %q; want 422 naming blade_config (the first broken blob in page order)", resp.StatusCode, d)
	}
	var validated bool
	if err := te.db.GetContext(ctx, &validated, `SELECT is_validated FROM turbines WHERE id = $1`, tb.ID); err != nil || !validated {
		t.Fatalf("a refused edit changed the row: is_validated=%v (%v)", validated, err)
	}

	resp, body = putForm(tb.ID, url.Values{"controller_config": {"{\n  \"kp\": 0.01,\n  \"ki\": 0.002\n}"}, "blade_config": {"  "}})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("valid JSON: %d %s", resp.StatusCode, body)
	}
	got := decodeInto[turbinesim.Turbine](t, body)
	var ctrl map[string]float64
	if err := json.Unmarshal(got.ControllerConfig, &ctrl); err != nil || ctrl["kp"] != 0.01 || ctrl["ki"] != 0.002 {
		t.Errorf("stored controller_config %s (%v)", got.ControllerConfig, err)
	}
	if strings.ReplaceAll(string(got.TowerConfig), " ", "") != `{"sections":10}` || got.BladeConfig != nil || got.HubHeightM == nil || *got.HubHeightM != 90 {
		t.Errorf("untouched fields changed: tower %s, blade %s, hub %v", got.TowerConfig, got.BladeConfig, got.HubHeightM)
	}
	if got.IsValidated {
		t.Error("is_validated stays true after a blob edit")
	}

	// The page shows the stored blob in its editor, indented.
	resp, body = te.do(nil, request{method: "GET", path: "/turbines/" + tb.ID, header: map[string]string{
		"Authorization": "Bearer " + te.verified, "Accept": "text/html"}})
	if resp.StatusCode != 200 || !strings.Contains(body, `id="edit-controller_config"`) ||
		!strings.Contains(body, "&#34;ki&#34;: 0.002") || !strings.Contains(body, `id="advanced-read-only"`) {
		t.Errorf("detail page lacks the blob editor with the stored JSON or the read-only note: %d", resp.StatusCode)
	}

	// Demo rows: 403 before the body is looked at.
	resp, body = te.call(te.verified, "POST", "/turbines/demos/test-demo/load", "")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("load demo: %d %s", resp.StatusCode, body)
	}
	demo := decodeInto[turbinesim.Turbine](t, body)
	if resp, body = putForm(demo.ID, url.Values{"controller_config": {`{"kp": 1}`}}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("demo row: %d %s, want 403", resp.StatusCode, body)
	}
	resp, body = te.do(nil, request{method: "GET", path: "/turbines/" + demo.ID, header: map[string]string{
		"Authorization": "Bearer " + te.verified, "Accept": "text/html"}})
	if resp.StatusCode != 200 || strings.Contains(body, `id="blob-editor"`) || !strings.Contains(body, `id="blob-section"`) {
		t.Errorf("demo page should show the blobs read-only, without the editor form")
	}
}
