package pgcluster_test

import (
	"bufio"
	"context"
	"database/sql"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim/infra/pgcluster"
)

// tempDir returns a directory the postgres OS user can reach when we are
// root (t.TempDir's parents are 0700).
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pgcluster-test-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func alive(pid int) bool {
	// A zombie still answers signal 0; read its state instead.
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(b))
	return len(fields) > 2 && fields[2] != "Z"
}

// postgresUsing lists pids of postgres processes whose command line names dir.
func postgresUsing(dir string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		if strings.Contains(string(cmdline), "postgres") && strings.Contains(string(cmdline), dir) && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func childrenOf(ppid int) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the parenthesised command: state, ppid, ...
		rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
		f := strings.Fields(rest)
		if len(f) > 1 && f[1] == strconv.Itoa(ppid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func TestStartQueryStopReuse(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(tempDir(t), "pg")
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CreateDatabase(ctx, "app"); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateDatabase(ctx, "app"); err != nil {
		t.Fatalf("CreateDatabase must be idempotent: %v", err)
	}
	db, err := sql.Open("postgres", c.URL("app"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	pid := c.Pid()
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Fatalf("postmaster %d still running after Stop", pid)
	}
	if left := postgresUsing(dir); len(left) > 0 {
		t.Fatalf("postgres processes left behind: %v", left)
	}

	// A directory holding PG_VERSION is reused as it is, data included.
	c2, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	if err != nil {
		t.Fatalf("restarting on the existing directory: %v", err)
	}
	defer c2.Stop()
	db2, err := sql.Open("postgres", c2.URL("app"))
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	var v int
	if err := db2.QueryRowContext(ctx, `SELECT v FROM kept`).Scan(&v); err != nil || v != 42 {
		t.Fatalf("data after restart: v=%d err=%v, want 42", v, err)
	}
}

// TestNoOrphanWhenParentIsKilled re-executes the test binary as a helper that
// starts a cluster and prints the postmaster pid; the test then SIGKILLs the
// helper (no chance to clean up) and expects the postmaster and its backends
// to go away by themselves.
func TestNoOrphanWhenParentIsKilled(t *testing.T) {
	dir := filepath.Join(tempDir(t), "pg")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperCluster$")
	cmd.Env = append(os.Environ(), "PGCLUSTER_HELPER_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	pid := 0
	for sc.Scan() {
		if s, ok := strings.CutPrefix(sc.Text(), "postmaster "); ok {
			pid, _ = strconv.Atoi(s)
			break
		}
	}
	if pid == 0 {
		_ = cmd.Process.Kill()
		t.Fatalf("helper did not report a postmaster pid (%v)", cmd.Wait())
	}
	if !alive(pid) {
		t.Fatalf("postmaster %d not running while the helper lives", pid)
	}
	// Backends and auxiliary processes do not name dir on their command
	// line; remember them by parent pid.
	family := append(childrenOf(pid), pid)
	if len(family) < 3 {
		t.Fatalf("expected the postmaster and its auxiliary processes, got %v", family)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var left []int
		for _, p := range family {
			if alive(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("postgres processes survive their killed parent: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestHelperCluster(t *testing.T) {
	dir := os.Getenv("PGCLUSTER_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process for TestNoOrphanWhenParentIsKilled")
	}
	c, err := pgcluster.Start(context.Background(), pgcluster.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("postmaster " + strconv.Itoa(c.Pid()) + "\n")
	time.Sleep(time.Minute) // killed by the parent test long before
}

func TestFindBinariesHonoursPGBin(t *testing.T) {
	t.Setenv("PG_BIN", t.TempDir())
	if _, err := pgcluster.FindBinaries(); err == nil {
		t.Fatal("an empty PG_BIN was accepted")
	}
}

// A postmaster killed from outside (here SIGKILL, as the out-of-memory
// killer does) is restarted by Supervise on the same port: a pool that
// failed meanwhile answers again, with the data; after Stop nothing is
// restarted and no process is left.
func TestSuperviseRestartsAKilledServer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := filepath.Join(tempDir(t), "pg")
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir, Durable: true}) // the data must survive the crash
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	if err := c.CreateDatabase(ctx, "app"); err != nil {
		t.Fatal(err)
	}
	supervised := make(chan struct{})
	go func() {
		c.Supervise(ctx, slog.New(slog.NewTextHandler(io.Discard, nil)))
		close(supervised)
	}()
	db, err := sql.Open("postgres", c.URL("app"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `CREATE TABLE kept (v int); INSERT INTO kept VALUES (7)`); err != nil {
		t.Fatal(err)
	}
	first := c.Pid()
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var v int
	sawOutage := false
	deadline := time.Now().Add(90 * time.Second)
	for {
		qctx, qcancel := context.WithTimeout(ctx, 2*time.Second)
		err := db.QueryRowContext(qctx, `SELECT v FROM kept`).Scan(&v)
		qcancel()
		if err == nil && sawOutage {
			break
		}
		if err != nil {
			sawOutage = true
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not come back within 90 s (last error %v)", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if v != 7 || c.Pid() == first || !alive(c.Pid()) {
		t.Fatalf("after the restart: v=%d, postmaster %d (killed %d)", v, c.Pid(), first)
	}
	second := c.Pid()
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-supervised:
	case <-time.After(10 * time.Second):
		t.Fatal("Supervise did not return after Stop")
	}
	if alive(second) || len(postgresUsing(dir)) > 0 {
		t.Fatalf("postgres left running after Stop: %v", postgresUsing(dir))
	}
}

// Finding "the private cluster trusts every local user": connections
// without the superuser's password are refused, on a new cluster and on
// one made before passwords (switched over at its next start). On main
// any local OS user connected as the superuser without a password.
func TestClusterRequiresThePassword(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(tempDir(t), "pg")
	start := func() *pgcluster.Cluster {
		c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	check := func(c *pgcluster.Cluster) {
		t.Helper()
		good, err := sql.Open("postgres", c.URL("postgres"))
		if err != nil {
			t.Fatal(err)
		}
		defer good.Close()
		if err := good.PingContext(ctx); err != nil {
			t.Fatalf("with the password: %v", err)
		}
		bare, err := sql.Open("postgres", "postgres://postgres@127.0.0.1:"+strconv.Itoa(c.Port())+"/postgres?sslmode=disable")
		if err != nil {
			t.Fatal(err)
		}
		defer bare.Close()
		if err := bare.PingContext(ctx); err == nil || !strings.Contains(err.Error(), "password") {
			t.Fatalf("without a password: %v, want a password failure", err)
		}
		hba, err := os.ReadFile(filepath.Join(dir, "pg_hba.conf"))
		if err != nil || strings.Contains(string(hba), "trust") {
			t.Fatalf("pg_hba.conf %q %v", hba, err)
		}
	}
	c := start()
	check(c)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	c = start() // reused as it is
	check(c)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	// A cluster from before passwords: trust, no password file.
	if err := os.Remove(filepath.Join(dir, "turbinesim-superuser-password")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pg_hba.conf"), []byte("host all all 127.0.0.1/32 trust\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		if fi, err := os.Stat(filepath.Join(dir, "PG_VERSION")); err == nil {
			st := fi.Sys().(*syscall.Stat_t)
			_ = os.Chown(filepath.Join(dir, "pg_hba.conf"), int(st.Uid), int(st.Gid))
		}
	}
	c = start()
	check(c)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
}
