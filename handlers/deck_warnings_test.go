package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/infra/blobstore"
	"github.com/turbinesim/turbinesim/internal/testshared"
)

// The edit that makes the NREL 5 MW land deck suspicious but runnable: the
// first tower fore-aft mode's x^2 coefficient 0.7004 -> 0.8004, so the
// coefficients add up to 1.1 instead of 1 (deck.Validate warns; OpenFAST
// would run). The reference tower file holds it on line 32.
const (
	warnTowerFile = "5MW_Baseline/NRELOffshrBsline5MW_Onshore_ElastoDyn_Tower.dat"
	warnTowerLine = "     0.7004   TwFAM1Sh(2) - Mode 1, coefficient of x^2 term"
	// The warning as the engineer must read it: file relative to the
	// deck's root, line, variable, message.
	wantWarning = warnTowerFile + ":32: TwFAM1Sh(2): mode-shape coefficients of TwFAM1Sh add up to 1.1, expected 1"
)

// scaleTowerMode applies the edit to the tower file of the NREL 5 MW land
// deck (b is the file's content; other files pass through).
func scaleTowerMode(t *testing.T, rel string, b []byte) []byte {
	t.Helper()
	if rel != warnTowerFile {
		return b
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 32 || strings.TrimRight(lines[31], "\r") != warnTowerLine {
		t.Fatalf("line 32 of %s is %q, expected %q", rel, lines[31], warnTowerLine)
	}
	lines[31] = strings.Replace(lines[31], "0.7004", "0.8004", 1)
	return []byte(strings.Join(lines, "\n"))
}

// editedDeckDir copies the shared NREL 5 MW land deck to a temporary
// folder, with the tower edit when suspicious, and returns the folder.
func editedDeckDir(t *testing.T, suspicious bool) string {
	t.Helper()
	src := filepath.Dir(testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"))
	dir := filepath.Join(t.TempDir(), "deck")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if suspicious {
		p := filepath.Join(dir, filepath.FromSlash(warnTowerFile))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, scaleTowerMode(t, warnTowerFile, b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// assertOneWarning checks that warnings is exactly the tower-mode warning.
func assertOneWarning(t *testing.T, what string, warnings []string) {
	t.Helper()
	if !slices.Equal(warnings, []string{wantWarning}) {
		t.Fatalf("%s: warnings %q, want exactly [%q]", what, warnings, wantWarning)
	}
}

// assertNoWarnings checks that a clean deck's response says nothing.
func assertNoWarnings(t *testing.T, what string, warnings []string) {
	t.Helper()
	if len(warnings) != 0 {
		t.Fatalf("%s: warnings %q for the unedited reference deck, want none", what, warnings)
	}
}

// warningsEnv is a job environment (no worker: jobs stay queued) whose
// server also runs stored turbines and batches, with two turbines of the
// shared NREL 5 MW land deck: clean and with the tower edit.
type warningsEnv struct {
	*jobEnv
	clean, suspicious *turbinesim.Turbine
	html              map[string]string // a browser's headers
}

func newWarningsEnv(t *testing.T) *warningsEnv {
	t.Helper()
	je := newJobEnvWorkers(t, 0)
	ctx := context.Background()
	trees, err := blobstore.NewLocal(filepath.Join(t.TempDir(), "turbines"))
	if err != nil {
		t.Fatal(err)
	}
	turbines := db.NewTurbineService(je.db, trees, decks.Editor{})
	we := &warningsEnv{jobEnv: je}
	for _, suspicious := range []bool{false, true} {
		main := "Main_Onshore.fst"
		tb := &turbinesim.Turbine{OrganizationID: je.org.ID, Name: "NREL 5MW clean", MainFile: &main,
			TurbineParams: turbinesim.TurbineParams{CutInWindSpeedMS: float(3), RatedWindSpeedMS: float(11.4), CutOutWindSpeedMS: float(25)}}
		if suspicious {
			tb.Name = "NREL 5MW tower edited"
		}
		if err := turbines.CreateTurbine(ctx, tb, editedDeckDir(t, suspicious)); err != nil {
			t.Fatal(err)
		}
		if suspicious {
			we.suspicious = tb
		} else {
			we.clean = tb
		}
	}
	cfg, svc := je.config(je.db)
	cfg.BodyLimit = 32 << 20
	keys := db.NewAPIKeyService(je.db)
	svc.APIKeys, svc.Audit, svc.Caps = keys, keys, je.caps
	svc.Jobs, svc.Turbines, svc.Batches = je.jobs, turbines, db.NewBatchService(je.jobs)
	srv, err := newServer(cfg, svc)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	je.http = ts
	we.html = map[string]string{"Authorization": "Bearer " + je.loginJSON().AccessToken, "Accept": "text/html"}
	return we
}

// page fetches a browser page and returns its HTML.
func (we *warningsEnv) page(path string) string {
	we.t.Helper()
	resp, body := we.do(nil, request{method: "GET", path: path, header: we.html})
	if resp.StatusCode != http.StatusOK {
		we.t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
	}
	return body
}

// assertPageWarning checks that the page shows the tower-mode warning in
// its warnings section (id), and the clean page has no such section.
func assertPageWarning(t *testing.T, what, body, section string, want bool) {
	t.Helper()
	has := strings.Contains(body, `id="`+section+`"`)
	if !want {
		if has || strings.Contains(body, "mode-shape coefficients") {
			t.Fatalf("%s: the page of the unedited deck shows warnings", what)
		}
		return
	}
	if !has {
		t.Fatalf("%s: page lacks the %s section", what, section)
	}
	rest := body[strings.Index(body, `id="`+section+`"`):]
	if !strings.Contains(rest, "<li") || !strings.Contains(rest, html.EscapeString(wantWarning)+"</li>") {
		t.Fatalf("%s: the %s section lacks the item %q", what, section, wantWarning)
	}
}

// A job's deck warnings: an uploaded ZIP and a stored turbine's deck with
// the tower edit give exactly that warning (file relative to the deck's
// root, line 32, TwFAM1Sh(2)) in the POST response, in GET /jobs/{id}
// (stored with the job) and on the job page; the unedited deck gives none.
func TestDeckWarningsOfJobs(t *testing.T) {
	t.Parallel()
	we := newWarningsEnv(t)
	zipOf := func(suspicious bool) []byte {
		return deckZip(t, "0.1", func(name string, b []byte) []byte {
			if suspicious {
				return scaleTowerMode(t, name, b)
			}
			return b
		})
	}
	postTurbineRun := func(id string) (*http.Response, string) {
		return we.do(nil, request{method: "POST", path: "/jobs",
			body:   `{"turbine_id":"` + id + `","settings":{"t_max":0.1,"wind":{"speed":8}}}`,
			header: we.keyed("Content-Type", "application/json")})
	}
	for _, c := range []struct {
		name       string
		suspicious bool
		submit     func() (*http.Response, string)
	}{
		{"zip, edited", true, func() (*http.Response, string) { return we.submitZip(zipOf(true), "Main_Onshore.fst", we.keyed()) }},
		{"zip, clean", false, func() (*http.Response, string) { return we.submitZip(zipOf(false), "Main_Onshore.fst", we.keyed()) }},
		{"stored turbine, edited", true, func() (*http.Response, string) { return postTurbineRun(we.suspicious.ID) }},
		{"stored turbine, clean", false, func() (*http.Response, string) { return postTurbineRun(we.clean.ID) }},
	} {
		resp, body := c.submit()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("%s: submit: %d %s", c.name, resp.StatusCode, body)
		}
		// Always a list, empty rather than null.
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(body), &raw); err != nil {
			t.Fatal(err)
		}
		if w := string(raw["warnings"]); !c.suspicious && w != "[]" {
			t.Fatalf("%s: warnings %s in the response, want []", c.name, w)
		}
		job := decodeInto[turbinesim.Job](t, body)
		resp, got := we.do(nil, request{method: "GET", path: "/jobs/" + job.ID, header: we.keyed()})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: GET job: %d %s", c.name, resp.StatusCode, got)
		}
		stored := decodeInto[turbinesim.Job](t, got)
		if !slices.Equal(stored.Warnings, job.Warnings) {
			t.Fatalf("%s: GET /jobs/{id} warnings %q, the submission said %q", c.name, stored.Warnings, job.Warnings)
		}
		if c.suspicious {
			assertOneWarning(t, c.name, job.Warnings)
		} else {
			assertNoWarnings(t, c.name, job.Warnings)
		}
		assertPageWarning(t, c.name, we.page("/jobs/"+job.ID), "job-warnings", c.suspicious)
	}
}

// A turbine's deck warnings: the upload of the edited deck returns exactly
// the warning, and so do GET /turbines/{id} and a clone; the turbine page
// shows it; the unedited deck has none anywhere.
func TestDeckWarningsOfTurbines(t *testing.T) {
	t.Parallel()
	we := newWarningsEnv(t)
	upload := func(archive []byte, name string) (*http.Response, string) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		mw.WriteField("name", name)
		fw, _ := mw.CreateFormFile(handlers.UploadFormField, "deck.zip")
		fw.Write(archive)
		mw.Close()
		return we.do(nil, request{method: "POST", path: "/turbines/from-upload", body: body.String(),
			header: we.keyed("Content-Type", mw.FormDataContentType())})
	}
	for _, suspicious := range []bool{true, false} {
		name := "clean"
		if suspicious {
			name = "edited"
		}
		check := func(what string, warnings []string) {
			t.Helper()
			if suspicious {
				assertOneWarning(t, name+": "+what, warnings)
			} else {
				assertNoWarnings(t, name+": "+what, warnings)
			}
		}
		resp, body := upload(zipDir(t, editedDeckDir(t, suspicious), nil), "upload "+name)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("%s: upload: %d %s", name, resp.StatusCode, body)
		}
		up := decodeInto[turbinesim.Turbine](t, body)
		check("upload response", up.Warnings)

		stored := we.clean
		if suspicious {
			stored = we.suspicious
		}
		for _, id := range []string{up.ID, stored.ID} {
			resp, body = we.do(nil, request{method: "GET", path: "/turbines/" + id, header: we.keyed()})
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: GET turbine: %d %s", name, resp.StatusCode, body)
			}
			check("GET /turbines/{id}", decodeInto[turbinesim.Turbine](t, body).Warnings)
			assertPageWarning(t, name+": turbine page", we.page("/turbines/"+id), "turbine-warnings", suspicious)
		}

		resp, body = we.do(nil, request{method: "POST", path: "/turbines/" + stored.ID + "/clone", header: we.keyed()})
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("%s: clone: %d %s", name, resp.StatusCode, body)
		}
		check("clone response", decodeInto[turbinesim.Turbine](t, body).Warnings)
	}
}

// A batch of a turbine's deck (DLC and parametric) says the deck's
// warnings once, in the submission's response; none for the clean deck.
func TestDeckWarningsOfBatches(t *testing.T) {
	t.Parallel()
	we := newWarningsEnv(t)
	for _, tb := range []*turbinesim.Turbine{we.suspicious, we.clean} {
		suspicious := tb == we.suspicious
		sweep, _ := json.Marshal(map[string]any{"turbine_id": tb.ID, "t_max": 1,
			"parameters": []map[string]any{{"name": "wind_speed", "values": []float64{8, 10}}}})
		for _, c := range []struct{ path, body string }{
			{"/dlcs/batch-submit", reducedDLC12(tb.ID, 2)},
			{"/parametric/batch-submit", string(sweep)},
		} {
			what := tb.Name + " " + c.path
			resp, body := we.do(nil, request{method: "POST", path: c.path, body: c.body,
				header: we.keyed("Content-Type", "application/json")})
			if resp.StatusCode != http.StatusCreated {
				t.Fatalf("%s: %d %s", what, resp.StatusCode, body)
			}
			b := decodeInto[turbinesim.Batch](t, body)
			if b.RunCount < 2 {
				t.Fatalf("%s: %d runs", what, b.RunCount)
			}
			if suspicious {
				assertOneWarning(t, what, b.Warnings)
			} else {
				assertNoWarnings(t, what, b.Warnings)
			}
		}
	}
}

// The DLC wizard's preview says the deck's warnings before the batch is
// paid for: POST /dlcs/preview answers them in warnings (JSON) and shows
// them in the fragment's warnings section; none for the clean deck.
// Before, the preview answered only the basis and the price, and the
// warnings came with the submission.
func TestDeckWarningsOfTheDLCPreview(t *testing.T) {
	t.Parallel()
	we := newWarningsEnv(t)
	for _, tb := range []*turbinesim.Turbine{we.suspicious, we.clean} {
		suspicious := tb == we.suspicious
		what := tb.Name + " preview"
		resp, body := we.do(nil, request{method: "POST", path: "/dlcs/preview", body: reducedDLC12(tb.ID, 2),
			header: we.keyed("Content-Type", "application/json")})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", what, resp.StatusCode, body)
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(body), &raw); err != nil || raw["warnings"] == nil {
			t.Fatalf("%s: no warnings field in %s", what, body)
		}
		pv := decodeInto[handlers.DLCPreview](t, body)
		if suspicious {
			assertOneWarning(t, what, pv.Warnings)
		} else {
			assertNoWarnings(t, what, pv.Warnings)
		}
		h := map[string]string{"Authorization": we.html["Authorization"], "Content-Type": "application/json", "Accept": "text/html", "HX-Request": "true"}
		resp, frag := we.do(nil, request{method: "POST", path: "/dlcs/preview", body: reducedDLC12(tb.ID, 2), header: h})
		if resp.StatusCode != http.StatusOK || !strings.Contains(frag, `id="dlc-quote"`) {
			t.Fatalf("%s fragment: %d %s", what, resp.StatusCode, frag)
		}
		assertPageWarning(t, what+" fragment", frag, "dlc-preview-warnings", suspicious)
	}
}
