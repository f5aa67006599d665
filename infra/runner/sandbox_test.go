package runner_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/jobtest"
	"github.com/turbinesim/turbinesim/infra/runner"
)

// probeChild is the "child:probe" simulator: instead of simulating, it
// tries what a hostile deck's solver might try and writes what happened to
// probe.txt in its output directory. The paths to read are listed in
// probe-paths.txt next to the deck (the environment is cleared, so the
// input tree is the only way to tell the child anything).
func probeChild(args []string) int {
	if len(args) < 3 || args[1] != "-o" {
		return 2
	}
	deckPath, out := args[0], args[2]
	var report strings.Builder
	list, err := os.ReadFile(filepath.Join(filepath.Dir(deckPath), "probe-paths.txt"))
	if err != nil {
		fmt.Fprintf(&report, "probe list: %v\n", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(list)))
	for sc.Scan() {
		p := strings.TrimSpace(sc.Text())
		if p == "" {
			continue
		}
		if _, err := os.ReadDir(p); err == nil {
			fmt.Fprintf(&report, "read %s: ok\n", p)
		} else if _, err := os.ReadFile(p); err == nil {
			fmt.Fprintf(&report, "read %s: ok\n", p)
		} else {
			fmt.Fprintf(&report, "read %s: %v\n", p, err)
		}
	}
	// Opening an input for writing (nothing is written): the inputs are
	// hard links into the blob store, so this must fail in the sandbox.
	if f, err := os.OpenFile(deckPath, os.O_WRONLY, 0); err == nil {
		f.Close()
		fmt.Fprintf(&report, "open input for writing: ok\n")
	} else {
		fmt.Fprintf(&report, "open input for writing: %v\n", err)
	}
	for _, kv := range os.Environ() {
		fmt.Fprintf(&report, "env %s\n", kv)
	}
	if err := os.WriteFile(filepath.Join(out, "probe.txt"), []byte(report.String()), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// bwrapUnusable says why bubblewrap cannot sandbox a run here ("" when it
// can): not installed, or the kernel refuses it the namespaces it needs
// (unprivileged user namespaces off, or a container that forbids them).
func bwrapUnusable() string {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return "bubblewrap (bwrap) is not installed; apt-get install -y bubblewrap"
	}
	out, err := exec.Command(bwrap, "--unshare-all", "--die-with-parent", "--new-session",
		"--ro-bind", "/usr", "/usr", "--ro-bind-try", "/lib", "/lib", "--ro-bind-try", "/lib64", "/lib64",
		"--ro-bind-try", "/bin", "/bin", "--proc", "/proc", "--dev", "/dev", "--", "/bin/true").CombinedOutput()
	if err != nil {
		return fmt.Sprintf("bubblewrap cannot create its sandbox in this environment (%v): %s", err, strings.TrimSpace(string(out)))
	}
	return ""
}

// Under bubblewrap the solver child cannot read a
// file outside its attempt directory (a secret next to the worker, the
// blob store of every job), cannot write its inputs, and does not see the
// worker's DATABASE_URL. The same probe without the sandbox reads the
// secret, which shows that the probe can tell the difference.
func TestSandboxConfinesChild(t *testing.T) {
	if reason := bwrapUnusable(); reason != "" {
		t.Skip(reason)
	}
	// The worker process's own environment holds the database URL (not
	// parallel: Setenv changes the whole test process).
	t.Setenv("DATABASE_URL", "postgres://worker:secret@db.internal/turbinesim")
	secretDir := t.TempDir()
	secret := filepath.Join(secretDir, "secret.txt")
	if err := os.WriteFile(secret, []byte("top secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, sandbox := range []string{"bwrap", "none"} {
		t.Run(sandbox, func(t *testing.T) {
			e := newEnvWith(t, jobtest.New(t), "child:probe", 1, runner.Limits{WallTime: time.Minute},
				envOptions{sandbox: sandbox})
			if got := e.worker.Sandboxed(); got != (sandbox == "bwrap") {
				t.Fatalf("Sandboxed() = %v with JOB_SANDBOX %s", got, sandbox)
			}
			paths := secret + "\n" + secretDir + "\n" + e.blobDir + "\n" + "/etc/passwd\n"
			if err := os.WriteFile(filepath.Join(e.deck, "probe-paths.txt"), []byte(paths), 0o600); err != nil {
				t.Fatal(err)
			}
			j := e.waitFor(t, e.submit(t, 1).ID, time.Minute, terminal)
			if j.Status != turbinesim.JobSucceeded {
				t.Fatalf("probe job %s: %s\n%s", j.Status, deref(j.Detail), j.Log)
			}
			dir, release, err := e.jobs.OpenOutputs(context.Background(), e.org.ID, j.ID)
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			raw, err := os.ReadFile(filepath.Join(dir, "probe.txt"))
			if err != nil {
				t.Fatal(err)
			}
			report := string(raw)
			t.Logf("probe report (%s):\n%s", sandbox, report)
			if strings.Contains(report, "DATABASE_URL") || strings.Contains(report, "secret@") {
				t.Errorf("the child saw the worker's database URL")
			}
			readSecret := strings.Contains(report, "read "+secret+": ok")
			switch sandbox {
			case "bwrap":
				for _, p := range []string{secret, secretDir, e.blobDir, "/etc/passwd"} {
					if strings.Contains(report, "read "+p+": ok") {
						t.Errorf("the sandboxed child read %s", p)
					}
				}
				if !strings.Contains(report, "open input for writing: ") || strings.Contains(report, "open input for writing: ok") {
					t.Errorf("the sandboxed child could open its input (a link into the blob store) for writing")
				}
			case "none":
				if !readSecret {
					t.Errorf("without the sandbox the probe could not read %s: the probe proves nothing", secret)
				}
			}
		})
	}
}

// TestRelativePathsAreRefusedAtStartUp: bubblewrap resolves a relative
// bind source against its own working directory, so a worker given a
// relative work directory (or solver path) would fail every run with
// "Can't find source path"; New refuses it once, naming the setting.
func TestRelativePathsAreRefusedAtStartUp(t *testing.T) {
	t.Chdir(t.TempDir())
	jobs := db.NewJobService(nil, nil, nil, nil)
	for _, cfg := range []runner.Config{
		{Jobs: jobs, WorkDir: "data/work", Command: []string{os.Args[0], "child:simulate"}},
		{Jobs: jobs, WorkDir: t.TempDir(), Command: []string{"turbined", "simulate"}},
	} {
		w, err := runner.New(cfg)
		if err == nil || !strings.Contains(err.Error(), "relative") {
			t.Errorf("New(work dir %q, command %q) = %v, %v; want an error saying the path is relative", cfg.WorkDir, cfg.Command[0], w, err)
		}
	}
	if _, err := os.Stat("data"); err == nil {
		t.Error("New created the relative work directory before refusing it")
	}
}
