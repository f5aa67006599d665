package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/handlers"
)

// Every bundled reference turbine (the five of GET /turbines/demos: two
// onshore, two on monopiles, one floating) loads through the API and runs a
// 20-s job at 10 m/s to succeeded, its statistics are readable, and the
// results page of an offshore one offers its channel groups (platform
// motions, mooring tensions, wave elevation; substructure reactions and
// mudline moments). Nothing
// is offered that does not run: before the offshore demos were stored in
// the OpenFAST v5 layout, three of them were refused at submission (422:
// CompSeaSt for the v3-layout HydroDyn, CompElast 2 for the IEA 22 MW).
func TestEveryBundledTurbineRunsThroughTheAPI(t *testing.T) {
	offshoreGroups := map[string][]string{
		"iea-15mw-volturnus": {"Platform motions", "Mooring tensions", "Wave elevation", "Tower-base loads"},
		"iea-15mw-monopile":  {"Substructure reactions", "Mudline moments", "Tower-base loads"},
		"iea-22mw-monopile":  {"Substructure reactions", "Mudline moments", "Tower-base loads"},
	}
	be := newBatchAPIEnv(t, true)
	// the environment stores its own copy of the NREL 5 MW under the demo's
	// name; rename it so that loading the demo creates the demo's row
	if _, err := be.db.ExecContext(context.Background(), `UPDATE turbines SET name = 'NREL 5 MW fixture' WHERE id = $1`, be.turbineID); err != nil {
		t.Fatal(err)
	}
	resp, body := be.do(nil, request{method: "GET", path: "/turbines/demos?page_size=100", header: be.verified})
	demos := decodeInto[handlers.DemoList](t, body)
	if resp.StatusCode != http.StatusOK || len(demos.Items) != 5 {
		t.Fatalf("GET /turbines/demos: %d, %d demos, want the 5 bundled turbines: %s", resp.StatusCode, len(demos.Items), body)
	}
	jobs := map[string]string{} // demo → job
	for _, d := range demos.Items {
		resp, body := be.do(nil, request{method: "POST", path: "/turbines/demos/" + d.ID + "/load", header: be.verified})
		tb := decodeInto[handlers.DemoLoadResult](t, body)
		if resp.StatusCode != http.StatusCreated || tb.Turbine == nil {
			t.Fatalf("%s: load: %d %s", d.ID, resp.StatusCode, body)
		}
		resp, body = be.do(nil, request{method: "POST", path: "/jobs", header: be.verified,
			body: `{"turbine_id":"` + tb.ID + `","settings":{"t_max":20,"wind":{"speed":10}}}`})
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("%s: submit: %d %s", d.ID, resp.StatusCode, body)
		}
		jobs[d.ID] = decodeInto[turbinesim.Job](t, body).ID
	}
	for _, d := range demos.Items {
		id := jobs[d.ID]
		var job turbinesim.Job
		deadline := time.Now().Add(10 * time.Minute)
		for {
			resp, body := be.do(nil, request{method: "GET", path: "/jobs/" + id, header: be.verified})
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: GET /jobs/%s: %d %s", d.ID, id, resp.StatusCode, body)
			}
			job = decodeInto[turbinesim.Job](t, body)
			if job.Status.Terminal() {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: job still %s after 10 minutes", d.ID, job.Status)
			}
			time.Sleep(250 * time.Millisecond)
		}
		if job.Status != turbinesim.JobSucceeded {
			detail := ""
			if job.Detail != nil {
				detail = *job.Detail
			}
			t.Errorf("%s: job ended %s: %s", d.ID, job.Status, detail)
			continue
		}
		resp, body := be.do(nil, request{method: "POST", path: "/analysis/jobs/" + id + "/statistics", header: be.verified,
			body: `{"channels":["RotSpeed","GenPwr"]}`})
		st := decodeInto[handlers.StatisticsResponse](t, body)
		if resp.StatusCode != http.StatusOK || len(st.Channels) != 2 || st.End < 19.9 {
			t.Errorf("%s: statistics: %d %s", d.ID, resp.StatusCode, body)
			continue
		}
		rpm, kw := st.Channels[0], st.Channels[1]
		// 10 m/s is below rated for every bundled turbine: the rotor turns
		// and makes power (the runs start from the deck's initial speed)
		if !(rpm.Mean > 3) || !(kw.Max > 500) {
			t.Errorf("%s: RotSpeed mean %.2f rpm, GenPwr max %.0f kW", d.ID, rpm.Mean, kw.Max)
		}
		t.Logf("%s: succeeded, RotSpeed mean %.2f rpm, GenPwr mean %.0f kW over %g-%g s", d.ID, rpm.Mean, kw.Mean, st.Start, st.End)
		// the results page offers the offshore channel groups
		resp, body = be.do(nil, request{method: "GET", path: "/analysis/jobs/" + id,
			header: map[string]string{"Authorization": be.verified["Authorization"], "Accept": "text/html"}})
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: results page: %d", d.ID, resp.StatusCode)
			continue
		}
		for _, g := range offshoreGroups[d.ID] {
			if !strings.Contains(body, `id="channel-groups"`) || !strings.Contains(body, ">"+g+"</a>") {
				t.Errorf("%s: the results page does not offer the %s group", d.ID, g)
			}
		}
	}
}
