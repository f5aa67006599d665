package handlers_test

import (
	"encoding/json"
	"html"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/solver/dlc"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// designLoadBatch stores a finished DLC batch of the request's runs whose
// outputs are 70-s records of the load channels: each run r carries
// RootMxc1 = (1 + r)·100 sin(…) + 500 and TwrBsMyt = 40 000 − 900·r + …,
// so a fatigue (1.2) run holds the largest RootMxc1 of all and a gust
// (1.4) run the largest TwrBsMyt. It returns the batch id and the run
// names by job id.
func designLoadBatch(t *testing.T, re *resultEnv, req dlc.Request) (string, map[string]string) {
	t.Helper()
	runs, err := dlc.Expand(req)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := json.Marshal(batches.StoredDLCRequest{Request: req, Runs: runs})
	if err != nil {
		t.Fatal(err)
	}
	batch := re.insertBatch(re.org.ID)
	if _, err := re.db.Exec(`UPDATE batches SET kind = 'dlc', request = $2, run_count = $3 WHERE id = $1`, batch, string(stored), len(runs)); err != nil {
		t.Fatal(err)
	}
	chans := []outfile.Channel{{Name: "RootMxc1", Unit: "kN-m"}, {Name: "RootMyc1", Unit: "kN-m"}, {Name: "TwrBsMyt", Unit: "kN-m"},
		{Name: "Wind1VelX", Unit: "m/s"}, {Name: "GenPwr", Unit: "kW"}}
	names := map[string]string{}
	for i, r := range runs {
		k := float64(i)
		// The order of the runs decides who governs: the 1.2 runs come
		// first, so the last 1.2 run has the largest RootMxc1 of the
		// fatigue runs, and the 1.4 runs (after them) a larger TwrBsMyt.
		rootAmp := 100 * (1 + k)
		if r.DLC == "1.4" {
			rootAmp = 100 * (1 + k/4)
		}
		tower := 40000 + 900*k
		if r.DLC == "1.2" {
			tower = 30000 - 900*k
		}
		p := textOut(t, chans, 1401, func(c, n int) float64 {
			tt := 0.05 * float64(n)
			s := math.Sin(2 * math.Pi * (0.1 + 0.01*k) * tt)
			return []float64{500 + rootAmp*s, 2000 - 3*rootAmp*s, tower * (1 + 0.1*s), r.WindSpeed, 300 * r.WindSpeed}[c]
		})
		job := re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.out": p})
		re.nameRun(batch, job, r.ID, i)
		names[job] = r.ID
	}
	return batch, names
}

// extremeRow is one row of an ultimate-load table as a page shows it.
type extremeRow struct {
	channel, kind, dlc, run             string
	characteristic, gamma, design, time float64
}

func (r extremeRow) key() string { return r.channel + " " + r.kind }

var (
	rowPattern  = regexp.MustCompile(`(?s)<tr[^>]*>(.*?)</tr>`)
	cellPattern = regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
	tagPattern  = regexp.MustCompile(`<[^>]*>`)
)

// tableRows parses the cells of the data rows of the table starting at
// marker in page.
func tableRows(t *testing.T, page, marker string) [][]string {
	t.Helper()
	i := strings.Index(page, marker)
	if i < 0 {
		t.Fatalf("no %s in the page", marker)
	}
	table := page[i:]
	table = table[:strings.Index(table, "</table>")]
	var out [][]string
	for _, m := range rowPattern.FindAllStringSubmatch(table, -1) {
		var cells []string
		for _, c := range cellPattern.FindAllStringSubmatch(m[1], -1) {
			cells = append(cells, strings.TrimSpace(html.UnescapeString(tagPattern.ReplaceAllString(c[1], ""))))
		}
		if len(cells) > 0 {
			out = append(out, cells)
		}
	}
	return out
}

// A finished run that failed a plausibility check is marked everywhere:
// GET /jobs/{id} answers its checks and the job page says it is flagged;
// GET /batches/{id} lists them with the run and the batch page marks the
// run; the batch's extremes leave it out (excluded, with the reason) unless
// include_flagged=true, and the results page lists it with a link that
// includes it. Before, nothing was checked and the run's non-physical
// loads were the design loads.
func TestFlaggedRunIsMarkedAndLeftOut(t *testing.T) {
	re := newResultEnv(t)
	one := 1
	req := dlc.Request{Turbine: dlc.Turbine{Name: "T", HubHeight: 90, RotorDiameter: 126, VIn: 4, VRated: 11.4, VOut: 24, RatedRotorSpeed: 12.1},
		DLCs: []string{"1.3"}, Class: "I", Category: "B", SeedsPerBin: 1,
		Overrides: map[string]dlc.Override{"1.3": {Speeds: []float64{8, 12, 16}, Seeds: &one, Yaw: []float64{0}}}}
	batch, names := designLoadBatch(t, re, req)
	var flagged, passed string
	for job, name := range names {
		switch name {
		case "DLC1.3_V16.0_S1_Y+0":
			flagged = job
		case "DLC1.3_V8.0_S1_Y+0":
			passed = job
		}
	}
	if flagged == "" || passed == "" {
		t.Fatalf("runs %v", names)
	}
	checks := `[{"kind":"overspeed","severity":"error","channel":"RotSpeed","time":42,"value":31,"limit":15.73,"message":"RotSpeed reaches 31 at t = 42 s, beyond the overspeed limit (rpm) of 15.73"},
		{"kind":"invalid_channel","severity":"warning","channel":"Spn1MLxb1","time":null,"value":null,"limit":null,"message":"Spn1MLxb1 is not an output of this deck"}]`
	if _, err := re.db.Exec(`UPDATE jobs SET checks = $2 WHERE id = $1`, flagged, checks); err != nil {
		t.Fatal(err)
	}
	if _, err := re.db.Exec(`UPDATE jobs SET checks = '[]' WHERE batch_id = $1 AND id <> $2`, batch, flagged); err != nil {
		t.Fatal(err)
	}

	resp, body := re.call(re.token, "GET", "/jobs/"+flagged, "")
	var job struct {
		Checks []struct{ Kind, Severity, Channel, Message string } `json:"checks"`
	}
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &job) != nil || len(job.Checks) != 2 || job.Checks[0].Kind != "overspeed" || job.Checks[0].Severity != "error" {
		t.Fatalf("GET /jobs/{id}: %d %.400s", resp.StatusCode, body)
	}
	_, body = re.call(re.token, "GET", "/jobs/"+passed, "")
	if !strings.Contains(body, `"checks":[]`) {
		t.Errorf("a run that passed should answer checks []: %.400s", body)
	}
	_, page := re.call(re.token, "GET", "/jobs/"+flagged, "", "Accept", "text/html")
	if !strings.Contains(page, `id="job-checks" data-flagged="true"`) || !strings.Contains(page, "RotSpeed reaches 31 at t = 42 s") || !strings.Contains(page, "Spn1MLxb1") {
		t.Errorf("job page does not show the failed checks")
	}
	_, page = re.call(re.token, "GET", "/jobs/"+passed, "", "Accept", "text/html")
	if !strings.Contains(page, `id="job-checks" data-flagged="false"`) {
		t.Errorf("job page of a run that passed does not say so")
	}

	_, body = re.call(re.token, "GET", "/batches/"+batch, "")
	var detail struct {
		Runs []struct {
			JobID  string `json:"job_id"`
			Checks []struct{ Kind string }
		} `json:"runs"`
	}
	if json.Unmarshal([]byte(body), &detail) != nil || len(detail.Runs) != 3 {
		t.Fatalf("GET /batches/{id}: %.400s", body)
	}
	for _, r := range detail.Runs {
		if (r.JobID == flagged) != (len(r.Checks) == 2) {
			t.Errorf("batch run %s checks %+v", r.JobID, r.Checks)
		}
	}
	_, page = re.call(re.token, "GET", "/batches/"+batch, "", "Accept", "text/html")
	if strings.Count(page, `class="run-flagged`) != 1 || !strings.Contains(page, "Left out of the design loads: RotSpeed reaches 31") {
		t.Errorf("batch page does not mark the one flagged run")
	}

	// The flagged run holds the largest TwrBsMyt of the three.
	extremes := func(query string) (maxRun string, excluded []string) {
		t.Helper()
		resp, body := re.call(re.token, "GET", "/analysis/batches/"+batch+"/extremes?channels=TwrBsMyt"+query, "")
		var ex struct {
			Excluded []struct {
				JobID   string   `json:"job_id"`
				Run     string   `json:"run"`
				Reasons []string `json:"reasons"`
			} `json:"excluded"`
			Extremes []struct {
				Kind  string
				RunID string `json:"run_id"`
			} `json:"extremes"`
		}
		if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &ex) != nil {
			t.Fatalf("extremes%s: %d %.300s", query, resp.StatusCode, body)
		}
		for _, e := range ex.Excluded {
			if len(e.Reasons) != 1 || !strings.Contains(e.Reasons[0], "RotSpeed reaches 31") || e.Run != "DLC1.3_V16.0_S1_Y+0" {
				t.Errorf("excluded %+v", e)
			}
			excluded = append(excluded, e.JobID)
		}
		for _, e := range ex.Extremes {
			if e.Kind == "max" {
				maxRun = e.RunID
			}
		}
		return maxRun, excluded
	}
	if maxRun, excluded := extremes(""); maxRun == flagged || len(excluded) != 1 || excluded[0] != flagged {
		t.Errorf("by default: max from %s, excluded %v; want the flagged run %s left out", maxRun, excluded, flagged)
	}
	if maxRun, excluded := extremes("&include_flagged=true"); maxRun != flagged || len(excluded) != 0 {
		t.Errorf("include_flagged=true: max from %s, excluded %v; want the flagged run %s to govern", maxRun, excluded, flagged)
	}
	resp, body = re.call(re.token, "GET", "/analysis/batches/"+batch+"/extremes?channels=TwrBsMyt&include_flagged=maybe", "")
	if detail := assertDetail(t, resp, body, 422); !strings.Contains(detail, "include_flagged") {
		t.Errorf("include_flagged=maybe: %s", detail)
	}

	_, page = re.call(re.token, "GET", "/analysis/batches/"+batch, "", "Accept", "text/html")
	if !strings.Contains(page, `id="flagged-runs"`) || !strings.Contains(page, "DLC1.3_V16.0_S1_Y+0") {
		t.Fatalf("results page does not list the flagged run")
	}
	toggle := linkHrefs(t, page, "flagged-toggle")[0]
	if !strings.Contains(toggle, "include_flagged=true") {
		t.Fatalf("results page toggle %s", toggle)
	}
	for _, c := range tableRows(t, page, `id="extremes-table"`) {
		if c[0] == "TwrBsMyt" && c[2] == "max" && c[7] == "DLC1.3_V16.0_S1_Y+0" {
			t.Errorf("results page: the flagged run governs TwrBsMyt: %v", c)
		}
	}
	_, page = re.call(re.token, "GET", toggle, "", "Accept", "text/html")
	governs := false
	for _, c := range tableRows(t, page, `id="extremes-table"`) {
		governs = governs || c[0] == "TwrBsMyt" && c[2] == "max" && c[7] == "DLC1.3_V16.0_S1_Y+0"
	}
	if !governs || !strings.Contains(linkHrefs(t, page, "report-link")[0], "include_flagged=true") {
		t.Errorf("results page with include_flagged=true: the flagged run does not govern, or the report link does not carry the choice")
	}
}

// The results page's curves are binned per IEC 61400-12-1 and drawn as
// such: a marker per bin, no line across empty bins (a null point between
// the 8, 12 and 16 m/s bins of a three-speed batch), and the bin table
// gives each bin's count and the spread of its power and thrust. Before,
// the line ran straight across the empty bins with no marker.
func TestResultsPageCurvesBreakAtEmptyBins(t *testing.T) {
	re := newResultEnv(t)
	one := 1
	req := dlc.Request{Turbine: dlc.Turbine{Name: "T", HubHeight: 90, RotorDiameter: 126, VIn: 4, VRated: 11.4, VOut: 24, RatedRotorSpeed: 12.1},
		DLCs: []string{"1.2"}, Class: "I", Category: "B", SeedsPerBin: 1,
		Overrides: map[string]dlc.Override{"1.2": {Speeds: []float64{8, 12, 16}, Seeds: &one, Yaw: []float64{0}}}}
	batch, _ := designLoadBatch(t, re, req)
	resp, page := re.call(re.token, "GET", "/analysis/batches/"+batch, "", "Accept", "text/html")
	if resp.StatusCode != 200 {
		t.Fatalf("results page: %d %.300s", resp.StatusCode, page)
	}
	i := strings.Index(page, `id="curve-power"`)
	if i < 0 {
		t.Fatal("no power curve chart")
	}
	option := page[i:]
	option = option[:strings.Index(option, "</script>")]
	for _, want := range []string{`[10,null]`, `[14,null]`, `"showSymbol":true`, `[8,2400]`, `[12,3600]`, `[16,4800]`} {
		if !strings.Contains(option, want) {
			t.Errorf("power chart option lacks %s: %.600s", want, option)
		}
	}
	head := tableRows(t, page, `id="curve-table"`)
	if len(head) != 3 {
		t.Fatalf("bin table rows %v, want the three bins", head)
	}
	if !strings.Contains(page, "Power std (kW)") || !strings.Contains(page, "Thrust std (kN)") {
		t.Errorf("bin table does not show the spread")
	}
}

// A batch whose runs have not all finished is marked partial wherever its
// results show: the results page says how many runs its figures are from,
// the API answers partial with the counts; once the last run has failed,
// the report says the batch is partial and which runs are missing.
// Before, 7 of 21 finished runs showed as if they were the batch.
func TestPartialBatchIsMarked(t *testing.T) {
	re := newResultEnv(t)
	one := 1
	req := dlc.Request{Turbine: dlc.Turbine{Name: "T", HubHeight: 90, RotorDiameter: 126, VIn: 4, VRated: 11.4, VOut: 24, RatedRotorSpeed: 12.1},
		DLCs: []string{"1.3"}, Class: "I", Category: "B", SeedsPerBin: 1,
		Overrides: map[string]dlc.Override{"1.3": {Speeds: []float64{8, 12, 16}, Seeds: &one, Yaw: []float64{0}}}}
	batch, names := designLoadBatch(t, re, req)
	var last string
	for job, name := range names {
		if name == "DLC1.3_V16.0_S1_Y+0" {
			last = job
		}
	}
	if _, err := re.db.Exec(`UPDATE jobs SET status = 'running', finished_at = NULL WHERE id = $1`, last); err != nil {
		t.Fatal(err)
	}
	_, page := re.call(re.token, "GET", "/analysis/batches/"+batch, "", "Accept", "text/html")
	if !strings.Contains(page, `id="batch-partial"`) || !strings.Contains(page, "2 of 3 runs have finished") {
		t.Errorf("results page of a running batch is not marked incomplete")
	}
	_, body := re.call(re.token, "GET", "/analysis/batches/"+batch+"/extremes?channels=TwrBsMyt", "")
	var ex struct {
		Partial      bool `json:"partial"`
		RunsFinished int  `json:"runs_finished"`
		RunsTotal    int  `json:"runs_total"`
	}
	if json.Unmarshal([]byte(body), &ex) != nil || !ex.Partial || ex.RunsFinished != 2 || ex.RunsTotal != 3 {
		t.Errorf("extremes of a running batch: %.300s; want partial, 2 of 3", body)
	}
	if _, err := re.db.Exec(`UPDATE jobs SET status = 'failed', finished_at = now(), output_key = NULL WHERE id = $1`, last); err != nil {
		t.Fatal(err)
	}
	_, body = re.call(re.token, "GET", "/analysis/batches/"+batch+"/extremes?channels=TwrBsMyt", "")
	if json.Unmarshal([]byte(body), &ex) != nil || ex.Partial || ex.RunsFinished != 3 {
		t.Errorf("extremes of a finished batch: %.300s; want not partial, 3 finished", body)
	}
	resp, report := re.call(re.token, "GET", "/reports/batches/"+batch, "", "Accept", "text/html")
	if resp.StatusCode != 200 || !strings.Contains(report, `id="report-partial"`) || !strings.Contains(report, "2 of 3 runs succeeded") {
		t.Errorf("report of a batch with a failed run: %d, not marked partial", resp.StatusCode)
	}
}

// Wherever a DEL is shown its equivalent frequency and cycle count are:
// the API's batch DELs answer f_eq and N_eq per year, the results page's
// DEL table has both columns, the report states them above each fatigue
// table.
func TestDELsStateTheirEquivalentFrequency(t *testing.T) {
	re := newResultEnv(t)
	one := 1
	req := dlc.Request{Turbine: dlc.Turbine{Name: "T", HubHeight: 90, RotorDiameter: 126, VIn: 4, VRated: 11.4, VOut: 24, RatedRotorSpeed: 12.1},
		DLCs: []string{"1.2"}, Class: "I", Category: "B", SeedsPerBin: 1,
		Overrides: map[string]dlc.Override{"1.2": {Speeds: []float64{8, 12}, Seeds: &one, Yaw: []float64{0}}}}
	batch, _ := designLoadBatch(t, re, req)
	_, body := re.call(re.token, "GET", "/analysis/batches/"+batch+"/del?channels=RootMxc1&exponents=10", "")
	var dels struct {
		F float64 `json:"equivalent_frequency_hz"`
		N float64 `json:"equivalent_cycles_per_year"`
	}
	if json.Unmarshal([]byte(body), &dels) != nil || dels.F != 1 || dels.N != 8760*3600 {
		t.Errorf("batch DELs: %.300s; want f_eq 1 Hz and 3.1536e7 cycles a year", body)
	}
	_, page := re.call(re.token, "GET", "/analysis/batches/"+batch, "", "Accept", "text/html")
	if !strings.Contains(page, "f_eq (Hz)") || !strings.Contains(page, "N_eq (cycles per year)") {
		t.Errorf("results page DEL table does not state f_eq and N_eq")
	}
	_, report := re.call(re.token, "GET", "/reports/batches/"+batch, "", "Accept", "text/html")
	if !strings.Contains(report, `class="del-basis muted">DELs at f<sub>eq</sub> = 1 Hz: N<sub>eq</sub> =`) {
		t.Errorf("report fatigue table does not state f_eq and N_eq")
	}
}
