package runner_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/jobtest"
	"github.com/turbinesim/turbinesim/infra/runner"
)

// BenchmarkBatchThroughput measures the batch target: 8 short
// NREL 5 MW runs through the queue with 2 workers (one per core here)
// against the same 8 runs one after another (the queue with 1 worker):
//
//	go test ./infra/runner -run '^$' -bench BatchThroughput -benchtime 2x
//
// Both arms run in every iteration, alternating which goes first, so a
// change in the machine's load (it is shared) hits both alike; the
// speed-up is reported as the ratio of their summed wall times. A third
// arm, "direct", runs the 8 solver processes one after another with no
// queue, database or worker at all: the floor the serial arm's per-job
// costs are measured against.
//
// Reported per arm (serial, parallel, direct): seconds per batch; CPU
// seconds per job of the solver processes, of this process (the worker:
// River, staging, publishing, progress) and of PostgreSQL; and, for the
// serial arm, the idle gap between one job's end and the next one's start
// and the per-job time outside the solver's own time-stepping loop (child
// start, deck parse, staging, publishing, finishing). The 1-minute load
// average at the end is reported as "load": above about 1 the figures are
// not those of a quiet machine.
//
// Two run lengths: at t_max 2 s a run computes for about 0.1 s, so the
// per-job costs dominate; at t_max 10 s the solver does.
func BenchmarkBatchThroughput(b *testing.B) {
	for _, tMax := range []float64{2, 10} {
		b.Run(fmt.Sprintf("tmax=%gs", tMax), func(b *testing.B) {
			serial, parallel := newEnvB(b, 1), newEnvB(b, 2)
			outDir := b.TempDir()
			var arms [3]armTotals // serial, parallel, direct
			b.ResetTimer()
			for i := range b.N {
				order := []int{0, 1, 2}
				if i%2 == 1 {
					slices.Reverse(order)
				}
				for _, arm := range order {
					before := sampleCPU(b)
					start := time.Now()
					var jobs []*turbinesim.Job
					switch arm {
					case 0:
						jobs = runBatch(b, serial, tMax)
					case 1:
						jobs = runBatch(b, parallel, tMax)
					case 2:
						runDirect(b, serial.deck, outDir, tMax)
					}
					arms[arm].wall += time.Since(start)
					arms[arm].cpu = arms[arm].cpu.add(sampleCPU(b).since(before))
					arms[arm].jobs = append(arms[arm].jobs, jobs...)
				}
			}
			b.StopTimer()
			n := float64(b.N)
			b.ReportMetric(arms[0].wall.Seconds()/arms[1].wall.Seconds(), "speedup")
			b.ReportMetric(arms[2].wall.Seconds()/arms[1].wall.Seconds(), "speedup-vs-direct")
			for i, name := range []string{"serial", "parallel", "direct"} {
				a := arms[i]
				jobs := 8 * n
				b.ReportMetric(a.wall.Seconds()/n, "s/"+name)
				b.ReportMetric(a.cpu.children/jobs, "solver-cpu-s/job-"+name)
				if i < 2 {
					b.ReportMetric(a.cpu.self/jobs, "worker-cpu-s/job-"+name)
					if a.cpu.postgres >= 0 {
						b.ReportMetric(a.cpu.postgres/jobs, "pg-cpu-s/job-"+name)
					}
				}
			}
			for i, name := range []string{"serial", "parallel"} {
				gap, loop, outside := jobTimes(arms[i].jobs)
				if i == 0 {
					b.ReportMetric(gap.Seconds()*1000, "gap-ms/job-serial")
				}
				b.ReportMetric(loop.Seconds(), "loop-s/job-"+name)
				b.ReportMetric(outside.Seconds()*1000, "outside-loop-ms/job-"+name)
			}
			b.ReportMetric(loadAverage(), "load")
		})
	}
}

type armTotals struct {
	wall time.Duration
	cpu  cpuUse
	jobs []*turbinesim.Job
}

// runBatch submits 8 runs and waits until every one has succeeded. It
// looks with one query every 50 ms (a client would watch the WebSocket),
// so that waiting costs the machine little while the runs compete for it.
func runBatch(b *testing.B, e *env, tMax float64) []*turbinesim.Job {
	ctx := context.Background()
	ids := make([]string, 8)
	for i := range ids {
		j, _, err := e.jobs.SubmitJob(ctx, &turbinesim.NewJob{
			OrganizationID: e.org.ID, SubmittedBy: e.user.ID, InputDir: e.deck,
			Entrypoint: "Main_Onshore.fst", TMax: tMax, Work: jobtest.Work(tMax)})
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = j.ID
	}
	for {
		var open int
		if err := e.db.GetContext(ctx, &open, `SELECT count(*) FROM jobs
			WHERE id = ANY($1::uuid[]) AND status NOT IN ('succeeded', 'failed', 'cancelled')`, pq.Array(ids)); err != nil {
			b.Fatal(err)
		}
		if open == 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	jobs := make([]*turbinesim.Job, len(ids))
	for i, id := range ids {
		j, err := e.jobs.FindJob(ctx, e.org.ID, id)
		if err != nil {
			b.Fatal(err)
		}
		if j.Status != turbinesim.JobSucceeded {
			b.Fatalf("job %s: %v", j.Status, deref(j.Detail))
		}
		jobs[i] = j
	}
	return jobs
}

// runDirect runs the 8 solver processes one after another, as the worker
// starts them but without the queue.
func runDirect(b *testing.B, deck, out string, tMax float64) {
	for range 8 {
		var stderr bytes.Buffer
		cmd := exec.Command(os.Args[0], "child:simulate", filepath.Join(deck, "Main_Onshore.fst"),
			"-o", out, "-tmax", strconv.FormatFloat(tMax, 'g', -1, 64), "-progress", "json")
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			b.Fatalf("direct run: %v\n%s", err, stderr.String())
		}
	}
}

// solverWall matches the solver's own report of its time-stepping loop.
var solverWall = regexp.MustCompile(`simulated in ([0-9.]+[mµn]?s)`)

// jobTimes returns, averaged over an arm's jobs: the idle time between a
// job's finish and the next job's start (the queue's latency; meaningful
// for the serial arm), the solver's time-stepping loop (its own report in
// the log) and each job's running time outside that loop.
func jobTimes(jobs []*turbinesim.Job) (gap, loop, outside time.Duration) {
	slices.SortFunc(jobs, func(a, c *turbinesim.Job) int { return a.StartedAt.Compare(*c.StartedAt) })
	var ngap int
	for i, j := range jobs {
		if i > 0 && j.CreatedAt.Before(*jobs[i-1].FinishedAt) {
			gap += j.StartedAt.Sub(*jobs[i-1].FinishedAt)
			ngap++
		}
		if m := solverWall.FindStringSubmatch(j.Log); m != nil {
			if d, err := time.ParseDuration(m[1]); err == nil {
				loop += d
				outside += j.FinishedAt.Sub(*j.StartedAt) - d
			}
		}
	}
	if ngap > 0 {
		gap /= time.Duration(ngap)
	}
	if len(jobs) > 0 {
		loop /= time.Duration(len(jobs))
		outside /= time.Duration(len(jobs))
	}
	return gap, loop, outside
}

// cpuSample is CPU time in seconds of this process and of its reaped
// children (the solver processes), and per process of the PostgreSQL
// cluster dbtest started (nil when it is an outside server).
type cpuSample struct {
	self, children float64
	pg             map[string]float64
}

// cpuUse is the CPU time spent between two samples.
type cpuUse struct{ self, children, postgres float64 }

func (a cpuUse) add(c cpuUse) cpuUse {
	u := cpuUse{a.self + c.self, a.children + c.children, a.postgres + c.postgres}
	if a.postgres < 0 || c.postgres < 0 {
		u.postgres = -1
	}
	return u
}

// since is the CPU used from earlier to s. A backend that exited between
// the samples is not counted (its last interval is lost); one that started
// counts from zero.
func (s cpuSample) since(earlier cpuSample) cpuUse {
	u := cpuUse{self: s.self - earlier.self, children: s.children - earlier.children, postgres: -1}
	if s.pg != nil && earlier.pg != nil {
		u.postgres = 0
		for pid, cpu := range s.pg {
			u.postgres += cpu - earlier.pg[pid]
		}
	}
	return u
}

func sampleCPU(b *testing.B) cpuSample {
	var self, children syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &self); err != nil {
		b.Fatal(err)
	}
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children); err != nil {
		b.Fatal(err)
	}
	sec := func(r *syscall.Rusage) float64 {
		return time.Duration(r.Utime.Nano() + r.Stime.Nano()).Seconds()
	}
	// RUSAGE_CHILDREN counts reaped children only: the solver processes,
	// not the postmaster (still running), which is read from /proc.
	return cpuSample{self: sec(&self), children: sec(&children), pg: postgresCPU()}
}

// postgresCPU returns the CPU time (user + system) of the postmaster this
// process started and of each process of its process group (the
// backends), by pid; nil when there is no such postmaster.
func postgresCPU() map[string]float64 {
	const clockTicks = 100 // USER_HZ on Linux
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	me := strconv.Itoa(os.Getpid())
	type stat struct{ pid, ppid, pgrp, comm, utime, stime string }
	var all []stat
	postmaster := ""
	for _, p := range procs {
		raw, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(raw)
		open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || closing < open {
			continue
		}
		f := strings.Fields(s[closing+1:]) // f[0] is field 3 (state)
		if len(f) < 13 {
			continue
		}
		st := stat{pid: strings.TrimSpace(s[:open]), comm: s[open+1 : closing], ppid: f[1], pgrp: f[2],
			utime: f[11], stime: f[12]}
		all = append(all, st)
		if st.ppid == me && st.comm == "postgres" {
			postmaster = st.pid
		}
	}
	if postmaster == "" {
		return nil
	}
	cpu := map[string]float64{}
	for _, st := range all {
		if st.pgrp == postmaster {
			u, _ := strconv.ParseFloat(st.utime, 64)
			k, _ := strconv.ParseFloat(st.stime, 64)
			cpu[st.pid] = (u + k) / clockTicks
		}
	}
	return cpu
}

func loadAverage() float64 {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(raw))
	if len(f) == 0 {
		return -1
	}
	x, _ := strconv.ParseFloat(f[0], 64)
	return x
}

// newEnvB is a job stack with the service's own queue and progress
// settings (the tests' faster ones would load the machine more).
func newEnvB(b *testing.B, workers int) *env {
	b.Helper()
	return newEnvWith(b, jobtest.New(b), "child:simulate", workers, runner.Limits{WallTime: time.Minute},
		envOptions{progressInterval: 500 * time.Millisecond, pollInterval: db.DefaultPollInterval})
}
