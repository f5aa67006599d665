package runner_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db/runner"
)

// BenchmarkBatchThroughput pushes 8 short NREL 5 MW runs through the
// queue with 1 worker (one after another) and with 2 workers (one per core
// here). The speed-up is the ratio of the two ns/op at the same t_max:
//
//	go test ./db/runner -run '^$' -bench BatchThroughput -benchtime 2x
//
// Two run lengths: at t_max 2 s a run computes for about 0.1 s, so the
// fixed cost of each job (child process start, deck parse, queue and
// database round trips) dominates; at t_max 10 s the solver does.
func BenchmarkBatchThroughput(b *testing.B) {
	for _, tc := range []struct {
		tMax    float64
		workers int
	}{{2, 1}, {2, 2}, {10, 1}, {10, 2}} {
		tMax, workers := tc.tMax, tc.workers
		b.Run(fmt.Sprintf("tmax=%gs/workers=%d", tMax, workers), func(b *testing.B) {
			e := newEnvB(b, workers)
			b.ResetTimer()
			for range b.N {
				ids := make([]string, 8)
				for i := range ids {
					j, _, err := e.jobs.SubmitJob(context.Background(), &turbinesim.NewJob{
						OrganizationID: e.org.ID, SubmittedBy: e.user.ID, InputDir: e.deck,
						Entrypoint: "Main_Onshore.fst", TMax: tMax})
					if err != nil {
						b.Fatal(err)
					}
					ids[i] = j.ID
				}
				for _, id := range ids {
					for {
						j, err := e.jobs.FindJob(context.Background(), e.org.ID, id)
						if err != nil {
							b.Fatal(err)
						}
						if j.Status.Terminal() {
							if j.Status != turbinesim.JobSucceeded {
								b.Fatalf("job %s: %v", j.Status, deref(j.Detail))
							}
							break
						}
						time.Sleep(20 * time.Millisecond)
					}
				}
			}
		})
	}
}

func newEnvB(b *testing.B, workers int) *env {
	b.Helper()
	return newEnvTB(b, "child:simulate", workers, runner.Limits{WallTime: time.Minute})
}
