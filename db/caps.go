package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/turbinesim/turbinesim"
)

// CapService implements turbinesim.CapService: monthly spend and token
// caps per organization.
type CapService struct {
	db  *DB
	now func() time.Time
}

var _ turbinesim.CapService = (*CapService)(nil)

// NewCapService returns the PostgreSQL cap ledger; now is the clock that
// picks the calendar month (nil means time.Now).
func NewCapService(db *DB, now func() time.Time) *CapService {
	if now == nil {
		now = time.Now
	}
	return &CapService{db: db, now: now}
}

func monthOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// Charge implements turbinesim.CapService on the pool.
func (s *CapService) Charge(ctx context.Context, orgID string, amountCents, tokens int64) (*turbinesim.Usage, error) {
	return s.ChargeTx(ctx, s.db, orgID, amountCents, tokens)
}

// ChargeTx charges inside the caller's transaction (or on any sqlx
// executor), so that a job insert and its charge commit or roll back
// together. The check and the charge are one conditional UPDATE: under
// READ COMMITTED a concurrent charge waits for the row lock and then
// re-checks the caps against the committed total, so the total never
// passes a cap.
func (s *CapService) ChargeTx(ctx context.Context, q sqlx.ExtContext, orgID string, amountCents, tokens int64) (*turbinesim.Usage, error) {
	if amountCents < 0 || tokens < 0 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "charge must not be negative")
	}
	if !isUUID(orgID) {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "organization not found")
	}
	month := monthOf(s.now())
	if err := ensureUsageRow(ctx, q, orgID, month); err != nil {
		return nil, err
	}
	var u turbinesim.Usage
	err := sqlx.GetContext(ctx, q, &u, `
		UPDATE org_usage AS u
		   SET spent_cents = u.spent_cents + $3, tokens = u.tokens + $4
		  FROM org_caps AS c
		 WHERE u.organization_id = $1 AND u.month = $2 AND c.organization_id = u.organization_id
		   AND u.spent_cents + $3 <= c.spend_cap_cents AND u.tokens + $4 <= c.token_cap
		RETURNING u.organization_id, u.month, u.spent_cents, u.tokens, c.spend_cap_cents, c.token_cap`,
		orgID, month, amountCents, tokens)
	if err = translate(err, "charging"); err == nil {
		return &u, nil
	} else if turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		return nil, err
	}
	// Refused: say which cap (read after the fact; only for the message).
	cur, err := currentUsage(ctx, q, orgID, month)
	if err != nil {
		return nil, err
	}
	return nil, turbinesim.CapRefusal(cur, amountCents, tokens, "this request")
}

// ensureUsageRow creates the organization's caps (plan defaults) and this
// month's usage row when absent.
func ensureUsageRow(ctx context.Context, q sqlx.ExtContext, orgID string, month time.Time) error {
	var plan turbinesim.Plan
	if err := sqlx.GetContext(ctx, q, &plan, `SELECT plan FROM organizations WHERE id = $1`, orgID); err != nil {
		err = translate(err, "finding organization plan")
		if turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
			return turbinesim.Errorf(turbinesim.ENOTFOUND, "organization not found")
		}
		return err
	}
	caps := plan.DefaultCaps()
	if _, err := q.ExecContext(ctx, `
		INSERT INTO org_caps (organization_id, spend_cap_cents, token_cap) VALUES ($1, $2, $3)
		ON CONFLICT (organization_id) DO NOTHING`, orgID, caps.SpendCapCents, caps.TokenCap); err != nil {
		return translate(err, "creating caps")
	}
	if _, err := q.ExecContext(ctx, `
		INSERT INTO org_usage (organization_id, month) VALUES ($1, $2)
		ON CONFLICT (organization_id, month) DO NOTHING`, orgID, month); err != nil {
		return translate(err, "creating usage row")
	}
	return nil
}

func currentUsage(ctx context.Context, q sqlx.ExtContext, orgID string, month time.Time) (*turbinesim.Usage, error) {
	var u turbinesim.Usage
	err := sqlx.GetContext(ctx, q, &u, `
		SELECT u.organization_id, u.month, u.spent_cents, u.tokens, c.spend_cap_cents, c.token_cap
		  FROM org_usage u JOIN org_caps c ON c.organization_id = u.organization_id
		 WHERE u.organization_id = $1 AND u.month = $2`, orgID, month)
	return &u, translate(err, "reading usage")
}

// CurrentUsage implements turbinesim.CapService.
func (s *CapService) CurrentUsage(ctx context.Context, orgID string) (*turbinesim.Usage, error) {
	if !isUUID(orgID) {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "organization not found")
	}
	// Read-only (a GET never writes): absent rows mean nothing spent yet
	// and the plan's default caps.
	month := monthOf(s.now())
	var row struct {
		Plan   turbinesim.Plan `db:"plan"`
		Spent  int64           `db:"spent_cents"`
		Tokens int64           `db:"tokens"`
		Spend  *int64          `db:"spend_cap_cents"`
		Token  *int64          `db:"token_cap"`
	}
	err := s.db.GetContext(ctx, &row, `
		SELECT o.plan, coalesce(u.spent_cents, 0) AS spent_cents, coalesce(u.tokens, 0) AS tokens,
		       c.spend_cap_cents, c.token_cap
		  FROM organizations o
		  LEFT JOIN org_caps c ON c.organization_id = o.id
		  LEFT JOIN org_usage u ON u.organization_id = o.id AND u.month = $2
		 WHERE o.id = $1`, orgID, month)
	if err = translate(err, "reading usage"); turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "organization not found")
	} else if err != nil {
		return nil, err
	}
	u := &turbinesim.Usage{OrganizationID: orgID, Month: month, SpentCents: row.Spent, Tokens: row.Tokens, Caps: row.Plan.DefaultCaps()}
	if row.Spend != nil && row.Token != nil {
		u.SpendCapCents, u.TokenCap = *row.Spend, *row.Token
	}
	return u, nil
}

// UsageByClient implements turbinesim.CapService: every run carries its
// own charge (jobs.price_cents, tokens, charge_month; a batch's charge is
// spread over its runs), so the breakdown is a sum over the month's
// unrefunded runs, interactive runs (client_id NULL) first.
func (s *CapService) UsageByClient(ctx context.Context, orgID string) ([]turbinesim.ClientUsage, error) {
	rows := []turbinesim.ClientUsage{}
	if !isUUID(orgID) {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "organization not found")
	}
	err := s.db.SelectContext(ctx, &rows, `
		SELECT client_id, count(*) AS runs, coalesce(sum(price_cents), 0) AS spent_cents, coalesce(sum(tokens), 0) AS tokens
		  FROM jobs
		 WHERE organization_id = $1 AND charge_month = $2 AND refunded_at IS NULL
		 GROUP BY client_id
		 ORDER BY client_id NULLS FIRST`, orgID, monthOf(s.now()))
	return rows, translate(err, "reading usage by client")
}

// UsageByDay implements turbinesim.CapService, over the same runs as
// UsageByClient.
func (s *CapService) UsageByDay(ctx context.Context, orgID string) ([]turbinesim.DayUsage, error) {
	rows := []turbinesim.DayUsage{}
	if !isUUID(orgID) {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "organization not found")
	}
	err := s.db.SelectContext(ctx, &rows, `
		SELECT (created_at AT TIME ZONE 'UTC')::date::timestamp AT TIME ZONE 'UTC' AS day, count(*) AS runs,
		       coalesce(sum(price_cents), 0) AS spent_cents, coalesce(sum(tokens), 0) AS tokens
		  FROM jobs
		 WHERE organization_id = $1 AND charge_month = $2 AND refunded_at IS NULL
		 GROUP BY 1 ORDER BY 1`, orgID, monthOf(s.now()))
	return rows, translate(err, "reading usage by day")
}

// SetCaps implements turbinesim.CapService.
func (s *CapService) SetCaps(ctx context.Context, orgID string, caps turbinesim.Caps) error {
	if caps.SpendCapCents < 0 || caps.TokenCap < 0 {
		return turbinesim.Errorf(turbinesim.EINVALID, "caps must not be negative")
	}
	if !isUUID(orgID) {
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "organization not found")
	}
	return inTx(ctx, s.db, "setting caps", func(tx *sqlx.Tx) error {
		// The row as it was, locked, for the audit entry's old values; an
		// organization without a row has the plan's defaults.
		old, err := s.capsForUpdate(ctx, tx, orgID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO org_caps (organization_id, spend_cap_cents, token_cap) VALUES ($1, $2, $3)
			ON CONFLICT (organization_id) DO UPDATE SET spend_cap_cents = $2, token_cap = $3`,
			orgID, caps.SpendCapCents, caps.TokenCap); err != nil {
			return translate(err, "setting caps")
		}
		if old == caps {
			return nil // nothing changed, nothing to audit
		}
		return recordEvent(ctx, tx, orgID, auditChange{Event: turbinesim.AuditCapsChanged, TargetType: "organization",
			TargetID: orgID, Summary: fmt.Sprintf("monthly spend cap %s → %s; monthly token cap %d → %d",
				turbinesim.FormatCents(old.SpendCapCents), turbinesim.FormatCents(caps.SpendCapCents), old.TokenCap, caps.TokenCap)})
	})
}

// capsForUpdate reads and locks orgID's caps; without a row yet, the plan's
// defaults (the organization row is locked instead).
func (s *CapService) capsForUpdate(ctx context.Context, tx *sqlx.Tx, orgID string) (turbinesim.Caps, error) {
	var row struct {
		Plan  turbinesim.Plan `db:"plan"`
		Spend *int64          `db:"spend_cap_cents"`
		Token *int64          `db:"token_cap"`
	}
	err := tx.GetContext(ctx, &row, `
		SELECT o.plan, c.spend_cap_cents, c.token_cap
		  FROM organizations o LEFT JOIN org_caps c ON c.organization_id = o.id
		 WHERE o.id = $1 FOR UPDATE OF o`, orgID)
	if err = translate(err, "reading caps"); isNotFound(err) {
		return turbinesim.Caps{}, turbinesim.Errorf(turbinesim.ENOTFOUND, "organization not found")
	} else if err != nil {
		return turbinesim.Caps{}, err
	}
	if row.Spend == nil || row.Token == nil {
		return row.Plan.DefaultCaps(), nil
	}
	return turbinesim.Caps{SpendCapCents: *row.Spend, TokenCap: *row.Token}, nil
}
