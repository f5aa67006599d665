package handlers_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/handlers"
)

// TestWorkbenchChannelsAndRuns: the channel list of a 520-channel run
// carries module groups and marks the INVALID channel, whose statistics
// row is marked and carries no numbers (also in CSV); the compare page
// without runs offers the recent runs instead of a bare 422, opens runs
// by name, and refuses an unknown or ambiguous name saying which.
func TestWorkbenchChannelsAndRuns(t *testing.T) {
	re := newResultEnv(t)
	batch := re.insertBatch(re.org.ID)
	a := re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.outb": wideOutb(t, 10, 1000)})
	re.nameRun(batch, a, "DLC1.2_V8.0_S1", 0)
	b := re.insertJob(re.org.ID, "succeeded", "", map[string]string{"run.outb": wideOutb(t, 10, 2000)})
	c := re.insertJob(re.org.ID, "succeeded", "", map[string]string{"run.outb": wideOutb(t, 10, 3000)})

	chans := callJSON[[]handlers.ChannelInfo](t, re, "GET", "/analysis/jobs/"+a+"/channels", "")
	groups := map[string]string{}
	var invalid []string
	for _, ch := range chans {
		groups[ch.Name] = ch.Group
		if ch.Invalid {
			invalid = append(invalid, ch.Name)
		}
	}
	if len(chans) != 520 || groups["TwrBsMyt"] != "tower" || groups["Spn4MLyb2"] != "blade 2" || groups["AB3N010Cl"] != "blade 3" ||
		groups["GenPwr"] != "drivetrain" || strings.Join(invalid, ",") != "Spn1MLxb1" {
		t.Fatalf("%d channels, groups %q %q %q %q, invalid %v", len(chans), groups["TwrBsMyt"], groups["Spn4MLyb2"], groups["AB3N010Cl"], groups["GenPwr"], invalid)
	}

	st := callJSON[handlers.StatisticsResponse](t, re, "POST", "/analysis/jobs/"+a+"/statistics", `{"channels":["Spn1MLxb1","GenPwr"],"wohler_exponents":[4]}`)
	if !st.Channels[0].Invalid || st.Channels[0].DELs != nil || st.Channels[1].Invalid || st.Channels[1].Mean < 999 || len(st.Channels[1].DELs) != 1 {
		t.Fatalf("statistics: %+v", st.Channels)
	}
	resp, body := re.call(re.token, "POST", "/analysis/jobs/"+a+"/statistics?format=csv", `{"channels":["Spn1MLxb1","GenPwr"],"wohler_exponents":[4]}`)
	lines := strings.Split(strings.TrimSpace(body), "\n")
	if resp.StatusCode != 200 || len(lines) != 3 || lines[0] != "channel,unit,n,min,max,mean,std,del_m4" || lines[1] != "Spn1MLxb1,INVALID,201" {
		t.Fatalf("statistics CSV %d: %q", resp.StatusCode, lines)
	}

	page := func(path string) (int, string) {
		t.Helper()
		resp, body := re.call(re.token, "GET", path, "", "Accept", "text/html")
		return resp.StatusCode, body
	}
	config := func(body string) map[string]any {
		t.Helper()
		_, rest, ok := strings.Cut(body, `<script id="analysis-config" type="application/json">`)
		js, _, ok2 := strings.Cut(rest, "</script>")
		var cfg map[string]any
		if !ok || !ok2 || json.Unmarshal([]byte(js), &cfg) != nil {
			t.Fatalf("no analysis-config in the page")
		}
		return cfg
	}
	runNames := func(cfg map[string]any) string {
		var out []string
		for _, r := range cfg["runs"].([]any) {
			out = append(out, r.(map[string]any)["name"].(string))
		}
		return strings.Join(out, ",")
	}

	// No runs: a chooser of the recent runs, not an error.
	status, body := page("/analysis/compare")
	if status != http.StatusOK || !strings.Contains(body, `id="compare-chooser"`) || !strings.Contains(body, `value="DLC1.2_V8.0_S1"`) {
		t.Fatalf("compare without runs: %d", status)
	}
	// By name; runs without a batch name share the entrypoint's name and
	// are told apart by their job id.
	nameB, nameC := "Main.fst · "+b[:8], "Main.fst · "+c[:8]
	status, body = page("/analysis/compare?run=DLC1.2_V8.0_S1&run=" + strings.ReplaceAll(nameB, " ", "+") + "&run=" + c[:8])
	if status != http.StatusOK {
		t.Fatalf("compare by name: %d", status)
	}
	if got := runNames(config(body)); got != "DLC1.2_V8.0_S1,"+nameB+","+nameC {
		t.Fatalf("compare runs %q", got)
	}
	for path, want := range map[string]string{
		"/analysis/compare?run=DLC9.9":       `no succeeded run is named \"DLC9.9\"`,
		"/analysis/compare?run=Main.fst":     `2 runs are named \"Main.fst\"`,
		"/analysis/jobs/" + a + "?ch=GenPwr": "",
	} {
		resp, body := re.call(re.token, "GET", path, "")
		if want == "" {
			if resp.StatusCode != http.StatusOK {
				t.Errorf("%s: %d %s", path, resp.StatusCode, body)
			}
			continue
		}
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, want) {
			t.Errorf("%s: %d %s, want 422 with %s", path, resp.StatusCode, body, want)
		}
	}
}
