package db

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/turbinesim/turbinesim"
)

// StudyService implements turbinesim.StudyService on PostgreSQL, with the
// artifact bytes in a TreeStore (one tree holding one file per artifact).
type StudyService struct {
	db    *DB
	blobs turbinesim.TreeStore
	// MaxArtifactBytes caps one upload; NewStudyService sets
	// turbinesim.MaxArtifactBytes.
	MaxArtifactBytes int64
}

var _ turbinesim.StudyService = (*StudyService)(nil)

// NewStudyService returns the study store.
func NewStudyService(db *DB, blobs turbinesim.TreeStore) *StudyService {
	return &StudyService{db: db, blobs: blobs, MaxArtifactBytes: turbinesim.MaxArtifactBytes}
}

// artifactFile is the name of the single file inside an artifact's tree;
// the user's name is metadata only and never reaches the file system.
const artifactFile = "content"

var errStudyNotFound = turbinesim.Errorf(turbinesim.ENOTFOUND, "study not found")
var errArtifactNotFound = turbinesim.Errorf(turbinesim.ENOTFOUND, "artifact not found")

// errShareNotFound is the one answer for every token that does not open a
// study: unknown, disabled, rotated away or malformed.
var errShareNotFound = turbinesim.Errorf(turbinesim.ENOTFOUND, "not found")

const studySelect = `SELECT s.id, s.organization_id, s.title, s.description, s.turbine_id,
	s.job_ids, s.batch_ids, s.author_id, COALESCE(u.name, '') AS author_name, t.name AS turbine_name,
	s.share_token_hash IS NOT NULL AS share_enabled,
	(SELECT count(*) FROM study_artifacts a WHERE a.study_id = s.id) AS artifact_count,
	s.created_at, s.updated_at
	FROM studies s
	LEFT JOIN users u ON u.id = s.author_id
	LEFT JOIN turbines t ON t.id = s.turbine_id`

// studyRow scans the id arrays, which sqlx cannot map onto []string.
type studyRow struct {
	turbinesim.Study
	JobIDs   pq.StringArray `db:"job_ids"`
	BatchIDs pq.StringArray `db:"batch_ids"`
}

func (r *studyRow) study() *turbinesim.Study {
	s := r.Study
	s.JobIDs = append([]string{}, r.JobIDs...)
	s.BatchIDs = append([]string{}, r.BatchIDs...)
	return &s
}

func (s *StudyService) get(ctx context.Context, q sqlx.QueryerContext, where string, args ...any) (*turbinesim.Study, error) {
	var r studyRow
	if err := sqlx.GetContext(ctx, q, &r, studySelect+` WHERE `+where, args...); err != nil {
		return nil, translate(err, "finding study")
	}
	return r.study(), nil
}

// FindStudy implements turbinesim.StudyService.
func (s *StudyService) FindStudy(ctx context.Context, orgID, id string) (*turbinesim.Study, error) {
	if !turbinesim.IsUUID(id) || !turbinesim.IsUUID(orgID) {
		return nil, errStudyNotFound
	}
	st, err := s.get(ctx, s.db, `s.id = $1 AND s.organization_id = $2`, id, orgID)
	if isNotFound(err) {
		return nil, errStudyNotFound
	}
	return st, err
}

// ListStudies implements turbinesim.StudyService: newest first.
func (s *StudyService) ListStudies(ctx context.Context, orgID string, page, size int) ([]*turbinesim.Study, int, error) {
	if page < 1 {
		page = 1
	}
	if size < 1 || size > turbinesim.MaxStudyPageSize {
		size = turbinesim.DefaultStudyPage
	}
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM studies WHERE organization_id = $1`, orgID); err != nil {
		return nil, 0, translate(err, "counting studies")
	}
	var rows []studyRow
	err := s.db.SelectContext(ctx, &rows, studySelect+` WHERE s.organization_id = $1
		ORDER BY s.created_at DESC, s.id LIMIT $2 OFFSET $3`, orgID, size, (page-1)*size)
	if err != nil {
		return nil, 0, translate(err, "listing studies")
	}
	out := make([]*turbinesim.Study, len(rows))
	for i := range rows {
		out[i] = rows[i].study()
	}
	return out, total, nil
}

// checkLinks refuses a turbine, job or batch that is not the
// organization's (422 naming the field). Jobs are checked only when the
// jobs table exists (it arrives with a later migration).
func (s *StudyService) checkLinks(ctx context.Context, tx *sqlx.Tx, orgID string, in *turbinesim.StudyInput) error {
	if in.TurbineID != nil {
		var n int
		if err := tx.GetContext(ctx, &n, `SELECT count(*) FROM turbines WHERE id = $1 AND organization_id = $2`, *in.TurbineID, orgID); err != nil {
			return translate(err, "checking turbine")
		}
		if n == 0 {
			return turbinesim.Errorf(turbinesim.EINVALID, "turbine_id: no such turbine in the organization")
		}
	}
	if len(in.JobIDs) == 0 && len(in.BatchIDs) == 0 {
		return nil
	}
	var jobsTable sql.NullString
	if err := tx.GetContext(ctx, &jobsTable, `SELECT to_regclass('jobs')::text`); err != nil {
		return translate(err, "looking for the jobs table")
	}
	if !jobsTable.Valid {
		return nil
	}
	var missing []string
	err := tx.SelectContext(ctx, &missing, `SELECT x::text FROM unnest($1::uuid[]) AS x
		WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = x AND j.organization_id = $2)`, pq.StringArray(in.JobIDs), orgID)
	if err != nil {
		return translate(err, "checking linked jobs")
	}
	if len(missing) > 0 {
		return turbinesim.Errorf(turbinesim.EINVALID, "job_ids: no job %s in the organization", missing[0])
	}
	// Batches are rows of their own once the batches table exists (a
	// batch may not have jobs yet); before that, a batch is a batch_id
	// shared by jobs.
	batchQuery := `SELECT x::text FROM unnest($1::uuid[]) AS x
		WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.batch_id = x AND j.organization_id = $2)`
	var batchesTable sql.NullString
	if err := tx.GetContext(ctx, &batchesTable, `SELECT to_regclass('batches')::text`); err != nil {
		return translate(err, "looking for the batches table")
	}
	if batchesTable.Valid {
		batchQuery = `SELECT x::text FROM unnest($1::uuid[]) AS x
			WHERE NOT EXISTS (SELECT 1 FROM batches b WHERE b.id = x AND b.organization_id = $2)`
	}
	err = tx.SelectContext(ctx, &missing, batchQuery, pq.StringArray(in.BatchIDs), orgID)
	if err != nil {
		return translate(err, "checking linked batches")
	}
	if len(missing) > 0 {
		return turbinesim.Errorf(turbinesim.EINVALID, "batch_ids: no batch %s in the organization", missing[0])
	}
	return nil
}

func (s *StudyService) inTx(ctx context.Context, doing string, fn func(tx *sqlx.Tx) error) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return translate(err, doing)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return translate(tx.Commit(), doing)
}

func orEmpty(ids []string) pq.StringArray {
	if ids == nil {
		return pq.StringArray{}
	}
	return pq.StringArray(ids)
}

// CreateStudy implements turbinesim.StudyService.
func (s *StudyService) CreateStudy(ctx context.Context, by *turbinesim.Auth, in turbinesim.StudyInput) (*turbinesim.Study, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	var st *turbinesim.Study
	err := s.inTx(ctx, "creating study", func(tx *sqlx.Tx) error {
		if err := s.checkLinks(ctx, tx, by.Organization.ID, &in); err != nil {
			return err
		}
		var id string
		err := tx.GetContext(ctx, &id, `INSERT INTO studies
			(organization_id, title, description, turbine_id, job_ids, batch_ids, author_id)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
			by.Organization.ID, in.Title, in.Description, in.TurbineID, orEmpty(in.JobIDs), orEmpty(in.BatchIDs), by.User.ID)
		if err != nil {
			return translate(err, "inserting study")
		}
		st, err = s.get(ctx, tx, `s.id = $1`, id)
		return err
	})
	return st, err
}

// mayManage: the author and the organization's administrators manage the
// share link and delete the study.
func mayManage(by *turbinesim.Auth, st *turbinesim.Study) error {
	if by.User.Role == turbinesim.RoleAdmin || (st.AuthorID != nil && *st.AuthorID == by.User.ID) {
		return nil
	}
	return turbinesim.Errorf(turbinesim.EFORBIDDEN, "only the study's author or an organization administrator may do this")
}

// lockStudy reads the study FOR UPDATE inside tx, scoped to the caller's
// organization.
func (s *StudyService) lockStudy(ctx context.Context, tx *sqlx.Tx, orgID, id string) (*turbinesim.Study, error) {
	if !turbinesim.IsUUID(id) {
		return nil, errStudyNotFound
	}
	var locked string
	err := tx.GetContext(ctx, &locked, `SELECT id FROM studies WHERE id = $1 AND organization_id = $2 FOR UPDATE`, id, orgID)
	if err != nil {
		if isNotFound(translate(err, "")) {
			return nil, errStudyNotFound
		}
		return nil, translate(err, "locking study")
	}
	return s.get(ctx, tx, `s.id = $1`, id)
}

// UpdateStudy implements turbinesim.StudyService: any member of the
// organization may edit the header.
func (s *StudyService) UpdateStudy(ctx context.Context, by *turbinesim.Auth, id string, in turbinesim.StudyInput) (*turbinesim.Study, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	var st *turbinesim.Study
	err := s.inTx(ctx, "updating study", func(tx *sqlx.Tx) error {
		if _, err := s.lockStudy(ctx, tx, by.Organization.ID, id); err != nil {
			return err
		}
		if err := s.checkLinks(ctx, tx, by.Organization.ID, &in); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE studies SET title = $2, description = $3, turbine_id = $4,
			job_ids = $5, batch_ids = $6, updated_at = now() WHERE id = $1`,
			id, in.Title, in.Description, in.TurbineID, orEmpty(in.JobIDs), orEmpty(in.BatchIDs))
		if err != nil {
			return translate(err, "updating study")
		}
		st, err = s.get(ctx, tx, `s.id = $1`, id)
		return err
	})
	return st, err
}

// DeleteStudy implements turbinesim.StudyService. The rows go in one
// transaction; the artifact bytes after it commits (a failed blob delete
// leaves an orphan tree, never a row without its bytes).
func (s *StudyService) DeleteStudy(ctx context.Context, by *turbinesim.Auth, id string) error {
	var keys []string
	err := s.inTx(ctx, "deleting study", func(tx *sqlx.Tx) error {
		st, err := s.lockStudy(ctx, tx, by.Organization.ID, id)
		if err != nil {
			return err
		}
		if err := mayManage(by, st); err != nil {
			return err
		}
		if err := tx.SelectContext(ctx, &keys, `SELECT blob_key FROM study_artifacts WHERE study_id = $1`, id); err != nil {
			return translate(err, "listing artifacts")
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM studies WHERE id = $1`, id); err != nil {
			return translate(err, "deleting study")
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range keys {
		_ = s.blobs.Delete(context.WithoutCancel(ctx), k)
	}
	return nil
}

// spool writes an upload into a fresh directory as artifactFile, counting
// and hashing; more than limit bytes fails with ErrArtifactTooLarge.
func spool(body io.Reader, limit int64) (dir string, size int64, digest string, err error) {
	dir, err = os.MkdirTemp("", "artifact-")
	if err != nil {
		return "", 0, "", fmt.Errorf("spooling upload: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, artifactFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		os.RemoveAll(dir)
		return "", 0, "", fmt.Errorf("spooling upload: %w", err)
	}
	h := sha256.New()
	size, err = io.Copy(io.MultiWriter(f, h), io.LimitReader(body, limit+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		os.RemoveAll(dir)
		return "", 0, "", fmt.Errorf("reading upload: %w", err)
	case size > limit:
		os.RemoveAll(dir)
		return "", 0, "", fmt.Errorf("%w (%d bytes)", turbinesim.ErrArtifactTooLarge, limit)
	}
	return dir, size, hex.EncodeToString(h.Sum(nil)), nil
}

// AddArtifact implements turbinesim.StudyService. The bytes are spooled
// and stored first, then the row is inserted in a transaction that also
// checks the study; if anything fails the stored tree is deleted again, so
// a failed upload leaves neither a row nor bytes.
func (s *StudyService) AddArtifact(ctx context.Context, by *turbinesim.Auth, studyID string, up turbinesim.ArtifactUpload) (*turbinesim.Artifact, error) {
	if err := turbinesim.CheckArtifactName(up.Name); err != nil {
		return nil, err
	}
	if _, err := s.FindStudy(ctx, by.Organization.ID, studyID); err != nil {
		return nil, err
	}
	ctype := up.ContentType
	if ctype == "" || len(ctype) > 200 {
		ctype = "application/octet-stream"
	}
	dir, size, digest, err := spool(up.Body, s.MaxArtifactBytes)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	key, err := s.blobs.Put(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("storing artifact: %w", err)
	}
	var a turbinesim.Artifact
	err = s.inTx(ctx, "adding artifact", func(tx *sqlx.Tx) error {
		if _, err := s.lockStudy(ctx, tx, by.Organization.ID, studyID); err != nil {
			return err
		}
		err := tx.GetContext(ctx, &a, `INSERT INTO study_artifacts
			(study_id, organization_id, name, content_type, size_bytes, sha256, blob_key, uploaded_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING `+artifactColumns,
			studyID, by.Organization.ID, up.Name, ctype, size, digest, key, by.User.ID)
		if err != nil {
			var pqErr *pq.Error
			if errors.As(err, &pqErr) && pqErr.Constraint == "study_artifacts_study_name_key" {
				return turbinesim.WrapError(turbinesim.ECONFLICT, fmt.Sprintf("the study already has an artifact named %q", up.Name), err)
			}
			return translate(err, "inserting artifact")
		}
		_, err = tx.ExecContext(ctx, `UPDATE studies SET updated_at = now() WHERE id = $1`, studyID)
		return translate(err, "touching study")
	})
	if err != nil {
		_ = s.blobs.Delete(context.WithoutCancel(ctx), key)
		return nil, err
	}
	return &a, nil
}

const artifactColumns = `id, study_id, name, content_type, size_bytes, sha256, blob_key, uploaded_by, created_at`

// ListArtifacts implements turbinesim.StudyService: in upload order.
func (s *StudyService) ListArtifacts(ctx context.Context, orgID, studyID string) ([]*turbinesim.Artifact, error) {
	if _, err := s.FindStudy(ctx, orgID, studyID); err != nil {
		return nil, err
	}
	return s.artifacts(ctx, studyID)
}

func (s *StudyService) artifacts(ctx context.Context, studyID string) ([]*turbinesim.Artifact, error) {
	out := []*turbinesim.Artifact{}
	err := s.db.SelectContext(ctx, &out, `SELECT `+artifactColumns+` FROM study_artifacts
		WHERE study_id = $1 ORDER BY created_at, id`, studyID)
	return out, translate(err, "listing artifacts")
}

// openArtifact loads the artifact of studyID and opens its bytes.
func (s *StudyService) openArtifact(ctx context.Context, studyID, artifactID string) (*turbinesim.Artifact, io.ReadCloser, error) {
	if !turbinesim.IsUUID(artifactID) {
		return nil, nil, errArtifactNotFound
	}
	var a turbinesim.Artifact
	err := s.db.GetContext(ctx, &a, `SELECT `+artifactColumns+` FROM study_artifacts WHERE id = $1 AND study_id = $2`, artifactID, studyID)
	if err != nil {
		if isNotFound(translate(err, "")) {
			return nil, nil, errArtifactNotFound
		}
		return nil, nil, translate(err, "finding artifact")
	}
	dir, release, err := s.blobs.Open(ctx, a.BlobKey)
	if err != nil {
		return nil, nil, fmt.Errorf("opening artifact %s: %w", a.ID, err)
	}
	// Only the one regular file this service wrote is ever opened: the
	// name is fixed and the tree is opened through os.Root, so neither a
	// name nor a link inside the tree can lead elsewhere.
	root, err := os.OpenRoot(dir)
	if err != nil {
		release()
		return nil, nil, fmt.Errorf("opening artifact %s: %w", a.ID, err)
	}
	f, err := root.Open(artifactFile)
	root.Close()
	if err != nil {
		release()
		return nil, nil, fmt.Errorf("opening artifact %s: %w", a.ID, err)
	}
	return &a, releasingFile{File: f, release: release}, nil
}

type releasingFile struct {
	*os.File
	release func()
}

func (r releasingFile) Close() error {
	err := r.File.Close()
	r.release()
	return err
}

// OpenArtifact implements turbinesim.StudyService.
func (s *StudyService) OpenArtifact(ctx context.Context, orgID, studyID, artifactID string) (*turbinesim.Artifact, io.ReadCloser, error) {
	if _, err := s.FindStudy(ctx, orgID, studyID); err != nil {
		return nil, nil, err
	}
	return s.openArtifact(ctx, studyID, artifactID)
}

// DeleteArtifact implements turbinesim.StudyService: any member may remove
// an artifact; the bytes go after the row's transaction commits.
func (s *StudyService) DeleteArtifact(ctx context.Context, by *turbinesim.Auth, studyID, artifactID string) error {
	if !turbinesim.IsUUID(artifactID) {
		return errArtifactNotFound
	}
	var key string
	err := s.inTx(ctx, "deleting artifact", func(tx *sqlx.Tx) error {
		if _, err := s.lockStudy(ctx, tx, by.Organization.ID, studyID); err != nil {
			return err
		}
		err := tx.GetContext(ctx, &key, `DELETE FROM study_artifacts WHERE id = $1 AND study_id = $2 RETURNING blob_key`, artifactID, studyID)
		if err != nil {
			if isNotFound(translate(err, "")) {
				return errArtifactNotFound
			}
			return translate(err, "deleting artifact")
		}
		_, err = tx.ExecContext(ctx, `UPDATE studies SET updated_at = now() WHERE id = $1`, studyID)
		return translate(err, "touching study")
	})
	if err != nil {
		return err
	}
	_ = s.blobs.Delete(context.WithoutCancel(ctx), key)
	return nil
}

// ShareStatus implements turbinesim.StudyService.
func (s *StudyService) ShareStatus(ctx context.Context, orgID, studyID string) (*turbinesim.ShareStatus, error) {
	if !turbinesim.IsUUID(studyID) {
		return nil, errStudyNotFound
	}
	var at sql.NullTime
	err := s.db.GetContext(ctx, &at, `SELECT CASE WHEN share_token_hash IS NULL THEN NULL ELSE share_enabled_at END
		FROM studies WHERE id = $1 AND organization_id = $2`, studyID, orgID)
	if err != nil {
		if isNotFound(translate(err, "")) {
			return nil, errStudyNotFound
		}
		return nil, translate(err, "reading share status")
	}
	return shareStatus(at, ""), nil
}

func shareStatus(at sql.NullTime, token string) *turbinesim.ShareStatus {
	st := &turbinesim.ShareStatus{Enabled: at.Valid, Token: token}
	if at.Valid {
		t := at.Time
		st.EnabledAt = &t
	}
	return st
}

// setShare locks the study, checks the caller and the current state, and
// stores a new token digest (or none).
func (s *StudyService) setShare(ctx context.Context, by *turbinesim.Auth, studyID string, wantEnabled *bool, issue bool) (*turbinesim.ShareStatus, error) {
	var out *turbinesim.ShareStatus
	err := s.inTx(ctx, "changing share link", func(tx *sqlx.Tx) error {
		st, err := s.lockStudy(ctx, tx, by.Organization.ID, studyID)
		if err != nil {
			return err
		}
		if err := mayManage(by, st); err != nil {
			return err
		}
		if wantEnabled != nil && st.ShareEnabled != *wantEnabled {
			if *wantEnabled {
				return turbinesim.Errorf(turbinesim.ECONFLICT, "the share link is disabled; enable it first")
			}
			return turbinesim.Errorf(turbinesim.ECONFLICT, "the share link is enabled already; rotate it to get a new link")
		}
		ch := auditChange{TargetType: "study", TargetID: studyID}
		if !issue {
			_, err := tx.ExecContext(ctx, `UPDATE studies SET share_token_hash = NULL, share_enabled_at = NULL WHERE id = $1`, studyID)
			out = &turbinesim.ShareStatus{}
			if err != nil || !st.ShareEnabled {
				return translate(err, "disabling share link") // nothing was public: nothing to audit
			}
			ch.Event, ch.Summary = turbinesim.AuditShareDisabled, fmt.Sprintf("study %q unpublished: share link disabled", st.Title)
			return recordEvent(ctx, tx, by.Organization.ID, ch)
		}
		ch.Event, ch.Summary = turbinesim.AuditShareEnabled, fmt.Sprintf("study %q published: share link enabled", st.Title)
		if st.ShareEnabled {
			ch.Event, ch.Summary = turbinesim.AuditShareRotated, fmt.Sprintf("share link of study %q rotated; the old link stops working", st.Title)
		}
		if err := recordEvent(ctx, tx, by.Organization.ID, ch); err != nil {
			return err
		}
		token, digest, err := turbinesim.NewShareToken()
		if err != nil {
			return err
		}
		var at time.Time
		err = tx.GetContext(ctx, &at, `UPDATE studies SET share_token_hash = $2, share_enabled_at = now()
			WHERE id = $1 RETURNING share_enabled_at`, studyID, digest)
		if err != nil {
			return translate(err, "storing share token")
		}
		out = shareStatus(sql.NullTime{Time: at, Valid: true}, token)
		return nil
	})
	return out, err
}

// EnableShare implements turbinesim.StudyService.
func (s *StudyService) EnableShare(ctx context.Context, by *turbinesim.Auth, studyID string) (*turbinesim.ShareStatus, error) {
	disabled := false
	return s.setShare(ctx, by, studyID, &disabled, true)
}

// RotateShare implements turbinesim.StudyService: the old digest is
// overwritten in the same statement, so the old token stops working when
// the transaction commits.
func (s *StudyService) RotateShare(ctx context.Context, by *turbinesim.Auth, studyID string) (*turbinesim.ShareStatus, error) {
	enabled := true
	return s.setShare(ctx, by, studyID, &enabled, true)
}

// DisableShare implements turbinesim.StudyService.
func (s *StudyService) DisableShare(ctx context.Context, by *turbinesim.Auth, studyID string) error {
	_, err := s.setShare(ctx, by, studyID, nil, false)
	return err
}

// SharedStudy implements turbinesim.StudyService: the token is hashed and
// the digest looked up; the raw token never reaches the database.
func (s *StudyService) SharedStudy(ctx context.Context, token string) (*turbinesim.Study, error) {
	if !turbinesim.WellFormedShareToken(token) {
		return nil, errShareNotFound
	}
	st, err := s.get(ctx, s.db, `s.share_token_hash = $1`, turbinesim.ShareTokenDigest(token))
	if isNotFound(err) {
		return nil, errShareNotFound
	}
	return st, err
}

// SharedArtifacts implements turbinesim.StudyService.
func (s *StudyService) SharedArtifacts(ctx context.Context, token string) (*turbinesim.Study, []*turbinesim.Artifact, error) {
	st, err := s.SharedStudy(ctx, token)
	if err != nil {
		return nil, nil, err
	}
	as, err := s.artifacts(ctx, st.ID)
	return st, as, err
}

// OpenSharedArtifact implements turbinesim.StudyService: the artifact must
// belong to the token's study; any other is the same 404.
func (s *StudyService) OpenSharedArtifact(ctx context.Context, token, artifactID string) (*turbinesim.Artifact, io.ReadCloser, error) {
	st, err := s.SharedStudy(ctx, token)
	if err != nil {
		return nil, nil, err
	}
	a, rc, err := s.openArtifact(ctx, st.ID, artifactID)
	if isNotFound(err) {
		return nil, nil, errShareNotFound
	}
	return a, rc, err
}
