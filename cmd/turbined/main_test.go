package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim/infra/pgcluster"
)

// TestHelperTurbined is the real main() run as a child process by
// TestServeStopsCleanly; it does nothing in a normal test run.
func TestHelperTurbined(t *testing.T) {
	if os.Getenv("TURBINED_TEST_HELPER") != "1" {
		t.Skip("helper process")
	}
	os.Args = []string{"turbined", "serve"}
	main()
}

// lockedBuffer collects a child's output safely across goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// family returns the postmaster of the cluster in dir and its children.
func family(t *testing.T, dir string) []int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "pg", "postmaster.pid"))
	if err != nil {
		t.Fatalf("reading postmaster.pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	if err != nil {
		t.Fatal(err)
	}
	pids := []int{pid}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			pids = append(pids, p)
		}
	}
	return pids
}

func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

// startServe runs `turbined serve` as a child process on a fresh port and
// waits until /readyz answers 200.
func startServe(t *testing.T, dataDir string) (*exec.Cmd, string, *lockedBuffer) {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperTurbined$")
	cmd.Env = append(os.Environ(), "TURBINED_TEST_HELPER=1", "DATA_DIR="+dataDir, "PORT="+strconv.Itoa(port),
		"ADMIN_EMAIL=ops@example.com", "ADMIN_PASSWORD=a long test password", "DATABASE_URL=")
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(90 * time.Second)
	for {
		resp, err := http.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return cmd, base, out
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("service not ready after 90 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func stopAndCheck(t *testing.T, cmd *exec.Cmd, dataDir string, sig syscall.Signal) {
	t.Helper()
	pids := family(t, dataDir)
	if len(pids) < 3 {
		t.Fatalf("expected a postmaster with auxiliary processes, got %v", pids)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("turbined exited with %v after %v", err, sig)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("turbined still running 60 s after %v", sig)
	}
	for _, p := range pids {
		if alive(p) {
			t.Fatalf("postgres process %d survived turbined (%v)", p, pids)
		}
	}
}

// One command runs the whole service on a private PostgreSQL; a signal
// stops the server and the cluster, leaving no postgres process behind;
// a second start reuses the cluster.
func TestServeStopsCleanly(t *testing.T) {
	dir, err := os.MkdirTemp("", "turbined-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(dir, "data")

	cmd, base, out := startServe(t, dataDir)
	resp, err := http.Post(base+"/auth/login", "application/json",
		strings.NewReader(`{"email":"ops@example.com","password":"a long test password"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"access_token"`) {
		t.Fatalf("seeded account login: %d %s", resp.StatusCode, body)
	}
	req, _ := http.NewRequest("GET", base+"/login", nil)
	req.Header.Set("Accept", "text/html")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("login page: %d", resp.StatusCode)
	}
	stopAndCheck(t, cmd, dataDir, syscall.SIGTERM)
	if !strings.Contains(out.String(), "ops@example.com") {
		t.Fatalf("the banner does not name the account:\n%s", out.String())
	}

	// Second start on the same directory: no initdb, same data.
	cmd, _, _ = startServe(t, dataDir)
	stopAndCheck(t, cmd, dataDir, syscall.SIGINT)

	// `turbined migrate` finds nothing to do.
	var stdout, stderr bytes.Buffer
	env := func(k string) string {
		switch k {
		case "DATA_DIR":
			return dataDir
		}
		return ""
	}
	if err := run(context.Background(), []string{"migrate"}, env, &stdout, &stderr); err != nil {
		t.Fatalf("migrate: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "up to date") {
		t.Fatalf("migrate output: %q", stdout.String())
	}
}

func TestUnknownCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"bogus"}, func(string) string { return "" }, &stdout, &stderr)
	if err == nil || !strings.Contains(stderr.String(), "serve") {
		t.Fatalf("unknown command: err=%v usage=%q", err, stderr.String())
	}
}

func TestConfigRejectsBadValues(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"port":       {"PORT": "http"},
		"short jwt":  {"JWT_SECRET": "short"},
		"body limit": {"BODY_LIMIT_BYTES": "12"},
	} {
		if _, err := loadConfig(func(k string) string { return env[k] }); err == nil {
			t.Errorf("%s: accepted %v", name, env)
		}
	}
	cfg, err := loadConfig(func(string) string { return "" })
	wd, _ := os.Getwd()
	if err != nil || cfg.Port != 8080 || cfg.DataDir != filepath.Join(wd, "data") || cfg.BaseURL != "http://localhost:8080" {
		t.Fatalf("defaults: %+v, %v", cfg, err)
	}
}

// With DATABASE_URL set, the service uses that server and starts no cluster
// of its own.
func TestMigrateUsesDatabaseURL(t *testing.T) {
	dir, err := os.MkdirTemp("", "turbined-url-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(dir, "external")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	if err := c.CreateDatabase(ctx, "external"); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(dir, "data")
	env := func(k string) string {
		switch k {
		case "DATABASE_URL":
			return c.URL("external")
		case "DATA_DIR":
			return dataDir
		}
		return ""
	}
	var stdout, stderr bytes.Buffer
	if err := run(ctx, []string{"migrate"}, env, &stdout, &stderr); err != nil {
		t.Fatalf("migrate: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "applied 00001_identity.sql") {
		t.Fatalf("migrate output %q does not list the first migration", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(dataDir, "pg")); !os.IsNotExist(err) {
		t.Fatalf("a private cluster was created although DATABASE_URL is set (%v)", err)
	}
}
