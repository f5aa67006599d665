package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	turbineassets "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/internal/matreader"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// TestWorkbenchChannelsAndRuns: the channel list of a 520-channel run
// carries module groups and marks the INVALID channel, whose statistics
// row is marked and carries no numbers (also in CSV); the compare page
// without runs offers the recent runs instead of a bare 422, opens runs
// by name, and refuses an unknown or ambiguous name saying which.
func TestWorkbenchChannelsAndRuns(t *testing.T) {
	re := newResultEnv(t)
	batch := re.insertBatch(re.org.ID)
	a := re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.outb": wideOutb(t, 10, 1000)})
	re.nameRun(batch, a, "DLC1.2_V8.0_S1", 0)
	b := re.insertJob(re.org.ID, "succeeded", "", map[string]string{"run.outb": wideOutb(t, 10, 2000)})
	c := re.insertJob(re.org.ID, "succeeded", "", map[string]string{"run.outb": wideOutb(t, 10, 3000)})

	chans := callJSON[[]handlers.ChannelInfo](t, re, "GET", "/analysis/jobs/"+a+"/channels", "")
	groups := map[string]string{}
	var invalid []string
	for _, ch := range chans {
		groups[ch.Name] = ch.Group
		if ch.Invalid {
			invalid = append(invalid, ch.Name)
		}
	}
	if len(chans) != 520 || groups["TwrBsMyt"] != "tower" || groups["Spn4MLyb2"] != "blade 2" || groups["AB3N010Cl"] != "blade 3" ||
		groups["GenPwr"] != "drivetrain" || strings.Join(invalid, ",") != "Spn1MLxb1" {
		t.Fatalf("%d channels, groups %q %q %q %q, invalid %v", len(chans), groups["TwrBsMyt"], groups["Spn4MLyb2"], groups["AB3N010Cl"], groups["GenPwr"], invalid)
	}

	st := callJSON[handlers.StatisticsResponse](t, re, "POST", "/analysis/jobs/"+a+"/statistics", `{"channels":["Spn1MLxb1","GenPwr"],"wohler_exponents":[4]}`)
	if !st.Channels[0].Invalid || st.Channels[0].DELs != nil || st.Channels[1].Invalid || st.Channels[1].Mean < 999 || len(st.Channels[1].DELs) != 1 {
		t.Fatalf("statistics: %+v", st.Channels)
	}
	resp, body := re.call(re.token, "POST", "/analysis/jobs/"+a+"/statistics?format=csv", `{"channels":["Spn1MLxb1","GenPwr"],"wohler_exponents":[4]}`)
	lines := strings.Split(strings.TrimSpace(body), "\n")
	if resp.StatusCode != 200 || len(lines) != 3 || lines[0] != "channel,unit,n,min,max,mean,std,del_m4" || lines[1] != "Spn1MLxb1,INVALID,101" {
		t.Fatalf("statistics CSV %d: %q", resp.StatusCode, lines)
	}

	page := func(path string) (int, string) {
		t.Helper()
		resp, body := re.call(re.token, "GET", path, "", "Accept", "text/html")
		return resp.StatusCode, body
	}
	config := func(body string) map[string]any {
		t.Helper()
		_, rest, ok := strings.Cut(body, `<script id="analysis-config" type="application/json">`)
		js, _, ok2 := strings.Cut(rest, "</script>")
		var cfg map[string]any
		if !ok || !ok2 || json.Unmarshal([]byte(js), &cfg) != nil {
			t.Fatalf("no analysis-config in the page")
		}
		return cfg
	}
	runNames := func(cfg map[string]any) string {
		var out []string
		for _, r := range cfg["runs"].([]any) {
			out = append(out, r.(map[string]any)["name"].(string))
		}
		return strings.Join(out, ",")
	}

	// No runs: a chooser of the recent runs, not an error.
	status, body := page("/analysis/compare")
	if status != http.StatusOK || !strings.Contains(body, `id="compare-chooser"`) || !strings.Contains(body, `value="DLC1.2_V8.0_S1"`) {
		t.Fatalf("compare without runs: %d", status)
	}
	// By name; runs without a batch name share the entrypoint's name and
	// are told apart by their job id.
	nameB, nameC := "Main.fst · "+b[:8], "Main.fst · "+c[:8]
	status, body = page("/analysis/compare?run=DLC1.2_V8.0_S1&run=" + strings.ReplaceAll(nameB, " ", "+") + "&run=" + c[:8])
	if status != http.StatusOK {
		t.Fatalf("compare by name: %d", status)
	}
	if got := runNames(config(body)); got != "DLC1.2_V8.0_S1,"+nameB+","+nameC {
		t.Fatalf("compare runs %q", got)
	}
	for path, want := range map[string]string{
		"/analysis/compare?run=DLC9.9":       `no succeeded run is named \"DLC9.9\"`,
		"/analysis/compare?run=Main.fst":     `2 runs are named \"Main.fst\"`,
		"/analysis/jobs/" + a + "?ch=GenPwr": "",
	} {
		resp, body := re.call(re.token, "GET", path, "")
		if want == "" {
			if resp.StatusCode != http.StatusOK {
				t.Errorf("%s: %d %s", path, resp.StatusCode, body)
			}
			continue
		}
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, want) {
			t.Errorf("%s: %d %s, want 422 with %s", path, resp.StatusCode, body, want)
		}
	}
}

// insertDeckJob stores a succeeded job whose input tree is dir (main file
// entry) and whose output is the .outb at outb.
func (re *resultEnv) insertDeckJob(dir, entry, outb string) string {
	re.t.Helper()
	ctx := context.Background()
	inKey, err := re.trees.Put(ctx, dir)
	if err != nil {
		re.t.Fatal(err)
	}
	outDir := re.t.TempDir()
	b, err := os.ReadFile(outb)
	if err != nil {
		re.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outDir, "run.outb"), b, 0o600); err != nil {
		re.t.Fatal(err)
	}
	outKey, err := re.trees.Put(ctx, outDir)
	if err != nil {
		re.t.Fatal(err)
	}
	var id string
	err = re.db.GetContext(ctx, &id, `INSERT INTO jobs (organization_id, status, entrypoint, input_key, output_key,
		output_files, t_max, price_cents, tokens, charge_month, finished_at)
		VALUES ($1, 'succeeded', $2, $3, $4, '["run.outb"]', 60, 0, 60, date_trunc('month', now())::date, now()) RETURNING id`,
		re.org.ID, entry, inKey, outKey)
	if err != nil {
		re.t.Fatal(err)
	}
	return id
}

// nrel5MWDeck writes the bundled NREL 5 MW land deck into a new directory
// with the steady hub-height wind set to speed (m/s); it returns the
// directory and the main file.
func nrel5MWDeck(t *testing.T, speed float64) (string, string) {
	t.Helper()
	catalog, err := decks.NewBundledDemos(turbineassets.FS)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tb, err := catalog.Build("nrel-5mw-land", dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := deck.LoadIn(dir, *tb.MainFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range d.Files {
		if f.Role != "InflowWind" {
			continue
		}
		path := f.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(d.Path), filepath.FromSlash(f.Path))
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		found := false
		for i, l := range lines {
			if fields := strings.Fields(l); len(fields) > 1 && fields[1] == "HWindSpeed" {
				lines[i] = fmt.Sprintf("%g   HWindSpeed   - Horizontal wind speed (m/s)", speed)
				found = true
			}
		}
		if !found {
			t.Fatalf("no HWindSpeed in %s", f.Path)
		}
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
			t.Fatal(err)
		}
		return dir, *tb.MainFile
	}
	t.Fatal("the NREL 5 MW deck names no InflowWind file")
	return "", ""
}

// TestWorkbenchSettingsDifferences: two runs of the NREL 5 MW deck at 8
// and 12 m/s compared side by side show InflowWind HWindSpeed 8 against 12
// above the plots, and nothing the runs share.
func TestWorkbenchSettingsDifferences(t *testing.T) {
	re := newResultEnv(t)
	dirA, main := nrel5MWDeck(t, 8)
	dirB, _ := nrel5MWDeck(t, 12)
	a := re.insertDeckJob(dirA, main, syntheticOutb(t, 8, 1000))
	b := re.insertDeckJob(dirB, main, syntheticOutb(t, 12, 3000))
	resp, body := re.call(re.token, "GET", "/analysis/compare?run="+a+"&run="+b, "", "Accept", "text/html")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("compare: %d %s", resp.StatusCode, body)
	}
	_, table, ok := strings.Cut(body, `<table id="settings-table"`)
	if !ok {
		t.Fatalf("no settings table: %s", body)
	}
	table, _, _ = strings.Cut(table, "</table>")
	rows := regexp.MustCompile(`data-setting="([^"]+)"`).FindAllStringSubmatch(table, -1)
	if len(rows) != 1 || rows[0][1] != "InflowWind HWindSpeed" ||
		!regexp.MustCompile(`InflowWind HWindSpeed</td><td[^>]*>8</td><td[^>]*>12</td>`).MatchString(table) {
		t.Fatalf("differences: %v in %s", rows, table)
	}
}

// TestSpectrumOptions checks the spectrum options against hand
// computations. GenPwr of the synthetic run is 2000 + 10·sin(2π·0.6 t) kW
// at 20 Hz over 100 s. Asking for 0.05 Hz resolution gives segments of
// 1/0.05 = 20 s = 400 samples, five of them without overlap; 0.6 Hz is
// bin 12 and each segment holds 12 whole periods, so with a rectangular
// window all of the sine's mean square (10²/2 = 50 kW²) falls in that
// bin: PSD(0.6 Hz) = 50 / 0.05 = 1000 kW²/Hz and ≈ 0 elsewhere. f_max
// keeps 0…1 Hz (21 points); the Nyquist frequency is 10 Hz. The run's
// deck (NREL 5 MW) gives the natural frequencies to mark.
func TestSpectrumOptions(t *testing.T) {
	re := newResultEnv(t)
	dir, main := nrel5MWDeck(t, 8)
	id := re.insertDeckJob(dir, main, syntheticOutb(t, 8, 2000))
	sp := callJSON[handlers.SpectrumResponse](t, re, "POST", "/analysis/jobs/"+id+"/spectrum",
		`{"channel":"GenPwr","window":"rectangular","overlap":0,"resolution":0.05,"f_max":1,"natural_frequencies":true,"t_start":0}`)
	s := sp.Spectra[0]
	if s.SegmentLength != 400 || s.Segments != 5 || s.Resolution != 0.05 || sp.Nyquist != 10 || len(s.Frequency) != 21 || s.Frequency[20] != 1 {
		t.Fatalf("segment %d × %d, resolution %g, Nyquist %g, %d frequencies up to %g", s.SegmentLength, s.Segments, s.Resolution, sp.Nyquist, len(s.Frequency), s.Frequency[len(s.Frequency)-1])
	}
	for i, f := range s.Frequency {
		want := 0.0
		if math.Abs(f-0.6) < 1e-9 {
			want = 1000
		}
		// 0.01 kW²/Hz: the .outb stores GenPwr as 16-bit integers over its
		// 20 kW range (0.3 W steps).
		if math.Abs(s.Values[i]-want) > 0.01 {
			t.Errorf("PSD(%g Hz) = %g kW²/Hz, want %g", f, s.Values[i], want)
		}
	}
	nf := sp.NaturalFrequencies
	if nf == nil || nf.TowerForeAft < 0.3 || nf.TowerForeAft > 0.37 || nf.BladeEdge < 1 || nf.BladeEdge > 1.2 {
		t.Fatalf("natural frequencies %+v (%s)", nf, sp.NaturalFrequenciesNote)
	}
	for body, want := range map[string]string{
		`{"channel":"GenPwr","resolution":0.001}`:                   "resolution: 0.001 Hz needs 1000 s of samples; the window holds 70 s",
		`{"channel":"GenPwr","resolution":0.1,"segment_length":64}`: "give either resolution or segment_length",
		`{"channel":"GenPwr","f_min":2,"f_max":1}`:                  "f_min: 2 Hz is not below f_max 1 Hz",
	} {
		resp, got := re.call(re.token, "POST", "/analysis/jobs/"+id+"/spectrum", body)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, want) {
			t.Errorf("%s: %d %s, want 422 with %q", body, resp.StatusCode, got, want)
		}
	}
}

// TestJobFatigue checks the per-run fatigue answer against the ASTM
// E1049-85 §5.4.4 example worked by hand. Its cycles (range × count) are
// 3 × ½, 4 × ½, 4 × 1, 8 × ½, 9 × ½, 8 × ½, 6 × ½: 4 cycles, 6 of them
// halves, the largest range 9. Σ n·S³ = 13.5 + 32 + 64 + 256 + 364.5 +
// 256 + 108 = 1094, so at N_eq = 10 the m = 3 DEL is (1094/10)^(1/3);
// at the default f_eq = 1 Hz over the 8-s record N_eq = 8. Three range
// bins over [0, 9]: [0, 3) none, [3, 6) ½ + ½ + 1, [6, 9] 4 × ½.
func TestJobFatigue(t *testing.T) {
	re := newResultEnv(t)
	chans := []outfile.Channel{{Name: "RootMyb1", Unit: "kN-m"}, {Name: "RotSpeed", Unit: "rpm"}}
	src := textOut(t, chans, 161, func(c, i int) float64 { return []float64{astmHistory(i), 12.1}[c] })
	id := re.insertJob(re.org.ID, "succeeded", "", map[string]string{"run.out": src})
	base := "/analysis/jobs/" + id + "/fatigue"

	sum := func(m float64) float64 {
		s := 0.0
		for _, c := range [][2]float64{{3, .5}, {4, .5}, {4, 1}, {8, .5}, {9, .5}, {8, .5}, {6, .5}} {
			s += c[1] * math.Pow(c[0], m)
		}
		return s
	}
	if sum(3) != 1094 {
		t.Fatalf("hand sum %g", sum(3))
	}
	// t_start=0: the whole 8-s record (the default leaves out its first
	// half as a start-up transient).
	f := callJSON[handlers.FatigueResponse](t, re, "POST", base, `{"channels":["RootMyb1","RotSpeed"],"wohler_exponents":[3,10],"equivalent_cycles":10,"range_bins":3,"t_start":0}`)
	c := f.Channels[0]
	if f.Duration != 8 || f.EquivalentCycles != 10 || c.Cycles != 4 || c.HalfCycles != 6 || c.MaxRange != 9 ||
		fmt.Sprint(c.Rainflow.RangeEdges) != "[0 3 6 9]" || fmt.Sprint(c.Rainflow.Counts) != "[0 2 2]" {
		t.Fatalf("fatigue %+v", f)
	}
	for i, m := range []float64{3, 10} {
		if want := math.Pow(sum(m)/10, 1/m); !relClose(c.DELs[i].Value, want, 1e-12) || c.DELs[i].DamageSum != sum(m) {
			t.Errorf("DEL m=%g: %v, want %v", m, c.DELs[i].Value, want)
		}
	}
	if rs := f.Channels[1]; rs.Cycles != 0 || rs.DELs[0].Value != 0 {
		t.Errorf("constant RotSpeed: %+v", rs)
	}
	// Defaults: the main load channels (RootMyb1), m = 3, 4, 5, 10,
	// f_eq = 1 Hz over T = 8 s.
	f = callJSON[handlers.FatigueResponse](t, re, "POST", base, `{"t_start":0}`)
	if len(f.Channels) != 1 || len(f.Channels[0].DELs) != 4 || f.EquivalentCycles != 8 ||
		!relClose(f.Channels[0].DELs[0].Value, math.Cbrt(1094.0/8), 1e-12) || f.RangeBins != 100 {
		t.Fatalf("defaults: %+v", f)
	}
	resp, body := re.call(re.token, "POST", base+"?format=csv", `{"wohler_exponents":[3],"equivalent_cycles":10}`)
	if resp.StatusCode != 200 || !strings.HasPrefix(body, "channel,unit,m,del,equivalent_cycles,cycles,half_cycles,max_range,goodman\nRootMyb1,kN-m,3,") {
		t.Errorf("CSV %d: %s", resp.StatusCode, body)
	}
	for req, want := range map[string]string{
		`{"equivalent_cycles":10,"equivalent_frequency":1}`: "either equivalent_cycles or equivalent_frequency",
		`{"equivalent_cycles":0}`:                           "equivalent_cycles: 0 is not a positive count",
		`{"wohler_exponents":[40]}`:                         "wohler_exponents: 40 is not in (0, 30]",
	} {
		resp, got := re.call(re.token, "POST", base, req)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, want) {
			t.Errorf("%s: %d %s, want 422 with %q", req, resp.StatusCode, got, want)
		}
	}
}

// TestJobExport exports two channels of 10–20 s of a run as .mat, .out and
// CSV: the .mat read back by internal/matreader (a reader of the Level 5
// format written from its specification, apart from the writer) holds the same samples
// as the time-series endpoint; the .out reads back with solver/outfile;
// the CSV has a header and one row per sample.
func TestJobExport(t *testing.T) {
	re := newResultEnv(t)
	id := re.insertJob(re.org.ID, "succeeded", "", map[string]string{"run.outb": syntheticOutb(t, 8, 2000)})
	ts := callJSON[handlers.TimeSeries](t, re, "POST", "/analysis/jobs/"+id+"/time-series", `{"channels":["GenPwr","RootMyb1"],"t_start":10,"t_end":20}`)
	q := "/analysis/jobs/" + id + "/export?channels=GenPwr,RootMyb1&t_start=10&t_end=20&format="

	resp, body := re.call(re.token, "GET", q+"mat", "")
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Disposition"), `filename=run-`+id[:8]+`-10s-20s.mat`) {
		t.Fatalf("mat: %d %s", resp.StatusCode, resp.Header.Get("Content-Disposition"))
	}
	vars, err := matreader.Read([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	ch := vars["Channels"]
	if ch.Rows != 201 || ch.Cols != 3 || strings.Join(vars["ChanName"].Strings, ",") != "Time,GenPwr,RootMyb1" || strings.Join(vars["ChanUnit"].Strings, ",") != "s,kW,kN-m" {
		t.Fatalf("mat: Channels %d × %d, names %v, units %v", ch.Rows, ch.Cols, vars["ChanName"].Strings, vars["ChanUnit"].Strings)
	}
	for i := 0; i < 201; i++ {
		if ch.Values[i] != ts.Time[i] || ch.Values[201+i] != ts.Series[0].Values[i] || ch.Values[402+i] != ts.Series[1].Values[i] {
			t.Fatalf("mat row %d: %v %v %v, want %v %v %v", i, ch.Values[i], ch.Values[201+i], ch.Values[402+i], ts.Time[i], ts.Series[0].Values[i], ts.Series[1].Values[i])
		}
	}

	resp, body = re.call(re.token, "GET", q+"out", "")
	f, err := outfile.ReadText(strings.NewReader(body))
	if resp.StatusCode != 200 || err != nil || f.NumRows() != 201 || len(f.Channels) != 2 || f.Channels[1].Unit != "kN-m" {
		t.Fatalf("out: %d %v", resp.StatusCode, err)
	}
	if v := f.Data[0][100]; math.Abs(v-ts.Series[0].Values[100]) > 1e-5*math.Abs(v) {
		t.Errorf("out GenPwr at 15 s %v, want %v", v, ts.Series[0].Values[100])
	}

	resp, body = re.call(re.token, "GET", q+"csv&downsample_factor=10", "")
	lines := strings.Split(strings.TrimSpace(body), "\n")
	if resp.StatusCode != 200 || len(lines) != 22 || lines[0] != "Time (s),GenPwr (kW),RootMyb1 (kN-m)" || !strings.HasPrefix(lines[1], "10,") {
		t.Fatalf("csv %d: %d lines, %q", resp.StatusCode, len(lines), lines[:min(2, len(lines))])
	}
	for path, want := range map[string]string{
		"format=xlsx":                     `format: \"xlsx\" is not one of out, csv, mat`,
		"format=csv&channels=Nope":        `unknown channels: \"Nope\"`,
		"format=mat&downsample_factor=-1": "downsample_factor: must be at least 1",
		"format=mat&t_start=abc":          `t_start: \"abc\" is not a number`,
	} {
		resp, got := re.call(re.token, "GET", "/analysis/jobs/"+id+"/export?"+path, "")
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, want) {
			t.Errorf("%s: %d %s, want 422 with %s", path, resp.StatusCode, got, want)
		}
	}
}
