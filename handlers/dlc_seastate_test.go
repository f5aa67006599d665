package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/handlers"
)

// A DLC 1.2 batch on the bundled floating turbine takes the site's normal
// sea states per wind speed (API and wizard): the preview lists the sea
// state of each wind speed of the basis, the run goes through the queue
// with irregular waves of that Hs, Tp and heading written into its
// SeaState file, and its wave elevation is irregular with a standard
// deviation near Hs/4. A land turbine given sea states is 422. (The
// 600-s run the load basis asks for is in docs/benchmarks.md; the test
// runs a 20-s window.)
func TestFloatingDemoDLC12WithSeaStatesRunsThroughTheQueue(t *testing.T) {
	be := newBatchAPIEnv(t, true)
	resp, body := be.do(nil, request{method: "POST", path: "/turbines/demos/iea-15mw-volturnus/load", header: be.verified})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("load: %d %s", resp.StatusCode, body)
	}
	tb := decodeInto[handlers.DemoLoadResult](t, body)
	seas := []map[string]float64{{"wind_speed": 4, "hs": 1.1, "tp": 8.5}, {"wind_speed": 12, "hs": 2.5, "tp": 9.5}, {"wind_speed": 24, "hs": 6, "tp": 12}}
	dlcBody := func(turbineID string) string {
		b, _ := json.Marshal(map[string]any{
			"turbine_id": turbineID, "dlcs": []string{"1.2"}, "class": "I", "category": "B", "batch_seed": 5,
			"overrides":  map[string]any{"1.2": map[string]any{"speeds": []float64{10}, "seeds": 1, "yaw": []float64{0}, "duration": 20, "transient": 0}},
			"grid":       map[string]any{"points": 7, "dt": 0.25},
			"sea_states": seas,
		})
		return string(b)
	}
	// at 10 m/s: three quarters of the way from the 4 m/s row to the 12 m/s one
	// headings stay 0: the demo's WAMIT QTF file (.12d) holds heading 0 only
	const hs, tp, dir = 2.15, 9.25, 0.0
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/preview", body: dlcBody(tb.ID), header: be.verified})
	var pv handlers.DLCPreview
	if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &pv) != nil || pv.Runs != 1 || len(pv.SeaStates) != 1 {
		t.Fatalf("preview: %d %s", resp.StatusCode, body)
	}
	if s := pv.SeaStates[0]; s.WindSpeed != 10 || math.Abs(s.Hs-hs) > 1e-9 || math.Abs(s.Tp-tp) > 1e-9 || math.Abs(s.WaveDir-dir) > 1e-9 {
		t.Fatalf("preview sea state %+v, want Hs %g Tp %g heading %g", s, hs, tp, dir)
	}
	// the wizard's basis: 3, 13, 23 and 25 m/s; 13 m/s lies a twelfth of
	// the way from the 12 m/s row to the 24 m/s one, 25 m/s beyond the table
	form := url.Values{"turbine_id": {tb.ID}, "class": {"I"}, "category": {"B"}, "dlcs": {"1.2"}, "seeds_per_bin": {"1"}, "speed_step": {"10"},
		"duration": {"10"}, "sea_states": {"4 1.1 8.5\n12, 2.5, 9.5, 0\n24 6 12\n"}}
	h := map[string]string{"Authorization": be.verified["Authorization"], "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/preview", body: form.Encode(), header: h})
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `id="dlc-sea-states"`) || !strings.Contains(body, "<td>13</td><td>2.79</td><td>9.71</td><td>0.0</td>") || !strings.Contains(body, "<td>25</td><td>6.00</td><td>12.00</td><td>0.0</td>") {
		t.Fatalf("wizard preview without the sea-state table: %d %s", resp.StatusCode, body)
	}
	form.Set("sea_states", "10 2")
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/preview", body: form.Encode(), header: h})
	if !strings.Contains(body, "sea_states: line 1") {
		t.Fatalf("a short wizard row is not named: %s", body)
	}
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/preview", body: dlcBody(be.turbineID), header: be.verified})
	if d := assertDetail(t, resp, body, http.StatusUnprocessableEntity); !strings.Contains(d, "sea_states") {
		t.Fatalf("land turbine with sea states: %q", d)
	}

	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/batch-submit", body: dlcBody(tb.ID), header: be.verified})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("submit: %d %s", resp.StatusCode, body)
	}
	b := decodeInto[turbinesim.Batch](t, body)
	var jobID string
	if err := be.db.GetContext(context.Background(), &jobID, `SELECT id FROM jobs WHERE batch_id = $1`, b.ID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Minute)
	job, err := be.jobs.FindJob(context.Background(), be.org.ID, jobID)
	for err == nil && !job.Status.Terminal() {
		if time.Now().After(deadline) {
			t.Fatalf("job still %s", job.Status)
		}
		time.Sleep(250 * time.Millisecond)
		job, err = be.jobs.FindJob(context.Background(), be.org.ID, jobID)
	}
	if err != nil {
		t.Fatal(err)
	}
	if job.Status != turbinesim.JobSucceeded {
		t.Fatalf("job %s: %v\n%s", job.Status, job.Detail, job.Log)
	}
	if !strings.Contains(job.Log, "irregular sea (NSS: JONSWAP, Hs 2.15 m, Tp 9.25 s, heading 0°") {
		t.Errorf("the job's log does not name its sea state:\n%s", job.Log)
	}
	// The run starts with the platform at its equilibrium under the 10 m/s
	// rotor load (about 20 m downwind), not at rest (docs/events.md §6):
	// the 20 s average well over 15 m, where from rest it stays below 5 m.
	if !strings.Contains(job.Log, "floating platform started at its static equilibrium") {
		t.Errorf("the job's log does not name the platform's start:\n%s", job.Log)
	}
	resp, body = be.do(nil, request{method: "POST", path: "/analysis/jobs/" + jobID + "/statistics", header: be.verified, body: `{"channels":["PtfmSurge"],"t_start":0}`})
	if sg := decodeInto[handlers.StatisticsResponse](t, body); resp.StatusCode != http.StatusOK || len(sg.Channels) != 1 || sg.Channels[0].Mean < 15 {
		t.Errorf("PtfmSurge statistics: %d %s: want a mean above 15 m", resp.StatusCode, body)
	}
	resp, body = be.do(nil, request{method: "POST", path: "/analysis/jobs/" + jobID + "/statistics", header: be.verified, body: `{"channels":["Wave1Elev"]}`})
	st := decodeInto[handlers.StatisticsResponse](t, body)
	if resp.StatusCode != http.StatusOK || len(st.Channels) != 1 {
		t.Fatalf("statistics: %d %s", resp.StatusCode, body)
	}
	// a JONSWAP record's elevation has σ = Hs/4; a 20-s record of ~9-s
	// waves samples few of them, so only its order is checked
	if s := st.Channels[0].Std; s < hs/4/3 || s > hs/4*2 {
		t.Errorf("Wave1Elev std %.3f m, want about Hs/4 = %.3f m", s, hs/4)
	}
	t.Logf("Wave1Elev over %g-%g s: mean %.3f m, std %.3f m, min %.2f, max %.2f", st.Start, st.End, st.Channels[0].Mean, st.Channels[0].Std, st.Channels[0].Min, st.Channels[0].Max)
}

// The parked extreme-wind DLCs of an offshore basis get the site's extreme
// sea state (API and wizard): the preview lists the 50-year sea of DLC 6.1
// and the 1-year sea of DLC 6.3 beside the normal sea state of DLC 1.2,
// each with its DLCs. Without the extreme sea state the basis is 422
// naming DLC 6.1 and the input it needs; an offshore basis without the
// site's normal sea-state table is 422 saying the standard gives no
// formula for it (nothing is assumed).
func TestOffshoreBasisTakesExtremeSeaStates(t *testing.T) {
	be := newBatchAPIEnv(t, false)
	resp, body := be.do(nil, request{method: "POST", path: "/turbines/demos/iea-15mw-volturnus/load", header: be.verified})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("load: %d %s", resp.StatusCode, body)
	}
	tb := decodeInto[handlers.DemoLoadResult](t, body)
	one := map[string]any{"seeds": 1, "yaw": []float64{0}, "duration": 20, "transient": 0}
	request12 := func(edit func(map[string]any)) string {
		m := map[string]any{
			"turbine_id": tb.ID, "dlcs": []string{"1.2", "6.1", "6.3"}, "class": "I", "category": "B", "batch_seed": 5,
			"overrides":         map[string]any{"1.2": map[string]any{"speeds": []float64{10}, "seeds": 1, "yaw": []float64{0}, "duration": 20, "transient": 0}, "6.1": one, "6.3": one},
			"grid":              map[string]any{"points": 7, "dt": 0.25},
			"sea_states":        []map[string]float64{{"wind_speed": 4, "hs": 1.1, "tp": 8.5}, {"wind_speed": 24, "hs": 6, "tp": 12}},
			"extreme_sea_state": map[string]float64{"hs50": 10.9, "tp50": 15.5, "hs1": 8.2, "tp1": 13.6},
		}
		if edit != nil {
			edit(m)
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/preview", body: request12(nil), header: be.verified})
	var pv handlers.DLCPreview
	if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &pv) != nil {
		t.Fatalf("preview: %d %s", resp.StatusCode, body)
	}
	got := map[string]string{}
	for _, s := range pv.SeaStates {
		got[strings.Join(s.DLCs, ",")] = fmt.Sprintf("%s %g m/s Hs %.2f Tp %.2f", s.Kind, s.WindSpeed, s.Hs, s.Tp)
	}
	want := map[string]string{"1.2": "NSS 10 m/s Hs 2.57 Tp 9.55", "6.1": "ESS 50-year 50 m/s Hs 10.90 Tp 15.50", "6.3": "ESS 1-year 40 m/s Hs 8.20 Tp 13.60"}
	if len(got) != len(want) {
		t.Fatalf("preview sea states %v, want %v", got, want)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("DLC %s sea state %q, want %q", k, got[k], w)
		}
	}
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/preview", body: request12(func(m map[string]any) { delete(m, "extreme_sea_state") }), header: be.verified})
	if d := assertDetail(t, resp, body, http.StatusUnprocessableEntity); !strings.Contains(d, "DLC 6.1") || !strings.Contains(d, "extreme_sea_state.hs50") {
		t.Errorf("no extreme sea state: %q", d)
	}
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/batch-submit", body: request12(func(m map[string]any) { delete(m, "extreme_sea_state"); delete(m, "sea_states") }), header: be.verified})
	if d := assertDetail(t, resp, body, http.StatusUnprocessableEntity); !strings.Contains(d, "sea_states") || !strings.Contains(d, "no formula") {
		t.Errorf("offshore basis without sea states: %q", d)
	}
	// The wizard's fields.
	form := url.Values{"turbine_id": {tb.ID}, "class": {"I"}, "category": {"B"}, "dlcs": {"1.2", "6.1"}, "seeds_per_bin": {"1"}, "speed_step": {"10"},
		"duration": {"10"}, "sea_states": {"4 1.1 8.5\n24 6 12\n"}, "hs50": {"10.9"}, "tp50": {"15.5"}, "ess_wave_dir": {"0"}}
	h := map[string]string{"Authorization": be.verified["Authorization"], "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/preview", body: form.Encode(), header: h})
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `<td>ESS 50-year</td><td class="font-mono">6.1</td><td>50</td><td>10.90</td><td>15.50</td>`) {
		t.Fatalf("wizard preview without the 50-year sea of DLC 6.1: %d %s", resp.StatusCode, body)
	}
}
