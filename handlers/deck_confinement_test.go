package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// deckReference is one kind of file reference of the NREL 5 MW land deck,
// with the edits that make the reference used.
type deckReference struct {
	file, variable string
	also           map[string]string // other variables of the same file to set
}

var deckReferenceKinds = []deckReference{
	{file: "Main_Onshore.fst", variable: "EDFile"},
	{file: "Main_Onshore.fst", variable: "InflowFile"},
	{file: "Main_Onshore.fst", variable: "AeroFile"},
	{file: "Main_Onshore.fst", variable: "ServoFile"},
	{file: "onshore/ElastoDyn.dat", variable: "BldFile(1)"},
	{file: "onshore/ElastoDyn.dat", variable: "TwrFile"},
	{file: "onshore/AeroDyn.dat", variable: "AFNames"},
	{file: "onshore/AeroDyn.dat", variable: "ADBlFile(1)"},
	{file: "5MW_Baseline/NRELOffshrBsline5MW_InflowWind_Steady8mps.dat", variable: "Filename_Uni", also: map[string]string{"WindType": "2"}},
	{file: "5MW_Baseline/NRELOffshrBsline5MW_InflowWind_Steady8mps.dat", variable: "FileName_BTS", also: map[string]string{"WindType": "3"}},
	{file: "onshore/ServoDyn_Simple.dat", variable: "DLL_InFile", also: map[string]string{"PCMode": "5", "VSContrl": "5", "DLL_FileName": `"DISCON.dll"`}},
}

// postDeck posts a ZIP deck as multipart form data with a client that gives
// up after 30 s: a server that opened a FIFO would hang, and that must fail
// the test, not stall the suite.
func postDeck(t *testing.T, url, auth string, archive []byte, fields map[string]string) (int, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("file", "deck.zip")
	fw.Write(archive)
	mw.Close()
	req, err := http.NewRequest("POST", url, &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	k, v, _ := strings.Cut(auth, ": ")
	req.Header.Set(k, v)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v (a file outside the deck blocked the request?)", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Every file reference a deck can hold, pointed outside the uploaded files
// (absolute, '..', a FIFO, /dev/zero, /proc/self/environ), is refused with
// 422 naming the file, line and variable, on the turbine upload and on the
// job submission; nothing outside the deck is opened (inotify watch), no
// server path or file content is shown, nothing is stored or charged.
func TestDeckReferencesNeverLeaveTheUpload(t *testing.T) {
	out := testshared.NewOutsideDir(t)
	attacks := map[string]string{
		"absolute path": out.Secret,
		"dot-dot":       "../../../../../../../../../.." + out.Secret,
		"FIFO":          out.FIFO,
		"/dev/zero":     "/dev/zero",
		"/proc":         "/proc/self/environ",
	}
	te := newTurbineEnv(t, fakeDemos{})
	je := newJobEnv(t)
	ctx := context.Background()
	for _, ref := range deckReferenceKinds {
		for name, value := range attacks {
			archive := deckZip(t, "2", func(file string, b []byte) []byte {
				if file != ref.file {
					return b
				}
				for k, v := range ref.also {
					var ok bool
					if b, ok = testshared.SetValue(b, k, v); !ok {
						t.Fatalf("%s has no %s line", file, k)
					}
				}
				b, ok := testshared.SetValue(b, ref.variable, `"`+value+`"`)
				if !ok {
					t.Fatalf("%s has no %s line", file, ref.variable)
				}
				return b
			})
			what := fmt.Sprintf("%s %s = %s", ref.file, ref.variable, name)
			for _, target := range []struct{ endpoint, url, auth string }{
				{"upload", te.http.URL + "/turbines/from-upload", "Authorization: Bearer " + te.verified},
				{"job", je.http.URL + "/jobs", "X-API-Key: " + je.key},
			} {
				status, body := postDeck(t, target.url, target.auth, archive, map[string]string{"entrypoint": "Main_Onshore.fst"})
				out.AssertUntouched(t, target.endpoint+" "+what)
				if status != http.StatusUnprocessableEntity {
					t.Errorf("%s %s: status %d, want 422: %s", target.endpoint, what, status, body)
					continue
				}
				variable, _, _ := strings.Cut(ref.variable, "(") // BldFile(1) may be named BldFile with "blade 1"
				if !strings.Contains(body, ref.file+":") || !strings.Contains(strings.ToLower(body), strings.ToLower(variable)) {
					t.Errorf("%s %s: detail does not name the file, line and variable: %s", target.endpoint, what, body)
				}
				for _, leak := range []string{out.Dir, "/tmp/", "/proc", "/dev/", strings.TrimSpace(testshared.SecretContent), "PATH="} {
					if strings.Contains(body, leak) {
						t.Errorf("%s %s: detail shows %q: %s", target.endpoint, what, leak, body)
					}
				}
			}
		}
	}
	if trees, rows, scratch := te.leftovers(); trees != 0 || rows != 0 || scratch != 0 {
		t.Errorf("refused uploads left %d trees, %d turbines, %d scratch folders", trees, rows, scratch)
	}
	var jobs int
	if err := je.db.GetContext(ctx, &jobs, `SELECT count(*) FROM jobs`); err != nil {
		t.Fatal(err)
	}
	usage, err := je.caps.CurrentUsage(ctx, je.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	if jobs != 0 || usage.SpentCents != 0 {
		t.Errorf("refused submissions left %d jobs and charged %d cents", jobs, usage.SpentCents)
	}
}
