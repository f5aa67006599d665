package handlers_test

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// textOut writes a 20 Hz text .out (OpenFAST ES10.3E2 values: the test
// signals below are exact in it) with the given channels, rows samples,
// value(c, i) the sample i of channel c.
func textOut(t *testing.T, chans []outfile.Channel, rows int, value func(c, i int) float64) string {
	t.Helper()
	f := outfile.NewFile("load spectra test", chans, rows)
	for i := range rows {
		row := make([]float64, len(chans))
		for c := range chans {
			row[c] = value(c, i)
		}
		if err := f.AppendRow(0.05*float64(i), row); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(t.TempDir(), "run.out")
	if err := outfile.WriteTextFile(p, f, outfile.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	return p
}

// astmPeaks is the ASTM E1049-85 §5.4.4 (Fig. 6) example load history.
var astmPeaks = []float64{-2, 1, -3, 5, -1, 3, -4, 4, -2}

// astmHistory is the example history sampled at 20 Hz, each excursion a
// straight line over 1 s (20 samples): 161 samples, 8 s.
func astmHistory(i int) float64 {
	k, s := i/20, i%20
	if k == len(astmPeaks)-1 {
		return astmPeaks[k]
	}
	a, b := astmPeaks[k], astmPeaks[k+1]
	return a + (b-a)*float64(s)/20
}

func TestJobLoadSpectra(t *testing.T) {
	// The records here are counted whole by hand: t_start=0 keeps their
	// first half, which the default window leaves out as a start-up transient.
	re := newResultEnv(t)
	chans := []outfile.Channel{{Name: "RootMyb1", Unit: "kN-m"}, {Name: "RotTorq", Unit: "kN-m"}, {Name: "RotSpeed", Unit: "rpm"}, {Name: "Wind1VelX", Unit: "m/s"}}
	src := textOut(t, chans, 161, func(c, i int) float64 {
		return []float64{astmHistory(i), 4180, 12.1, 8}[c]
	})
	job := re.insertJob(re.org.ID, "succeeded", "", map[string]string{"run.out": src})
	base := "/analysis/jobs/" + job

	// The standard's cycles placed by hand (range, mean, count): A-B
	// (3, −0.5, ½), B-C (4, −1, ½), E-F (4, 1, 1), C-D (8, 1, ½), and the
	// residue D-G (9, 0.5, ½), G-H (8, 0, ½), H-I (6, 1, ½). Ranges 0..9 in
	// [0,3) [3,6) [6,9], means −1..1 in [−1,0) [0,1]:
	//   [3,6) × [−1,0): ½ + ½;  [3,6) × [0,1]: 1;  [6,9] × [0,1]: ½·4.
	mk := callJSON[handlers.MarkovResponse](t, re, "POST", base+"/markov", `{"t_start":0,"channels":["RootMyb1"],"range_bins":3,"mean_bins":2}`)
	if len(mk.Channels) != 1 || mk.Duration != 8 {
		t.Fatalf("markov %+v", mk)
	}
	got := mk.Channels[0]
	want := [][]float64{{0, 0}, {1, 1}, {0, 2}}
	for i := range want {
		for j := range want[i] {
			if got.Counts[i][j] != want[i][j] {
				t.Errorf("cell [%d][%d] = %v, want %v", i, j, got.Counts[i][j], want[i][j])
			}
		}
	}
	if fmt.Sprint(got.RangeEdges) != "[0 3 6 9]" || fmt.Sprint(got.MeanEdges) != "[-1 0 1]" || got.TotalCycles != 4 ||
		got.Unit != "kN-m" || got.CountUnit != "cycles" {
		t.Errorf("edges %v × %v, total %v, unit %q, count unit %q", got.RangeEdges, got.MeanEdges, got.TotalCycles, got.Unit, got.CountUnit)
	}
	resp, body := re.call(re.token, "POST", base+"/markov?format=csv", `{"t_start":0,"channels":["RootMyb1"],"range_bins":3,"mean_bins":2}`)
	wantCSV := "channel,unit,range_low,range_high,mean_low,mean_high,count,count_unit\n" +
		"RootMyb1,kN-m,3,6,-1,0,1,cycles\nRootMyb1,kN-m,3,6,0,1,1,cycles\nRootMyb1,kN-m,6,9,0,1,2,cycles\n"
	if resp.StatusCode != 200 || body != wantCSV {
		t.Errorf("markov CSV %d:\n%s\nwant\n%s", resp.StatusCode, body, wantCSV)
	}
	// Defaults: the main load channels recorded (RootMyb1 here), 100 × 20.
	mk = callJSON[handlers.MarkovResponse](t, re, "POST", base+"/markov", `{"t_start":0}`)
	if len(mk.Channels) != 1 || mk.Channels[0].Channel != "RootMyb1" || mk.RangeBins != 100 || mk.MeanBins != 20 ||
		len(mk.Channels[0].Counts) != 100 || len(mk.Channels[0].Counts[0]) != 20 || mk.Channels[0].TotalCycles != 4 {
		t.Errorf("default markov: %d channels, %d × %d", len(mk.Channels), mk.RangeBins, mk.MeanBins)
	}

	// LDD of the history by hand: each excursion a → b lasts 1 s and
	// crosses each unit level between a and b in 1/|b − a| s.
	ld := callJSON[handlers.LoadDurationResponse](t, re, "POST", base+"/load-duration", `{"t_start":0,"channels":["RootMyb1","RotTorq"],"bins":9}`)
	if ld.SpeedChannel != "RotSpeed" || len(ld.Channels) != 2 {
		t.Fatalf("load duration %+v", ld)
	}
	hand := make([]float64, 9) // levels −4..5
	for k := 0; k+1 < len(astmPeaks); k++ {
		a, b := math.Min(astmPeaks[k], astmPeaks[k+1]), math.Max(astmPeaks[k], astmPeaks[k+1])
		for lvl := a; lvl < b; lvl++ {
			hand[int(lvl)+4] += 1 / (b - a)
		}
	}
	h := ld.Channels[0]
	for i := range hand {
		if !relClose(h.Duration[i], hand[i], 1e-12) {
			t.Errorf("RootMyb1 time in [%g, %g): %v s, want %v", h.Edges[i], h.Edges[i+1], h.Duration[i], hand[i])
		}
		// Constant speed: revolutions at a level = 12.1 rpm × its time.
		if !relClose(h.Revolutions[i], 12.1/60*hand[i], 1e-12) {
			t.Errorf("RootMyb1 revolutions in [%g, %g): %v, want %v", h.Edges[i], h.Edges[i+1], h.Revolutions[i], 12.1/60*hand[i])
		}
	}
	// LRD of a constant torque at a constant speed: speed × time, all at
	// the one level (bins span 4179.5..4180.5, so 4180 is bin 4 of 9).
	q := ld.Channels[1]
	for i := range q.Duration {
		wantT, wantR := 0.0, 0.0
		if q.Edges[i] <= 4180 && 4180 < q.Edges[i+1] {
			wantT, wantR = 8, 12.1*8/60
		}
		if !relClose(q.Duration[i], wantT, 1e-12) || !relClose(q.Revolutions[i], wantR, 1e-12) {
			t.Errorf("RotTorq bin %d: %v s, %v rev; want %v, %v", i, q.Duration[i], q.Revolutions[i], wantT, wantR)
		}
	}
	if !relClose(q.TotalRevolutions, 12.1*8/60, 1e-12) || q.TotalDuration != 8 || q.DurationUnit != "s" {
		t.Errorf("RotTorq totals %v rev, %v %s", q.TotalRevolutions, q.TotalDuration, q.DurationUnit)
	}
	// Default channels are the drivetrain torques; speed_channel "" asks
	// for no revolutions.
	ld = callJSON[handlers.LoadDurationResponse](t, re, "POST", base+"/load-duration", `{"t_start":0,"speed_channel":""}`)
	if len(ld.Channels) != 1 || ld.Channels[0].Channel != "RotTorq" || ld.Channels[0].Revolutions != nil || ld.SpeedChannel != "" {
		t.Errorf("default load duration %+v", ld)
	}
	resp, body = re.call(re.token, "POST", base+"/load-duration?format=csv", `{"t_start":0,"channels":["RotTorq"],"bins":2}`)
	if resp.StatusCode != 200 || !strings.HasPrefix(body, "channel,unit,level_low,level_high,duration,duration_unit,revolutions\nRotTorq,kN-m,4179.5,4180,0,s,0\nRotTorq,kN-m,4180,4180.5,8,s,1.61333") {
		t.Errorf("load duration CSV %d: %s", resp.StatusCode, body)
	}

	// Goodman on a job's DELs: every cycle's range / (1 − S_m/S_u).
	st := callJSON[handlers.StatisticsResponse](t, re, "POST", base+"/statistics",
		`{"t_start":0,"channels":["RootMyb1","RotTorq"],"wohler_exponents":[4],"ultimate_loads":{"RootMyb1":20}}`)
	hist := make([]float64, 161)
	for i := range hist {
		hist[i] = astmHistory(i)
	}
	// Independent damage sum from the standard's cycles: Σ n·(S/(1 − S_m/20))⁴ / 8 s.
	cycles := [][3]float64{{3, -0.5, 0.5}, {4, -1, 0.5}, {4, 1, 1}, {8, 1, 0.5}, {9, 0.5, 0.5}, {8, 0, 0.5}, {6, 1, 0.5}}
	var dGood, dPlain float64
	for _, c := range cycles {
		dGood += c[2] * math.Pow(c[0]/(1-c[1]/20), 4)
		dPlain += c[2] * math.Pow(c[0], 4)
	}
	r0, r1 := st.Channels[0], st.Channels[1]
	if r0.Goodman == nil || !*r0.Goodman || r0.UltimateLoad == nil || *r0.UltimateLoad != 20 || !relClose(r0.DELs[0].Value, math.Pow(dGood/8, 0.25), 1e-12) {
		t.Errorf("Goodman DEL %+v, want %v", r0, math.Pow(dGood/8, 0.25))
	}
	if r1.Goodman == nil || *r1.Goodman || r1.UltimateLoad != nil {
		t.Errorf("RotTorq without an ultimate load: %+v", r1)
	}
	st = callJSON[handlers.StatisticsResponse](t, re, "POST", base+"/statistics", `{"t_start":0,"channels":["RootMyb1"],"wohler_exponents":[4]}`)
	if !relClose(st.Channels[0].DELs[0].Value, math.Pow(dPlain/8, 0.25), 1e-12) || *st.Channels[0].Goodman {
		t.Errorf("plain DEL %+v, want %v", st.Channels[0], math.Pow(dPlain/8, 0.25))
	}

	for _, c := range []struct{ method, path, body, inDetail string }{
		// The history's cycle means reach 1: S_u = 1 leaves Goodman undefined.
		{"POST", "/statistics", `{"channels":["RootMyb1"],"wohler_exponents":[4],"ultimate_loads":{"RootMyb1":1}}`, "RootMyb1"},
		{"POST", "/statistics", `{"channels":["RootMyb1"],"wohler_exponents":[4],"ultimate_loads":{"RotTorq":1e4}}`, "RotTorq"},
		{"POST", "/statistics", `{"channels":["RootMyb1"],"wohler_exponents":[4],"ultimate_loads":{"RootMyb1":-5}}`, "RootMyb1"},
		{"POST", "/statistics", `{"channels":["RootMyb1"],"ultimate_loads":{"RootMyb1":50}}`, "wohler_exponents"},
		{"POST", "/markov", `{"channels":["RotTorq"]}`, "RotTorq"}, // constant: no cycles
		{"POST", "/markov", `{"channels":["Nope"]}`, "Nope"},
		{"POST", "/markov", `{"range_bins":1001}`, "range_bins"},
		{"POST", "/markov", `{"channels":["RootMyb1"],"range_bins":1000,"mean_bins":1000,"t_start":0}`, ""},
		{"POST", "/load-duration", `{"speed_channel":"GenSpeed"}`, "GenSpeed"},
		{"POST", "/load-duration", `{"bins":-1}`, "bins"},
	} {
		resp, body := re.call(re.token, c.method, base+c.path, c.body)
		if c.inDetail == "" {
			if resp.StatusCode != 200 {
				t.Errorf("%s %s: %d %s", c.path, c.body, resp.StatusCode, body)
			}
			continue
		}
		detail := assertDetail(t, resp, body, 422)
		if !strings.Contains(detail, c.inDetail) {
			t.Errorf("%s %s: detail %q does not name %s", c.path, c.body, detail, c.inDetail)
		}
	}
	// A job of another organization is 404.
	resp, body = re.call(re.token, "POST", "/analysis/jobs/00000000-0000-0000-0000-000000000000/markov", "{}")
	assertDetail(t, resp, body, 404)
}

// triangleOut is a run whose RootMyb1 alternates 1000 ± amp every sample
// (rows − 1 half cycles of range 2·amp about 1000), with a constant RotTorq
// and RotSpeed and a constant hub wind speed.
func triangleOut(t *testing.T, rows int, amp, torque, rpm, wind float64) string {
	chans := []outfile.Channel{{Name: "RootMyb1", Unit: "kN-m"}, {Name: "RotTorq", Unit: "kN-m"}, {Name: "RotSpeed", Unit: "rpm"},
		{Name: "Wind1VelX", Unit: "m/s"}, {Name: "GenPwr", Unit: "kW"}}
	return textOut(t, chans, rows, func(c, i int) float64 {
		load := 1000 - amp
		if i%2 == 1 {
			load = 1000 + amp
		}
		return []float64{load, torque, rpm, wind, 100 * wind}[c]
	})
}

func TestBatchLoadSpectra(t *testing.T) {
	re := newResultEnv(t)
	batch := re.insertBatch(re.org.ID)
	type run struct {
		name               string
		rows               int
		amp, torque, rpm   float64
		speed, windMeasure float64
	}
	runs := []run{
		{"DLC1.2_V8.0_S1_Y+0", 1201, 200, 2000, 9, 8, 8.1},   // 60 s, 600 cycles of range 400
		{"DLC1.2_V8.0_S2_Y+0", 801, 300, 2000, 9, 8, 7.9},    // 40 s, 400 cycles of range 600
		{"DLC1.2_V12.0_S1_Y+0", 1201, 500, 4000, 12, 12, 12}, // 60 s, 600 cycles of range 1000
	}
	for i, r := range runs {
		job := re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.out": triangleOut(t, r.rows, r.amp, r.torque, r.rpm, r.windMeasure)})
		re.nameRun(batch, job, r.name, i)
	}
	base := "/analysis/batches/" + batch
	// Weights by hand: Rayleigh V_ave = 8.5 m/s; bins 6–10 (two seeds) and
	// 10–14 m/s, normalised over the batch.
	F := func(v float64) float64 { return 1 - math.Exp(-math.Pi/4*(v/8.5)*(v/8.5)) }
	p8, p12 := F(10)-F(6), F(14)-F(10)
	w := []float64{p8 / 2 / (p8 + p12), p8 / 2 / (p8 + p12), p12 / (p8 + p12)}
	L := 25 * 8760 * 3600.0
	T := []float64{60, 40, 60}
	cyc := []float64{600, 400, 600}
	life := make([]float64, 3)
	for j := range life {
		life[j] = w[j] * L / T[j] * cyc[j]
	}

	// Ranges 0..1000 in 5 bins of 200: 400 → [400,600), 600 → [600,800),
	// 1000 → [800,1000]; every mean is 1000 (one mean bin).
	mk := callJSON[handlers.BatchMarkov](t, re, "GET", base+"/markov?t_start=0&channels=RootMyb1&range_bins=5&mean_bins=1&lifetime_years=25&distribution=rayleigh&mean_speed=8.5", "")
	if len(mk.Channels) != 1 || len(mk.Runs) != 3 || mk.LifetimeYears != 25 || mk.Channels[0].CountUnit != "cycles per lifetime" {
		t.Fatalf("batch markov %+v", mk)
	}
	wantCells := []float64{0, 0, life[0], life[1], life[2]}
	for i, c := range mk.Channels[0].Counts {
		if !relClose(c[0], wantCells[i], 1e-9) {
			t.Errorf("range bin %d: %v cycles per lifetime, want %v", i, c[0], wantCells[i])
		}
	}
	for j, r := range mk.Runs {
		if !relClose(r.Weight, w[j], 1e-12) || r.Duration != T[j] {
			t.Errorf("run %d weight %v duration %v, want %v, %v", j, r.Weight, r.Duration, w[j], T[j])
		}
	}
	// Consistency with /del: Σ count·Sᵐ over the lifetime matrix is
	// L·DEL_lifeᵐ at f_eq = 1 Hz.
	dl := callJSON[handlers.BatchDELs](t, re, "GET", base+"/del?t_start=0&exponents=4&channels=RootMyb1&distribution=rayleigh&mean_speed=8.5", "")
	damage := life[0]*math.Pow(400, 4) + life[1]*math.Pow(600, 4) + life[2]*math.Pow(1000, 4)
	if del := dl.Channels[0].Lifetime[0].DEL; !relClose(damage, L*math.Pow(del, 4), 1e-9) {
		t.Errorf("Σ n·S⁴ = %v, L·DEL⁴ = %v", damage, L*math.Pow(del, 4))
	}
	if dl.Channels[0].Goodman {
		t.Error("DEL without ultimate loads says goodman")
	}

	// LDD/LRD: the 8 m/s runs hold 2000 kN-m at 9 rpm, the 12 m/s run
	// 4000 kN-m at 12 rpm; two bins 2000..3000..4000.
	ld := callJSON[handlers.BatchLoadDuration](t, re, "GET", base+"/load-duration?t_start=0&bins=2&lifetime_years=25&distribution=rayleigh&mean_speed=8.5", "")
	if len(ld.Channels) != 1 || ld.Channels[0].Channel != "RotTorq" || ld.SpeedChannel != "RotSpeed" || ld.Channels[0].DurationUnit != "h" {
		t.Fatalf("batch load duration %+v", ld)
	}
	hours := 25 * 8760.0
	c := ld.Channels[0]
	wantH := []float64{(w[0] + w[1]) * hours, w[2] * hours}
	wantRev := []float64{(w[0] + w[1]) * L * 9 / 60, w[2] * L * 12 / 60}
	for i := range wantH {
		if !relClose(c.Duration[i], wantH[i], 1e-12) || !relClose(c.Revolutions[i], wantRev[i], 1e-12) {
			t.Errorf("bin %d: %v h, %v rev; want %v, %v", i, c.Duration[i], c.Revolutions[i], wantH[i], wantRev[i])
		}
	}
	if !relClose(c.TotalDuration, hours, 1e-12) {
		t.Errorf("total %v h, want the lifetime %v h", c.TotalDuration, hours)
	}
	resp, body := re.call(re.token, "GET", base+"/load-duration?t_start=0&bins=2&format=csv", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(body, "channel,unit,level_low,level_high,duration,duration_unit,revolutions\nRotTorq,kN-m,2000,3000,") {
		t.Errorf("batch LDD CSV %d: %s", resp.StatusCode, body)
	}

	// Goodman on the batch DELs: every cycle's mean is 1000, so with
	// S_u = 5000 every range and the lifetime DEL grow by 1/(1 − 0.2).
	gd := callJSON[handlers.BatchDELs](t, re, "GET", base+"/del?t_start=0&exponents=4&channels=RootMyb1&distribution=rayleigh&mean_speed=8.5&ultimate_loads=RootMyb1:5000", "")
	if g := gd.Channels[0]; !g.Goodman || g.UltimateLoad != 5000 || !relClose(g.Lifetime[0].DEL, 1.25*dl.Channels[0].Lifetime[0].DEL, 1e-12) {
		t.Errorf("Goodman lifetime DEL %+v, want 1.25 × %v", g, dl.Channels[0].Lifetime[0].DEL)
	}
	resp, body = re.call(re.token, "GET", base+"/del?t_start=0&exponents=4&channels=RootMyb1&ultimate_loads=RootMyb1:5000&format=csv", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(body, "channel,unit,exponent,lifetime_del,arithmetic_mean,goodman,ultimate_load\nRootMyb1,kN-m,4,") ||
		!strings.Contains(body, ",true,5000\n") {
		t.Errorf("Goodman DEL CSV %d: %s", resp.StatusCode, body)
	}

	// AEP availability: net = availability × gross.
	gross := callJSON[handlers.BatchAEP](t, re, "GET", base+"/aep?t_start=0&binning=grid&distribution=rayleigh&mean_speed=8.5", "")
	net := callJSON[handlers.BatchAEP](t, re, "GET", base+"/aep?t_start=0&binning=grid&distribution=rayleigh&mean_speed=8.5&availability=0.97", "")
	if gross.AEP.Availability != 1 || net.AEP.Availability != 0.97 || !relClose(net.AEP.MWhPerYear, 0.97*gross.AEP.MWhPerYear, 1e-12) ||
		net.AEP.GrossMWhPerYear != gross.AEP.MWhPerYear || !(gross.AEP.MWhPerYear > 0) {
		t.Errorf("AEP gross %+v, net %+v", gross.AEP, net.AEP)
	}

	for _, c := range []struct{ path, inDetail string }{
		{"/del?exponents=4&channels=RootMyb1&ultimate_loads=RootMyb1:1000", "RootMyb1"}, // S_m = S_u
		{"/del?exponents=4&channels=RootMyb1&ultimate_loads=RotTorq:1e5", "RotTorq"},    // not analysed
		{"/del?exponents=4&channels=RootMyb1&ultimate_loads=RootMyb1", "ultimate_loads"},
		{"/del?exponents=4&channels=RootMyb1&ultimate_loads=RootMyb1:0", "RootMyb1"},
		{"/aep?availability=0", "availability"},
		{"/aep?availability=1.01", "availability"},
		{"/aep?availability=-0.5", "availability"},
		{"/markov?range_bins=0", "range_bins"},
		{"/markov?mean_bins=abc", "mean_bins"},
		{"/markov?lifetime_years=0", "lifetime_years"},
		{"/markov?channels=RotTorq", "RotTorq"}, // constant: no cycles
		{"/load-duration?speed_channel=GenSpeed", "GenSpeed"},
		{"/load-duration?channels=Nope", "Nope"},
	} {
		resp, body := re.call(re.token, "GET", base+c.path, "")
		detail := assertDetail(t, resp, body, 422)
		if !strings.Contains(detail, c.inDetail) {
			t.Errorf("%s: detail %q does not name %s", c.path, detail, c.inDetail)
		}
	}
	pending := re.insertBatch(re.org.ID)
	re.insertJob(re.org.ID, "running", pending, nil)
	for _, ep := range []string{"/markov", "/load-duration"} {
		resp, body := re.call(re.token, "GET", "/analysis/batches/"+pending+ep, "")
		assertDetail(t, resp, body, 409)
		resp, body = re.call(re.token, "GET", "/analysis/batches/not-a-uuid"+ep, "")
		assertDetail(t, resp, body, 404)
	}
}
