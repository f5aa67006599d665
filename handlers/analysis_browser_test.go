package handlers_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// TestBrowserJobResults opens the results page of a finished job (1000 s
// at 20 Hz written with solver/outfile), sees RotSpeed and GenPwr plotted,
// zooms into 40–45 s and gets the full-rate samples of that window, the
// statistics of the window, downloads the window's samples as CSV, and the
// PSD with its 1P/3P/6P marks; then the
// comparison page draws two jobs on one chart.
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
		chromedp.Click(chromedp.CSS("#login-submit")),
		chromedp.WaitVisible(chromedp.CSS("#org-name")),
		chromedp.Navigate(re.http.URL+"/analysis/jobs/"+id),
		chromedp.WaitVisible(chromedp.CSS("#channel-picker")),
	)
	if err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("ts-chart").dataset.plotted === "1"`)
	names, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`echarts.getInstanceByDom(document.getElementById("ts-chart")).getOption().series.map(s => s.name).join(",")`))
	if err != nil || names != "RotSpeed,GenPwr" {
		t.Fatalf("plotted series %q (%v), want RotSpeed,GenPwr", names, err)
	}
	label, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#channel-picker option[value="GenPwr"]`)))
	if err != nil || label != "GenPwr (kW)" {
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
		`Array.from(document.querySelectorAll("#stats-body tr")).map(r => r.cells[0].textContent + "=" + r.cells[3].textContent).join(";")`))
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
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#series-csv"))); err != nil {
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

	// Comparison of two jobs on one chart.
	if err := chromedp.Do(ctx, chromedp.Navigate(re.http.URL+"/analysis/compare?jobs="+id+","+id2+"&channel=GenPwr")); err != nil {
		t.Fatal(err)
	}
	poll(`document.getElementById("compare-chart").dataset.plotted === "2"`)
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
		chromedp.Click(chromedp.CSS("#login-submit")),
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
