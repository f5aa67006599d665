package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/turbinesim/turbinesim/internal/testbrowser"
)

// In Chromium: a person names and tags a run on the submit page, sees on
// the job page what it ran (turbine, wind, t_max, who) under a title that
// names it, adds a tag there, then finds the run on the jobs list by
// searching its name and the new tag (the search stays in the URL), while
// another run of the same turbine is left out; "Re-run with changes"
// opens the run form filled in with the run's settings.
func TestBrowserNameTagAndFindRun(t *testing.T) {
	t.Parallel()
	je, tb := newTurbineRunEnv(t)
	ctx := newBrowser(t)
	// Another run, which the search must leave out.
	resp, body := je.do(nil, request{method: "POST", path: "/jobs", header: je.keyed("Content-Type", "application/json"),
		body: `{"turbine_id":"` + tb.ID + `","tags":["review"],"settings":{"t_max":0.5,"wind":{"speed":6}}}`})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("other run: %d %s", resp.StatusCode, body)
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(je.http.URL+"/login?next=%2Fjobs%2Fnew"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), je.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#submit-turbine")),
		chromedp.SendKeys(chromedp.CSS(`#submit-turbine input[name="name"]`), "Gust study 7"),
		chromedp.SendKeys(chromedp.CSS(`#submit-turbine input[name="tags"]`), "campaign-B, night"),
		chromedp.SetValue(chromedp.CSS(`#submit-turbine input[name="t_max"]`), "0.5"),
		chromedp.SetValue(chromedp.CSS(`#submit-turbine input[name="speed"]`), "10.5"),
		testbrowser.ClickCSS("#submit-turbine button"),
		chromedp.WaitVisible(chromedp.CSS("#job-setup")),
	)
	if err != nil {
		t.Fatalf("submitting a named run: %v", err)
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(`+"`"+sel+"`"+`) || {}).textContent || ""`))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.Fields(s), " ")
	}
	title, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.title`))
	if text("#job-title") != "Gust study 7" || !strings.HasPrefix(title, "Gust study 7 ·") {
		t.Fatalf("job page heading %q, title %q", text("#job-title"), title)
	}
	for sel, want := range map[string]string{"#job-turbine": "NREL 5MW copy", "#job-wind": "steady 10.5 m/s", "#job-tmax": "0.5 s",
		"#job-ran-by": "ada@example.com", "#job-tags": "campaign-B"} {
		if got := text(sel); !strings.Contains(got, want) {
			t.Fatalf("%s shows %q, want %q", sel, got, want)
		}
	}
	loc, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
	id := strings.TrimPrefix(loc, "/jobs/")

	// The page reloads itself once the run finishes (assets/js/jobs.js);
	// the tag is added on the finished run's page, so that reload cannot
	// land between typing and submitting.
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		j, err := je.jobs.FindJob(t.Context(), je.org.ID, id)
		if err == nil && j.Status.Terminal() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s not finished after 2 minutes (%v)", id, err)
		}
	}

	// A tag added on the job page.
	err = chromedp.Do(ctx,
		chromedp.Navigate(je.http.URL+"/jobs/"+id),
		chromedp.WaitVisible(chromedp.CSS("#job-tag-input")),
		chromedp.SendKeys(chromedp.CSS("#job-tag-input"), "review"),
		testbrowser.ClickCSS("#job-tag-form button"),
		chromedp.WaitVisible(chromedp.CSS(`#job-tags [data-tag="review"]`)),
	)
	if err != nil {
		t.Fatalf("adding a tag: %v", err)
	}
	j, err := je.jobs.FindJob(t.Context(), je.org.ID, id)
	if err != nil || strings.Join(j.Tags, ",") != "campaign-B,night,review" {
		t.Fatalf("tags in the database: %+v (%v)", j, err)
	}

	// Found by search: name and tag; the form keeps its values from the URL.
	err = chromedp.Do(ctx,
		chromedp.Navigate(je.http.URL+"/jobs"),
		chromedp.WaitVisible(chromedp.CSS("#job-search")),
		chromedp.SendKeys(chromedp.CSS("#job-search-name"), "gust"),
		chromedp.SendKeys(chromedp.CSS("#job-search-tag"), "review"),
		testbrowser.ClickCSS("#job-search-submit"),
		chromedp.WaitVisible(chromedp.CSS(`#job-search-name[value="gust"]`)),
	)
	if err != nil {
		t.Fatalf("searching: %v", err)
	}
	search, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.search`))
	if !strings.Contains(search, "name=gust") || !strings.Contains(search, "tag=review") {
		t.Fatalf("the search is not in the URL: %q", search)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#job-rows tr[data-job-id]")).map(r => r.getAttribute("data-job-id") + " " + r.textContent.replace(/\s+/g, " "))`))
	if err != nil || len(rows) != 1 || !strings.HasPrefix(rows[0], id+" ") || !strings.Contains(rows[0], "Gust study 7") ||
		!strings.Contains(rows[0], "NREL 5MW copy") || !strings.Contains(rows[0], "steady 10.5 m/s") {
		t.Fatalf("search rows %q (%v), want only %s with its turbine and wind", rows, err, id)
	}

	// Re-run with changes: the run form filled in.
	err = chromedp.Do(ctx,
		chromedp.Navigate(je.http.URL+"/jobs/"+id),
		chromedp.WaitVisible(chromedp.CSS("#rerun-job")),
		testbrowser.ClickCSS("#rerun-job"),
		chromedp.WaitVisible(chromedp.CSS("#rerun-of")),
	)
	if err != nil {
		t.Fatalf("re-run: %v", err)
	}
	vals, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`["name","tags","t_max","speed","turbine_id"].map(n => document.querySelector('#submit-turbine [name="' + n + '"]').value)`))
	if err != nil || strings.Join(vals, "|") != "Gust study 7|campaign-B, night, review|0.5|10.5|"+tb.ID {
		t.Fatalf("re-run form values %q (%v)", vals, err)
	}
}
