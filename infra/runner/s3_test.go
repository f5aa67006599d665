package runner_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/jobtest"
	"github.com/turbinesim/turbinesim/infra/blobstore"
	"github.com/turbinesim/turbinesim/infra/runner"
	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// A worker that shares only the database and an S3 bucket with the server
// (its own store client, scratch and work directories: another machine)
// stages the job's inputs from S3, runs the solver and publishes the
// outputs back to S3, where the server reads them.
func TestRunThroughS3FromAnotherMachine(t *testing.T) {
	t.Parallel()
	deck := filepath.Dir(testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"))
	ctx := context.Background()
	be := s3mem.New()
	if err := be.CreateBucket("turbinesim"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(be).Server())
	t.Cleanup(srv.Close)
	store := func(scratch string) *blobstore.S3 {
		s, err := blobstore.NewS3(ctx, blobstore.S3Config{Endpoint: srv.URL, Bucket: "turbinesim",
			AccessKey: "k", SecretKey: "s", Region: "us-east-1", Prefix: "jobs/", ScratchDir: scratch})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	serverScratch, workerScratch := t.TempDir(), t.TempDir()

	d := jobtest.New(t)
	caps := db.NewCapService(d, nil)
	org := &turbinesim.Organization{Name: "S3 org"}
	if err := db.NewOrganizationService(d).CreateOrganization(ctx, org); err != nil {
		t.Fatal(err)
	}
	user := &turbinesim.User{OrganizationID: org.ID, Email: "s3@example.com"}
	if err := db.NewUserService(d).CreateUser(ctx, user, "correct horse"); err != nil {
		t.Fatal(err)
	}
	insertOnly, err := db.NewQueue(d, db.QueueConfig{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	server := db.NewJobService(d, store(serverScratch), caps, insertOnly)
	workerJobs := db.NewJobService(d, store(workerScratch), caps, insertOnly)
	w, err := runner.New(runner.Config{
		Jobs: workerJobs, WorkDir: filepath.Join(t.TempDir(), "work"),
		Command: []string{os.Args[0], "child:simulate"}, Limits: runner.Limits{WallTime: time.Minute},
		Sandbox: "none", ProgressInterval: 100 * time.Millisecond, Logger: quiet,
	})
	if err != nil {
		t.Fatal(err)
	}
	q, err := db.NewQueue(d, db.QueueConfig{Workers: 1, Worker: w,
		PollInterval: 50 * time.Millisecond, RetryDelay: 50 * time.Millisecond, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		q.StopAndCancel(stopCtx)
	})

	j, _, err := server.SubmitJob(ctx, &turbinesim.NewJob{OrganizationID: org.ID, SubmittedBy: user.ID,
		InputDir: deck, Entrypoint: "Main_Onshore.fst", TMax: 0.5, Work: jobtest.Work(0.5)})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !j.Status.Terminal() {
		if time.Now().After(deadline) {
			t.Fatalf("job still %s after 60 s", j.Status)
		}
		time.Sleep(50 * time.Millisecond)
		if j, err = server.FindJob(ctx, org.ID, j.ID); err != nil {
			t.Fatal(err)
		}
	}
	if j.Status != turbinesim.JobSucceeded || j.OutputKey == nil {
		t.Fatalf("job ended %s: %s\nlog:\n%s", j.Status, deref(j.Detail), j.Log)
	}
	dir, release, err := server.OpenOutputs(ctx, org.ID, j.ID)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(dir) != serverScratch {
		t.Errorf("outputs opened at %s, want a copy in the server's scratch %s", dir, serverScratch)
	}
	f, err := outfile.ReadOutbFile(filepath.Join(dir, "Main_Onshore.outb"))
	release()
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Time[len(f.Time)-1]; got != 0.5 {
		t.Errorf("output ends at %g s, want 0.5", got)
	}
	// Every local copy was released: the trees live only in the bucket.
	for _, s := range []string{serverScratch, workerScratch} {
		if ents, _ := os.ReadDir(s); len(ents) != 0 {
			t.Errorf("scratch %s keeps %d entries after the run", s, len(ents))
		}
	}
}
