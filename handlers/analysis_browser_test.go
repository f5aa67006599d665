package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/turbinesim/turbinesim/internal/testbrowser"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// TestBrowserJobResults opens the results page of a finished job (1000 s
// at 20 Hz written with solver/outfile), sees RotSpeed and GenPwr plotted,
// zooms into 40–45 s and gets the full-rate samples of that window, the
// statistics of the window, downloads the window's samples as CSV, and the
// PSD with its 1P/3P/6P marks; then the
// older comparison link draws two jobs on one chart.
func TestBrowserJobResults(t *testing.T) {
	t.Parallel()
	re := newResultEnv(t)
	id := re.insertJob(re.org.ID, "succeeded", "", map[string]string{"run.outb": syntheticOutbRows(t, 8, 2000, 20001)})
	id2 := re.insertJob(re.org.ID, "succeeded", "", map[string]string{"run.outb": syntheticOutb(t, 10, 3000)})

	ctx := newBrowser(t)
	poll := func(expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
			errText, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("analysis-error") ? document.getElementById("analysis-error").textContent : ""`))
			t.Fatalf("waiting for %s: %v (page error %q)", expr, err, errText)
		}
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(re.http.URL+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), re.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#org-name")),
		chromedp.Navigate(re.http.URL+"/analysis/jobs/"+id),
	)
	if err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 15*time.Second)
	defer wcancel()
	if err := chromedp.Do(wctx, chromedp.WaitVisible(chromedp.CSS("#channel-filter"))); err != nil {
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf("results page: %v: %s", err, body)
	}
	poll(`document.getElementById("ts-chart").dataset.plotted === "1"`)
	names, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`echarts.getInstanceByDom(document.getElementById("ts-chart")).getOption().series.map(s => s.name).join(",")`))
	if err != nil || names != "RotSpeed,GenPwr" {
		t.Fatalf("plotted series %q (%v), want RotSpeed,GenPwr", names, err)
	}
	label, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#channel-list li[data-channel="GenPwr"]').textContent`))
	if err != nil || label != "GenPwrkWdrivetrain" {
		t.Fatalf("picker label %q (%v)", label, err)
	}
	// Overview: 20001 rows in about 2000 envelope buckets, so 40–45 s
	// holds far fewer than its 101 samples.
	countIn := `(() => { const d = echarts.getInstanceByDom(document.getElementById("ts-chart")).getOption().series[1].data;
		return d.filter(p => p[0] >= 40 && p[0] <= 45).length; })()`
	before, err := chromedp.Run(ctx, chromedp.Evaluate[int](countIn))
	if err != nil || before >= 101 {
		t.Fatalf("overview has %d points in 40–45 s (%v)", before, err)
	}

	// Unzoomed, the statistics leave out the start-up transient and the
	// page says so (the service's analysis_window).
	poll(`document.getElementById("stats-window").textContent.startsWith("t = 30.00") && document.getElementById("stats-window").textContent.includes("(start-up transient removed)")`)

	// Zoom in: the page asks for the window at full rate.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](
		`echarts.getInstanceByDom(document.getElementById("ts-chart")).dispatchAction({type: "dataZoom", startValue: 40, endValue: 45}) || true`)); err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("ts-chart").dataset.fine === "1"`)
	after, err := chromedp.Run(ctx, chromedp.Evaluate[int](countIn))
	if err != nil || after != 101 {
		t.Fatalf("after zooming %d points in 40–45 s (%v), want all 101 samples", after, err)
	}

	// Statistics of the visible window.
	poll(`document.getElementById("stats-window").textContent.includes("40.00")`)
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`Array.from(document.querySelectorAll("#stats-body tr")).map(r => r.cells[1].textContent + "=" + r.cells[4].textContent).join(";")`))
	if err != nil || !strings.HasPrefix(rows, "RotSpeed=12;GenPwr=") {
		t.Fatalf("statistics rows %q (%v)", rows, err)
	}

	// The visible window's samples as CSV: 40–45 s at full rate is 101 rows
	// of Time, RotSpeed and GenPwr under a header.
	dl := t.TempDir()
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior,
		browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dl}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, testbrowser.ClickCSS("#series-csv")); err != nil {
		t.Fatal(err)
	}
	csvPath := filepath.Join(dl, "time-series-"+id+".csv")
	var csvText []byte
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if csvText, err = os.ReadFile(csvPath); err == nil && bytes.HasSuffix(csvText, []byte("\n")) {
			break
		}
	}
	if lines := strings.Split(strings.TrimSpace(string(csvText)), "\n"); len(lines) != 102 ||
		lines[0] != "Time (s),RotSpeed (rpm),GenPwr (kW)" || !strings.HasPrefix(lines[1], "40,12,") {
		t.Fatalf("series CSV download (%v): %d lines, %q", err, len(lines), lines[:min(2, len(lines))])
	}

	// The PSD of GenPwr with the rotor harmonics marked.
	poll(`document.getElementById("psd-chart").dataset.plotted === "1"`)
	marks, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("psd-chart").dataset.harmonics`))
	if err != nil || marks != "1P,3P,6P" {
		t.Fatalf("PSD harmonics %q (%v)", marks, err)
	}
	psdName, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`echarts.getInstanceByDom(document.getElementById("psd-chart")).getOption().series[0].name`))
	if err != nil || psdName != "GenPwr" {
		t.Fatalf("PSD of %q (%v)", psdName, err)
	}

	// The older comparison link (job ids and one channel) still opens:
	// both jobs' GenPwr on one subplot.
	if err := chromedp.Do(ctx, chromedp.Navigate(re.http.URL+"/analysis/compare?jobs="+id+","+id2+"&channel=GenPwr")); err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("ts-chart").dataset.plotted === "1"`)
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`echarts.getInstanceByDom(document.getElementById("ts-chart")).getOption().series.length`))
	if err != nil || n != 2 {
		t.Fatalf("compare page: %d series (%v), want 2", n, err)
	}
}

// TestBrowserBatchFatigueSpectra opens a batch's results page in Chromium:
// the lifetime LDD chart of RotTorq is drawn by ECharts from its JSON
// option, and the fatigue section's links, fetched with the browser's
// session, answer 200 with JSON and CSV.
func TestBrowserBatchFatigueSpectra(t *testing.T) {
	t.Parallel()
	re := newResultEnv(t)
	batch := re.insertBatch(re.org.ID)
	for i, r := range []struct {
		name   string
		amp, v float64
	}{{"DLC1.2_V8.0_S1_Y+0", 200, 8}, {"DLC1.2_V12.0_S1_Y+0", 500, 12}} {
		job := re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.out": triangleOut(t, 401, r.amp, 1000*r.v, 10, r.v)})
		re.nameRun(batch, job, r.name, i)
	}
	ctx := newBrowser(t)
	err := chromedp.Do(ctx,
		chromedp.Navigate(re.http.URL+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), re.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#org-name")),
		chromedp.Navigate(re.http.URL+"/analysis/batches/"+batch),
		chromedp.WaitVisible(chromedp.CSS("#fatigue-spectra")),
	)
	if err != nil {
		t.Fatal(err)
	}
	title := `(() => { const c = echarts.getInstanceByDom(document.getElementById("ldd-0")); return c ? c.getOption().title[0].text : ""; })()`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](title+` === "Load duration, RotTorq"`, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](title))
		t.Fatalf("LDD chart title %q (%v)", got, err)
	}
	for _, id := range []string{"markov-json", "markov-csv", "ldd-json", "ldd-csv"} {
		js := `fetch(document.getElementById("` + id + `").href).then(r => r.status + " " + r.headers.get("content-type"))`
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
		want := "200 application/json"
		if strings.HasSuffix(id, "csv") {
			want = "200 text/csv"
		}
		if err != nil || !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q (%v), want %s", id, got, err, want)
		}
	}
}

// wideChannels are 520 output channels named as OpenFAST names them:
// operating channels, blade span stations, AeroDyn blade nodes and tower
// gauges; Spn1MLxb1 is INVALID, as OpenFAST writes a strain gauge the
// blade does not have.
func wideChannels() []outfile.Channel {
	chans := []outfile.Channel{{Name: "Wind1VelX", Unit: "m/s"}, {Name: "Wind1VelY", Unit: "m/s"}, {Name: "Wind1VelZ", Unit: "m/s"},
		{Name: "RotSpeed", Unit: "rpm"}, {Name: "GenPwr", Unit: "kW"}, {Name: "GenTq", Unit: "kN-m"}, {Name: "RotThrust", Unit: "kN"},
		{Name: "RotTorq", Unit: "kN-m"}, {Name: "BldPitch1", Unit: "deg"}, {Name: "BldPitch2", Unit: "deg"}, {Name: "BldPitch3", Unit: "deg"},
		{Name: "NacYaw", Unit: "deg"}, {Name: "TwrBsMxt", Unit: "kN-m"}, {Name: "TwrBsMyt", Unit: "kN-m"}, {Name: "TwrBsMzt", Unit: "kN-m"},
		{Name: "YawBrFxp", Unit: "kN"}, {Name: "YawBrFyp", Unit: "kN"}, {Name: "YawBrMyp", Unit: "kN-m"}}
	for b := 1; b <= 3; b++ {
		for _, q := range []string{"RootMxb", "RootMyb", "RootMzb", "RootFxb", "RootFyb", "TipDxc", "TipDyc"} {
			chans = append(chans, outfile.Channel{Name: fmt.Sprintf("%s%d", q, b), Unit: map[bool]string{true: "m", false: "kN-m"}[strings.HasPrefix(q, "Tip")]})
		}
		for s := 1; s <= 9; s++ {
			for _, q := range []string{"MLx", "MLy", "FLz"} {
				unit := "kN-m"
				if q == "FLz" {
					unit = "kN"
				}
				if b == 1 && s == 1 && q == "MLx" {
					unit = outfile.InvalidUnit
				}
				chans = append(chans, outfile.Channel{Name: fmt.Sprintf("Spn%d%sb%d", s, q, b), Unit: unit})
			}
		}
	}
	for h := 1; h <= 9; h++ {
		for _, q := range []string{"MLxt", "MLyt", "FLzt", "ALxt"} {
			chans = append(chans, outfile.Channel{Name: fmt.Sprintf("TwHt%d%s", h, q), Unit: "kN-m"})
		}
	}
	for n := 1; len(chans) < 520; n++ {
		for b := 1; b <= 3 && len(chans) < 520; b++ {
			for _, q := range []string{"Alpha", "Cl", "Cd", "VRel"} {
				if len(chans) < 520 {
					chans = append(chans, outfile.Channel{Name: fmt.Sprintf("AB%dN%03d%s", b, n, q), Unit: "-"})
				}
			}
		}
	}
	return chans
}

// wideOutb writes a 20 Hz .outb of the 520 wideChannels over duration
// seconds: GenPwr at power with a 0.6 Hz ripple, RotSpeed 12 rpm, the
// INVALID channel zeros, every other channel a sine of its own frequency.
func wideOutb(t testing.TB, duration, power float64) string {
	t.Helper()
	chans := wideChannels()
	rows := int(duration*20) + 1
	f := outfile.NewFile("workbench test", chans, rows)
	row := make([]float64, len(chans))
	for i := range rows {
		tm := 0.05 * float64(i)
		for c, ch := range chans {
			switch {
			case ch.Unit == outfile.InvalidUnit:
				row[c] = 0
			case ch.Name == "GenPwr":
				row[c] = power + 10*math.Sin(2*math.Pi*0.6*tm)
			case ch.Name == "RotSpeed":
				row[c] = 12
			default:
				row[c] = float64(c) + math.Sin(2*math.Pi*0.01*float64(c+1)*tm)
			}
		}
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

// TestBrowserWorkbench works through three 520-channel runs in Chromium:
// typing "TwrBsMyt" in the picker leaves one of 520 channels and Enter
// adds it; the INVALID Spn1MLxb1 is marked in the picker and in the
// statistics and never plotted; with the other two runs added by name the
// page overlays the three runs on two stacked subplots (GenPwr and
// TwrBsMyt) under their run names; zooming writes the window into the URL
// and a reload of that URL shows the same runs, channels and window; the
// spectrum's resolution and the fatigue table's exponents follow their
// fields; the .mat export link answers a MAT-file; the PNG export
// downloads a PNG image of the plot; ticking two runs on the jobs list and
// pressing Compare opens them together by name.
func TestBrowserWorkbench(t *testing.T) {
	t.Parallel()
	re := newResultEnv(t)
	batch := re.insertBatch(re.org.ID)
	var ids []string
	for i, name := range []string{"DLC1.2_V8.0_S1", "DLC1.2_V12.0_S1", "DLC1.2_V16.0_S1"} {
		id := re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.outb": wideOutb(t, 60, 1000*float64(i+1))})
		re.nameRun(batch, id, name, i)
		ids = append(ids, id)
	}
	ctx := newBrowser(t)
	poll := func(expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			errText, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("analysis-error") ? document.getElementById("analysis-error").textContent : ""`))
			t.Fatalf("waiting for %s: %v (page error %q)", expr, err, errText)
		}
	}
	eval := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	setFilter := func(v string) {
		t.Helper()
		js := `(() => { const f = document.getElementById("channel-filter"); f.value = ` + strconv.Quote(v) + `; f.dispatchEvent(new Event("input")); return true; })()`
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err != nil {
			t.Fatal(err)
		}
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(re.http.URL+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), re.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#org-name")),
		chromedp.Navigate(re.http.URL+"/analysis/jobs/"+ids[0]),
		chromedp.WaitVisible(chromedp.CSS("#channel-filter")),
	)
	if err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("ts-chart").dataset.plotted === "1"`)
	if got := eval(`document.querySelectorAll("#channel-list li").length + ""`); got != "520" {
		t.Fatalf("picker lists %s channels, want 520", got)
	}
	// Type to filter: one channel is left, Enter adds it to the plot.
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#channel-filter"), "TwrBsMyt")); err != nil {
		t.Fatal(err)
	}
	poll(`document.querySelectorAll("#channel-list li").length === 1`)
	if got := eval(`document.querySelector("#channel-list li").dataset.channel + " " + document.getElementById("channel-count").textContent`); got != "TwrBsMyt 1 of 520 channels" {
		t.Fatalf("filtered picker: %q", got)
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#channel-filter"), "\r")); err != nil {
		t.Fatal(err)
	}
	poll(`echarts.getInstanceByDom(document.getElementById("ts-chart")).getOption().series.map(s => s.name).join(",") === "RotSpeed,GenPwr,TwrBsMyt"`)
	// A module group and a unit narrow the list: blade 2's spanwise
	// moments in kN-m.
	setFilter("blade 2 spn kn-m")
	poll(`document.getElementById("channel-count").textContent.startsWith("18 of 520")`)
	// The INVALID channel is listed and marked; selected, it is in the
	// statistics as INVALID but not on the plot.
	setFilter("Spn1MLxb1")
	poll(`document.querySelectorAll("#channel-list li").length === 1 && document.querySelector("#channel-list li").dataset.invalid === "1"`)
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#channel-filter"), "\r")); err != nil {
		t.Fatal(err)
	}
	poll(`document.querySelector('#stats-body tr[data-channel="Spn1MLxb1"]') !== null`)
	if got := eval(`document.querySelector('#stats-body tr[data-channel="Spn1MLxb1"]').dataset.invalid + " " + echarts.getInstanceByDom(document.getElementById("ts-chart")).getOption().series.map(s => s.name).join(",")`); got != "1 RotSpeed,GenPwr,TwrBsMyt" {
		t.Fatalf("INVALID channel: %q, want marked in the statistics and absent from the plot", got)
	}
	// Recently used channels come first in the unfiltered list.
	setFilter("")
	poll(`document.querySelectorAll("#channel-list li").length === 520`)
	if got := eval(`Array.from(document.querySelectorAll("#channel-list li")).slice(0, 2).map(li => li.dataset.channel).join(",")`); got != "Spn1MLxb1,TwrBsMyt" {
		t.Fatalf("first channels %q, want the recently used Spn1MLxb1,TwrBsMyt", got)
	}

	// Three runs on two stacked subplots, opened by run names.
	url := re.http.URL + "/analysis/jobs/" + ids[0] + "?run=DLC1.2_V12.0_S1&run=DLC1.2_V16.0_S1&ch=GenPwr,TwrBsMyt"
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#channel-filter"))); err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("ts-chart").dataset.plotted === "1"`)
	layout := `(() => { const o = echarts.getInstanceByDom(document.getElementById("ts-chart")).getOption();
		return o.grid.length + " " + o.series.map(s => s.name + "@" + s.xAxisIndex).join(","); })()`
	want := "2 DLC1.2_V8.0_S1@0,DLC1.2_V12.0_S1@0,DLC1.2_V16.0_S1@0,DLC1.2_V8.0_S1@1,DLC1.2_V12.0_S1@1,DLC1.2_V16.0_S1@1"
	if got := eval(layout); got != want {
		t.Fatalf("overlay: %q, want %q", got, want)
	}
	if got := eval(`Array.from(document.querySelectorAll("#stats-body tr")).map(r => r.dataset.run + ":" + r.dataset.channel + "=" + r.cells[4].textContent).slice(0, 3).join(";")`); got != "DLC1.2_V8.0_S1:GenPwr=1000;DLC1.2_V12.0_S1:GenPwr=2000;DLC1.2_V16.0_S1:GenPwr=3000" {
		poll(`document.querySelectorAll("#stats-body tr").length === 6`)
		if got = eval(`Array.from(document.querySelectorAll("#stats-body tr")).map(r => r.dataset.run + ":" + r.dataset.channel + "=" + r.cells[4].textContent).slice(0, 3).join(";")`); got != "DLC1.2_V8.0_S1:GenPwr=1000;DLC1.2_V12.0_S1:GenPwr=2000;DLC1.2_V16.0_S1:GenPwr=3000" {
			t.Fatalf("statistics per run: %q", got)
		}
	}
	// Zoom: the window goes into the URL; reloading it shows the same.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](
		`echarts.getInstanceByDom(document.getElementById("ts-chart")).dispatchAction({type: "dataZoom", startValue: 20, endValue: 30}) || true`)); err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("ts-chart").dataset.fine === "1" && location.search.includes("t0=20")`)
	saved := eval(`location.href`)
	if !strings.Contains(saved, "t1=30") || !strings.Contains(saved, "ch=GenPwr%2CTwrBsMyt") || strings.Count(saved, "run=") != 2 {
		t.Fatalf("URL after zoom: %s", saved)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(saved), chromedp.WaitVisible(chromedp.CSS("#channel-filter"))); err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("ts-chart").dataset.fine === "1"`)
	if got := eval(layout + ` + " " + document.getElementById("ts-chart").dataset.fineStart + "-" + document.getElementById("ts-chart").dataset.fineEnd`); got != want+" 20-30" {
		t.Fatalf("reloaded page: %q, want %q", got, want+" 20-30")
	}
	poll(`document.getElementById("stats-window").textContent.includes("20.00")`)
	// Spectrum options: choosing 0.1 Hz resolution redraws the PSD at
	// 0.1 Hz; the fatigue table has a row per run and channel with the
	// DELs for the exponents typed (3, 4, 5, 10, then 4 alone).
	poll(`document.getElementById("psd-chart").dataset.plotted === "1" && document.getElementById("rainflow-chart").dataset.plotted === "1"`)
	if got := eval(`Array.from(document.querySelectorAll("#fatigue-head th")).map(th => th.textContent).join(",") + " " + document.querySelectorAll("#fatigue-body tr").length`); got != "Run,Channel,Unit,Cycles,Max range,DEL m=3,DEL m=4,DEL m=5,DEL m=10 6" {
		t.Fatalf("fatigue table: %q", got)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.getElementById("psd-resolution"); s.value = "0.1"; s.dispatchEvent(new Event("change")); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("psd-chart").dataset.plotted === "1" && document.getElementById("psd-chart").dataset.resolution === "0.1"`)
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#fatigue-m"), "4"), testbrowser.ClickCSS("#fatigue-apply")); err != nil {
		t.Fatal(err)
	}
	poll(`Array.from(document.querySelectorAll("#fatigue-head th")).map(th => th.textContent).join(",") === "Run,Channel,Unit,Cycles,Max range,DEL m=4"`)
	// The export links carry the plotted channels and the window; the .mat
	// one answers a MAT-file.
	poll(`document.getElementById("export-mat").href.includes("format=mat&channels=GenPwr%2CTwrBsMyt&t_start=20&t_end=30")`)
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(document.getElementById("export-mat").href).then(r => r.status + " " + r.headers.get("content-type"))`,
		chromedp.EvalAwaitPromise)); err != nil || got != "200 application/x-matlab-data" {
		t.Fatalf(".mat export link: %q (%v)", got, err)
	}

	// PNG export of the plot.
	dl := t.TempDir()
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior,
		browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dl}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, testbrowser.ClickCSS("#export-png")); err != nil {
		t.Fatal(err)
	}
	var png []byte
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		matches, _ := filepath.Glob(filepath.Join(dl, "*.png"))
		if len(matches) == 1 {
			if png, err = os.ReadFile(matches[0]); err == nil && len(png) > 1000 {
				break
			}
		}
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 10000 {
		t.Fatalf("PNG export: %d bytes, header %q", len(png), png[:min(8, len(png))])
	}

	// Compare from the jobs list: tick two runs (the ticks outlast the
	// list's refresh every 2 s), then Compare opens them together, named.
	if err := chromedp.Do(ctx, chromedp.Navigate(re.http.URL+"/jobs"), chromedp.WaitVisible(chromedp.CSS("#compare-selected"))); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids[1:] {
		if err := chromedp.Do(ctx, testbrowser.ClickCSS(`input[data-compare-run][value="`+id+`"]`)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(2500 * time.Millisecond)
	poll(`document.querySelectorAll("input[data-compare-run]:checked").length === 2 && document.getElementById("compare-selected").textContent === "Compare 2 runs"`)
	if err := chromedp.Do(ctx, testbrowser.ClickCSS("#compare-selected"), chromedp.WaitVisible(chromedp.CSS("#channel-filter"))); err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("ts-chart").dataset.plotted === "1"`)
	if got := eval(`document.querySelector("h1").textContent + " | " + echarts.getInstanceByDom(document.getElementById("ts-chart")).getOption().series.map(s => s.name).join(",") + " | " + location.search`); got != "Compare runs | DLC1.2_V12.0_S1,DLC1.2_V16.0_S1,DLC1.2_V12.0_S1,DLC1.2_V16.0_S1 | ?run=DLC1.2_V12.0_S1&run=DLC1.2_V16.0_S1&ch=RotSpeed%2CGenPwr" {
		t.Fatalf("compare from the jobs list: %q", got)
	}

	// The same from the batch page: its run table has the same boxes.
	if err := chromedp.Do(ctx, chromedp.Navigate(re.http.URL+"/batches/"+batch), chromedp.WaitVisible(chromedp.CSS("#compare-selected"))); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids[1:] {
		if err := chromedp.Do(ctx, testbrowser.ClickCSS(`#batch-progress input[data-compare-run][value="`+id+`"]`)); err != nil {
			t.Fatalf("ticking run %s on the batch page: %v", id, err)
		}
	}
	poll(`document.querySelectorAll("input[data-compare-run]:checked").length === 2 && document.getElementById("compare-selected").textContent === "Compare 2 runs"`)
	if err := chromedp.Do(ctx, testbrowser.ClickCSS("#compare-selected"), chromedp.WaitVisible(chromedp.CSS("#channel-filter"))); err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("ts-chart").dataset.plotted === "1"`)
	if got := eval(`document.querySelector("h1").textContent + " | " + location.search`); !strings.HasPrefix(got, "Compare runs | ?run=DLC1.2_V12.0_S1&run=DLC1.2_V16.0_S1") {
		t.Fatalf("compare from the batch page: %q", got)
	}
}
