package handlers_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
)

// Runs have names and tags, and say what they ran: a run of a stored
// turbine without a name is named from the turbine and its wind, one with
// a name keeps it; tags come with the submission and change with PATCH;
// GET /jobs finds runs by name substring, tag, turbine, status and date,
// sorts them, and refuses a bad parameter with 422 naming it.
func TestJobNamesTagsAndSearch(t *testing.T) {
	t.Parallel()
	je, tb := newTurbineRunEnv(t)
	post := func(body string) turbinesim.Job {
		t.Helper()
		resp, b := je.do(nil, request{method: "POST", path: "/jobs", body: body, header: je.keyed("Content-Type", "application/json")})
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("submit %s: %d %s", body, resp.StatusCode, b)
		}
		return decodeInto[turbinesim.Job](t, b)
	}
	derived := post(`{"turbine_id":"` + tb.ID + `","settings":{"t_max":0.5,"wind":{"speed":11.4,"shear":0.14}}}`)
	if derived.Name != "NREL 5MW copy · steady 11.4 m/s" {
		t.Fatalf("derived name %q", derived.Name)
	}
	if s := derived.Setup; s == nil || s.Wind.Kind != "steady" || s.Wind.Speed == nil || *s.Wind.Speed != 11.4 ||
		s.Wind.Shear == nil || *s.Wind.Shear != 0.14 || s.DT <= 0 || s.Waves != nil {
		t.Fatalf("setup of a steady land run: %+v", derived.Setup)
	}
	named := post(`{"turbine_id":"` + tb.ID + `","name":"Rated check 2026","tags":["campaign-A"," rated ","campaign-A"],` +
		`"settings":{"t_max":0.5,"wind":{"speed":12}}}`)
	if named.Name != "Rated check 2026" || strings.Join(named.Tags, ",") != "campaign-A,rated" {
		t.Fatalf("named run: %q %q", named.Name, named.Tags)
	}
	// An uploaded deck is named from its main file and its wind.
	resp, b := je.submitZip(deckZip(t, "0.5", nil), "Main_Onshore.fst", je.keyed())
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("zip submit: %d %s", resp.StatusCode, b)
	}
	zipJob := decodeInto[turbinesim.Job](t, b)
	if !strings.HasPrefix(zipJob.Name, "Main_Onshore.fst · ") || zipJob.Setup == nil {
		t.Fatalf("zip run name %q setup %+v", zipJob.Name, zipJob.Setup)
	}

	list := func(query string) []turbinesim.Job {
		t.Helper()
		resp, b := je.do(nil, request{method: "GET", path: "/jobs?" + query, header: je.keyed()})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /jobs?%s: %d %s", query, resp.StatusCode, b)
		}
		return decodeInto[struct{ Items []turbinesim.Job }](t, b).Items
	}
	ids := func(js []turbinesim.Job) string {
		var out []string
		for _, j := range js {
			out = append(out, j.ID)
		}
		return strings.Join(out, ",")
	}
	if got := list("name=" + url.QueryEscape("rated CHECK")); ids(got) != named.ID {
		t.Fatalf("name search found %s, want %s", ids(got), named.ID)
	}
	if got := list("tag=campaign-A"); ids(got) != named.ID || got[0].TurbineName != "NREL 5MW copy" {
		t.Fatalf("tag search: %+v", got)
	}
	if got := list("turbine_id=" + tb.ID + "&sort=name"); ids(got) != derived.ID+","+named.ID {
		t.Fatalf("turbine filter sorted by name: %s", ids(got))
	}
	today := time.Now().UTC().Format(time.DateOnly)
	if got := list("from=" + today + "&to=" + today); len(got) != 3 {
		t.Fatalf("today's runs: %d", len(got))
	}
	if got := list("to=2000-01-01"); len(got) != 0 {
		t.Fatalf("runs before 2000: %d", len(got))
	}

	// PATCH adds and removes tags and renames.
	patch := func(id, body string) (*http.Response, string) {
		return je.do(nil, request{method: "PATCH", path: "/jobs/" + id, body: body, header: je.keyed("Content-Type", "application/json")})
	}
	resp, b = patch(derived.ID, `{"add_tags":["baseline","campaign-A"],"name":"Baseline 11.4"}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("patch: %d %s", resp.StatusCode, b)
	}
	if j := decodeInto[turbinesim.Job](t, b); j.Name != "Baseline 11.4" || strings.Join(j.Tags, ",") != "baseline,campaign-A" {
		t.Fatalf("patched: %q %q", j.Name, j.Tags)
	}
	if got := list("tag=campaign-A&sort=-name"); ids(got) != named.ID+","+derived.ID {
		t.Fatalf("tag search after patch: %s", ids(got))
	}
	resp, b = patch(derived.ID, `{"remove_tags":["campaign-A"]}`)
	if j := decodeInto[turbinesim.Job](t, b); resp.StatusCode != http.StatusOK || strings.Join(j.Tags, ",") != "baseline" {
		t.Fatalf("remove tag: %d %s", resp.StatusCode, b)
	}

	for body, field := range map[string]string{
		`{"name":""}`:          "name: ",
		`{"add_tags":["a,b"]}`: "add_tags: ",
		`{"tags":["` + strings.Repeat("x", 41) + `"]}`: "tags: ",
		`{"status":"succeeded"}`:                       "status: ",
	} {
		resp, b := patch(derived.ID, body)
		if d := assertDetail(t, resp, b, http.StatusUnprocessableEntity); !strings.HasPrefix(d, field) {
			t.Fatalf("PATCH %s: detail %q does not name %s", body, d, field)
		}
	}
	resp, b = patch("00000000-0000-4000-8000-000000000000", `{"add_tags":["x"]}`)
	assertDetail(t, resp, b, http.StatusNotFound)

	for query, param := range map[string]string{
		"status=done":                   "status: ",
		"sort=size":                     "sort: ",
		"turbine_id=abc":                "turbine_id: ",
		"batch_id=1":                    "batch_id: ",
		"from=yesterday":                "from: ",
		"to=2026-13-01":                 "to: ",
		"from=2026-02-02&to=2026-02-01": "to: ",
		"tag=a&tag=b":                   "tag: ",
	} {
		resp, b := je.do(nil, request{method: "GET", path: "/jobs?" + query, header: je.keyed()})
		if d := assertDetail(t, resp, b, http.StatusUnprocessableEntity); !strings.HasPrefix(d, param) {
			t.Fatalf("GET /jobs?%s: detail %q does not name %s", query, d, param)
		}
	}
}

// "Re-run with changes" of a run with an uploaded wind file offers that
// file: the form names the job and the file's path in its inputs, and a
// run submitted with them (settings.wind.file) is accepted with the same
// wind file, recorded in its setup.
func TestRerunFormReusesTheWindFile(t *testing.T) {
	t.Parallel()
	je, tb := newTurbineRunEnv(t)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("turbine_id", tb.ID)
	mw.WriteField("name", "Gusty")
	mw.WriteField("tags", "wind-file, rerun")
	mw.WriteField("settings", `{"t_max":1}`)
	fw, _ := mw.CreateFormFile("wind_file", "steady9.wnd")
	fw.Write([]byte("! 9 m/s\n0.0 9.0 0 0 0 0 0 0\n10.0 9.0 0 0 0 0 0 0\n"))
	mw.Close()
	h := je.keyed("Content-Type", mw.FormDataContentType())
	resp, b := je.do(nil, request{method: "POST", path: "/jobs", body: body.String(), header: h})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("wind upload run: %d %s", resp.StatusCode, b)
	}
	first := decodeInto[turbinesim.Job](t, b)
	if first.Name != "Gusty" || strings.Join(first.Tags, ",") != "wind-file,rerun" || first.Setup == nil ||
		first.Setup.Wind.Kind != "file" || first.Setup.Wind.File != "steady9.wnd" {
		t.Fatalf("first run: %s", b)
	}
	html := map[string]string{"X-API-Key": je.key, "Accept": "text/html"}
	resp, page := je.do(nil, request{method: "GET", path: "/jobs/new?from=" + first.ID, header: html})
	m := regexp.MustCompile(`name="wind_path" value="([^"]+)"`).FindStringSubmatch(page)
	if resp.StatusCode != http.StatusOK || m == nil || !strings.Contains(page, `value="`+first.ID+`"`) {
		t.Fatalf("re-run form %d without the wind file", resp.StatusCode)
	}
	resp, b = je.do(nil, request{method: "POST", path: "/jobs", header: je.keyed("Content-Type", "application/json"),
		body: `{"turbine_id":"` + tb.ID + `","settings":{"t_max":2,"wind":{"file":{"job_id":"` + first.ID + `","path":"` + m[1] + `"}}}}`})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("re-run with the form's wind file %q: %d %s", m[1], resp.StatusCode, b)
	}
	if j := decodeInto[turbinesim.Job](t, b); j.Setup == nil || j.Setup.Wind.Kind != "file" || j.Name != "NREL 5MW copy · wind file steady9.wnd" {
		t.Fatalf("re-run: %s", b)
	}
}
