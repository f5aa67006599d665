package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// In the default set-up (no DATABASE_URL) the server supervises its
// private PostgreSQL: when the postmaster is killed, the server stays up,
// answers 503 with Retry-After while the database is away, and answers
// again once the cluster is restarted. Before, it exited with the database.
func TestServerOutlivesItsPrivateDatabase(t *testing.T) {
	dir, err := os.MkdirTemp("", "turbined-supervise-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil { // the cluster runs as postgres when we are root
		t.Fatal(err)
	}
	buildBinary(t, filepath.Join(dir, "bin", "turbined"))
	port := freePort(t)
	cmd := exec.Command("./bin/turbined", "serve")
	cmd.Dir = dir
	cmd.Env = append(userEnv(), "PORT="+strconv.Itoa(port), "WORKERS=0")
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		select {
		case <-exited:
		default:
			_ = cmd.Process.Signal(syscall.SIGINT)
			select {
			case <-exited:
			case <-time.After(60 * time.Second):
				_ = cmd.Process.Kill()
				<-exited
			}
		}
		if t.Failed() {
			t.Logf("server output:\n%s", out.String())
		}
	}()
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	waitForBanner(t, base, out, exited)

	pidFile, err := os.ReadFile(filepath.Join(dir, "data", "pg", "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	first, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(pidFile), "\n", 2)[0]))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}

	client := &http.Client{Timeout: 10 * time.Second}
	saw503, back := false, false
	deadline := time.Now().Add(2 * time.Minute)
	for !back && time.Now().Before(deadline) {
		select {
		case err := <-exited:
			t.Fatalf("the server exited with its database: %v", err)
		default:
		}
		resp, err := client.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			switch resp.StatusCode {
			case http.StatusServiceUnavailable:
				if resp.Header.Get("Retry-After") == "" {
					t.Fatal("503 without Retry-After while the database is away")
				}
				saw503 = true
			case http.StatusOK:
				back = saw503
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !saw503 || !back {
		t.Fatalf("after killing the postmaster: saw 503 %v, answered again %v", saw503, back)
	}
}
