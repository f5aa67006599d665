package db_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
)

// mustOrgUser creates an organization and a user with password "correct horse".
func mustOrgUser(t *testing.T, d *db.DB, email string) (*turbinesim.Organization, *turbinesim.User) {
	t.Helper()
	ctx := context.Background()
	org := &turbinesim.Organization{Name: "Org of " + email}
	if err := db.NewOrganizationService(d).CreateOrganization(ctx, org); err != nil {
		t.Fatal(err)
	}
	u := &turbinesim.User{OrganizationID: org.ID, Email: email}
	users := db.NewUserService(d)
	users.PasswordParams = testParams // cheap argon2id: tests only
	if err := users.CreateUser(ctx, u, "correct horse"); err != nil {
		t.Fatal(err)
	}
	return org, u
}

func TestOrganizationAndUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	org, u := mustOrgUser(t, d, "Ada@Example.com")
	if org.Plan != turbinesim.PlanBeta || org.ID == "" {
		t.Fatalf("created org = %+v, want an id and the beta plan", org)
	}
	if u.Email != "ada@example.com" || u.Role != turbinesim.RoleMember || !u.Active {
		t.Fatalf("created user = %+v, want normalised address, member role, active", u)
	}
	users := db.NewUserService(d)
	got, err := users.FindUserByEmail(ctx, " ADA@example.com ")
	if err != nil || got.ID != u.ID {
		t.Fatalf("FindUserByEmail = %+v, %v; want %s", got, err, u.ID)
	}
	if _, err := users.FindUserByID(ctx, "not-a-uuid"); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("malformed id: got %v, want ENOTFOUND", err)
	}
	dup := &turbinesim.User{OrganizationID: org.ID, Email: "ada@example.com"}
	if err := users.CreateUser(ctx, dup, "another password"); turbinesim.ErrorCode(err) != turbinesim.ECONFLICT {
		t.Fatalf("duplicate address: got %v, want ECONFLICT", err)
	}
	if err := users.CreateUser(ctx, &turbinesim.User{OrganizationID: org.ID, Email: "b@example.com"}, "short"); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
		t.Fatalf("short password: got %v, want EINVALID", err)
	}
	if n, err := users.CountMembers(ctx, org.ID); err != nil || n != 1 {
		t.Fatalf("CountMembers = %d, %v; want 1", n, err)
	}
}

func TestAuthenticateAndLoadAuth(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	org, u := mustOrgUser(t, d, "ada@example.com")
	auth, err := db.NewAuthService(d)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := auth.Authenticate(ctx, "ADA@example.com", "correct horse"); err != nil || got.ID != u.ID {
		t.Fatalf("right password: %+v, %v", got, err)
	}
	for name, tc := range map[string][2]string{
		"wrong password":  {"ada@example.com", "wrong horse!"},
		"unknown address": {"nobody@example.com", "correct horse"},
	} {
		_, err := auth.Authenticate(ctx, tc[0], tc[1])
		if turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED || turbinesim.ErrorMessage(err) != "invalid email or password" {
			t.Errorf("%s: got %v, want the one EUNAUTHORIZED message", name, err)
		}
	}

	a, err := auth.LoadAuth(ctx, u.ID, turbinesim.AuthBearer)
	if err != nil {
		t.Fatal(err)
	}
	if a.User.ID != u.ID || a.Organization.ID != org.ID || a.Organization.Name != org.Name || a.Method != turbinesim.AuthBearer {
		t.Fatalf("LoadAuth = %+v / %+v", a.User, a.Organization)
	}

	// Deactivation takes effect on the next load and the next login.
	if _, err := d.ExecContext(ctx, `UPDATE users SET active = false WHERE id = $1`, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := auth.LoadAuth(ctx, u.ID, turbinesim.AuthBearer); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("deactivated user: got %v, want EUNAUTHORIZED", err)
	}
	if _, err := auth.Authenticate(ctx, "ada@example.com", "correct horse"); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("deactivated login: got %v, want EUNAUTHORIZED", err)
	}
}

// A closed pool stands in for an unreachable server: the error must be
// EUNAVAILABLE, never EUNAUTHORIZED or ENOTFOUND.
func TestDatabaseDownIsUnavailable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	_, u := mustOrgUser(t, d, "ada@example.com")
	auth, err := db.NewAuthService(d)
	if err != nil {
		t.Fatal(err)
	}
	// A pool on a port nobody listens on behaves like a server that is down.
	sqlDB, err := sql.Open("postgres", "postgres://postgres@127.0.0.1:1/x?sslmode=disable&connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	bad := db.New(sqlDB)
	defer bad.Close()
	badAuth, err := db.NewAuthService(bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := badAuth.LoadAuth(ctx, u.ID, turbinesim.AuthSession); turbinesim.ErrorCode(err) != turbinesim.EUNAVAILABLE {
		t.Fatalf("LoadAuth with the server down: got %v, want EUNAVAILABLE", err)
	}
	if _, err := badAuth.Authenticate(ctx, "ada@example.com", "correct horse"); turbinesim.ErrorCode(err) != turbinesim.EUNAVAILABLE {
		t.Fatalf("Authenticate with the server down: got %v, want EUNAVAILABLE", err)
	}
	if _, _, err := db.NewSessionStore(bad).FindCtx(ctx, "tok"); turbinesim.ErrorCode(err) != turbinesim.EUNAVAILABLE {
		t.Fatalf("session lookup with the server down: got %v, want EUNAVAILABLE", err)
	}
	if _, err := auth.LoadAuth(ctx, u.ID, turbinesim.AuthSession); err != nil {
		t.Fatalf("the healthy pool must still work: %v", err)
	}
	if err := bad.Ready(ctx); turbinesim.ErrorCode(err) != turbinesim.EUNAVAILABLE {
		t.Fatalf("Ready with the pool gone: got %v, want EUNAVAILABLE", err)
	}
}

func TestDashboardCountsTheOrganizationsRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	org, _ := mustOrgUser(t, d, "ada@example.com")
	dash, err := db.NewDashboardService(d).Dashboard(ctx, org.ID)
	if err != nil {
		t.Fatal(err)
	}
	if dash.Organization.Name != org.Name || dash.MemberCount != 1 || dash.TurbineCount != 0 || dash.JobCount != 0 || dash.StudyCount != 0 {
		t.Fatalf("dashboard = %+v, want 1 member and nothing else", dash)
	}
	other, _ := mustOrgUser(t, d, "bob@example.com")
	if _, err := d.ExecContext(ctx, `INSERT INTO turbines (organization_id, name) VALUES ($1, 'a'), ($1, 'b'), ($2, 'a')`, org.ID, other.ID); err != nil {
		t.Fatal(err)
	}
	dash, err = db.NewDashboardService(d).Dashboard(ctx, org.ID)
	if err != nil {
		t.Fatal(err)
	}
	if dash.TurbineCount != 2 {
		t.Fatalf("turbine count = %d, want 2 (the other organisation's turbine is not counted)", dash.TurbineCount)
	}
	if _, err := db.NewDashboardService(d).Dashboard(ctx, "00000000-0000-0000-0000-000000000000"); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("unknown org: got %v, want ENOTFOUND", err)
	}
}

func TestSessionStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	s := db.NewSessionStore(d)
	if err := s.CommitCtx(ctx, "live", []byte("a"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitCtx(ctx, "live", []byte("b"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitCtx(ctx, "old", []byte("x"), time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if data, found, err := s.FindCtx(ctx, "live"); err != nil || !found || string(data) != "b" {
		t.Fatalf("Find(live) = %q, %v, %v; want b", data, found, err)
	}
	if _, found, err := s.FindCtx(ctx, "old"); err != nil || found {
		t.Fatalf("an expired session was found (%v)", err)
	}
	if n, err := s.DeleteExpired(ctx); err != nil || n != 1 {
		t.Fatalf("DeleteExpired = %d, %v; want 1", n, err)
	}
	if err := s.DeleteCtx(ctx, "live"); err != nil {
		t.Fatal(err)
	}
	if _, found, _ := s.FindCtx(ctx, "live"); found {
		t.Fatal("deleted session still found")
	}
}

func TestSeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	res, err := db.Seed(ctx, d, db.SeedOptions{AdminEmail: "Boss@Example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || res.Email != "boss@example.com" || len(res.Password) < turbinesim.MinPasswordLength {
		t.Fatalf("first seed = %+v", res)
	}
	auth, _ := db.NewAuthService(d)
	u, err := auth.Authenticate(ctx, res.Email, res.Password)
	if err != nil {
		t.Fatalf("seeded account cannot log in: %v", err)
	}
	if u.Role != turbinesim.RoleAdmin || !u.Verified {
		t.Fatalf("seeded admin = %+v, want verified org_admin", u)
	}
	again, err := db.Seed(ctx, d, db.SeedOptions{AdminEmail: "boss@example.com"})
	if err != nil || again.Created || again.Password != "" {
		t.Fatalf("second seed = %+v, %v; want nothing created and no password", again, err)
	}
	reset, err := db.Seed(ctx, d, db.SeedOptions{AdminEmail: "boss@example.com", AdminPassword: "a new password"})
	if err != nil || !reset.Reset {
		t.Fatalf("seed with a password = %+v, %v; want a reset", reset, err)
	}
	if _, err := auth.Authenticate(ctx, "boss@example.com", "a new password"); err != nil {
		t.Fatalf("reset password does not work: %v", err)
	}
	var orgs int
	if err := d.GetContext(ctx, &orgs, `SELECT count(*) FROM organizations`); err != nil || orgs != 1 {
		t.Fatalf("organizations after three seeds = %d, %v; want 1", orgs, err)
	}
}

// TestMigrateAppliesAnAreaMigrationAddedBelowTheLatest: a database migrated
// before 00013 existed (it has 00020…00063) gets 00013 on the next start.
func TestMigrateAppliesAnAreaMigrationAddedBelowTheLatest(t *testing.T) {
	d := dbtest.New(t)
	ctx := context.Background()
	// Undo 00013 as if the database had been migrated without it.
	if _, err := d.ExecContext(ctx, `ALTER TABLE users DROP COLUMN tokens_valid_after`); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, `DELETE FROM goose_db_version WHERE version_id = 13`); err != nil {
		t.Fatal(err)
	}
	res, err := d.Migrate(ctx)
	if err != nil {
		t.Fatalf("migrating with 00013 missing: %v", err)
	}
	if len(res) != 1 || res[0].Source.Version != 13 {
		t.Fatalf("applied %d migrations, want only 00013", len(res))
	}
	var n int
	if err := d.GetContext(ctx, &n, `SELECT count(*) FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'tokens_valid_after'`); err != nil || n != 1 {
		t.Fatalf("tokens_valid_after present %d times (%v)", n, err)
	}
}

// TestMigrationMarksKeysAdministratorsDeactivated: 00015 on a database
// that already has administrator actions in the audit log (00014) marks
// the keys an administrator left deactivated, so their owners cannot
// reactivate them after the upgrade; a key the administrator reactivated,
// an owner-deactivated key and an administrator's own key stay unmarked.
func TestMigrationMarksKeysAdministratorsDeactivated(t *testing.T) {
	d := dbtest.New(t)
	ctx := context.Background()
	org, admin := mustOrgUser(t, d, "admin@example.com")
	member := &turbinesim.User{OrganizationID: org.ID, Email: "member@example.com"}
	users := db.NewUserService(d)
	users.PasswordParams = testParams
	if err := users.CreateUser(ctx, member, "correct horse"); err != nil {
		t.Fatal(err)
	}
	ks := db.NewAPIKeyService(d)
	newKey := func(u *turbinesim.User, name string) *turbinesim.NewAPIKey {
		k, err := ks.CreateAPIKey(ctx, u, name)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	stopped, resumed, ownPause, adminOwn := newKey(member, "stopped"), newKey(member, "resumed"), newKey(member, "own pause"), newKey(admin, "admin's own")
	byAdmin := func(k *turbinesim.NewAPIKey, active bool) {
		action := map[bool]string{false: "deactivate", true: "reactivate"}[active]
		if _, err := ks.SetOrgAPIKeyActive(ctx, admin, k.ID, active,
			&turbinesim.AuditEntry{Method: "POST", Path: "/api-keys/" + k.ID + "/" + action, Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	byAdmin(stopped, false)
	byAdmin(resumed, false)
	byAdmin(resumed, true)
	byAdmin(adminOwn, false)
	if _, err := ks.SetAPIKeyActive(ctx, member.ID, ownPause.ID, false); err != nil {
		t.Fatal(err)
	}
	// The database as 00014 left it: no deactivated_by, 00015 not applied.
	for _, q := range []string{
		`ALTER TABLE api_keys DROP CONSTRAINT api_keys_deactivated_by_inactive`,
		`ALTER TABLE api_keys DROP COLUMN deactivated_by`,
		`DELETE FROM goose_db_version WHERE version_id = 15`,
	} {
		if _, err := d.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	res, err := d.Migrate(ctx)
	if err != nil || len(res) != 1 || res[0].Source.Version != 15 {
		t.Fatalf("migrating with 00015 missing: %d results, %v", len(res), err)
	}
	keys, err := ks.ListOrgAPIKeys(ctx, org.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{stopped.ID: true, resumed.ID: false, ownPause.ID: false, adminOwn.ID: false}
	for _, k := range keys {
		if k.DeactivatedByAdmin != want[k.ID] {
			t.Errorf("key %q after 00015: deactivated_by_admin %v, want %v", k.Name, k.DeactivatedByAdmin, want[k.ID])
		}
	}
	if _, err := ks.SetAPIKeyActive(ctx, member.ID, stopped.ID, true); turbinesim.ErrorCode(err) != turbinesim.EFORBIDDEN {
		t.Fatalf("owner reactivates the key an administrator stopped before 00015: %v, want EFORBIDDEN", err)
	}
	if _, err := ks.SetAPIKeyActive(ctx, member.ID, ownPause.ID, true); err != nil {
		t.Fatalf("owner reactivates own paused key: %v", err)
	}
}
