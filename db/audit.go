package db

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/turbinesim/turbinesim"
)

// The audit log (turbinesim.AuditService) is kept by the API-key store,
// which also writes its request entries; every other store writes its
// change events with recordEvent inside the change's own transaction.

// RecordAudit implements turbinesim.AuditService.
func (s *APIKeyService) RecordAudit(ctx context.Context, e *turbinesim.AuditEntry) error {
	if e.Event == "" {
		e.Event = turbinesim.AuditAPIRequest
	}
	return insertAudit(ctx, s.db, e)
}

func insertAudit(ctx context.Context, q sqlx.QueryerContext, e *turbinesim.AuditEntry) error {
	err := q.QueryRowxContext(ctx, `
		INSERT INTO audit_log (organization_id, event, user_id, client_id, method, path, status,
		                       target_type, target_id, summary, target_user_id, target_client_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id, created_at`,
		e.OrganizationID, string(e.Event), nullUUID(e.UserID), e.ClientID, e.Method, e.Path, e.Status,
		e.TargetType, e.TargetID, e.Summary, e.TargetUserID, e.TargetClientID).Scan(&e.ID, &e.CreatedAt)
	return translate(err, "recording audit entry")
}

func nullUUID(id string) sql.NullString { return sql.NullString{String: id, Valid: id != ""} }

// auditChange is what a store knows about one change it audits.
type auditChange struct {
	Event      turbinesim.AuditEvent
	TargetType string
	TargetID   string
	// TargetUserID and TargetClientID, when set, name the account and API
	// key the change was made to.
	TargetUserID, TargetClientID string
	Summary                      string
}

// recordEvent writes ch to orgID's audit log in tx, the transaction of the
// change itself, naming the caller of the request (from ctx: the user and
// the API key they act with) and its method and path.
func recordEvent(ctx context.Context, tx *sqlx.Tx, orgID string, ch auditChange) error {
	e := &turbinesim.AuditEntry{OrganizationID: orgID, Event: ch.Event, TargetType: ch.TargetType,
		TargetID: ch.TargetID, Summary: ch.Summary}
	if a := turbinesim.AuthFromContext(ctx); a != nil && a.User != nil {
		e.UserID, e.ClientID = a.User.ID, a.ClientID
	}
	rl := turbinesim.RequestLineFromContext(ctx)
	e.Method, e.Path = rl.Method, rl.Path
	if ch.TargetUserID != "" {
		e.TargetUserID = &ch.TargetUserID
	}
	if ch.TargetClientID != "" {
		e.TargetClientID = &ch.TargetClientID
	}
	if err := insertAudit(ctx, tx, e); err != nil {
		return fmt.Errorf("auditing %s: %w", ch.Event, err)
	}
	return nil
}

// ListAudit implements turbinesim.AuditService.
func (s *APIKeyService) ListAudit(ctx context.Context, orgID string, f turbinesim.AuditFilter, page, pageSize int) ([]*turbinesim.AuditEntry, int, error) {
	entries := []*turbinesim.AuditEntry{}
	if err := f.Validate(); err != nil {
		return nil, 0, err
	}
	if !isUUID(orgID) || (f.UserID != "" && !isUUID(f.UserID)) {
		return entries, 0, nil
	}
	where := []string{"a.organization_id = $1"}
	args := []any{orgID}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(cond, len(args)))
	}
	if f.Event != "" {
		add("a.event = $%d", string(f.Event))
	}
	if f.UserID != "" {
		add("a.user_id = $%d", f.UserID)
	}
	if f.From != nil {
		add("a.created_at >= $%d", *f.From)
	}
	if f.To != nil {
		add("a.created_at < $%d", *f.To)
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM audit_log a WHERE `+cond, args...); err != nil {
		return nil, 0, translate(err, "counting audit entries")
	}
	args = append(args, pageSize, (page-1)*pageSize)
	err := s.db.SelectContext(ctx, &entries, fmt.Sprintf(`
		SELECT a.id, a.organization_id, a.event, coalesce(a.user_id::text, '') AS user_id,
		       coalesce(u.email, '') AS user_email, a.client_id, a.method, a.path, a.status,
		       a.target_type, a.target_id, a.summary, a.target_user_id, a.target_client_id, a.created_at
		  FROM audit_log a LEFT JOIN users u ON u.id = a.user_id
		 WHERE %s
		 ORDER BY a.id DESC LIMIT $%d OFFSET $%d`, cond, len(args)-1, len(args)), args...)
	return entries, total, translate(err, "listing audit entries")
}

// inTx runs fn in a transaction of db, committed when fn succeeds.
func inTx(ctx context.Context, db *DB, doing string, fn func(*sqlx.Tx) error) error {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return translate(err, doing)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return translate(tx.Commit(), doing)
}
