package db

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"

	"github.com/turbinesim/turbinesim"
)

// NoteService implements turbinesim.NoteService on PostgreSQL.
type NoteService struct{ db *DB }

var _ turbinesim.NoteService = (*NoteService)(nil)

// NewNoteService returns the note store.
func NewNoteService(db *DB) *NoteService { return &NoteService{db: db} }

var errNoteNotFound = turbinesim.Errorf(turbinesim.ENOTFOUND, "note not found")

// visibleNote is the condition under which the caller ($1 organization,
// $2 user) sees a note: the same for list, read, update and delete, so a
// private note of someone else is absent everywhere.
const visibleNote = `n.organization_id = $1 AND (n.visibility = 'organization' OR n.author_id = $2)`

const noteSelect = `SELECT n.id, n.target_type, n.target_id, n.visibility, n.body, n.author_id,
	COALESCE(NULLIF(u.name, ''), 'member') AS author_name, n.created_at, n.updated_at
	FROM notes n JOIN users u ON u.id = n.author_id`

func (s *NoteService) find(ctx context.Context, q sqlx.QueryerContext, by *turbinesim.Auth, id string, lock bool) (*turbinesim.Note, error) {
	if !turbinesim.IsUUID(id) {
		return nil, errNoteNotFound
	}
	query := noteSelect + ` WHERE ` + visibleNote + ` AND n.id = $3`
	if lock {
		query += ` FOR UPDATE OF n`
	}
	var n turbinesim.Note
	if err := sqlx.GetContext(ctx, q, &n, query, by.Organization.ID, by.User.ID, id); err != nil {
		if isNotFound(translate(err, "")) {
			return nil, errNoteNotFound
		}
		return nil, translate(err, "finding note")
	}
	n.Mine = n.AuthorID == by.User.ID
	return &n, nil
}

// targetExists checks that the note's target is a resource of the
// organization (jobs only once the jobs table exists).
func (s *NoteService) targetExists(ctx context.Context, orgID, targetType, targetID string) error {
	table := map[string]string{"turbine": "turbines", "job": "jobs", "study": "studies"}[targetType]
	var reg sql.NullString
	if err := s.db.GetContext(ctx, &reg, `SELECT to_regclass($1)::text`, table); err != nil {
		return translate(err, "looking up note target")
	}
	var n int
	if reg.Valid {
		// table comes from the fixed map above, never from the caller.
		if err := s.db.GetContext(ctx, &n, `SELECT count(*) FROM `+table+` WHERE id = $1 AND organization_id = $2`, targetID, orgID); err != nil {
			return translate(err, "looking up note target")
		}
	}
	if n == 0 {
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "%s not found", targetType)
	}
	return nil
}

// CreateNote implements turbinesim.NoteService.
func (s *NoteService) CreateNote(ctx context.Context, by *turbinesim.Auth, in turbinesim.NoteInput) (*turbinesim.Note, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if err := s.targetExists(ctx, by.Organization.ID, in.TargetType, in.TargetID); err != nil {
		return nil, err
	}
	var id string
	err := s.db.GetContext(ctx, &id, `INSERT INTO notes (organization_id, author_id, target_type, target_id, visibility, body)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
		by.Organization.ID, by.User.ID, in.TargetType, in.TargetID, in.Visibility, in.Body)
	if err != nil {
		return nil, translate(err, "inserting note")
	}
	return s.find(ctx, s.db, by, id, false)
}

// ListNotes implements turbinesim.NoteService: oldest first.
func (s *NoteService) ListNotes(ctx context.Context, by *turbinesim.Auth, targetType, targetID string, page, size int) ([]*turbinesim.Note, int, error) {
	if !turbinesim.IsNoteTargetType(targetType) {
		return nil, 0, turbinesim.Errorf(turbinesim.EINVALID, "target_type: turbine, job or study")
	}
	if !turbinesim.IsUUID(targetID) {
		return nil, 0, turbinesim.Errorf(turbinesim.EINVALID, "target_id: not an id")
	}
	if page < 1 {
		page = 1
	}
	if size < 1 || size > turbinesim.MaxNotePageSize {
		size = 20
	}
	where := ` WHERE ` + visibleNote + ` AND n.target_type = $3 AND n.target_id = $4`
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM notes n`+where, by.Organization.ID, by.User.ID, targetType, targetID); err != nil {
		return nil, 0, translate(err, "counting notes")
	}
	out := []*turbinesim.Note{}
	err := s.db.SelectContext(ctx, &out, noteSelect+where+` ORDER BY n.created_at, n.id LIMIT $5 OFFSET $6`,
		by.Organization.ID, by.User.ID, targetType, targetID, size, (page-1)*size)
	if err != nil {
		return nil, 0, translate(err, "listing notes")
	}
	for _, n := range out {
		n.Mine = n.AuthorID == by.User.ID
	}
	return out, total, nil
}

// FindNote implements turbinesim.NoteService.
func (s *NoteService) FindNote(ctx context.Context, by *turbinesim.Auth, id string) (*turbinesim.Note, error) {
	return s.find(ctx, s.db, by, id, false)
}

// UpdateNote implements turbinesim.NoteService: the author only (a visible
// organization note of someone else is 403, a private one 404).
func (s *NoteService) UpdateNote(ctx context.Context, by *turbinesim.Auth, id string, u turbinesim.NoteUpdate) (*turbinesim.Note, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, translate(err, "updating note")
	}
	defer tx.Rollback()
	n, err := s.find(ctx, tx, by, id, true)
	if err != nil {
		return nil, err
	}
	if !n.Mine {
		return nil, turbinesim.Errorf(turbinesim.EFORBIDDEN, "only the author may edit a note")
	}
	_, err = tx.ExecContext(ctx, `UPDATE notes SET body = COALESCE($2, body), visibility = COALESCE($3, visibility),
		updated_at = now() WHERE id = $1`, id, u.Body, u.Visibility)
	if err != nil {
		return nil, translate(err, "updating note")
	}
	if n, err = s.find(ctx, tx, by, id, false); err != nil {
		return nil, err
	}
	return n, translate(tx.Commit(), "updating note")
}

// DeleteNote implements turbinesim.NoteService: the author, or an
// administrator for an organization note.
func (s *NoteService) DeleteNote(ctx context.Context, by *turbinesim.Auth, id string) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return translate(err, "deleting note")
	}
	defer tx.Rollback()
	n, err := s.find(ctx, tx, by, id, true)
	if err != nil {
		return err
	}
	if !n.Mine && by.User.Role != turbinesim.RoleAdmin {
		return turbinesim.Errorf(turbinesim.EFORBIDDEN, "only the author or an administrator may delete a note")
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM notes WHERE id = $1`, id); err != nil {
		return translate(err, "deleting note")
	}
	return translate(tx.Commit(), "deleting note")
}
