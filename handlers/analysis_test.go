package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/cmplx"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/infra/blobstore"
	"github.com/turbinesim/turbinesim/infra/resultcache"
	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/outputs"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// lazyResults lets the environment's option install the result service
// before the database it needs exists.
type lazyResults struct{ outputs.ResultService }

// lazyBatches and lazyTurbines are filled once the test database exists,
// like lazyResults.
type (
	lazyBatches  struct{ turbinesim.BatchService }
	lazyTurbines struct{ turbinesim.TurbineService }
	lazyJobs     struct{ turbinesim.JobService }
)

type resultEnv struct {
	*env
	trees *blobstore.Local
	cache *resultcache.Cache
	token string
}

func newResultEnv(t *testing.T, more ...envOption) *resultEnv {
	t.Helper()
	lazy, batches, turbines, lazyJ := &lazyResults{}, &lazyBatches{}, &lazyTurbines{}, &lazyJobs{}
	e := newEnv(t, append([]envOption{func(_ *handlers.Config, svc *handlers.Services) {
		svc.Results, svc.Batches, svc.Turbines, svc.Jobs = lazy, batches, turbines, lazyJ
	}}, more...)...)
	trees, err := blobstore.NewLocal(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	cache, err := resultcache.New(filepath.Join(t.TempDir(), "cache"), 0)
	if err != nil {
		t.Fatal(err)
	}
	jobs := db.NewJobService(e.db, trees, nil, nil)
	lazyJ.JobService = jobs
	lazy.ResultService = db.NewResultService(e.db, jobs, trees, cache)
	batches.BatchService, turbines.TurbineService = db.NewBatchService(jobs), db.NewTurbineService(e.db, trees, decks.Editor{})
	return &resultEnv{env: e, trees: trees, cache: cache, token: e.loginJSON().AccessToken}
}

// insertJob stores a job of org directly; with outputs it has succeeded
// and its output tree holds those files (name → path to copy).
func (re *resultEnv) insertJob(orgID, status, batchID string, outputs map[string]string) string {
	re.t.Helper()
	ctx := context.Background()
	var outKey *string
	files := []string{}
	if len(outputs) > 0 {
		dir := re.t.TempDir()
		for name, src := range outputs {
			b, err := os.ReadFile(src)
			if err != nil {
				re.t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
				re.t.Fatal(err)
			}
			files = append(files, name)
		}
		k, err := re.trees.Put(ctx, dir)
		if err != nil {
			re.t.Fatal(err)
		}
		outKey = &k
	}
	filesJSON, _ := json.Marshal(files)
	var batch *string
	if batchID != "" {
		batch = &batchID
	}
	var id string
	err := re.db.GetContext(ctx, &id, `INSERT INTO jobs (organization_id, status, batch_id, entrypoint, input_key, output_key,
		output_files, t_max, price_cents, tokens, charge_month, finished_at)
		VALUES ($1, $2, $3, 'Main.fst', 'input', $4, $5, 60, 0, 60, date_trunc('month', now())::date,
		CASE WHEN $2 IN ('succeeded', 'failed', 'cancelled') THEN now() END) RETURNING id`,
		orgID, status, batch, outKey, string(filesJSON))
	if err != nil {
		re.t.Fatal(err)
	}
	return id
}

// insertBatch stores a batches row (migration 00060) for org.
func (re *resultEnv) insertBatch(orgID string) string {
	re.t.Helper()
	var id string
	err := re.db.GetContext(context.Background(), &id, `INSERT INTO batches (organization_id, kind, request, run_count, price_cents, tokens)
		VALUES ($1, 'parametric', '{}', 1, 0, 0) RETURNING id`, orgID)
	if err != nil {
		re.t.Fatal(err)
	}
	return id
}

// nameRun lists job in batch_runs under name.
func (re *resultEnv) nameRun(batchID, jobID, name string, position int) {
	re.t.Helper()
	_, err := re.db.ExecContext(context.Background(), `INSERT INTO batch_runs (batch_id, position, run_name, job_id) VALUES ($1, $2, $3, $4)`,
		batchID, position, name, jobID)
	if err != nil {
		re.t.Fatal(err)
	}
}

func (re *resultEnv) call(token, method, path, body string, extra ...string) (*http.Response, string) {
	re.t.Helper()
	h := map[string]string{"Authorization": "Bearer " + token}
	if body != "" {
		h["Content-Type"] = "application/json"
	}
	for i := 0; i+1 < len(extra); i += 2 {
		h[extra[i]] = extra[i+1]
	}
	return re.do(nil, request{method: method, path: path, body: body, header: h})
}

func callJSON[T any](t *testing.T, re *resultEnv, method, path, reqBody string) T {
	t.Helper()
	resp, body := re.call(re.token, method, path, reqBody)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var v T
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return v
}

func syntheticOutb(t *testing.T, wind, power float64) string {
	t.Helper()
	return syntheticOutbRows(t, wind, power, 2001)
}

// syntheticOutbRows writes a 20 Hz .outb of rows samples: RotSpeed 12 rpm, a 0.2 Hz
// sine load of amplitude 500·wind/8 kN-m on 1000, GenPwr, Wind1VelX.
func syntheticOutbRows(t *testing.T, wind, power float64, rows int) string {
	t.Helper()
	f := outfile.NewFile("analysis test", []outfile.Channel{{Name: "RotSpeed", Unit: "rpm"}, {Name: "GenPwr", Unit: "kW"},
		{Name: "RootMyb1", Unit: "kN-m"}, {Name: "Wind1VelX", Unit: "m/s"}}, rows)
	for i := range rows {
		tm := 0.05 * float64(i)
		row := []float64{12, power + 10*math.Sin(2*math.Pi*0.6*tm), 1000 + 500*(wind/8)*math.Sin(2*math.Pi*0.2*tm), wind}
		if err := f.AppendRow(tm, row); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(t.TempDir(), "run.outb")
	if err := outfile.WriteOutbFile(p, f, outfile.OutbOptions{}); err != nil {
		t.Fatal(err)
	}
	return p
}

func relClose(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(math.Abs(want), 1e-300) || got == want
}

func TestAnalysisJobEndpoints(t *testing.T) {
	re := newResultEnv(t)
	src := syntheticOutb(t, 8, 2000)
	raw, err := outfile.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	id := re.insertJob(re.org.ID, "succeeded", "", map[string]string{"run.outb": src, "run.log": src})
	base := "/analysis/jobs/" + id

	t.Run("channels", func(t *testing.T) {
		got := callJSON[[]handlers.ChannelInfo](t, re, "GET", base+"/channels", "")
		want := []handlers.ChannelInfo{{Name: "RotSpeed", Unit: "rpm", Group: "rotor"}, {Name: "GenPwr", Unit: "kW", Group: "drivetrain"},
			{Name: "RootMyb1", Unit: "kN-m", Group: "blade 1"}, {Name: "Wind1VelX", Unit: "m/s", Group: "wind"}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("channels %v, want %v", got, want)
		}
	})

	t.Run("results page says what the channel filter matches", func(t *testing.T) {
		resp, body := re.call(re.token, "GET", base, "", "Accept", "text/html")
		if resp.StatusCode != 200 || !strings.Contains(body, `aria-describedby="channel-count"`) ||
			!regexp.MustCompile(`<input id="channel-filter"[^>]*placeholder="name, unit or group[^"]*"`).MatchString(body) {
			t.Fatalf("results page %d: no described type-to-filter channel field", resp.StatusCode)
		}
	})

	t.Run("time-series decimate and envelope", func(t *testing.T) {
		ts := callJSON[handlers.TimeSeries](t, re, "POST", base+"/time-series",
			`{"channels":["GenPwr","RootMyb1"],"downsample_factor":7,"t_start":10,"t_end":20}`)
		// Samples 200..400 inclusive, every 7th from 200.
		if ts.Rows != 201 || len(ts.Time) != 29 || len(ts.Series) != 2 {
			t.Fatalf("rows %d, %d times, %d series", ts.Rows, len(ts.Time), len(ts.Series))
		}
		load := raw.Data[raw.Index("RootMyb1")]
		for i, v := range ts.Series[1].Values {
			if k := 200 + 7*i; v != load[k] || ts.Time[i] != raw.Time[k] {
				t.Fatalf("sample %d = (%v, %v), want (%v, %v)", i, ts.Time[i], v, raw.Time[k], load[k])
			}
		}
		env := callJSON[handlers.TimeSeries](t, re, "POST", base+"/time-series",
			`{"channels":["RootMyb1"],"downsample_factor":100,"method":"envelope"}`)
		s := env.Series[0]
		if len(s.Time) != len(s.Values) || len(s.Values) > 2*21 {
			t.Fatalf("envelope of %d points", len(s.Values))
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range s.Values {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		rlo, rhi := math.Inf(1), math.Inf(-1)
		for _, v := range load {
			rlo, rhi = math.Min(rlo, v), math.Max(rhi, v)
		}
		if lo != rlo || hi != rhi {
			t.Fatalf("envelope range [%v, %v], raw [%v, %v]: peaks lost", lo, hi, rlo, rhi)
		}
		// CSV: wide for decimated series (row i is sample 200+7i), long for
		// an envelope (one row per point).
		resp, body := re.call(re.token, "POST", base+"/time-series?format=csv",
			`{"channels":["GenPwr","RootMyb1"],"downsample_factor":7,"t_start":10,"t_end":20}`)
		lines := strings.Split(strings.TrimSpace(body), "\n")
		want1 := fmt.Sprintf("%s,%s,%s", strconv.FormatFloat(raw.Time[207], 'g', -1, 64),
			strconv.FormatFloat(raw.Data[raw.Index("GenPwr")][207], 'g', -1, 64), strconv.FormatFloat(load[207], 'g', -1, 64))
		if resp.StatusCode != 200 || len(lines) != 30 || lines[0] != "Time (s),GenPwr (kW),RootMyb1 (kN-m)" || lines[2] != want1 {
			t.Fatalf("time-series CSV %d, %d lines: %q, %q (want %q)", resp.StatusCode, len(lines), lines[0], lines[min(2, len(lines)-1)], want1)
		}
		resp, body = re.call(re.token, "POST", base+"/time-series", `{"channels":["RootMyb1"],"downsample_factor":100,"method":"envelope"}`,
			"Accept", "text/csv")
		if lines = strings.Split(strings.TrimSpace(body), "\n"); resp.StatusCode != 200 || len(lines) != len(s.Values)+1 ||
			lines[0] != "channel,unit,time,value" || !strings.HasPrefix(lines[1], "RootMyb1,kN-m,") {
			t.Fatalf("envelope CSV %d, %d lines for %d points: %q", resp.StatusCode, len(lines), len(s.Values), lines[:min(2, len(lines))])
		}
	})

	t.Run("statistics with DELs", func(t *testing.T) {
		st := callJSON[handlers.StatisticsResponse](t, re, "POST", base+"/statistics",
			`{"channels":["RootMyb1"],"t_start":0,"t_end":50,"wohler_exponents":[4],"include_extreme_times":true,"include_higher_moments":true}`)
		c := st.Channels[0]
		// 50 s of a 0.2 Hz sine starting and ending on its mean: reversals
		// 1000, 1500, 500, …, 500, 1000. ASTM E1049 counts 9 full cycles of
		// range 1000, one half cycle of range 1000 and two half cycles of
		// range 500 (start and end), so at f_eq = 1 Hz
		// DEL(m=4) = ((9.5·1000⁴ + 500⁴)/50)^(1/4).
		wantDEL := math.Pow((9.5*math.Pow(1000, 4)+math.Pow(500, 4))/50, 0.25)
		if c.N != 1001 || len(c.DELs) != 1 || !relClose(c.DELs[0].Value, wantDEL, 1e-3) {
			t.Fatalf("n %d, DELs %+v; want DEL %v", c.N, c.DELs, wantDEL)
		}
		if c.TimeOfMax == nil || math.Abs(*c.TimeOfMax-1.25) > 1e-9 || c.Skewness == nil || c.Kurtosis == nil {
			t.Fatalf("time of max %v, skewness %v, kurtosis %v", c.TimeOfMax, c.Skewness, c.Kurtosis)
		}
		if w := st.Window; w.Reason != results.WindowGiven || *w.TStart != 0 || *w.TEnd != 50 {
			t.Errorf("t_start 0, t_end 50: analysis_window %+v", w)
		}
		// Default: every channel, no optional fields, after the start-up
		// transient (30 to 100 s), which analysis_window states.
		all := callJSON[handlers.StatisticsResponse](t, re, "POST", base+"/statistics", `{}`)
		if len(all.Channels) != 4 || all.Channels[0].TimeOfMax != nil || all.Channels[0].Mean != 12 || all.Channels[0].N != 1401 {
			t.Fatalf("default statistics %+v", all.Channels)
		}
		if w := all.Window; w.Reason != results.WindowStartupRemoved || *w.TStart != 30 || *w.TEnd != 100 || all.Start != 30 {
			t.Errorf("default analysis_window %+v, want 30 to 100 s, start-up transient removed", w)
		}
		// CSV by query and by Accept.
		for _, hdr := range [][]string{nil, {"Accept", "text/csv"}} {
			path := base + "/statistics"
			if hdr == nil {
				path += "?format=csv"
			}
			resp, body := re.call(re.token, "POST", path, `{"channels":["GenPwr"],"wohler_exponents":[3]}`, hdr...)
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") ||
				!strings.HasPrefix(body, "channel,unit,n,min,max,mean,std,del_m3\nGenPwr,kW,1401,") {
				t.Fatalf("CSV %d %q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
		}
	})

	t.Run("spectrum", func(t *testing.T) {
		sp := callJSON[handlers.SpectrumResponse](t, re, "POST", base+"/spectrum",
			`{"channel":"RootMyb1","method":"fft","t_start":0,"t_end":99.95}`)
		a := sp.Spectra[0]
		// 2000 samples, 100 s: the 0.2 Hz sine is bin 20 with amplitude 500.
		if a.Resolution != 0.01 || !relClose(a.Values[20], 500, 1e-3) || !relClose(a.Frequency[20], 0.2, 1e-12) {
			t.Fatalf("resolution %v, A[20] = %v at %v Hz", a.Resolution, a.Values[20], a.Frequency[20])
		}
		if sp.MeanRotorSpeedRPM == nil || *sp.MeanRotorSpeedRPM != 12 || len(sp.Harmonics) != 3 ||
			!relClose(sp.Harmonics[1].Frequency, 0.6, 1e-12) || sp.Harmonics[1].Label != "3P" {
			t.Fatalf("harmonics %+v", sp.Harmonics)
		}
		// Without t_start, 30 to 100 s: 1401 samples, 6 segments of 400.
		w := callJSON[handlers.SpectrumResponse](t, re, "POST", base+"/spectrum",
			`{"channels":["GenPwr"],"segment_length":400,"overlap":0.5,"window":"hamming"}`)
		if w.Method != "welch" || w.Window != "hamming" || w.Spectra[0].SegmentLength != 400 || w.Spectra[0].Segments != 6 ||
			w.AnalysisWindow.Reason != results.WindowStartupRemoved || *w.AnalysisWindow.TStart != 30 {
			t.Fatalf("welch %+v", w)
		}
		// CSV: one frequency column shared by the channels, values as in JSON.
		resp, body := re.call(re.token, "POST", base+"/spectrum?format=csv",
			`{"channels":["GenPwr","RootMyb1"],"segment_length":400,"overlap":0.5,"window":"hamming"}`)
		lines := strings.Split(strings.TrimSpace(body), "\n")
		ws := w.Spectra[0]
		want3 := strconv.FormatFloat(ws.Frequency[3], 'g', -1, 64) + "," + strconv.FormatFloat(ws.Values[3], 'g', -1, 64) + ","
		if resp.StatusCode != 200 || len(lines) != len(ws.Frequency)+1 ||
			lines[0] != "Frequency (Hz),GenPwr PSD ((kW)^2/Hz),RootMyb1 PSD ((kN-m)^2/Hz)" || !strings.HasPrefix(lines[4], want3) {
			t.Fatalf("spectrum CSV %d, %d lines for %d bins: %q / %q (want prefix %q)", resp.StatusCode, len(lines), len(ws.Frequency), lines[0], lines[min(4, len(lines)-1)], want3)
		}
	})

	t.Run("download", func(t *testing.T) {
		resp, body := re.call(re.token, "GET", base+"/output/download", "")
		want, _ := os.ReadFile(src)
		if resp.StatusCode != 200 || body != string(want) ||
			resp.Header.Get("Content-Disposition") != `attachment; filename=run.outb` {
			t.Fatalf("download %d, %d bytes, %q", resp.StatusCode, len(body), resp.Header.Get("Content-Disposition"))
		}
	})

	t.Run("read once", func(t *testing.T) {
		// Every request above used the output; it was parsed once.
		if parses, _ := re.cache.Stats(); parses != 1 {
			t.Fatalf("output parsed %d times", parses)
		}
	})

	t.Run("text output", func(t *testing.T) {
		// A job whose only output is a text .out is read the same way.
		txt := filepath.Join(t.TempDir(), "run.out")
		if err := outfile.WriteTextFile(txt, raw, outfile.TextOptions{}); err != nil {
			t.Fatal(err)
		}
		tid := re.insertJob(re.org.ID, "succeeded", "", map[string]string{"run.out": txt})
		st := callJSON[handlers.StatisticsResponse](t, re, "POST", "/analysis/jobs/"+tid+"/statistics", `{"channels":["RotSpeed"]}`)
		if len(st.Channels) != 1 || st.Channels[0].N != 1401 || st.Channels[0].Mean != 12 {
			t.Fatalf("statistics of the .out: %+v", st.Channels)
		}
	})

	t.Run("errors", func(t *testing.T) {
		resp, body := re.call(re.token, "POST", base+"/time-series", `{"channels":["GenPwr","Nope","Bad"]}`)
		if d := assertDetail(t, resp, body, 422); !strings.Contains(d, `"Nope", "Bad"`) {
			t.Fatalf("detail %q does not list the unknown channels", d)
		}
		resp, body = re.call(re.token, "POST", base+"/statistics", `{"channels":["Nope"]}`)
		assertDetail(t, resp, body, 422)
		resp, body = re.call(re.token, "POST", base+"/spectrum", `{"channel":"Nope"}`)
		assertDetail(t, resp, body, 422)
		resp, body = re.call(re.token, "POST", base+"/time-series", `{"channels":["GenPwr"],"method":"spline"}`)
		assertDetail(t, resp, body, 422)
		resp, body = re.call(re.token, "POST", base+"/spectrum", `{"channel":"GenPwr","segment_length":5000}`)
		assertDetail(t, resp, body, 422)
		resp, body = re.call(re.token, "POST", base+"/statistics", `{"t_start":500}`)
		assertDetail(t, resp, body, 422)

		// 409 while a job has no output yet.
		queued := re.insertJob(re.org.ID, "queued", "", nil)
		for _, r := range [][2]string{{"GET", "/channels"}, {"POST", "/time-series"}, {"POST", "/statistics"}, {"GET", "/output/download"}, {"POST", "/spectrum"}} {
			body := ""
			if r[0] == "POST" {
				body = `{"channels":["GenPwr"],"channel":"GenPwr"}`
			}
			resp, b := re.call(re.token, r[0], "/analysis/jobs/"+queued+r[1], body)
			if d := assertDetail(t, resp, b, 409); !strings.Contains(d, "queued") {
				t.Fatalf("%s: detail %q does not say the job is queued", r[1], d)
			}
		}

		// 404 across organizations, and for ids that are no job at all.
		other := &turbinesim.Organization{Name: "Other Wind"}
		if err := db.NewOrganizationService(re.db).CreateOrganization(context.Background(), other); err != nil {
			t.Fatal(err)
		}
		foreign := re.insertJob(other.ID, "succeeded", "", map[string]string{"x.outb": src})
		for _, jid := range []string{foreign, "00000000-0000-0000-0000-000000000000", "not-a-uuid"} {
			for _, r := range [][2]string{{"GET", "/channels"}, {"POST", "/time-series"}, {"POST", "/statistics"}, {"GET", "/output/download"}, {"POST", "/spectrum"}} {
				body := ""
				if r[0] == "POST" {
					body = `{"channels":["GenPwr"],"channel":"GenPwr"}`
				}
				resp, b := re.call(re.token, r[0], "/analysis/jobs/"+jid+r[1], body)
				assertDetail(t, resp, b, 404)
			}
		}
		resp, body = re.do(nil, request{method: "GET", path: base + "/channels"})
		assertDetail(t, resp, body, 401)
	})
}

// TestAnalysisOfReferenceOutput puts an OpenFAST v5.0.0 .outb in place as
// a job's output and checks statistics and spectra against sums over the
// raw samples computed here.
func TestAnalysisOfReferenceOutput(t *testing.T) {
	src := testshared.Path(t, "reference-outputs", "nrel5mw_steady8_full", "Main_Onshore.outb")
	raw, err := outfile.ReadOutbFile(src)
	if err != nil {
		t.Fatal(err)
	}
	re := newResultEnv(t)
	id := re.insertJob(re.org.ID, "succeeded", "", map[string]string{"Main_Onshore.outb": src})
	base := "/analysis/jobs/" + id

	const tStart = 30.0
	lo := 0
	for raw.Time[lo] < tStart {
		lo++
	}
	names := []string{"RotSpeed", "GenPwr", "BldPitch1", "RootMyc1", "TwrBsMyt"}
	body, _ := json.Marshal(map[string]any{"channels": names, "t_start": tStart})
	st := callJSON[handlers.StatisticsResponse](t, re, "POST", base+"/statistics", string(body))
	for i, name := range names {
		col := raw.Data[raw.Index(name)][lo:]
		var sum float64
		mn, mx := math.Inf(1), math.Inf(-1)
		for _, v := range col {
			sum += v
			mn, mx = math.Min(mn, v), math.Max(mx, v)
		}
		mean := sum / float64(len(col))
		var ss float64
		for _, v := range col {
			ss += (v - mean) * (v - mean)
		}
		std := math.Sqrt(ss / float64(len(col)))
		got := st.Channels[i]
		if got.Name != name || got.N != len(col) || got.Min != mn || got.Max != mx ||
			!relClose(got.Mean, mean, 1e-9) || !relClose(got.Std, std, 1e-9) {
			t.Errorf("%s: got n %d min %v max %v mean %v std %v; want %d %v %v %v %v",
				name, got.N, got.Min, got.Max, got.Mean, got.Std, len(col), mn, mx, mean, std)
		}
	}

	// Amplitude spectrum of GenPwr after the transient: naive DFT of the
	// mean-removed samples, |X_k|·2/N, at the first 40 bins.
	sp := callJSON[handlers.SpectrumResponse](t, re, "POST", base+"/spectrum",
		fmt.Sprintf(`{"channel":"GenPwr","method":"fft","detrend":"mean","t_start":%g}`, tStart))
	col := raw.Data[raw.Index("GenPwr")][lo:]
	n := len(col)
	var mean float64
	for _, v := range col {
		mean += v
	}
	mean /= float64(n)
	dt := raw.Time[lo+1] - raw.Time[lo]
	for k := 1; k < 40; k++ {
		var x complex128
		for j, v := range col {
			x += complex(v-mean, 0) * cmplx.Exp(complex(0, -2*math.Pi*float64(k)*float64(j)/float64(n)))
		}
		want := 2 * cmplx.Abs(x) / float64(n)
		if got := sp.Spectra[0].Values[k]; !relClose(got, want, 1e-9) && math.Abs(got-want) > 1e-9*sp.Spectra[0].Values[0]+1e-12 {
			t.Errorf("amplitude[%d] = %v, want %v", k, got, want)
		}
		if f := sp.Spectra[0].Frequency[k]; !relClose(f, float64(k)/(float64(n)*dt), 1e-9) {
			t.Errorf("frequency[%d] = %v, want %v", k, f, float64(k)/(float64(n)*dt))
		}
	}
	// 1P from the mean RotSpeed over the same window.
	rot := raw.Data[raw.Index("RotSpeed")][lo:]
	var rsum float64
	for _, v := range rot {
		rsum += v
	}
	if h := sp.Harmonics[0]; h.Label != "1P" || !relClose(h.Frequency, rsum/float64(len(rot))/60, 1e-9) {
		t.Errorf("1P = %+v, want %v Hz", h, rsum/float64(len(rot))/60)
	}

	// Welch with one rectangular segment of the whole window and mean
	// detrend is the periodogram: P_k·Δf = 2|X_k|²/N² for 0 < k < N/2, and
	// Σ P_k·Δf is the variance (Parseval).
	wb := fmt.Sprintf(`{"channel":"GenPwr","window":"rectangular","segment_length":%d,"overlap":0,"t_start":%g}`, n, tStart)
	w := callJSON[handlers.SpectrumResponse](t, re, "POST", base+"/spectrum", wb)
	psd := w.Spectra[0]
	var total, variance float64
	for _, p := range psd.Values {
		total += p * psd.Resolution
	}
	for _, v := range col {
		variance += (v - mean) * (v - mean)
	}
	variance /= float64(n)
	if !relClose(total, variance, 1e-9) {
		t.Errorf("Σ PSD·Δf = %v, variance %v", total, variance)
	}
	for k := 1; k < 10; k++ {
		var x complex128
		for j, v := range col {
			x += complex(v-mean, 0) * cmplx.Exp(complex(0, -2*math.Pi*float64(k)*float64(j)/float64(n)))
		}
		want := 2 * math.Pow(cmplx.Abs(x), 2) / (float64(n) * float64(n)) / psd.Resolution
		if !relClose(psd.Values[k], want, 1e-9) {
			t.Errorf("PSD[%d] = %v, want %v", k, psd.Values[k], want)
		}
	}
}

func TestAnalysisBatchEndpoints(t *testing.T) {
	re := newResultEnv(t)
	batch := re.insertBatch(re.org.ID)
	winds, powers := []float64{6, 8, 10}, []float64{500, 1500, 3000}
	var jobs []string
	// The .outb packs samples as 16-bit integers, so the expected values
	// are computed from the samples as stored.
	meanPower, meanWind := make([]float64, len(winds)), make([]float64, len(winds))
	var maxLoad float64
	for i := range winds {
		src := syntheticOutb(t, winds[i], powers[i])
		raw, err := outfile.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range raw.Data[raw.Index("GenPwr")] {
			meanPower[i] += v / float64(raw.NumRows())
		}
		for _, v := range raw.Data[raw.Index("Wind1VelX")] {
			meanWind[i] += v / float64(raw.NumRows())
		}
		for _, v := range raw.Data[raw.Index("RootMyb1")] {
			maxLoad = math.Max(maxLoad, v)
		}
		jobs = append(jobs, re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.outb": src}))
		re.nameRun(batch, jobs[i], fmt.Sprintf("DLC1.2_V%.1f_S1_Y+0", winds[i]), i)
	}
	queued := re.insertJob(re.org.ID, "queued", batch, nil)
	other := &turbinesim.Organization{Name: "Other Wind"}
	if err := db.NewOrganizationService(re.db).CreateOrganization(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	// A job of another organization pointing at this batch stays out.
	re.insertJob(other.ID, "succeeded", batch, map[string]string{"run.outb": syntheticOutb(t, 12, 5000)})
	base := "/analysis/batches/" + batch

	pc := callJSON[handlers.BatchCurves](t, re, "GET", base+"/power-curve?binning=grid&rotor_radius=63", "")
	if pc.Runs != 3 || len(pc.Skipped) != 1 || pc.Skipped[0] != queued || len(pc.Curve.Bins) != 3 {
		t.Fatalf("power curve: %d runs, skipped %v, %d bins", pc.Runs, pc.Skipped, len(pc.Curve.Bins))
	}
	for i, b := range pc.Curve.Bins {
		// Cp = P/(½ρAV³) with ρ = 1.225, A = π·63².
		cp := meanPower[i] * 1000 / (0.5 * 1.225 * math.Pi * 63 * 63 * math.Pow(meanWind[i], 3))
		if !relClose(b.WindSpeed, meanWind[i], 1e-9) || !relClose(b.PowerKW, meanPower[i], 1e-9) || !relClose(b.Cp, cp, 1e-9) {
			t.Fatalf("bin %d: %+v; want V %v, P %v, Cp %v", i, b, winds[i], meanPower[i], cp)
		}
	}
	cv := callJSON[handlers.BatchCurves](t, re, "GET", base+"/curves?binning=grid", "")
	if len(cv.Series["power_kw"]) != 3 || len(cv.Series["rotor_speed_rpm"]) != 3 || cv.Series["rotor_speed_rpm"][2] != 12 {
		t.Fatalf("curves series %v", cv.Series)
	}

	// AEP, IEC 61400-12-1 with V̄₀ = V̄₁ − 0.5 and P̄₀ = 0, Rayleigh V_ave = 7.5.
	aep := callJSON[handlers.BatchAEP](t, re, "GET", base+"/aep?binning=grid&distribution=rayleigh&mean_speed=7.5", "")
	F := func(v float64) float64 { return 1 - math.Exp(-math.Pi/4*(v/7.5)*(v/7.5)) }
	var want float64
	prevV, prevP := meanWind[0]-0.5, 0.0
	for i := range winds {
		want += (F(meanWind[i]) - F(prevV)) * (prevP + meanPower[i]) / 2
		prevV, prevP = meanWind[i], meanPower[i]
	}
	want *= 8760 / 1000.0
	if !relClose(aep.AEP.MWhPerYear, want, 1e-9) {
		t.Fatalf("AEP %v MWh, want %v", aep.AEP.MWhPerYear, want)
	}
	if resp, body := re.call(re.token, "GET", base+"/aep?distribution=weibull&k=2", ""); resp.StatusCode != 422 {
		t.Fatalf("weibull without a: %d %s", resp.StatusCode, body)
	}

	// Lifetime DEL is the m-power mean of the runs' DELs with the bin
	// weights, not their arithmetic mean.
	dl := callJSON[handlers.BatchDELs](t, re, "GET", base+"/del?exponents=4&channels=RootMyb1&distribution=weibull&k=2&a=8.5", "")
	if len(dl.Channels) != 1 || len(dl.Channels[0].Runs) != 3 || len(dl.Channels[0].Lifetime) != 1 {
		t.Fatalf("del %+v", dl)
	}
	life := dl.Channels[0].Lifetime[0]
	var pm, am float64
	for j, r := range dl.Channels[0].Runs {
		w := life.Weights.Weights[j]
		pm += w * math.Pow(r.DELs[0].Value, 4)
		am += w * r.DELs[0].Value
		// Each run's DEL scales with its amplitude 500·V/8 (same cycles).
		if ratio := r.DELs[0].Value / dl.Channels[0].Runs[1].DELs[0].Value; !relClose(ratio, winds[j]/8, 1e-4) {
			t.Fatalf("run %d DEL ratio %v, want %v", j, ratio, winds[j]/8)
		}
	}
	if !relClose(life.DEL, math.Pow(pm, 0.25), 1e-9) || relClose(life.DEL, am, 1e-3) || !relClose(life.ArithmeticMean, am, 1e-9) {
		t.Fatalf("lifetime %v, m-power mean %v, arithmetic %v", life.DEL, math.Pow(pm, 0.25), am)
	}
	resp, body := re.call(re.token, "GET", base+"/del?exponents=4&channels=RootMyb1&format=csv", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(body, "channel,unit,exponent,lifetime_del,arithmetic_mean,goodman,ultimate_load\nRootMyb1,kN-m,4,") {
		t.Fatalf("DEL CSV %d: %s", resp.StatusCode, body)
	}

	ex := callJSON[handlers.BatchExtremes](t, re, "GET", base+"/extremes?channels=RootMyb1&concurrent=GenPwr", "")
	if len(ex.Extremes) != 2 {
		t.Fatalf("extremes %+v", ex.Extremes)
	}
	for _, e := range ex.Extremes {
		if e.Kind == "max" && (e.Characteristic != maxLoad || e.RunID != jobs[2] || e.DLC != "1.2" || len(e.Concurrent) != 1 || e.Concurrent[0].Channel != "GenPwr") {
			t.Fatalf("max %+v", e)
		}
	}

	// Design loads: γ_f of the runs' DLC from the IEC table (1.2 is a
	// fatigue case, γ_f = 1.0 there), or one factor for every run.
	for q, gamma := range map[string]float64{"dlc": 1.0, "1.35": 1.35} {
		ex = callJSON[handlers.BatchExtremes](t, re, "GET", base+"/extremes?channels=RootMyb1&gamma_f="+q, "")
		for _, e := range ex.Extremes {
			if e.Kind == "max" && (e.SafetyFactor != gamma || !relClose(e.Design, gamma*maxLoad, 1e-12) || e.Characteristic != maxLoad) {
				t.Fatalf("gamma_f=%s: max %+v, want design %v", q, e, gamma*maxLoad)
			}
		}
	}
	for _, q := range []string{"0.5", "4", "abc"} {
		resp, body = re.call(re.token, "GET", base+"/extremes?channels=RootMyb1&gamma_f="+q, "")
		assertDetail(t, resp, body, 422)
	}
	// extrapolate=<N>y: a malformed or out-of-range return period, a bad
	// wind distribution, or (this batch) no DLC 1.1 run to extrapolate.
	for _, q := range []string{"extrapolate=abc", "extrapolate=50", "extrapolate=0y", "extrapolate=2000y",
		"extrapolate=50y&distribution=weibull&k=2", "extrapolate=50y&class=IV", "extrapolate=50y"} {
		resp, body = re.call(re.token, "GET", base+"/extremes?channels=RootMyb1&"+q, "")
		assertDetail(t, resp, body, 422)
	}
	if resp, body = re.call(re.token, "GET", base+"/extremes?channels=RootMyb1&extrapolate=50y", ""); !strings.Contains(body, "DLC 1.1") {
		t.Fatalf("extrapolate=50y on a DLC 1.2 batch: %s", body)
	}

	// The batch page: curve charts, bin table, DEL and extreme tables.
	resp, body = re.call(re.token, "GET", base+"?binning=grid&rotor_radius=63", "", "Accept", "text/html")
	for _, want := range []string{`id="curve-power"`, `id="curve-cp"`, `id="curve-rotor-speed"`, `id="curve-table"`, `id="del-table"`, `id="extremes-table"`, "RootMyb1", jobs[2]} {
		if resp.StatusCode != 200 || !strings.Contains(body, want) {
			t.Fatalf("batch page %d lacks %s", resp.StatusCode, want)
		}
	}
	// Its extreme table names each row's run and links its job, rather
	// than printing the job's UUID.
	extremesTable := body[strings.Index(body, `id="extremes-table"`):]
	extremesTable = extremesTable[:strings.Index(extremesTable, "</table>")]
	if link := `<a class="text-sky-700 hover:underline" href="/jobs/` + jobs[2] + `">DLC1.2_V10.0_S1_Y+0</a>`; !strings.Contains(extremesTable, link) {
		t.Fatalf("extremes table lacks %s: %s", link, extremesTable)
	}
	if strings.Contains(extremesTable, ">"+jobs[2]+"<") {
		t.Fatalf("extremes table shows the bare job id: %s", extremesTable)
	}
	// Its bin table reads as a table for people: headers with units, values
	// rounded (at most three decimals; the CSV keeps full precision).
	binTable := body[strings.Index(body, `id="curve-table"`):]
	binTable = binTable[:strings.Index(binTable, "</table>")]
	if !strings.Contains(binTable, "Power (kW)") || !strings.Contains(binTable, "Mean wind (m/s)") || strings.Contains(binTable, "power_kw") {
		t.Fatalf("bin table headers: %s", binTable)
	}
	if long := regexp.MustCompile(`\d\.\d{4,}`).FindString(binTable); long != "" {
		t.Fatalf("bin table shows %s unrounded: %s", long, binTable)
	}

	// Errors: unknown channel 422, another organization's batch 404, a
	// batch without finished runs 409.
	resp, body = re.call(re.token, "GET", base+"/extremes?channels=Nope", "")
	assertDetail(t, resp, body, 422)
	resp, body = re.call(re.token, "GET", base+"/del", "")
	assertDetail(t, resp, body, 422)
	foreign := re.insertBatch(other.ID)
	re.insertJob(other.ID, "succeeded", foreign, map[string]string{"run.outb": syntheticOutb(t, 8, 1)})
	pending := re.insertBatch(re.org.ID)
	re.insertJob(re.org.ID, "running", pending, nil)
	for _, ep := range []string{"/power-curve", "/curves", "/aep", "/del?exponents=3", "/extremes"} {
		resp, body = re.call(re.token, "GET", "/analysis/batches/"+foreign+ep, "")
		assertDetail(t, resp, body, 404)
		resp, body = re.call(re.token, "GET", "/analysis/batches/not-a-uuid"+ep, "")
		assertDetail(t, resp, body, 404)
		resp, body = re.call(re.token, "GET", "/analysis/batches/"+pending+ep, "")
		assertDetail(t, resp, body, 409)
	}
}

// TestBatchCurveRadiusFromTurbine: without rotor_radius, Cp and Ct use the
// batch turbine's swept radius D/2·cos(precone) (AeroDyn's RtArea); a
// batch without a turbine leaves them uncomputed (rotor_radius 0).
func TestBatchCurveRadiusFromTurbine(t *testing.T) {
	re := newResultEnv(t)
	ctx := context.Background()
	var turbineID string
	if err := re.db.GetContext(ctx, &turbineID, `INSERT INTO turbines (organization_id, name, rotor_diameter_m, precone_deg)
		VALUES ($1, 'Radius test', 126, -2.5) RETURNING id`, re.org.ID); err != nil {
		t.Fatal(err)
	}
	withTurbine, without := re.insertBatch(re.org.ID), re.insertBatch(re.org.ID)
	if _, err := re.db.ExecContext(ctx, `UPDATE batches SET turbine_id = $1 WHERE id = $2`, turbineID, withTurbine); err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{withTurbine, without} {
		re.insertJob(re.org.ID, "succeeded", b, map[string]string{"run.outb": syntheticOutb(t, 8, 1500)})
	}
	swept := 63 * math.Cos(2.5*math.Pi/180)
	pc := callJSON[handlers.BatchCurves](t, re, "GET", "/analysis/batches/"+withTurbine+"/power-curve?binning=grid", "")
	if !relClose(pc.Curve.RotorRadius, swept, 1e-12) || !relClose(pc.Curve.RotorArea, math.Pi*swept*swept, 1e-12) {
		t.Fatalf("rotor radius %v, area %v; want %v from the turbine", pc.Curve.RotorRadius, pc.Curve.RotorArea, swept)
	}
	b := pc.Curve.Bins[0]
	if cp := b.PowerKW * 1000 / (0.5 * 1.225 * math.Pi * swept * swept * math.Pow(b.WindSpeed, 3)); !(b.Cp > 0) || !relClose(b.Cp, cp, 1e-9) {
		t.Errorf("Cp %v, want %v", b.Cp, cp)
	}
	given := callJSON[handlers.BatchCurves](t, re, "GET", "/analysis/batches/"+withTurbine+"/power-curve?binning=grid&rotor_radius=60", "")
	if given.Curve.RotorRadius != 60 {
		t.Errorf("rotor_radius=60 gave radius %v", given.Curve.RotorRadius)
	}
	// One wind speed: grid binning makes one bin over [0, ∞), whose upper
	// edge JSON cannot carry as a number (this answered 500 before).
	if resp, body := re.call(re.token, "GET", "/analysis/batches/"+without+"/power-curve?binning=grid", ""); resp.StatusCode != http.StatusOK || !strings.Contains(body, `"high":null`) {
		t.Errorf("single-speed grid curve: status %d, body %s", resp.StatusCode, body)
	}
	none := callJSON[handlers.BatchCurves](t, re, "GET", "/analysis/batches/"+without+"/power-curve?binning=grid", "")
	if none.Curve.RotorRadius != 0 || none.Curve.Bins[0].Cp != 0 {
		t.Errorf("batch without turbine: radius %v, Cp %v; want 0, 0", none.Curve.RotorRadius, none.Curve.Bins[0].Cp)
	}
}
