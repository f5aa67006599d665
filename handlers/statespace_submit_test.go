package handlers_test

import (
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// storeFloatingWith stores the bundled floating turbine with its HydroDyn
// file's variable set to value and extra files written beside its WAMIT
// files (name → content), and returns the turbine's id and the HydroDyn
// file's name.
func (be *batchAPIEnv) storeFloatingWith(variable, value string, extra map[string][]byte) (string, string) {
	t := be.t
	t.Helper()
	var hdName string
	id := be.storeDemoDir("iea-15mw-volturnus", "floating "+variable, func(dir, _ string) {
		var hd, wamit string
		filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, "HydroDyn.dat") {
				hd = p
			}
			if err == nil && strings.HasSuffix(p, ".hst") {
				wamit = filepath.Dir(p)
			}
			return nil
		})
		if hd == "" || wamit == "" {
			t.Fatal("the floating demo has no HydroDyn file or WAMIT files")
		}
		b, err := os.ReadFile(hd)
		if err != nil {
			t.Fatal(err)
		}
		b, ok := testshared.SetValue(b, variable, value)
		if !ok {
			t.Fatalf("no %s line in %s", variable, filepath.Base(hd))
		}
		if err := os.WriteFile(hd, b, 0o644); err != nil {
			t.Fatal(err)
		}
		for name, content := range extra {
			if err := os.WriteFile(filepath.Join(wamit, name), content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		hdName = filepath.Base(hd)
	})
	return id, hdName
}

// A floating deck asking for state-space radiation (RdtnMod 2) without
// the .ss file beside its WAMIT files, or with a malformed one, is refused
// at submission (422 naming the HydroDyn file, the PotFile line and what
// is wrong, never a server path) and charges nothing.
func TestStateSpaceRadiationFileRefusedAtSubmission(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		extra map[string][]byte
		want  []string
	}{
		{"missing", nil, []string{"PotFile", ".ss", "not found"}},
		{"malformed", map[string][]byte{"IEA-15-240-RWT-UMaineSemi.ss": []byte("SS_Fitting\n1 1 1 1 1 1\n60\n14 14 6 10 10 6\n1 2 3\n")}, []string{"PotFile", "IEA-15-240-RWT-UMaineSemi.ss:5: row 1 of A: 3 values, want 60"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			be := newBatchAPIEnv(t, false)
			id, hd := be.storeFloatingWith("RdtnMod", "2", c.extra)
			resp, body := be.do(nil, request{method: "POST", path: "/jobs", header: be.verified,
				body: `{"turbine_id":"` + id + `","settings":{"t_max":1,"wind":{"speed":8}}}`})
			d := assertDetail(t, resp, body, http.StatusUnprocessableEntity)
			t.Logf("detail: %s", d)
			for _, w := range append(c.want, hd) {
				if !strings.Contains(d, w) {
					t.Errorf("detail %q does not say %q", d, w)
				}
			}
			if strings.Contains(d, os.TempDir()) || strings.Contains(d, "/work/") {
				t.Errorf("detail %q shows a server path", d)
			}
			be.assertNothingCharged("a deck whose .ss file is " + c.name)
		})
	}
	t.Run("published fit", func(t *testing.T) {
		ss, err := os.ReadFile(testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-UMaineSemi", "HydroData", "IEA-15-240-RWT-UMaineSemi.ss"))
		if err != nil {
			t.Fatal(err)
		}
		be := newBatchAPIEnv(t, false)
		id, _ := be.storeFloatingWith("RdtnMod", "2", map[string][]byte{"IEA-15-240-RWT-UMaineSemi.ss": ss})
		resp, body := be.do(nil, request{method: "POST", path: "/jobs", header: be.verified,
			body: `{"turbine_id":"` + id + `","settings":{"t_max":1,"wind":{"speed":8}}}`})
		if resp.StatusCode >= 300 {
			t.Fatalf("RdtnMod 2 with the published .ss: %d %s", resp.StatusCode, body)
		}
	})
}
