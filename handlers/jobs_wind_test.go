package handlers_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/windfile"
)

// uniformBox is a TurbSim box of uniform wind u along x over the NREL
// 5 MW rotor (hub 90 m, radius 63 m), span seconds long.
func uniformBox(t *testing.T, u float32, span float64) []byte {
	t.Helper()
	const dt = 0.05
	nt := int(span/dt) + 1
	ff := windfile.NewFullField(5, 5, nt, 0)
	ff.DY, ff.DZ, ff.DT = 40, 40, dt
	ff.URef, ff.ZHub, ff.GridBottom = float64(u), 90, 10
	ff.Description = "uniform test box"
	for i := 0; i < len(ff.Grid); i += 3 {
		ff.Grid[i] = u
	}
	var b bytes.Buffer
	if err := windfile.WriteBTS(&b, ff); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Runs of a stored turbine with more than steady wind: steady
// wind with a power-law shear exponent; an uploaded uniform wind file; the
// same file taken from the earlier job's inputs; an uploaded TurbSim box.
// The hub-height wind in the outputs (Wind1VelX) is the file's, so the
// file reached the solver. Bad combinations and bad files are 422 naming
// the field, before anything is charged.
func TestJobFromStoredTurbineWithWindFile(t *testing.T) {
	t.Parallel()
	je, tb := newTurbineRunEnv(t)
	ctx := context.Background()
	postJSON := func(body string) (*http.Response, string) {
		return je.do(nil, request{method: "POST", path: "/jobs", body: body,
			header: je.keyed("Content-Type", "application/json")})
	}
	upload := func(settings, name string, data []byte) (*http.Response, string) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		mw.WriteField("turbine_id", tb.ID)
		mw.WriteField("settings", settings)
		fw, _ := mw.CreateFormFile("wind_file", name)
		fw.Write(data)
		mw.Close()
		return je.do(nil, request{method: "POST", path: "/jobs", body: body.String(),
			header: je.keyed("Content-Type", mw.FormDataContentType())})
	}
	created := func(resp *http.Response, body string) *turbinesim.Job {
		t.Helper()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("submit: %d %s", resp.StatusCode, body)
		}
		j := decodeInto[turbinesim.Job](t, body)
		return &j
	}
	runDeck := func(j *turbinesim.Job) (*deck.Deck, string) {
		t.Helper()
		dir, release, err := je.jobs.OpenInputs(ctx, je.org.ID, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(release)
		d, err := deck.Load(filepath.Join(dir, filepath.FromSlash(j.Entrypoint)))
		if err != nil {
			t.Fatal(err)
		}
		return d, dir
	}
	settings := func(wind string) string { return `{"t_max":1.5,"wind":` + wind + `}` }
	run := func(wind string) string { return `{"turbine_id":"` + tb.ID + `","settings":` + settings(wind) + `}` }
	uniform := []byte("! uniform wind, 9 m/s\n! time speed dir vert hshear vpower vlinear gust\n0.0 9.0 0 0 0 0 0 0\n100.0 9.0 0 0 0 0 0 0\n")

	// Steady wind with shear: the run deck carries both.
	steady := created(postJSON(run(`{"speed":10,"shear":0.2}`)))
	if d, _ := runDeck(steady); d.InflowWind.WindType != 1 || d.InflowWind.HWindSpeed != 10 || d.InflowWind.PLExp != 0.2 {
		t.Fatalf("steady run deck: WindType %d HWindSpeed %g PLExp %g; want 1, 10, 0.2",
			d.InflowWind.WindType, d.InflowWind.HWindSpeed, d.InflowWind.PLExp)
	}

	// An uploaded uniform wind file.
	uni := created(upload(settings(`{}`), "steady9.hh", uniform))
	d, _ := runDeck(uni)
	if d.InflowWind.WindType != 2 {
		t.Fatalf("uniform run deck: WindType %d, want 2", d.InflowWind.WindType)
	}
	for k, v := range je.waitWind(uni.ID) {
		if v < 8.99 || v > 9.01 {
			t.Fatalf("uploaded uniform wind: Wind1VelX[%d] = %g, want 9", k, v)
		}
	}
	// The same file from that job's inputs.
	windPath := path.Join(path.Dir(uni.Entrypoint), "Wind", "steady9.hh")
	ref := created(postJSON(run(`{"file":{"job_id":"` + uni.ID + `","path":"` + windPath + `"}}`)))
	if d, dir := runDeck(ref); d.InflowWind.WindType != 2 {
		t.Fatalf("file-reference run deck: WindType %d, want 2", d.InflowWind.WindType)
	} else if got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(windPath))); err != nil || !bytes.Equal(got, uniform) {
		t.Fatalf("the referenced wind file is not in the run's inputs: %v", err)
	}
	// An uploaded TurbSim box (as `turbined wind turbulence` writes).
	box := created(upload(settings(`{}`), "uniform10.bts", uniformBox(t, 10, 20)))
	if d, _ := runDeck(box); d.InflowWind.WindType != 3 {
		t.Fatalf("box run deck: WindType %d, want 3", d.InflowWind.WindType)
	}
	for k, v := range je.waitWind(box.ID) {
		if v < 9.99 || v > 10.01 {
			t.Fatalf("uploaded box: Wind1VelX[%d] = %g, want 10", k, v)
		}
	}

	before := je.usageCents(t)
	for _, c := range []struct {
		name, field string
		send        func() (*http.Response, string)
	}{
		{"speed and file", "settings.wind.speed", func() (*http.Response, string) {
			return postJSON(run(`{"speed":8,"file":{"job_id":"` + uni.ID + `","path":"` + windPath + `"}}`))
		}},
		{"shear with a file", "settings.wind.shear", func() (*http.Response, string) {
			return postJSON(run(`{"shear":0.1,"file":{"job_id":"` + uni.ID + `","path":"` + windPath + `"}}`))
		}},
		{"no wind", "settings.wind.speed", func() (*http.Response, string) { return postJSON(run(`{}`)) }},
		{"another job", "settings.wind.file.job_id", func() (*http.Response, string) {
			return postJSON(run(`{"file":{"job_id":"00000000-0000-4000-8000-000000000000","path":"` + windPath + `"}}`))
		}},
		{"missing file", "settings.wind.file.path", func() (*http.Response, string) {
			return postJSON(run(`{"file":{"job_id":"` + uni.ID + `","path":"Wind/none.hh"}}`))
		}},
		{"escaping path", "settings.wind.file.path", func() (*http.Response, string) {
			return postJSON(run(`{"file":{"job_id":"` + uni.ID + `","path":"../../etc/passwd"}}`))
		}},
		{"deck file as wind", "settings.wind.file.path", func() (*http.Response, string) {
			return postJSON(run(`{"file":{"job_id":"` + uni.ID + `","path":"` + uni.Entrypoint + `"}}`))
		}},
		{"upload with a speed", "settings.wind.speed", func() (*http.Response, string) {
			return upload(settings(`{"speed":8}`), "steady9.hh", uniform)
		}},
		{"not a box", "wind_file", func() (*http.Response, string) {
			return upload(settings(`{}`), "noise.bts", []byte("not a TurbSim file"))
		}},
		{"not uniform wind", "wind_file", func() (*http.Response, string) {
			return upload(settings(`{}`), "words.hh", []byte("hello wind\n"))
		}},
		{"unknown kind", "wind_file", func() (*http.Response, string) {
			return upload(settings(`{}`), "wind.xyz", uniform)
		}},
		{"box shorter than the run", "wind_file", func() (*http.Response, string) {
			return upload(settings(`{}`), "short.bts", uniformBox(t, 10, 1))
		}},
	} {
		resp, body := c.send()
		detail := assertDetail(t, resp, body, http.StatusUnprocessableEntity)
		if !strings.HasPrefix(detail, c.field) {
			t.Errorf("%s: detail %q does not name %s", c.name, detail, c.field)
		}
	}
	if after := je.usageCents(t); after != before {
		t.Fatalf("refused submissions were charged: %d → %d cents", before, after)
	}
}

// usageCents is what the organization has been charged this month.
func (je *jobEnv) usageCents(t *testing.T) int64 {
	t.Helper()
	u, err := je.caps.CurrentUsage(context.Background(), je.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	return u.SpentCents
}
