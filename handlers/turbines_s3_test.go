package handlers_test

import (
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/turbinesim/turbinesim"
	turbineassets "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/infra/blobstore"
)

// With the deck trees in an S3-compatible store (gofakes3 over httptest)
// the inventory works as on the local one: a demo's deck is stored in the
// bucket, read back into scratch and parsed for its detailed properties,
// cloned server-side, and a deleted clone leaves no object behind; a
// from-scratch build's controller parameter file is read before the
// scratch copy is released.
func TestTurbineInventoryOnS3(t *testing.T) {
	t.Parallel()
	catalog, err := decks.NewBundledDemos(turbineassets.FS)
	if err != nil {
		t.Fatal(err)
	}
	be := s3mem.New()
	if err := be.CreateBucket("decks"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(be).Server())
	t.Cleanup(srv.Close)
	scratch := t.TempDir()
	store, err := blobstore.NewS3(t.Context(), blobstore.S3Config{Endpoint: srv.URL, Bucket: "decks",
		AccessKey: "k", SecretKey: "s", Region: "us-east-1", Prefix: "turbines/", ScratchDir: scratch})
	if err != nil {
		t.Fatal(err)
	}
	client, err := minio.New(strings.TrimPrefix(srv.URL, "http://"), &minio.Options{
		Creds: credentials.NewStaticV4("k", "s", ""), Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	manifests := func() []string {
		var out []string
		for o := range client.ListObjects(t.Context(), "decks", minio.ListObjectsOptions{Prefix: "turbines/", Recursive: true}) {
			if o.Err != nil {
				t.Fatal(o.Err)
			}
			if strings.HasSuffix(o.Key, ".tree") {
				out = append(out, o.Key)
			}
		}
		return out
	}
	te := newTurbineEnvOn(t, catalog, store)
	// The store key is not part of the API; the test reads it in the row.
	sourceKey := func(id string) string {
		var k string
		if err := te.db.GetContext(t.Context(), &k, `SELECT source_key FROM turbines WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
		return k
	}

	resp, body := te.call(te.verified, "POST", "/turbines/demos/nrel-5mw-land/load", "")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("load demo: %d %s", resp.StatusCode, body)
	}
	demo := decodeInto[handlers.DemoLoadResult](t, body)
	demoKey := sourceKey(demo.ID)
	if m := manifests(); len(m) != 1 || m[0] != "turbines/"+demoKey+".tree" {
		t.Fatalf("after the load the bucket holds trees %v; want the demo's", m)
	}
	resp, body = te.call(te.verified, "POST", "/turbines/"+demo.ID+"/clone", "")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("clone: %d %s", resp.StatusCode, body)
	}
	clone := decodeInto[turbinesim.Turbine](t, body)
	cloneKey := sourceKey(clone.ID)
	for _, id := range []string{demo.ID, clone.ID} {
		resp, body = te.call(te.verified, "GET", "/turbines/"+id+"/detailed-properties", "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("detailed properties of %s: %d %.300s", id, resp.StatusCode, body)
		}
		p := decodeInto[decks.DetailedProperties](t, body)
		if n := len(p.Blade.BlSpn); n < 10 || len(p.Airfoils) == 0 || p.Blade.BlSpn[n-1] < 61 || p.Blade.BlSpn[n-1] > 62 {
			t.Fatalf("turbine %s: %d blade stations, %d airfoils; want the NREL 5 MW blade (61.5 m)", id, n, len(p.Airfoils))
		}
	}
	if m := manifests(); len(m) != 2 {
		t.Fatalf("after the clone the bucket holds trees %v; want two", m)
	}
	if resp, body = te.call(te.verified, "DELETE", "/turbines/"+clone.ID, ""); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete clone: %d %s", resp.StatusCode, body)
	}
	if m := manifests(); len(m) != 1 || m[0] != "turbines/"+demoKey+".tree" {
		t.Errorf("after deleting the clone the bucket holds trees %v; want only the demo's", m)
	}
	for o := range client.ListObjects(t.Context(), "decks", minio.ListObjectsOptions{Prefix: "turbines/" + cloneKey, Recursive: true}) {
		t.Errorf("the deleted clone left %s", o.Key)
	}
	// A from-scratch build runs the baseline controller from the parameter
	// file it wrote; detailed-properties reads that file while the tree is
	// still open (with S3, release removes the scratch copy).
	resp, body = te.call(te.verified, "POST", "/turbines", `{"name":"Scratch","rated_power_kw":6000,"rotor_diameter_m":140,"hub_height_m":100,"rated_rotor_speed_rpm":11}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("build: %d %s", resp.StatusCode, body)
	}
	built := decodeInto[turbinesim.Turbine](t, body)
	resp, body = te.call(te.verified, "GET", "/turbines/"+built.ID+"/detailed-properties", "")
	p := decodeInto[decks.DetailedProperties](t, body)
	if resp.StatusCode != http.StatusOK || p.Controller.Kind != "baseline" {
		t.Fatalf("built turbine's controller: %d kind %q, want the baseline parameter file's constants", resp.StatusCode, p.Controller.Kind)
	}
	// PC_RefSpd from the file: 11 rpm x gearbox 97 (the 5 MW default,
	// used when the file cannot be read, is 12.1 rpm x 97 = 122.91 rad/s).
	for _, s := range p.Controller.Parameters {
		if want := 11 * 97 * math.Pi / 30; s.Name == "PC_RefSpd" && (len(s.Values) != 1 || math.Abs(s.Values[0]-want) > 1e-6) {
			t.Fatalf("built turbine's PC_RefSpd %v rad/s, want %.4f from its parameter file", s.Values, want)
		}
	}
	// Every copy the requests read was released.
	if ents, err := os.ReadDir(scratch); err != nil || len(ents) != 0 {
		t.Errorf("scratch keeps %d entries (%v)", len(ents), err)
	}
}
