package handlers_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// zipDir zips the tree at root (names relative to root); edit may replace
// a file's content (return nil to leave the file out).
func zipDir(t *testing.T, root string, edit func(rel string, b []byte) []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if edit != nil {
			if b = edit(rel, b); b == nil {
				return nil
			}
		}
		w, err := zw.Create(rel)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// upload posts a ZIP to /turbines/from-upload with extra form fields.
func (te *turbineEnv) upload(token string, archive []byte, fields map[string]string) (*http.Response, string) {
	te.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		if err := mw.WriteField(k, v); err != nil {
			te.t.Fatal(err)
		}
	}
	fw, err := mw.CreateFormFile(handlers.UploadFormField, "deck.zip")
	if err != nil {
		te.t.Fatal(err)
	}
	if _, err := fw.Write(archive); err != nil {
		te.t.Fatal(err)
	}
	mw.Close()
	req, err := http.NewRequest("POST", te.http.URL+"/turbines/from-upload", &body)
	if err != nil {
		te.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		te.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// leftovers counts what a refused upload could leave behind: stored trees,
// turbine rows and scratch folders.
func (te *turbineEnv) leftovers() (trees, rows, scratch int) {
	te.t.Helper()
	trees = te.treeCount()
	if err := te.db.GetContext(context.Background(), &rows, `SELECT count(*) FROM turbines`); err != nil {
		te.t.Fatal(err)
	}
	ents, err := os.ReadDir(te.scratch)
	if err != nil {
		te.t.Fatal(err)
	}
	scratch = len(ents)
	return
}

var fileLine = regexp.MustCompile(`[A-Za-z0-9_./()+ -]+\.[A-Za-z0-9]+:\d+`)

// TestTurbineUploadReferenceDecks uploads a ZIP of each published deck. A
// deck either becomes a configuration whose detailed properties read back,
// or is refused with 422 naming every defect by file and line.
func TestTurbineUploadReferenceDecks(t *testing.T) {
	deckRoot := testshared.Path(t, "reference-decks")
	te := newTurbineEnv(t, fakeDemos{})
	cases := []struct {
		family, entrypoint string
		// knownDefect is a defect of the published files that must be
		// named ("" when the deck is expected to be accepted).
		knownDefect string
	}{
		{"NREL-5MW-Land", "", ""},
		{"IEA-15-240-RWT", "IEA-15-240-RWT-Monopile/IEA-15-240-RWT-Monopile.fst", ""},
		{"IEA-15-240-RWT", "IEA-15-240-RWT-UMaineSemi/IEA-15-240-RWT-UMaineSemi.fst", ""},
		{"IEA-22-280-RWT", "IEA-22-280-RWT-Monopile/IEA-22-280-RWT-Monopile.fst", "IEA-22-280-RWT_AeroDyn15.dat:6"},
		{"IEA-22-280-RWT", "IEA-22-280-RWT-Semi/IEA-22-280-RWT-Semi.fst", "IEA-22-280-RWT-Semi_AeroDyn15.dat:6"},
	}
	for i, c := range cases {
		archive := zipDir(t, filepath.Join(deckRoot, c.family), nil)
		fields := map[string]string{"name": "upload " + string(rune('A'+i))}
		if c.entrypoint != "" {
			fields["entrypoint"] = c.entrypoint
		}
		resp, body := te.upload(te.verified, archive, fields)
		switch resp.StatusCode {
		case http.StatusCreated:
			if c.knownDefect != "" {
				t.Errorf("%s: accepted although %s is defective", c.entrypoint, c.knownDefect)
			}
			tb := decodeInto[turbinesim.Turbine](t, body)
			if tb.RotorDiameterM == nil || tb.HubHeightM == nil || tb.MainFile == nil {
				t.Errorf("%s %s: scalar parameters not extracted: %s", c.family, c.entrypoint, body)
			}
			r2, b2 := te.call(te.verified, "GET", "/turbines/"+tb.ID+"/detailed-properties", "")
			if r2.StatusCode != 200 || len(decodeInto[decks.DetailedProperties](t, b2).Blade.BlChord) == 0 {
				t.Errorf("%s: detailed properties of the upload: %d %.300s", c.family, r2.StatusCode, b2)
			}
			// The Bladed-interface controller is pinned to the built-in one.
			mainPath, release, err := dbtest.OpenDeck(context.Background(), te.turbines, te.org.ID, tb.ID)
			if err != nil {
				t.Fatal(err)
			}
			d, err := deck.Load(mainPath)
			release()
			if err != nil {
				t.Fatal(err)
			}
			if sd := d.ServoDyn; sd != nil && sd.UsesDLL() && sd.DLL_FileName != "librosco.so" && sd.DLL_FileName != "libdiscon.so" {
				t.Errorf("%s: DLL_FileName %q not rewritten", c.entrypoint, sd.DLL_FileName)
			} else if sd != nil && sd.UsesDLL() && strings.HasPrefix(c.family, "IEA") && sd.DLL_FileName != "librosco.so" {
				t.Errorf("%s: ROSCO deck got %q", c.entrypoint, sd.DLL_FileName)
			}
			t.Logf("%s %s: created, main file %s, rotor %.1f m, hub %.1f m", c.family, c.entrypoint, *tb.MainFile, *tb.RotorDiameterM, *tb.HubHeightM)
		case http.StatusUnprocessableEntity:
			d := assertDetail(t, resp, body, 422)
			t.Logf("%s %s: refused: %s", c.family, c.entrypoint, d)
			_, list, _ := strings.Cut(d, "): ")
			for _, defect := range strings.Split(list, "; ") {
				if !fileLine.MatchString(defect) && !strings.Contains(defect, ".fst") && !strings.Contains(defect, ".dat") {
					t.Errorf("defect without a file: %q", defect)
				}
			}
			if c.knownDefect == "" {
				t.Errorf("%s %s: refused unexpectedly", c.family, c.entrypoint)
			} else if !strings.Contains(d, c.knownDefect) {
				t.Errorf("%s: detail does not name %s", c.entrypoint, c.knownDefect)
			}
		default:
			t.Fatalf("%s: %d %s", c.family, resp.StatusCode, body)
		}
	}
	// Several .fst files and no entrypoint: 422 listing the candidates.
	resp, body := te.upload(te.verified, zipDir(t, filepath.Join(deckRoot, "IEA-15-240-RWT"), nil), nil)
	if d := assertDetail(t, resp, body, 422); !strings.Contains(d, "entrypoint") || !strings.Contains(d, "IEA-15-240-RWT-UMaineSemi/IEA-15-240-RWT-UMaineSemi.fst") {
		t.Fatalf("ambiguous main file: %q", d)
	}
	// Unverified accounts: 403; a taken name: 409.
	nrel := zipDir(t, filepath.Join(deckRoot, "NREL-5MW-Land"), nil)
	resp, body = te.upload(te.unverified, nrel, nil)
	assertDetail(t, resp, body, http.StatusForbidden)
	resp, body = te.upload(te.verified, nrel, map[string]string{"name": "upload A"})
	assertDetail(t, resp, body, http.StatusConflict)
}

// TestTurbineUploadDefectiveDecks: decks with defects the test puts in.
func TestTurbineUploadDefectiveDecks(t *testing.T) {
	root := testshared.Path(t, "reference-decks", "NREL-5MW-Land")
	te := newTurbineEnv(t, fakeDemos{})
	cases := map[string]struct {
		edit func(rel string, b []byte) []byte
		want []string
	}{
		"missing airfoil": {func(rel string, b []byte) []byte {
			if strings.HasSuffix(rel, "DU25_A17.dat") {
				return nil
			}
			return b
		}, []string{"onshore/AeroDyn.dat:", "DU25_A17.dat"}},
		"reference outside the upload": {func(rel string, b []byte) []byte {
			if rel == "Main_Onshore.fst" {
				return bytes.Replace(b, []byte(`"onshore/ElastoDyn.dat"`), []byte(`"/etc/passwd"`), 1)
			}
			return b
		}, []string{"Main_Onshore.fst:", "EDFile", "outside"}},
		"bad switch": {func(rel string, b []byte) []byte {
			if rel == "Main_Onshore.fst" {
				return regexp.MustCompile(`(?m)^\s*1\s+CompElast`).ReplaceAll(b, []byte("   7   CompElast"))
			}
			return b
		}, []string{"Main_Onshore.fst:", "CompElast"}},
		// The baseline DISCON reads an existing DLL_InFile as a baseline
		// parameter file; a file that is not one is refused by its line.
		"baseline controller file that is not one": {func(rel string, b []byte) []byte {
			if rel == "onshore/ServoDyn_Simple.dat" {
				b = regexp.MustCompile(`(?m)^\s*0\s+PCMode`).ReplaceAll(b, []byte("   5   PCMode"))
				b = regexp.MustCompile(`(?m)^\s*1\s+VSContrl`).ReplaceAll(b, []byte("   5   VSContrl"))
				b = bytes.Replace(b, []byte(`"unused"      DLL_FileName`), []byte(`"DISCON.dll" DLL_FileName`), 1)
				b = bytes.Replace(b, []byte(`"unused"      DLL_InFile`), []byte(`"ElastoDyn.dat" DLL_InFile`), 1)
			}
			return b
		}, []string{"onshore/ServoDyn_Simple.dat:78: DLL_InFile:", "onshore/ElastoDyn.dat:1: unknown baseline controller parameter"}},
	}
	for name, c := range cases {
		resp, body := te.upload(te.verified, zipDir(t, root, c.edit), nil)
		d := assertDetail(t, resp, body, http.StatusUnprocessableEntity)
		for _, w := range c.want {
			if !strings.Contains(d, w) {
				t.Errorf("%s: detail %q does not contain %q", name, d, w)
			}
		}
	}
	if trees, rows, scratch := te.leftovers(); trees+rows+scratch != 0 {
		t.Fatalf("refused uploads left %d trees, %d rows, %d scratch folders", trees, rows, scratch)
	}
}

// rawZip builds an archive entry by entry with full control of headers.
type rawEntry struct {
	name string
	data []byte
	mode fs.FileMode // 0: regular file
	hdr  func(*zip.FileHeader)
}

func rawZip(t *testing.T, entries ...rawEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		if e.hdr != nil {
			e.hdr(h)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// lyingZip declares 10 bytes for an entry holding 1 MiB.
func lyingZip(t *testing.T) []byte {
	var comp bytes.Buffer
	fw, _ := flate.NewWriter(&comp, flate.BestCompression)
	fw.Write(bytes.Repeat([]byte("a"), 1<<20))
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "Main.fst", Method: zip.Deflate,
		CompressedSize64: uint64(comp.Len()), UncompressedSize64: 10, CRC32: 0})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(comp.Bytes())
	zw.Close()
	return buf.Bytes()
}

// TestTurbineUploadHostileArchives: traversal, links, bombs, too many or
// too large entries, executables. Every archive is
// refused with 422 and leaves nothing on disk or in the database.
func TestTurbineUploadHostileArchives(t *testing.T) {
	te := newTurbineEnv(t, fakeDemos{})
	fst := []byte("dummy")
	many := make([]rawEntry, 2001)
	for i := range many {
		many[i] = rawEntry{name: "f" + strings.Repeat("x", i%7) + "/" + string(rune('a'+i%26)) + strings.Repeat("0", i/26%5) + "_" + itoa(i) + ".dat"}
	}
	cases := map[string][]byte{
		"dot-dot":             rawZip(t, rawEntry{name: "../evil.fst", data: fst}),
		"nested dot-dot":      rawZip(t, rawEntry{name: "a/../../evil.fst", data: fst}),
		"absolute":            rawZip(t, rawEntry{name: "/abs.fst", data: fst}),
		"backslash":           rawZip(t, rawEntry{name: `..\evil.fst`, data: fst}),
		"drive letter":        rawZip(t, rawEntry{name: "C:/x.fst", data: fst}),
		"NUL":                 rawZip(t, rawEntry{name: "x\x00y.fst", data: fst}),
		"colon":               rawZip(t, rawEntry{name: "a:b.fst", data: fst}),
		"long name":           rawZip(t, rawEntry{name: strings.Repeat("n", 300) + ".fst", data: fst}),
		"symlink":             rawZip(t, rawEntry{name: "link", data: []byte("/tmp"), mode: fs.ModeSymlink | 0o777}, rawEntry{name: "link/pwned.fst", data: fst}),
		"duplicate":           rawZip(t, rawEntry{name: "a.fst", data: fst}, rawEntry{name: "a.fst", data: fst}),
		"case collision":      rawZip(t, rawEntry{name: "A.dat", data: fst}, rawEntry{name: "a.dat", data: fst}),
		"file and folder":     rawZip(t, rawEntry{name: "a", data: fst}, rawEntry{name: "a/b.fst", data: fst}),
		"ratio bomb":          rawZip(t, rawEntry{name: "zeros.dat", data: make([]byte, 64<<20)}),
		"lying header":        lyingZip(t),
		"too many entries":    rawZip(t, many...),
		"not a zip":           []byte("this is not an archive"),
		"truncated":           rawZip(t, rawEntry{name: "Main.fst", data: fst})[:40],
		"encrypted":           rawZip(t, rawEntry{name: "Main.fst", data: fst, hdr: func(h *zip.FileHeader) { h.Flags |= 0x1 }}),
		"ELF library":         rawZip(t, rawEntry{name: "libdiscon.so", data: append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 100)...)}),
		"ELF renamed to text": rawZip(t, rawEntry{name: "controller.txt", data: append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 100)...)}),
		"PE DLL":              rawZip(t, rawEntry{name: "DISCON.dll", data: append([]byte("MZ\x90\x00"), make([]byte, 100)...)}),
		"Mach-O":              rawZip(t, rawEntry{name: "libdiscon.dylib", data: append([]byte{0xcf, 0xfa, 0xed, 0xfe}, make([]byte, 100)...)}),
		"no fst":              rawZip(t, rawEntry{name: "readme.txt", data: []byte("hello")}),
		"empty":               rawZip(t),
	}
	for name, archive := range cases {
		resp, body := te.upload(te.verified, archive, nil)
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %s", name, resp.StatusCode, body)
			continue
		}
		d := assertDetail(t, resp, body, http.StatusUnprocessableEntity)
		if strings.Contains(name, "ELF") || name == "PE DLL" || name == "Mach-O" {
			if !strings.Contains(d, "executable") {
				t.Errorf("%s: detail %q does not say executable", name, d)
			}
		}
	}
	if trees, rows, scratch := te.leftovers(); trees+rows+scratch != 0 {
		t.Fatalf("hostile uploads left %d trees, %d rows, %d scratch folders", trees, rows, scratch)
	}
	// Wrong media type and a missing file field.
	resp, body := te.call(te.verified, "POST", "/turbines/from-upload", `{"file":"x"}`)
	assertDetail(t, resp, body, http.StatusUnsupportedMediaType)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("name", "x")
	mw.Close()
	resp, body = te.do(nil, request{method: "POST", path: "/turbines/from-upload", body: buf.String(),
		header: map[string]string{"Authorization": "Bearer " + te.verified, "Content-Type": mw.FormDataContentType()}})
	if d := assertDetail(t, resp, body, http.StatusUnprocessableEntity); !strings.Contains(d, handlers.UploadFormField) {
		t.Fatalf("missing field detail %q", d)
	}
}

func itoa(i int) string {
	return strings.TrimLeft(strings.Repeat("0", 0)+string(rune('0'+i/1000%10))+string(rune('0'+i/100%10))+string(rune('0'+i/10%10))+string(rune('0'+i%10)), "")
}
