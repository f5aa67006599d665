package handlers_test

import (
	"html"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/handlers"
)

// linkHrefs returns the href of each element id in page (HTML-unescaped),
// failing when one is missing.
func linkHrefs(t *testing.T, page string, ids ...string) []string {
	t.Helper()
	var out []string
	for _, id := range ids {
		m := regexp.MustCompile(`id="` + regexp.QuoteMeta(id) + `"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*id="` + regexp.QuoteMeta(id) + `"`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("page has no link %s", id)
		}
		out = append(out, html.UnescapeString(m[1]+m[2]))
	}
	return out
}

// checkLink fetches href and wants 200 with the content type its format
// asks for (CSV for format=csv, else JSON) and a body of that kind.
func checkLink(t *testing.T, re *resultEnv, href string) {
	t.Helper()
	resp, body := re.call(re.token, "GET", href, "")
	ct := resp.Header.Get("Content-Type")
	if strings.Contains(href, "format=csv") {
		if resp.StatusCode != 200 || !strings.HasPrefix(ct, "text/csv") || !strings.HasPrefix(body, "channel,unit,") {
			t.Errorf("%s: %d %s: %.200s", href, resp.StatusCode, ct, body)
		}
		return
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(ct, "application/json") || !strings.HasPrefix(body, "{") || !strings.Contains(body, `"channels"`) {
		t.Errorf("%s: %d %s: %.200s", href, resp.StatusCode, ct, body)
	}
}

// The batch results page links the lifetime Markov matrices and LDD/LRD
// of the batch (JSON and CSV, with the page's query) and draws the
// drivetrain LDD; the batch page links them too, and per succeeded run the
// run's own spectra. Every link answers 200 with its content type.
func TestBatchPagesLinkTheFatigueSpectra(t *testing.T) {
	re := newResultEnv(t)
	batch := re.insertBatch(re.org.ID)
	var jobs []string
	for i, r := range []struct {
		name   string
		amp, v float64
	}{{"DLC1.2_V8.0_S1_Y+0", 200, 8}, {"DLC1.2_V12.0_S1_Y+0", 500, 12}} {
		job := re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.out": triangleOut(t, 401, r.amp, 1000*r.v, 10, r.v)})
		re.nameRun(batch, job, r.name, i)
		jobs = append(jobs, job)
	}
	resp, page := re.call(re.token, "GET", "/analysis/batches/"+batch+"?distribution=rayleigh&mean_speed=8.5", "", "Accept", "text/html")
	if resp.StatusCode != 200 {
		t.Fatalf("results page %d: %.300s", resp.StatusCode, page)
	}
	for _, want := range []string{`id="fatigue-spectra"`, `id="ldd-0"`, `data-echarts="ldd-0-opt"`, "Load duration, RotTorq"} {
		if !strings.Contains(page, want) {
			t.Errorf("results page lacks %s", want)
		}
	}
	links := linkHrefs(t, page, "markov-json", "markov-csv", "ldd-json", "ldd-csv")
	for _, href := range links {
		if !strings.Contains(href, "mean_speed=8.5") {
			t.Errorf("link %s drops the page's wind distribution", href)
		}
		checkLink(t, re, href)
	}

	resp, page = re.call(re.token, "GET", "/batches/"+batch, "", "Accept", "text/html")
	if resp.StatusCode != 200 {
		t.Fatalf("batch page %d: %.300s", resp.StatusCode, page)
	}
	for _, href := range linkHrefs(t, page, "results-link", "batch-markov-csv", "batch-markov-json", "batch-ldd-csv", "batch-ldd-json")[1:] {
		checkLink(t, re, href)
	}
	for _, job := range jobs {
		for _, ep := range []string{"markov", "load-duration"} {
			for _, suffix := range []string{"?format=csv", ""} {
				href := "/analysis/jobs/" + job + "/" + ep + suffix
				if !strings.Contains(page, `href="`+html.EscapeString(href)+`"`) {
					t.Errorf("batch page lacks the run link %s", href)
				}
				checkLink(t, re, href)
			}
		}
	}
	// The GET form takes the POST fields as query parameters: 200 cycles
	// of range 400 in one range bin over the whole run (t_start=0).
	mk := callJSON[handlers.MarkovResponse](t, re, "GET", "/analysis/jobs/"+jobs[0]+"/markov?channels=RootMyb1&range_bins=1&mean_bins=1&t_start=0", "")
	if len(mk.Channels) != 1 || mk.Channels[0].Counts[0][0] != 200 || mk.Channels[0].RangeEdges[1] != 400 {
		t.Errorf("GET markov %+v, want 200 cycles of range 400", mk.Channels)
	}
	resp, body := re.call(re.token, "GET", "/analysis/jobs/"+jobs[0]+"/load-duration?bins=x", "")
	assertDetail(t, resp, body, 422)
}

// Start-up fatigue (DLC 3.1) through the API: a batch of start-up runs
// alone is 422 asking for events_per_year instead of a time-weighted DEL;
// with 1000 events a year its lifetime DEL is, by hand for m = 4, the
// runs' mean damage per event: 20 cycles of range 1000 at 4 m/s and 10 of
// range 600 at 25 m/s, DEL⁴ = 1000·(20·1000⁴ + 10·600⁴)/2 / (8760·3600 s).
func TestBatchDELEventsPerYear(t *testing.T) {
	re := newResultEnv(t)
	batch := re.insertBatch(re.org.ID)
	for i, r := range []struct {
		name   string
		rows   int
		amp, v float64
	}{{"DLC3.1_V4.0_S1_Y+0", 41, 500, 4}, {"DLC3.1_V25.0_S1_Y+0", 21, 300, 25}} {
		job := re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.out": triangleOut(t, r.rows, r.amp, 1000, 10, r.v)})
		re.nameRun(batch, job, r.name, i)
	}
	// The whole runs (t_start=0): their cycles are counted by hand.
	base := "/analysis/batches/" + batch + "/del?exponents=4&channels=RootMyb1&t_start=0"
	resp, body := re.call(re.token, "GET", base, "")
	if detail := assertDetail(t, resp, body, 422); !strings.Contains(detail, "events_per_year") {
		t.Errorf("start-up batch without counts: %q does not ask for events_per_year", detail)
	}
	dl := callJSON[handlers.BatchDELs](t, re, "GET", base+"&events_per_year=3.1:1000", "")
	want := math.Pow(1000*(20*math.Pow(1000, 4)+10*math.Pow(600, 4))/2/(8760*3600), 0.25)
	l := dl.Channels[0].Lifetime[0]
	if !relClose(l.DEL, want, 1e-9) || len(l.Events) != 1 || l.Events[0].EventsPerYear != 1000 || len(dl.Channels[0].EventRuns) != 2 {
		t.Errorf("lifetime %+v, want DEL %v from 1000 start-ups a year", l, want)
	}
	resp, body = re.call(re.token, "GET", base+"&events_per_year=3.1:1000&format=csv", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(body, "channel,unit,exponent,lifetime_del,arithmetic_mean,goodman,ultimate_load,time_weighted_del,events\nRootMyb1,kN-m,4,") ||
		!strings.HasSuffix(strings.TrimSpace(body), ",0,3.1:1000") {
		t.Errorf("CSV %d: %s", resp.StatusCode, body)
	}
	for q, inDetail := range map[string]string{
		"&events_per_year=1.2:10":   "1.2",
		"&events_per_year=3.1:-5":   "3.1",
		"&events_per_year=3.1":      "events_per_year",
		"&events_per_year=4.1:100":  "4.1", // no DLC 4.1 run
		"&dlc=3.1":                  "events_per_year=3.1",
		"&events_per_year=3.1:many": "3.1",
	} {
		resp, body := re.call(re.token, "GET", base+q, "")
		if detail := assertDetail(t, resp, body, 422); !strings.Contains(detail, inDetail) {
			t.Errorf("%s: detail %q does not name %s", q, detail, inDetail)
		}
	}
	// The results page says why it has no DEL table instead of a
	// time-weighted one.
	resp, page := re.call(re.token, "GET", "/analysis/batches/"+batch, "", "Accept", "text/html")
	if resp.StatusCode != 200 || strings.Contains(page, `id="del-table"`) || !strings.Contains(page, "events_per_year") {
		t.Errorf("results page of a start-up batch %d: DEL table or no note", resp.StatusCode)
	}
}

// The batch page and the results page of a DLC batch have an
// events_per_year field: a valid count is carried to the report links,
// the results (DEL) link and the spectra links, and the results page's DEL
// table counts the events; a refused count (malformed, or a DLC the batch
// does not have) is shown next to the field and left out of the links.
// Before, only editing the URL could pass it.
func TestEventsPerYearFieldOnBatchPages(t *testing.T) {
	re := newResultEnv(t)
	batch := re.insertBatch(re.org.ID)
	if _, err := re.db.Exec(`UPDATE batches SET kind = 'dlc', request = $2 WHERE id = $1`, batch,
		`{"request":{"dlcs":["1.2","3.1"],"class":"I","category":"B"},"runs":[]}`); err != nil {
		t.Fatal(err)
	}
	for i, r := range []struct {
		name   string
		rows   int
		amp, v float64
	}{{"DLC1.2_V8.0_S1_Y+0", 401, 200, 8}, {"DLC1.2_V12.0_S1_Y+0", 401, 500, 12}, {"DLC3.1_V4.0_S1_Y+0", 41, 500, 4}} {
		job := re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.out": triangleOut(t, r.rows, r.amp, 1000*r.v, 10, r.v)})
		re.nameRun(batch, job, r.name, i)
	}
	page := func(path string) string {
		t.Helper()
		resp, body := re.call(re.token, "GET", path, "", "Accept", "text/html")
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %.300s", path, resp.StatusCode, body)
		}
		return body
	}
	const counted = "events_per_year=3.1%3A1000"

	body := page("/batches/" + batch + "?events_per_year=3.1:1000")
	if !strings.Contains(body, `id="events-form"`) || !strings.Contains(body, `value="3.1:1000"`) || strings.Contains(body, `id="events-error"`) {
		t.Errorf("batch page: no events field holding 3.1:1000, or an error")
	}
	links := linkHrefs(t, body, "report-link", "report-pdf-link", "results-link", "batch-markov-csv", "batch-markov-json", "batch-ldd-json")
	for _, href := range links {
		if !strings.Contains(href, counted) {
			t.Errorf("batch page link %s does not carry the events", href)
		}
	}
	for _, href := range links[3:] {
		checkLink(t, re, href)
	}

	for q, inError := range map[string]string{"3.1:many": "3.1", "4.1:5": "not in this batch", "1.2:5": "1.2"} {
		body := page("/batches/" + batch + "?events_per_year=" + q)
		m := regexp.MustCompile(`id="events-error"[^>]*>([^<]*)<`).FindStringSubmatch(body)
		if m == nil || !strings.Contains(html.UnescapeString(m[1]), inError) {
			t.Errorf("batch page, events_per_year=%s: error next to the field %v, want one naming %q", q, m, inError)
		}
		if href := linkHrefs(t, body, "report-link")[0]; strings.Contains(href, "events_per_year") {
			t.Errorf("events_per_year=%s refused but carried to %s", q, href)
		}
	}

	results := page("/analysis/batches/" + batch + "?events_per_year=3.1:1000&distribution=rayleigh&mean_speed=8.5")
	if !strings.Contains(results, `id="events-form"`) || !strings.Contains(results, `id="del-table"`) || strings.Contains(results, "left out") {
		t.Errorf("results page with counts: no field, no DEL table or DLC 3.1 still left out")
	}
	if !strings.Contains(results, `name="mean_speed" value="8.5"`) {
		t.Errorf("results page field does not keep the page's other parameters")
	}
	rl := linkHrefs(t, results, "report-link", "del-table-csv", "markov-json", "ldd-csv")
	for _, href := range rl {
		if !strings.Contains(href, counted) {
			t.Errorf("results page link %s does not carry the events", href)
		}
	}
	for _, href := range rl[1:] {
		checkLink(t, re, href)
	}
	results = page("/analysis/batches/" + batch + "?events_per_year=3.1:-1")
	if !strings.Contains(results, `id="events-error"`) || !strings.Contains(results, "left out") {
		t.Errorf("results page with a refused count: no error next to the field, or the events were not left out with the note")
	}
	if href := linkHrefs(t, results, "del-table-csv")[0]; strings.Contains(href, "events_per_year") {
		t.Errorf("refused count carried to %s", href)
	}
}
