package handlers_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/handlers"
)

// absolutePath finds what looks like a file-system path of a Unix server
// in a detail: a slash-rooted path under one of the usual top folders.
var absolutePath = regexp.MustCompile(`(^|[\s"'(=:])/(tmp|home|root|var|work|usr|etc|proc|dev|srv|opt|mnt|run|data)(/|\b)`)

// No error detail carries a file-system path of the server: many failing
// requests (bad decks in job and turbine uploads: a missing referenced
// file, a reference out of the deck, a malformed value, a file that is
// no ZIP, a missing entrypoint; bad wind files and wind references; bad
// and unknown ids; bad batch requests) are refused with a detail that
// names the user's file and line, never the server's folders (the test's
// temporary folders, which hold the blob store and the request scratch
// folders, the system temporary directory, or any absolute path).
func TestNoErrorDetailCarriesAServerPath(t *testing.T) {
	t.Parallel()
	be := newBatchAPIEnv(t, false)
	jsonHeader := be.verified
	formHeader := func(ct string) map[string]string {
		return map[string]string{"Authorization": be.verified["Authorization"], "Accept": "application/json", "Content-Type": ct}
	}
	multipartBody := func(file string, content []byte, fields map[string]string) (string, string) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		for k, v := range fields {
			mw.WriteField(k, v)
		}
		if file != "" {
			fw, _ := mw.CreateFormFile(file, "upload.zip")
			fw.Write(content)
		}
		mw.Close()
		return body.String(), mw.FormDataContentType()
	}
	replace := func(old, new string) func(string, []byte) []byte {
		return func(name string, b []byte) []byte {
			return bytes.Replace(b, []byte(old), []byte(new), 1)
		}
	}
	badDecks := map[string][]byte{
		"missing ElastoDyn":     deckZip(t, "1", replace(`"onshore/ElastoDyn.dat"`, `"onshore/Missing_ElastoDyn.dat"`)),
		"reference out of deck": deckZip(t, "1", replace(`"onshore/AeroDyn.dat"`, `"../../../../../etc/passwd"`)),
		"missing tower file":    deckZip(t, "1", replace(`"../5MW_Baseline/NRELOffshrBsline5MW_Onshore_ElastoDyn_Tower.dat"`, `"../5MW_Baseline/NoTower.dat"`)),
		"malformed TMax":        deckZip(t, "abc", nil),
		"malformed blade file": deckZip(t, "1", func(name string, b []byte) []byte {
			if strings.HasSuffix(name, "Blade.dat") {
				return b[:len(b)/3]
			}
			return b
		}),
		"not a zip": []byte("this is not a zip archive"),
		"empty":     {},
	}
	type call struct {
		what, method, path, body string
		header                   map[string]string
	}
	var calls []call
	for name, z := range badDecks {
		body, ct := multipartBody("file", z, map[string]string{"entrypoint": "Main_Onshore.fst"})
		calls = append(calls, call{"job upload, " + name, "POST", "/jobs", body, formHeader(ct)})
		body, ct = multipartBody(handlers.UploadFormField, z, map[string]string{"name": "bad " + name})
		calls = append(calls, call{"turbine upload, " + name, "POST", "/turbines/from-upload", body, formHeader(ct)})
	}
	good := deckZip(t, "1", nil)
	for _, entry := range []string{"", "Missing.fst", "../Main_Onshore.fst", "/tmp/Main_Onshore.fst", "onshore/ElastoDyn.dat"} {
		body, ct := multipartBody("file", good, map[string]string{"entrypoint": entry})
		calls = append(calls, call{"job upload, entrypoint " + entry, "POST", "/jobs", body, formHeader(ct)})
	}
	for _, wind := range []string{"hello wind\n", "", "0 8 0 0 0 0 0 0\n"} {
		settings, _ := json.Marshal(map[string]any{"t_max": 20, "wind": map[string]any{}})
		body, ct := multipartBody("", nil, map[string]string{"turbine_id": be.turbineID, "settings": string(settings)})
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		mw.WriteField("turbine_id", be.turbineID)
		mw.WriteField("settings", string(settings))
		fw, _ := mw.CreateFormFile("wind_file", "wind.bts")
		fw.Write([]byte(wind))
		mw.Close()
		body, ct = b.String(), mw.FormDataContentType()
		calls = append(calls, call{"wind upload " + wind, "POST", "/jobs", body, formHeader(ct)})
	}
	for _, ref := range []string{`{"job_id":"00000000-0000-4000-8000-000000000000","path":"Wind/x.bts"}`, `{"job_id":"nope","path":"../../etc/passwd"}`} {
		calls = append(calls, call{"wind reference " + ref, "POST", "/jobs",
			`{"turbine_id":"` + be.turbineID + `","settings":{"t_max":5,"wind":{"file":` + ref + `}}}`, jsonHeader})
	}
	for _, id := range []string{"not-an-id", "00000000-0000-4000-8000-000000000000", "../../etc/passwd"} {
		for _, p := range []string{"/jobs/" + id, "/turbines/" + id, "/batches/" + id, "/analysis/jobs/" + id + "/channels",
			"/jobs/" + id + "/outputs/..%2F..%2Fetc%2Fpasswd", "/turbines/" + id + "/detailed-properties", "/turbines/" + id + "/airfoil-polar/3"} {
			calls = append(calls, call{"GET " + p, "GET", p, "", jsonHeader})
		}
	}
	calls = append(calls,
		call{"DLC batch, unknown turbine", "POST", "/dlcs/batch-submit", reducedDLC12("00000000-0000-4000-8000-000000000000", 10), jsonHeader},
		call{"DLC batch, bad DLC", "POST", "/dlcs/batch-submit", `{"turbine_id":"` + be.turbineID + `","dlcs":["9.9"],"class":"I","category":"B"}`, jsonHeader},
		call{"sweep, bad parameter", "POST", "/parametric/batch-submit", `{"turbine_id":"` + be.turbineID + `","t_max":5,"parameters":[{"name":"rotor_colour","values":[1,2]}]}`, jsonHeader},
		call{"sweep, impossible value", "POST", "/parametric/batch-submit", `{"turbine_id":"` + be.turbineID + `","t_max":5,"parameters":[{"name":"wind_speed","values":[-5]}]}`, jsonHeader},
		call{"run, bad dt", "POST", "/jobs", `{"turbine_id":"` + be.turbineID + `","settings":{"t_max":5,"dt":3,"wind":{"speed":8}}}`, jsonHeader},
	)

	private := []string{os.TempDir(), t.TempDir(), filepath.Dir(t.TempDir())}
	if real, err := filepath.EvalSymlinks(os.TempDir()); err == nil {
		private = append(private, real)
	}
	refused := 0
	for _, c := range calls {
		resp, body := be.do(nil, request{method: c.method, path: c.path, body: c.body, header: c.header})
		if resp.StatusCode < 400 {
			t.Errorf("%s: %d, want an error", c.what, resp.StatusCode)
			continue
		}
		var e struct{ Detail *string }
		if err := json.Unmarshal([]byte(body), &e); err != nil || e.Detail == nil {
			t.Errorf("%s: %d body %.200q is not {\"detail\"}", c.what, resp.StatusCode, body)
			continue
		}
		refused++
		d := *e.Detail
		t.Logf("%s: %d %s", c.what, resp.StatusCode, d)
		for _, dir := range private {
			if strings.Contains(d, dir) {
				t.Errorf("%s: detail %q contains the server folder %s", c.what, d, dir)
			}
		}
		if m := absolutePath.FindString(d); m != "" {
			t.Errorf("%s: detail %q contains an absolute path (%q)", c.what, d, m)
		}
	}
	if refused < 50 {
		t.Fatalf("only %d requests were refused with a detail", refused)
	}
}
