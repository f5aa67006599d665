package runner_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db/runner"
)

// BenchmarkBatchThroughput pushes 8 short NREL 5 MW runs (t_max 2 s)
// through the queue with 1 worker (one after another) and with 2 workers
// (one per core here). The speed-up is the ratio of the two ns/op:
//
//	go test ./db/runner -run '^$' -bench BatchThroughput -benchtime 2x
func BenchmarkBatchThroughput(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			e := newEnvB(b, workers)
			b.ResetTimer()
			for range b.N {
				ids := make([]string, 8)
				for i := range ids {
					j, _, err := e.jobs.SubmitJob(context.Background(), &turbinesim.NewJob{
						OrganizationID: e.org.ID, SubmittedBy: e.user.ID, InputDir: e.deck,
						Entrypoint: "Main_Onshore.fst", TMax: 2})
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
