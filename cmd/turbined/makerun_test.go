package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/turbinesim/turbinesim"
	turbineassets "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/internal/testbrowser"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// TestMakeRunRunsEveryBundledTurbine follows the README as a new user
// would: `make run` (the binary built into bin/ and started as
// `./bin/turbined serve` from the checkout, so DATA_DIR is the relative
// default ./data, with the private PostgreSQL and JOB_SANDBOX=auto, which
// picks bubblewrap), log in with the printed first account, add every
// bundled turbine the solver can run, run a short job on each to
// succeeded, read its statistics, and stop with Ctrl-C (SIGINT), leaving
// no server, postgres or solver process behind. Every other test hands
// the service absolute temporary directories, which is how a relative
// DATA_DIR reaching the sandbox's bind arguments went unnoticed.
func TestMakeRunRunsEveryBundledTurbine(t *testing.T) {
	if why := bwrapUnusable(); why != "" {
		t.Skip(why)
	}
	supported := supportedDemos(t)
	if len(supported) == 0 {
		t.Fatal("the solver supports none of the bundled turbines")
	}

	// The checkout: a temporary directory standing in for the repository
	// (the binary embeds its assets, so the tree needs only bin/).
	dir, err := os.MkdirTemp("", "turbined-makerun-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	// The private cluster runs as the postgres user when the test is root.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	buildBinary(t, filepath.Join(dir, "bin", "turbined"))

	port := freePort(t)
	cmd := exec.Command("./bin/turbined", "serve") // the Makefile's `exec ./$(BIN) serve`
	cmd.Dir = dir
	cmd.Env = append(userEnv(), "PORT="+strconv.Itoa(port), "JOB_SANDBOX=auto", "WORKERS=2")
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("server output:\n%s", out.String())
		}
	}()
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	email, password := waitForBanner(t, base, out, exited)

	c := &apiClient{t: t, base: base}
	var tokens struct {
		AccessToken string `json:"access_token"`
	}
	c.call("POST", "/auth/login", map[string]string{"email": email, "password": password}, 200, &tokens)
	c.token = tokens.AccessToken

	var list struct {
		Items []turbinesim.DemoTurbine `json:"items"`
	}
	c.call("GET", "/turbines/demos?page_size=100", nil, 200, &list)
	demos := list.Items
	ran := 0
	for _, d := range demos {
		if !supported[d.ID] {
			t.Errorf("%s: listed by GET /turbines/demos but not a bundled turbine the solver runs", d.ID)
			continue
		}
		var tb turbinesim.Turbine
		c.call("POST", "/turbines/demos/"+d.ID+"/load", nil, 0, &tb)
		var job turbinesim.Job
		c.call("POST", "/jobs", map[string]any{"turbine_id": tb.ID,
			"settings": map[string]any{"t_max": 2, "wind": map[string]any{"speed": 9}}}, 201, &job)
		deadline := time.Now().Add(5 * time.Minute)
		for !job.Status.Terminal() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: job %s still %s after 5 minutes", d.ID, job.ID, job.Status)
			}
			time.Sleep(2 * time.Second)
			c.call("GET", "/jobs/"+job.ID, nil, 200, &job)
		}
		if job.Status != turbinesim.JobSucceeded {
			detail := ""
			if job.Detail != nil {
				detail = *job.Detail
			}
			t.Fatalf("%s: job %s ended %s: %s", d.ID, job.ID, job.Status, detail)
		}
		var stats struct {
			Channels []struct {
				Name string  `json:"name"`
				Max  float64 `json:"max"`
			} `json:"channels"`
		}
		c.call("POST", "/analysis/jobs/"+job.ID+"/statistics", map[string]any{"channels": []string{"RotSpeed"}}, 200, &stats)
		if len(stats.Channels) != 1 || !(stats.Channels[0].Max > 0) {
			t.Fatalf("%s: statistics of RotSpeed: %+v", d.ID, stats)
		}
		t.Logf("%s: job %s succeeded, RotSpeed max %.2f rpm", d.ID, job.ID, stats.Channels[0].Max)
		ran++
	}
	if ran != len(supported) || ran != len(demos) || len(demos) != 5 {
		t.Fatalf("ran %d bundled turbines; the solver supports %d (%v); GET /turbines/demos listed %d", ran, len(supported), supported, len(demos))
	}

	// The same path in Chromium: sign in with the printed account, add the
	// NREL 5 MW from the reference-turbine gallery, run it from the submit
	// form and watch the job page reach succeeded.
	t.Run("browser", func(t *testing.T) { runFromTheBrowser(t, base, email, password) })

	// Ctrl-C.
	pg := family(t, filepath.Join(dir, "data"))
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("turbined exited with %v after Ctrl-C", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("turbined still running 60 s after Ctrl-C")
	}
	for _, p := range pg {
		if alive(p) {
			t.Errorf("postgres process %d survived turbined", p)
		}
	}
	if left := processesUnder(dir); len(left) > 0 {
		t.Errorf("processes left behind: %s", strings.Join(left, "; "))
	}
}

// runFromTheBrowser signs in at base in a real Chromium, adds the NREL
// 5 MW from the gallery (htmx button, HX-Redirect to the turbine page),
// follows the turbine page's run link, submits a 2-s run at 9 m/s and
// waits for the job page to say succeeded.
func runFromTheBrowser(t *testing.T, base, email, password string) {
	ctx := testbrowser.New(t, 5*time.Minute)
	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), email),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		testbrowser.ClickCSS("#login-submit"),
	)
	if err != nil {
		t.Fatalf("signing in: %v", err)
	}
	// The sign-in answers with a redirect away from /login once the session
	// cookie is set; navigating before that would land on the login page.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		loc, err := chromedp.Run(ctx, chromedp.Location())
		if err == nil && loc != "" && !strings.Contains(loc, "/login") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still at %q a minute after signing in (%v)", loc, err)
		}
	}
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/turbines/demos"),
		testbrowser.ClickCSS("#load-nrel-5mw-land"),
		chromedp.WaitVisible(chromedp.CSS("#run-link")),
		testbrowser.ClickCSS("#run-link"),
		chromedp.WaitVisible(chromedp.CSS("#submit-turbine")),
		chromedp.SetValue(chromedp.CSS(`#submit-turbine input[name="t_max"]`), "2"),
		chromedp.SetValue(chromedp.CSS(`#submit-turbine input[name="speed"]`), "9"),
		testbrowser.ClickCSS("#submit-turbine button"),
		chromedp.WaitVisible(chromedp.CSS("#job-status")),
	)
	if err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Fatalf("signing in, adding the NREL 5 MW and submitting a run: %v (at %s)", err, loc)
	}
	done := func(s string) bool { return s == "succeeded" || s == "failed" || s == "cancelled" }
	status, err := testbrowser.PollText(ctx, "#job-status", done, 4*time.Minute)
	if status != "succeeded" {
		detail, _ := testbrowser.PollText(ctx, "#job", func(string) bool { return true }, time.Second)
		t.Fatalf("the job page says %q (%v):\n%s", status, err, detail)
	}
	if loc, err := chromedp.Run(ctx, chromedp.Location()); err != nil || !strings.Contains(loc, "/jobs/") {
		t.Fatalf("the run did not land on its job page: %q (%v)", loc, err)
	} else {
		t.Logf("browser: %s succeeded", loc)
	}
}

// supportedDemos lists the bundled turbines the solver can run, asked of
// the solver itself (coupling.Check on the deck the catalogue writes); a
// bundled turbine it refuses fails the test, since all five must run.
func supportedDemos(t *testing.T) map[string]bool {
	t.Helper()
	cat, err := decks.NewBundledDemos(turbineassets.FS)
	if err != nil {
		t.Fatal(err)
	}
	ok := map[string]bool{}
	for _, d := range cat.Demos() {
		dir := t.TempDir()
		tb, err := cat.Build(d.ID, dir)
		if err != nil {
			t.Fatalf("building %s: %v", d.ID, err)
		}
		dk, err := deck.Load(filepath.Join(dir, filepath.FromSlash(*tb.MainFile)))
		if err != nil {
			t.Fatalf("loading %s: %v", d.ID, err)
		}
		if err := coupling.Check(dk); err != nil {
			// every bundled turbine must run: nothing is offered that
			// does not work
			t.Errorf("%s: offered by GET /turbines/demos but refused by the solver: %v", d.ID, err)
			continue
		}
		ok[d.ID] = true
	}
	return ok
}

// buildBinary is `make build` into path.
func buildBinary(t *testing.T, path string) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	wd, _ := os.Getwd()
	build := exec.Command(goBin, "build", "-o", path, "./cmd/turbined")
	build.Dir = filepath.Join(wd, "..", "..")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
}

// userEnv is the test's environment without the service's settings, as
// in a fresh shell that follows the README.
func userEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "DATA_DIR", name == "DATABASE_URL", name == "BLOB_DIR", name == "WORK_DIR",
			name == "RESULT_CACHE_DIR", name == "JOB_SANDBOX", name == "PORT", name == "BASE_URL",
			name == "WORKERS", strings.HasPrefix(name, "ADMIN_"), strings.HasPrefix(name, "BLOB_S3_"):
			continue
		}
		env = append(env, kv)
	}
	return env
}

var bannerAccount = regexp.MustCompile(`created the first account:\s+(\S+)\s*\n\s*password:\s+(.+)\n`)

// waitForBanner waits for the printed first account and for /readyz.
func waitForBanner(t *testing.T, base string, out *lockedBuffer, exited chan error) (email, password string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		select {
		case err := <-exited:
			t.Fatalf("turbined exited during start-up: %v\n%s", err, out.String())
		default:
		}
		if m := bannerAccount.FindStringSubmatch(out.String()); m != nil && email == "" {
			email, password = m[1], strings.TrimSpace(m[2])
		}
		if email != "" {
			if resp, err := http.Get(base + "/readyz"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == 200 {
					return email, password
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no first account printed or not ready after 2 minutes:\n%s", out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// apiClient calls the JSON API with a bearer token.
type apiClient struct {
	t     *testing.T
	base  string
	token string
}

// call sends body (JSON unless nil) and decodes the answer into v; want 0
// accepts any 2xx status.
func (c *apiClient) call(method, path string, body any, want int, v any) {
	c.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.base+path, r)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	// The plan's rate limit (30 requests a minute per user on Beta) is
	// the service's to enforce: a script waits as told. A 429 is answered
	// before the request is handled, so repeating it (a POST too) does
	// nothing twice; under load the job polls below can use up the minute's
	// quota before the statistics request.
	if resp.StatusCode == http.StatusTooManyRequests {
		wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		time.Sleep(time.Duration(min(max(wait, 1), 60)) * time.Second)
		c.call(method, path, body, want, v)
		return
	}
	if want != 0 && resp.StatusCode != want || want == 0 && resp.StatusCode/100 != 2 {
		c.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			c.t.Fatalf("%s %s: decoding %s: %v", method, path, b, err)
		}
	}
}

// processesUnder lists the live processes whose command line or
// executable names a path under dir (the server, its postgres, solver
// children and their bubblewrap).
func processesUnder(dir string) []string {
	var left []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() || !alive(pid) {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		exe, _ := os.Readlink("/proc/" + e.Name() + "/exe")
		if bytes.Contains(cmdline, []byte(dir)) || strings.HasPrefix(exe, dir) {
			left = append(left, fmt.Sprintf("%d %s", pid, strings.ReplaceAll(string(cmdline), "\x00", " ")))
		}
	}
	return left
}

// bwrapUnusable says why bubblewrap cannot sandbox a run here ("" when it
// can): not installed, or the kernel refuses it the namespaces it needs.
func bwrapUnusable() string {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return "bubblewrap (bwrap) is not installed, so JOB_SANDBOX=auto would not sandbox; apt-get install -y bubblewrap (.ci/run does)"
	}
	out, err := exec.Command(bwrap, "--unshare-all", "--die-with-parent", "--new-session",
		"--ro-bind", "/usr", "/usr", "--ro-bind-try", "/lib", "/lib", "--ro-bind-try", "/lib64", "/lib64",
		"--ro-bind-try", "/bin", "/bin", "--proc", "/proc", "--dev", "/dev", "--", "/bin/true").CombinedOutput()
	if err != nil {
		return fmt.Sprintf("bubblewrap cannot create its sandbox here (%v): %s", err, strings.TrimSpace(string(out)))
	}
	return ""
}
