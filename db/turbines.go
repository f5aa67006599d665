package db

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/turbinesim/turbinesim"
)

// TurbineService implements turbinesim.TurbineService on PostgreSQL, with
// the deck files in a TreeStore.
type TurbineService struct {
	db    *DB
	trees turbinesim.TreeStore
	decks turbinesim.DeckEditor
}

var _ turbinesim.TurbineService = (*TurbineService)(nil)

// NewTurbineService returns the turbine store; decks rewrites a stored
// deck on a deck-shaping update (decks.Editor).
func NewTurbineService(db *DB, trees turbinesim.TreeStore, decks turbinesim.DeckEditor) *TurbineService {
	return &TurbineService{db: db, trees: trees, decks: decks}
}

const turbineColumns = `id, organization_id, name, description,
	rated_power_kw, rotor_diameter_m, hub_height_m, cut_in_wind_speed_ms, rated_wind_speed_ms,
	cut_out_wind_speed_ms, shaft_tilt_deg, precone_deg, rated_rotor_speed_rpm,
	blade_config, tower_config, nacelle_config, controller_config,
	is_validated, demo_id, source_key, main_file, created_by, created_at, updated_at`

var errTurbineNotFound = turbinesim.Errorf(turbinesim.ENOTFOUND, "turbine not found")

// blob turns an absent or null blob into SQL NULL.
func blob(raw turbinesim.ConfigBlob) any {
	if len(raw) == 0 || strings.TrimSpace(string(raw)) == "null" {
		return nil
	}
	return []byte(raw)
}

// translateTurbine adds the turbine-specific constraint meanings to
// translate: the name index is a 409 naming the name, the active-job guard
// (migration 00020) a 409 naming the rule.
func translateTurbine(err error, doing, name string) error {
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		switch pqErr.Constraint {
		case "turbines_org_name_key":
			return turbinesim.WrapError(turbinesim.ECONFLICT, fmt.Sprintf("a turbine named %q already exists in the organization", name), err)
		case "turbines_active_job":
			return turbinesim.WrapError(turbinesim.ECONFLICT, "an active job references this turbine; cancel it or wait until it finishes", err)
		}
	}
	return translate(err, doing)
}

// CreateTurbine implements turbinesim.TurbineService.
func (s *TurbineService) CreateTurbine(ctx context.Context, t *turbinesim.Turbine, deckDir string) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if deckDir != "" {
		if t.MainFile == nil || *t.MainFile == "" {
			return errors.New("db: creating turbine: a deck directory needs MainFile")
		}
		key, err := s.trees.Put(ctx, deckDir)
		if err != nil {
			return fmt.Errorf("db: storing deck files: %w", err)
		}
		t.SourceKey = &key
	}
	if err := s.insert(ctx, s.db, t); err != nil {
		s.dropTree(t.SourceKey)
		return err
	}
	return nil
}

// sqlxQueryer is a pool or a transaction.
type sqlxQueryer interface {
	QueryRowxContext(ctx context.Context, query string, args ...any) *sqlx.Row
}

// insert stores t (already validated, tree already stored).
func (s *TurbineService) insert(ctx context.Context, q sqlxQueryer, t *turbinesim.Turbine) error {
	p := t.TurbineParams
	err := q.QueryRowxContext(ctx, `
		INSERT INTO turbines (organization_id, name, description,
			rated_power_kw, rotor_diameter_m, hub_height_m, cut_in_wind_speed_ms, rated_wind_speed_ms,
			cut_out_wind_speed_ms, shaft_tilt_deg, precone_deg, rated_rotor_speed_rpm,
			blade_config, tower_config, nacelle_config, controller_config,
			is_validated, demo_id, source_key, main_file, created_by)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
		RETURNING id, created_at, updated_at`,
		t.OrganizationID, t.Name, t.Description,
		p.RatedPowerKW, p.RotorDiameterM, p.HubHeightM, p.CutInWindSpeedMS, p.RatedWindSpeedMS,
		p.CutOutWindSpeedMS, p.ShaftTiltDeg, p.PreconeDeg, p.RatedRotorSpeedRPM,
		blob(t.BladeConfig), blob(t.TowerConfig), blob(t.NacelleConfig), blob(t.ControllerConfig),
		t.IsValidated, t.DemoID, t.SourceKey, t.MainFile, t.CreatedBy).
		Scan(&t.ID, &t.CreatedAt, &t.UpdatedAt)
	return translateTurbine(err, "creating turbine", t.Name)
}

// dropTree deletes a stored tree after a failed insert; the failure that
// led here is the one reported.
func (s *TurbineService) dropTree(key *string) {
	if key != nil && *key != "" {
		_ = s.trees.Delete(context.Background(), *key)
	}
}

// FindTurbine implements turbinesim.TurbineService.
func (s *TurbineService) FindTurbine(ctx context.Context, orgID, id string) (*turbinesim.Turbine, error) {
	if !isUUID(id) || !isUUID(orgID) {
		return nil, errTurbineNotFound
	}
	var t turbinesim.Turbine
	err := s.db.GetContext(ctx, &t, `SELECT `+turbineColumns+` FROM turbines WHERE id = $1 AND organization_id = $2`, id, orgID)
	if err != nil {
		if isNotFound(translate(err, "")) {
			return nil, errTurbineNotFound
		}
		return nil, translate(err, "finding turbine")
	}
	return &t, nil
}

// ListTurbines implements turbinesim.TurbineService. Newest first.
func (s *TurbineService) ListTurbines(ctx context.Context, orgID string, f turbinesim.TurbineFilter) ([]*turbinesim.Turbine, int, error) {
	if f.Page < 1 {
		f.Page = 1
	}
	if f.PageSize < 1 || f.PageSize > turbinesim.MaxTurbinePageSize {
		f.PageSize = turbinesim.DefaultTurbinePageSize
	}
	if !isUUID(orgID) {
		return nil, 0, nil
	}
	// The search term is a bound parameter; LIKE metacharacters in it are
	// escaped so that "50%" means the text "50%".
	pattern := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(f.Search) + "%"
	var total int
	if err := s.db.GetContext(ctx, &total, `
		SELECT count(*) FROM turbines
		 WHERE organization_id = $1 AND (name ILIKE $2 OR description ILIKE $2)`, orgID, pattern); err != nil {
		return nil, 0, translate(err, "counting turbines")
	}
	ts := []*turbinesim.Turbine{}
	err := s.db.SelectContext(ctx, &ts, `
		SELECT `+turbineColumns+` FROM turbines
		 WHERE organization_id = $1 AND (name ILIKE $2 OR description ILIKE $2)
		 ORDER BY created_at DESC, id
		 LIMIT $3 OFFSET $4`, orgID, pattern, f.PageSize, (f.Page-1)*f.PageSize)
	if err != nil {
		return nil, 0, translate(err, "listing turbines")
	}
	return ts, total, nil
}

// UpdateTurbine implements turbinesim.TurbineService. The row is locked
// while the update is applied, so two concurrent updates do not lose one
// another's fields.
func (s *TurbineService) UpdateTurbine(ctx context.Context, orgID, id string, u *turbinesim.TurbineUpdate) (*turbinesim.Turbine, error) {
	if !isUUID(id) || !isUUID(orgID) {
		return nil, errTurbineNotFound
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, translate(err, "updating turbine")
	}
	defer tx.Rollback()
	var cur turbinesim.Turbine
	if err := tx.GetContext(ctx, &cur, `SELECT `+turbineColumns+` FROM turbines WHERE id = $1 AND organization_id = $2 FOR UPDATE`, id, orgID); err != nil {
		if isNotFound(translate(err, "")) {
			return nil, errTurbineNotFound
		}
		return nil, translate(err, "updating turbine")
	}
	if cur.IsDemo() {
		return nil, turbinesim.Errorf(turbinesim.EFORBIDDEN, "a pre-built demo turbine cannot be changed; clone it first")
	}
	next, err := u.Apply(&cur)
	if err != nil {
		return nil, err
	}
	// A deck-shaping edit rebuilds the stored deck into a fresh tree; the
	// row switches to it in this transaction and the old tree goes after
	// the commit (as in DeleteTurbine). Until then the new tree is ours to
	// remove on any failure.
	rebuild, err := s.decks.ChangesDeck(u, &cur)
	if err != nil {
		return nil, err
	}
	var newKey *string
	if rebuild {
		key, err := s.rebuildDeck(ctx, u, &cur, next)
		if err != nil {
			return nil, err
		}
		newKey = &key
		next.SourceKey = newKey
	}
	committed := false
	defer func() {
		if !committed {
			s.dropTree(newKey)
		}
	}()
	p := next.TurbineParams
	err = tx.QueryRowxContext(ctx, `
		UPDATE turbines SET name = $3, description = $4,
			rated_power_kw = $5, rotor_diameter_m = $6, hub_height_m = $7, cut_in_wind_speed_ms = $8,
			rated_wind_speed_ms = $9, cut_out_wind_speed_ms = $10, shaft_tilt_deg = $11, precone_deg = $12,
			rated_rotor_speed_rpm = $13, blade_config = $14, tower_config = $15, nacelle_config = $16,
			controller_config = $17, source_key = $18, is_validated = false, updated_at = now()
		 WHERE id = $1 AND organization_id = $2
		RETURNING updated_at`, id, orgID, next.Name, next.Description,
		p.RatedPowerKW, p.RotorDiameterM, p.HubHeightM, p.CutInWindSpeedMS,
		p.RatedWindSpeedMS, p.CutOutWindSpeedMS, p.ShaftTiltDeg, p.PreconeDeg,
		p.RatedRotorSpeedRPM, blob(next.BladeConfig), blob(next.TowerConfig), blob(next.NacelleConfig),
		blob(next.ControllerConfig), next.SourceKey).Scan(&next.UpdatedAt)
	if err != nil {
		return nil, translateTurbine(err, "updating turbine", next.Name)
	}
	if err := tx.Commit(); err != nil {
		return nil, translate(err, "updating turbine")
	}
	committed = true
	if newKey != nil && cur.SourceKey != nil {
		// The row points at the new tree; an old tree that cannot be
		// removed is orphaned, which wastes space but harms no one, and
		// the committed update is not reported as failed.
		_ = s.trees.Delete(ctx, *cur.SourceKey)
	}
	return next, nil
}

// rebuildDeck writes cur's stored deck with u's deck-shaping changes into
// a fresh tree and returns its key.
func (s *TurbineService) rebuildDeck(ctx context.Context, u *turbinesim.TurbineUpdate, cur, next *turbinesim.Turbine) (string, error) {
	src, release, err := s.trees.Open(ctx, *cur.SourceKey)
	if err != nil {
		return "", fmt.Errorf("db: opening deck files of turbine %s: %w", cur.ID, err)
	}
	defer release()
	scratch, err := os.MkdirTemp("", "turbine-edit-")
	if err != nil {
		return "", fmt.Errorf("db: rebuilding deck: %w", err)
	}
	defer os.RemoveAll(scratch)
	dst := filepath.Join(scratch, "deck")
	if err := s.decks.RebuildDeck(ctx, u, cur, next, src, dst); err != nil {
		return "", err
	}
	key, err := s.trees.Put(ctx, dst)
	if err != nil {
		return "", fmt.Errorf("db: storing the rebuilt deck files: %w", err)
	}
	return key, nil
}

// DeleteTurbine implements turbinesim.TurbineService. The row goes first
// (the database refuses it while an active job references it); the deck
// files follow once the deletion is committed.
func (s *TurbineService) DeleteTurbine(ctx context.Context, orgID, id string) error {
	if !isUUID(id) || !isUUID(orgID) {
		return errTurbineNotFound
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return translate(err, "deleting turbine")
	}
	defer tx.Rollback()
	var row struct {
		Description string  `db:"description"`
		SourceKey   *string `db:"source_key"`
	}
	if err := tx.GetContext(ctx, &row, `SELECT description, source_key FROM turbines WHERE id = $1 AND organization_id = $2 FOR UPDATE`, id, orgID); err != nil {
		if isNotFound(translate(err, "")) {
			return errTurbineNotFound
		}
		return translate(err, "deleting turbine")
	}
	if turbinesim.IsDemoDescription(row.Description) {
		return turbinesim.Errorf(turbinesim.EFORBIDDEN, "a pre-built demo turbine cannot be deleted")
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM turbines WHERE id = $1 AND organization_id = $2`, id, orgID); err != nil {
		return translateTurbine(err, "deleting turbine", "")
	}
	if err := tx.Commit(); err != nil {
		return translateTurbine(err, "deleting turbine", "")
	}
	if row.SourceKey != nil {
		if err := s.trees.Delete(ctx, *row.SourceKey); err != nil {
			// The row is gone; an orphaned tree wastes space but harms no
			// one. Report it so that it is seen in the logs.
			return fmt.Errorf("db: turbine deleted, removing its deck files: %w", err)
		}
	}
	return nil
}

// maxCopies bounds the search for a free "(copy n)" name.
const maxCopies = 1000

// lockShared reads turbine id of orgID FOR SHARE in a new transaction.
// While the transaction lasts, an edit (UpdateTurbine locks the row FOR
// UPDATE, switches it to a rebuilt tree and removes the old tree once
// committed) and a deletion (which removes the tree too) wait, so the tree
// the row names stays in place; a reader that waited for them reads the
// row they committed. The caller ends the transaction.
func (s *TurbineService) lockShared(ctx context.Context, orgID, id, doing string) (*turbinesim.Turbine, *sqlx.Tx, error) {
	if !isUUID(id) || !isUUID(orgID) {
		return nil, nil, errTurbineNotFound
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, nil, translate(err, doing)
	}
	var t turbinesim.Turbine
	if err := tx.GetContext(ctx, &t, `SELECT `+turbineColumns+` FROM turbines WHERE id = $1 AND organization_id = $2 FOR SHARE`, id, orgID); err != nil {
		tx.Rollback()
		if isNotFound(translate(err, "")) {
			return nil, nil, errTurbineNotFound
		}
		return nil, nil, translate(err, doing)
	}
	return &t, tx, nil
}

// CloneTurbine implements turbinesim.TurbineService. The source's tree is
// copied while its row is locked FOR SHARE (lockShared): without the lock
// a clone could read the row, an edit could then commit and remove the
// tree the row named, and the copy would fail or, with the tree half
// removed, silently miss files. The inserts run after the lock is given
// up; the copied tree is the clone's own by then.
func (s *TurbineService) CloneTurbine(ctx context.Context, orgID, id, userID string) (*turbinesim.Turbine, error) {
	src, tx, err := s.lockShared(ctx, orgID, id, "cloning turbine")
	if err != nil {
		return nil, err
	}
	var key *string
	if src.SourceKey != nil && *src.SourceKey != "" {
		k, err := s.trees.Copy(ctx, *src.SourceKey)
		if err != nil {
			tx.Rollback()
			return nil, fmt.Errorf("db: copying deck files: %w", err)
		}
		key = &k
	}
	// Read-only apart from the lock: ending it cannot lose anything.
	tx.Rollback()
	c := *src
	c.ID = ""
	c.DemoID = nil
	c.IsValidated = false
	c.Description = strings.TrimSpace(strings.TrimPrefix(src.Description, turbinesim.DemoPrefix))
	if userID != "" {
		c.CreatedBy = &userID
	} else {
		c.CreatedBy = nil
	}
	c.SourceKey = key
	// Try "(copy)", "(copy 2)", ... ; each attempt is its own statement so
	// that a concurrent clone taking the same name makes us try the next.
	var taken []string
	if err := s.db.SelectContext(ctx, &taken, `
		SELECT name FROM turbines WHERE organization_id = $1 AND (name = $2 OR name LIKE $3 ESCAPE '\')`,
		orgID, turbinesim.CopyName(src.Name, 1), likeEscape(src.Name)+` (copy %)`); err != nil {
		s.dropTree(c.SourceKey)
		return nil, translate(err, "cloning turbine")
	}
	used := map[string]bool{}
	for _, n := range taken {
		used[n] = true
	}
	for n := 1; n <= maxCopies; n++ {
		c.Name = turbinesim.CopyName(src.Name, n)
		if used[c.Name] {
			continue
		}
		if err := turbinesim.ValidateTurbineName(c.Name); err != nil {
			s.dropTree(c.SourceKey)
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "the copy's name %q is too long; rename the turbine first", c.Name)
		}
		err := s.insert(ctx, s.db, &c)
		if err == nil {
			return &c, nil
		}
		if turbinesim.ErrorCode(err) != turbinesim.ECONFLICT {
			s.dropTree(c.SourceKey)
			return nil, err
		}
	}
	s.dropTree(c.SourceKey)
	return nil, turbinesim.Errorf(turbinesim.ECONFLICT, "more than %d copies of %q exist", maxCopies, src.Name)
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// LoadDemo implements turbinesim.TurbineService. Concurrent first loads
// race on the partial unique index (organization, demo_id): the loser's row
// and tree are discarded and the winner's row is returned as reused.
func (s *TurbineService) LoadDemo(ctx context.Context, orgID, userID, demoID string, create func(dir string) (*turbinesim.Turbine, error)) (*turbinesim.Turbine, bool, error) {
	if t, err := s.findDemo(ctx, orgID, demoID); err == nil {
		return t, true, nil
	} else if !isNotFound(err) {
		return nil, false, err
	}
	dir, err := os.MkdirTemp("", "turbine-demo-")
	if err != nil {
		return nil, false, fmt.Errorf("db: loading demo: %w", err)
	}
	defer os.RemoveAll(dir)
	t, err := create(dir)
	if err != nil {
		return nil, false, err
	}
	t.OrganizationID = orgID
	t.DemoID = &demoID
	if userID != "" {
		t.CreatedBy = &userID
	}
	if !t.IsDemo() {
		t.Description = turbinesim.DemoPrefix + " " + t.Description
	}
	if err := t.Validate(); err != nil {
		return nil, false, err
	}
	key, err := s.trees.Put(ctx, dir)
	if err != nil {
		return nil, false, fmt.Errorf("db: storing demo deck files: %w", err)
	}
	t.SourceKey = &key
	p := t.TurbineParams
	err = s.db.QueryRowxContext(ctx, `
		INSERT INTO turbines (organization_id, name, description,
			rated_power_kw, rotor_diameter_m, hub_height_m, cut_in_wind_speed_ms, rated_wind_speed_ms,
			cut_out_wind_speed_ms, shaft_tilt_deg, precone_deg, rated_rotor_speed_rpm,
			blade_config, tower_config, nacelle_config, controller_config,
			is_validated, demo_id, source_key, main_file, created_by)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
		ON CONFLICT (organization_id, demo_id) WHERE demo_id IS NOT NULL DO NOTHING
		RETURNING id, created_at, updated_at`,
		t.OrganizationID, t.Name, t.Description,
		p.RatedPowerKW, p.RotorDiameterM, p.HubHeightM, p.CutInWindSpeedMS, p.RatedWindSpeedMS,
		p.CutOutWindSpeedMS, p.ShaftTiltDeg, p.PreconeDeg, p.RatedRotorSpeedRPM,
		blob(t.BladeConfig), blob(t.TowerConfig), blob(t.NacelleConfig), blob(t.ControllerConfig),
		t.IsValidated, t.DemoID, t.SourceKey, t.MainFile, t.CreatedBy).
		Scan(&t.ID, &t.CreatedAt, &t.UpdatedAt)
	if err != nil {
		s.dropTree(t.SourceKey)
		tr := translate(err, "")
		if isNotFound(tr) { // lost the race: DO NOTHING returned no row
			existing, ferr := s.findDemo(ctx, orgID, demoID)
			return existing, ferr == nil, ferr
		}
		// A concurrent first load whose row committed while this insert
		// ran can also surface as a violation of the organization's name
		// index, which PostgreSQL may check before the demo index that ON
		// CONFLICT names: that is the same lost race. A name taken by
		// another turbine stays a conflict.
		if turbinesim.ErrorCode(tr) == turbinesim.ECONFLICT {
			if existing, ferr := s.findDemo(ctx, orgID, demoID); ferr == nil {
				return existing, true, nil
			}
		}
		return nil, false, translateTurbine(err, "loading demo", t.Name)
	}
	return t, false, nil
}

func (s *TurbineService) findDemo(ctx context.Context, orgID, demoID string) (*turbinesim.Turbine, error) {
	if !isUUID(orgID) {
		return nil, errTurbineNotFound
	}
	var t turbinesim.Turbine
	err := s.db.GetContext(ctx, &t, `SELECT `+turbineColumns+` FROM turbines WHERE organization_id = $1 AND demo_id = $2`, orgID, demoID)
	if err != nil {
		if isNotFound(translate(err, "")) {
			return nil, errTurbineNotFound
		}
		return nil, translate(err, "finding demo turbine")
	}
	return &t, nil
}

// OpenTurbineDeck implements turbinesim.TurbineService. The row stays
// locked FOR SHARE until release (lockShared), so an edit or deletion
// cannot remove the tree while it is read; callers only read files before
// releasing.
func (s *TurbineService) OpenTurbineDeck(ctx context.Context, orgID, id string) (*turbinesim.Turbine, string, func(), error) {
	t, tx, err := s.lockShared(ctx, orgID, id, "finding turbine")
	if err != nil {
		return nil, "", nil, err
	}
	if !t.HasDeck() {
		tx.Rollback()
		return t, "", func() {}, nil
	}
	dir, release, err := s.trees.Open(ctx, *t.SourceKey)
	if err != nil {
		tx.Rollback()
		return nil, "", nil, fmt.Errorf("db: opening deck files of turbine %s: %w", t.ID, err)
	}
	return t, dir, func() {
		release()
		tx.Rollback()
	}, nil
}
