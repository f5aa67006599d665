package db_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/infra/blobstore"
)

type studyFixture struct {
	db       *db.DB
	svc      *db.StudyService
	store    *blobstore.Local
	author   *turbinesim.Auth
	member   *turbinesim.Auth
	outsider *turbinesim.Auth
}

func newStudyFixture(t *testing.T) *studyFixture {
	t.Helper()
	d := dbtest.New(t)
	ctx := context.Background()
	store, err := blobstore.NewLocal(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	f := &studyFixture{db: d, store: store, svc: db.NewStudyService(d, store)}
	mk := func(orgName, email string, org *turbinesim.Organization) *turbinesim.Auth {
		if org == nil {
			org = &turbinesim.Organization{Name: orgName}
			if err := db.NewOrganizationService(d).CreateOrganization(ctx, org); err != nil {
				t.Fatal(err)
			}
		}
		u := &turbinesim.User{OrganizationID: org.ID, Email: email, Name: strings.Split(email, "@")[0], Role: turbinesim.RoleMember, Verified: true}
		if err := db.NewUserService(d).CreateUser(ctx, u, "correct horse battery"); err != nil {
			t.Fatal(err)
		}
		return &turbinesim.Auth{User: u, Organization: org}
	}
	f.author = mk("A", "author@example.com", nil)
	f.member = mk("", "member@example.com", f.author.Organization)
	f.outsider = mk("B", "outsider@example.com", nil)
	return f
}

// blobCount is the number of trees in the store (staging included).
func (f *studyFixture) blobCount(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir(f.store.Root())
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

func TestStudyShareLifecycle(t *testing.T) {
	t.Parallel()
	f := newStudyFixture(t)
	ctx := context.Background()
	st, err := f.svc.CreateStudy(ctx, f.author, turbinesim.StudyInput{Title: "  Yaw misalignment  ", Description: "DLC 1.2"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Title != "Yaw misalignment" || st.AuthorName != "author" || st.ShareEnabled {
		t.Fatalf("created %+v", st)
	}
	// A member who is not the author may not manage the link.
	if _, err := f.svc.EnableShare(ctx, f.member, st.ID); turbinesim.ErrorCode(err) != turbinesim.EFORBIDDEN {
		t.Fatalf("member enabling: %v, want forbidden", err)
	}
	// Another organization does not see the study at all.
	if _, err := f.svc.EnableShare(ctx, f.outsider, st.ID); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("outsider enabling: %v, want not found", err)
	}
	first, err := f.svc.EnableShare(ctx, f.author, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Token) != 64 || !turbinesim.WellFormedShareToken(first.Token) || !first.Enabled {
		t.Fatalf("token %q", first.Token)
	}
	if _, err := f.svc.EnableShare(ctx, f.author, st.ID); turbinesim.ErrorCode(err) != turbinesim.ECONFLICT {
		t.Fatalf("enabling twice: %v, want conflict", err)
	}
	// The database never holds the raw token.
	var raw int
	if err := f.db.Get(&raw, `SELECT count(*) FROM studies WHERE encode(share_token_hash, 'escape') LIKE '%' || $1 || '%'
		OR title LIKE '%' || $1 || '%'`, first.Token); err != nil || raw != 0 {
		t.Fatalf("raw token matches in the database: %d (%v)", raw, err)
	}
	got, err := f.svc.SharedStudy(ctx, first.Token)
	if err != nil || got.ID != st.ID {
		t.Fatalf("shared study: %v %v", got, err)
	}
	second, err := f.svc.RotateShare(ctx, f.author, st.ID)
	if err != nil || second.Token == first.Token {
		t.Fatalf("rotate: %v %v", second, err)
	}
	if _, err := f.svc.SharedStudy(ctx, first.Token); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("rotated-away token: %v, want not found", err)
	}
	if _, err := f.svc.SharedStudy(ctx, second.Token); err != nil {
		t.Fatalf("new token: %v", err)
	}
	if err := f.svc.DisableShare(ctx, f.author, st.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.SharedStudy(ctx, second.Token); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("disabled token: %v, want not found", err)
	}
	if _, err := f.svc.RotateShare(ctx, f.author, st.ID); turbinesim.ErrorCode(err) != turbinesim.ECONFLICT {
		t.Fatalf("rotating a disabled link: %v, want conflict", err)
	}
}

func TestStudyArtifactsLeaveNothingBehindOnFailure(t *testing.T) {
	t.Parallel()
	f := newStudyFixture(t)
	f.svc.MaxArtifactBytes = 1000
	ctx := context.Background()
	st, err := f.svc.CreateStudy(ctx, f.author, turbinesim.StudyInput{Title: "Loads"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := f.svc.CreateStudy(ctx, f.member, turbinesim.StudyInput{Title: "Other"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := f.svc.AddArtifact(ctx, f.member, st.ID, turbinesim.ArtifactUpload{Name: "report.pdf", ContentType: "application/pdf", Body: strings.NewReader("%PDF-1.7 abc")})
	if err != nil {
		t.Fatal(err)
	}
	// sha256("%PDF-1.7 abc") computed independently with sha256sum.
	if a.Size != 12 || a.SHA256 != "baad13769b56aaeb5b072762fefe73bc572a131353d594ec2db2b382bfabadfa" {
		t.Fatalf("artifact %+v", a)
	}
	before := f.blobCount(t)
	// Too large: 413 in the API, and nothing stored.
	_, err = f.svc.AddArtifact(ctx, f.member, st.ID, turbinesim.ArtifactUpload{Name: "big.bin", Body: strings.NewReader(strings.Repeat("x", 1001))})
	if !errors.Is(err, turbinesim.ErrArtifactTooLarge) {
		t.Fatalf("oversized upload: %v", err)
	}
	// Duplicate name: the bytes were stored before the insert failed, and
	// must be gone again.
	_, err = f.svc.AddArtifact(ctx, f.member, st.ID, turbinesim.ArtifactUpload{Name: "report.pdf", Body: strings.NewReader("again")})
	if turbinesim.ErrorCode(err) != turbinesim.ECONFLICT {
		t.Fatalf("duplicate name: %v, want conflict", err)
	}
	// A reader that fails midway.
	_, err = f.svc.AddArtifact(ctx, f.member, st.ID, turbinesim.ArtifactUpload{Name: "cut.csv", Body: io.MultiReader(strings.NewReader("a,b\n"), failingReader{})})
	if err == nil {
		t.Fatal("failed read accepted")
	}
	if got := f.blobCount(t); got != before {
		t.Fatalf("blob store holds %d trees after failed uploads, want %d", got, before)
	}
	var rows int
	if err := f.db.Get(&rows, `SELECT count(*) FROM study_artifacts`); err != nil || rows != 1 {
		t.Fatalf("artifact rows = %d (%v), want 1", rows, err)
	}
	// Path-like names are refused before anything is read.
	for _, name := range []string{"../../etc/passwd", "/etc/passwd", "a/../../b", `..\..\x`, "x\x00.txt", "\u2215etc\u2215passwd", "%2e%2e%2f", ".hidden", strings.Repeat("a", 4096)} {
		_, err := f.svc.AddArtifact(ctx, f.member, st.ID, turbinesim.ArtifactUpload{Name: name, Body: strings.NewReader("x")})
		if turbinesim.ErrorCode(err) != turbinesim.EINVALID {
			t.Errorf("name %q: %v, want invalid", name, err)
		}
	}
	// The artifact is reachable through its own study only.
	if _, _, err := f.svc.OpenArtifact(ctx, f.author.Organization.ID, other.ID, a.ID); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("artifact through another study: %v", err)
	}
	if _, _, err := f.svc.OpenArtifact(ctx, f.outsider.Organization.ID, st.ID, a.ID); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("artifact from another organization: %v", err)
	}
	_, rc, err := f.svc.OpenArtifact(ctx, f.author.Organization.ID, st.ID, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(rc)
	rc.Close()
	if string(body) != "%PDF-1.7 abc" {
		t.Fatalf("downloaded %q", body)
	}
	// Deleting the study removes rows and bytes.
	if err := f.svc.DeleteStudy(ctx, f.member, st.ID); turbinesim.ErrorCode(err) != turbinesim.EFORBIDDEN {
		t.Fatalf("member deleting the author's study: %v", err)
	}
	if err := f.svc.DeleteStudy(ctx, f.author, st.ID); err != nil {
		t.Fatal(err)
	}
	if got := f.blobCount(t); got != before-1 {
		t.Fatalf("blob store holds %d trees after deleting the study, want %d", got, before-1)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

// Links are checked against the organization: its own turbine, jobs and
// batches are accepted, anyone else's (or made-up ids) are 422; the public
// view names the turbine but carries no id.
func TestStudyLinksScopedToOrganization(t *testing.T) {
	t.Parallel()
	f := newStudyFixture(t)
	ctx := context.Background()
	var turbineA, turbineB, jobA, jobB, batchA string
	mustGet := func(dst *string, q string, args ...any) {
		t.Helper()
		if err := f.db.Get(dst, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	mustGet(&turbineA, `INSERT INTO turbines (organization_id, name) VALUES ($1, 'NREL 5MW') RETURNING id`, f.author.Organization.ID)
	mustGet(&turbineB, `INSERT INTO turbines (organization_id, name) VALUES ($1, 'IEA 15MW') RETURNING id`, f.outsider.Organization.ID)
	mustGet(&batchA, `INSERT INTO batches (organization_id, kind, request, run_count, price_cents, tokens)
		VALUES ($1, 'dlc', '{}', 1, 0, 0) RETURNING id`, f.author.Organization.ID)
	const job = `INSERT INTO jobs (organization_id, batch_id, entrypoint, input_key, t_max, price_cents, tokens, charge_month)
		VALUES ($1, $2, 'Main.fst', 'in', 10, 0, 0, date_trunc('month', now())) RETURNING id`
	mustGet(&jobA, job, f.author.Organization.ID, batchA)
	mustGet(&jobB, job, f.outsider.Organization.ID, nil)

	st, err := f.svc.CreateStudy(ctx, f.author, turbinesim.StudyInput{Title: "Linked", TurbineID: &turbineA,
		JobIDs: []string{jobA, strings.ToUpper(jobA)}, BatchIDs: []string{batchA}})
	if err != nil {
		t.Fatal(err)
	}
	if st.TurbineName == nil || *st.TurbineName != "NREL 5MW" || len(st.JobIDs) != 1 || st.JobIDs[0] != jobA || len(st.BatchIDs) != 1 {
		t.Fatalf("linked study %+v", st)
	}
	pub := st.Public()
	if pub.Turbine == nil || *pub.Turbine != "NREL 5MW" || pub.JobCount != 1 {
		t.Fatalf("public view %+v", pub)
	}
	for name, in := range map[string]turbinesim.StudyInput{
		"foreign turbine": {Title: "x", TurbineID: &turbineB},
		"foreign job":     {Title: "x", JobIDs: []string{jobB}},
		"unknown batch":   {Title: "x", BatchIDs: []string{jobA}},
	} {
		if _, err := f.svc.UpdateStudy(ctx, f.author, st.ID, in); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
			t.Errorf("%s: %v, want invalid", name, err)
		}
	}
	// Deleting the turbine keeps the study, without the link.
	if _, err := f.db.Exec(`DELETE FROM turbines WHERE id = $1`, turbineA); err != nil {
		t.Fatal(err)
	}
	if st, err = f.svc.FindStudy(ctx, f.author.Organization.ID, st.ID); err != nil || st.TurbineID != nil {
		t.Fatalf("after turbine deletion: %+v %v", st, err)
	}
}
