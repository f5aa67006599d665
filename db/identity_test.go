package db_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
)

func TestRefreshRotationAndReuse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	_, u := mustOrgUser(t, d, "r@example.com")
	rs := db.NewRefreshTokenService(d)
	now := time.Now()
	family := now.Add(30 * 24 * time.Hour)
	if err := rs.StartFamily(ctx, u.ID, "R1", family); err != nil {
		t.Fatal(err)
	}
	exp, err := rs.Rotate(ctx, u.ID, "R1", "R2", now)
	if d := exp.Sub(family); err != nil || d < -time.Millisecond || d > time.Millisecond {
		t.Fatalf("rotate R1: %v, %v (want family expiry %v)", exp, err, family)
	}
	if _, err := rs.Rotate(ctx, u.ID, "R2", "R3", now); err != nil {
		t.Fatalf("rotate R2: %v", err)
	}
	// C1: replaying R1 revokes the family: R3 is dead too.
	if _, err := rs.Rotate(ctx, u.ID, "R1", "X", now); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("reuse of R1: %v, want EUNAUTHORIZED", err)
	}
	if _, err := rs.Rotate(ctx, u.ID, "R3", "R4", now); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("R3 after family revocation: %v, want EUNAUTHORIZED", err)
	}
	// Another user's token is not this user's.
	if err := rs.StartFamily(ctx, u.ID, "S1", family); err != nil {
		t.Fatal(err)
	}
	if _, err := rs.Rotate(ctx, "00000000-0000-0000-0000-000000000000", "S1", "S2", now); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("foreign user: %v", err)
	}
	// C3: the family's absolute expiry holds across rotations.
	if _, err := rs.Rotate(ctx, u.ID, "S1", "S2", family.Add(time.Second)); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("after 30 days: %v, want EUNAUTHORIZED", err)
	}
	// Logout revokes the family.
	if err := rs.StartFamily(ctx, u.ID, "L1", family); err != nil {
		t.Fatal(err)
	}
	if err := rs.RevokeFamilyOf(ctx, "L1"); err != nil {
		t.Fatal(err)
	}
	if _, err := rs.Rotate(ctx, u.ID, "L1", "L2", now); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("after logout: %v", err)
	}
	// C6: no raw jti at rest.
	var raw, hashed int
	h := sha256.Sum256([]byte("R1"))
	if err := d.GetContext(ctx, &raw, `SELECT count(*) FROM refresh_tokens WHERE jti_hash = $1 OR position($1 IN jti_hash) > 0`, []byte("R1")); err != nil || raw != 0 {
		t.Fatalf("raw jti found: %d %v", raw, err)
	}
	if err := d.GetContext(ctx, &hashed, `SELECT count(*) FROM refresh_tokens WHERE jti_hash = $1`, h[:]); err != nil || hashed != 1 {
		t.Fatalf("hashed jti rows: %d %v, want 1", hashed, err)
	}
}

// C2: concurrent rotations of one token never leave two live successors.
func TestRefreshConcurrentRotation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	_, u := mustOrgUser(t, d, "c@example.com")
	rs := db.NewRefreshTokenService(d)
	now := time.Now()
	for round := range 20 {
		root := rand.Text()
		if err := rs.StartFamily(ctx, u.ID, root, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var ok atomic.Int32
		succ := []string{rand.Text(), rand.Text()}
		for i := range 2 {
			wg.Go(func() {
				if _, err := rs.Rotate(ctx, u.ID, root, succ[i], now); err == nil {
					ok.Add(1)
				} else if turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
					t.Errorf("round %d: %v", round, err)
				}
			})
		}
		wg.Wait()
		live := 0
		for _, s := range succ {
			if _, err := rs.Rotate(ctx, u.ID, s, rand.Text(), now); err == nil {
				live++
			}
		}
		if ok.Load() != 1 || live > 1 {
			t.Fatalf("round %d: %d rotations succeeded, %d live successors; want 1 and at most 1", round, ok.Load(), live)
		}
	}
}

func TestAPIKeyLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	org, u := mustOrgUser(t, d, "k@example.com")
	_, other := mustOrgUser(t, d, "other@example.com")
	ks := db.NewAPIKeyService(d)
	k, err := ks.CreateAPIKey(ctx, u, "ci")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(k.Key, "ofk_") || k.ClientID != k.Key[:12] || !k.Active || len(k.Key) < 40 {
		t.Fatalf("new key = %+v", k)
	}
	a, err := ks.AuthenticateAPIKey(ctx, k.Key)
	if err != nil || a.User.ID != u.ID || a.Organization.ID != org.ID || a.Method != turbinesim.AuthAPIKey || a.ClientID != k.ClientID {
		t.Fatalf("authenticate: %+v %v", a, err)
	}
	// E5: wrong secret with the right Client ID, truncated, trailing space, too long.
	for _, bad := range []string{k.ClientID + strings.Repeat("A", len(k.Key)-12), k.Key[:20], k.Key + " ", k.Key + strings.Repeat("x", 300), "ofk_", ""} {
		if _, err := ks.AuthenticateAPIKey(ctx, bad); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
			t.Fatalf("bad key %q: %v", bad, err)
		}
	}
	// Other users see it as absent.
	if err := ks.RevokeAPIKey(ctx, other.ID, k.ID); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("foreign revoke: %v", err)
	}
	if _, err := ks.SetAPIKeyActive(ctx, other.ID, k.ID, false); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("foreign deactivate: %v", err)
	}
	// E4: deactivate, reactivate.
	if _, err := ks.SetAPIKeyActive(ctx, u.ID, k.ID, false); err != nil {
		t.Fatal(err)
	}
	if _, err := ks.AuthenticateAPIKey(ctx, k.Key); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("inactive key: %v", err)
	}
	if _, err := ks.SetAPIKeyActive(ctx, u.ID, k.ID, true); err != nil {
		t.Fatal(err)
	}
	if _, err := ks.AuthenticateAPIKey(ctx, k.Key); err != nil {
		t.Fatalf("reactivated key: %v", err)
	}
	// Inactive organization.
	if _, err := d.ExecContext(ctx, `UPDATE organizations SET active = false WHERE id = $1`, org.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := ks.AuthenticateAPIKey(ctx, k.Key); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("key of inactive org: %v", err)
	}
	if _, err := d.ExecContext(ctx, `UPDATE organizations SET active = true WHERE id = $1`, org.ID); err != nil {
		t.Fatal(err)
	}
	// Revoked for good.
	if err := ks.RevokeAPIKey(ctx, u.ID, k.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := ks.AuthenticateAPIKey(ctx, k.Key); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("revoked key: %v", err)
	}
	if _, err := ks.SetAPIKeyActive(ctx, u.ID, k.ID, true); turbinesim.ErrorCode(err) != turbinesim.ECONFLICT {
		t.Fatalf("reactivating a revoked key: %v", err)
	}
	keys, err := ks.ListAPIKeys(ctx, u.ID)
	if err != nil || len(keys) != 1 || keys[0].RevokedAt == nil || keys[0].LastUsedAt == nil || keys[0].ClientID != k.ClientID {
		t.Fatalf("list = %+v, %v", keys, err)
	}
	// E6: only the SHA-256 is stored.
	var stored []byte
	if err := d.GetContext(ctx, &stored, `SELECT secret_hash FROM api_keys WHERE id = $1`, k.ID); err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256([]byte(k.Key))
	if !bytes.Equal(stored, want[:]) || bytes.Contains(stored, []byte(k.Key[12:])) {
		t.Fatalf("stored secret is not the SHA-256 of the key")
	}
}

// J5: 4·L concurrent requests of one organization in one window: exactly L
// accepted; user limits hold at the same time.
func TestRateLimitExactUnderConcurrency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	d.SetMaxOpenConns(20)
	rl := db.NewRateLimiter(d)
	limits := turbinesim.PlanBeta.Limits()
	now := time.Date(2026, 1, 1, 12, 0, 10, 0, time.UTC)
	var wg sync.WaitGroup
	var ok atomic.Int32
	perUser := make([]atomic.Int32, 5)
	for i := range 4 * limits.PerOrg {
		wg.Go(func() {
			u := i % 5
			dec, err := rl.Allow(ctx, "user-"+string(rune('a'+u)), "org-1", limits, now)
			if err != nil {
				t.Error(err)
				return
			}
			if dec.Allowed {
				ok.Add(1)
				perUser[u].Add(1)
			} else if dec.Remaining != 0 || dec.Reset != 50*time.Second {
				t.Errorf("refusal %+v", dec)
			}
		})
	}
	wg.Wait()
	if ok.Load() != int32(limits.PerOrg) {
		t.Fatalf("accepted %d, want exactly %d", ok.Load(), limits.PerOrg)
	}
	for u := range perUser {
		if n := perUser[u].Load(); n > int32(limits.PerUser) {
			t.Fatalf("user %d accepted %d > %d", u, n, limits.PerUser)
		}
	}
	// One user alone stops at the user limit; the next window is fresh.
	for i := range limits.PerUser + 1 {
		dec, err := rl.Allow(ctx, "solo", "org-2", limits, now)
		if err != nil || dec.Allowed != (i < limits.PerUser) {
			t.Fatalf("request %d: %+v %v", i+1, dec, err)
		}
		if i == limits.PerUser && (dec.Scope != "user" || dec.Limit != limits.PerUser) {
			t.Fatalf("refusal %+v", dec)
		}
	}
	if dec, err := rl.Allow(ctx, "solo", "org-2", limits, now.Add(time.Minute)); err != nil || !dec.Allowed || dec.Remaining != limits.PerUser-1 {
		t.Fatalf("next window: %+v %v", dec, err)
	}
}

// J7/J8: 200 concurrent charges against a cap that allows 37 succeed
// exactly 37 times, in 20 rounds; spend and token caps alike.
func TestChargeIsAtomic(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	d.SetMaxOpenConns(20)
	org, _ := mustOrgUser(t, d, "cap@example.com")
	month := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	caps := db.NewCapService(d, func() time.Time { return month })
	for round := range 20 {
		byTokens := round%2 == 1
		if _, err := d.ExecContext(ctx, `DELETE FROM org_usage`); err != nil {
			t.Fatal(err)
		}
		c := turbinesim.Caps{SpendCapCents: 37 * 3, TokenCap: 1 << 40}
		if byTokens {
			c = turbinesim.Caps{SpendCapCents: 1 << 40, TokenCap: 37*5 + 4}
		}
		if err := caps.SetCaps(ctx, org.ID, c); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var ok, refused atomic.Int32
		for range 200 {
			wg.Go(func() {
				_, err := caps.Charge(ctx, org.ID, 3, 5)
				switch turbinesim.ErrorCode(err) {
				case "":
					ok.Add(1)
				case turbinesim.EPAYMENT:
					refused.Add(1)
					msg := turbinesim.ErrorMessage(err)
					if want := map[bool]string{false: "spend cap", true: "token cap"}[byTokens]; !strings.Contains(msg, want) {
						t.Errorf("detail %q does not name the %s", msg, want)
					}
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		u, err := caps.CurrentUsage(ctx, org.ID)
		if err != nil {
			t.Fatal(err)
		}
		if ok.Load() != 37 || refused.Load() != 163 || u.SpentCents != 37*3 || u.Tokens != 37*5 {
			t.Fatalf("round %d: %d ok, %d refused, usage %+v; want exactly 37", round, ok.Load(), refused.Load(), u)
		}
	}
}

// The charge joins the caller's transaction: a rolled-back job insert
// leaves no charge behind.
func TestChargeInsideTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	org, _ := mustOrgUser(t, d, "tx@example.com")
	caps := db.NewCapService(d, nil)
	tx, err := d.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := caps.ChargeTx(ctx, tx, org.ID, 100, 10); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	u, err := caps.CurrentUsage(ctx, org.ID)
	if err != nil || u.SpentCents != 0 || u.Tokens != 0 || u.SpendCapCents != turbinesim.PlanBeta.DefaultCaps().SpendCapCents {
		t.Fatalf("after rollback: %+v %v", u, err)
	}
	if _, err := caps.Charge(ctx, org.ID, -1, 0); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
		t.Fatalf("negative charge: %v", err)
	}
}

// An administrator's change to a member's key is scoped to the
// organization (membership through the owner) and written together with its
// audit row; a refused change writes none.
func TestOrgAPIKeyChangesAreScopedAndAudited(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	org, admin := mustOrgUser(t, d, "admin@example.com")
	member := &turbinesim.User{OrganizationID: org.ID, Email: "member@example.com"}
	users := db.NewUserService(d)
	users.PasswordParams = testParams
	if err := users.CreateUser(ctx, member, "correct horse"); err != nil {
		t.Fatal(err)
	}
	_, outsider := mustOrgUser(t, d, "outsider@example.com")
	ks := db.NewAPIKeyService(d)
	k, err := ks.CreateAPIKey(ctx, member, "leaked")
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := ks.CreateAPIKey(ctx, outsider, "theirs")
	if err != nil {
		t.Fatal(err)
	}
	// Creating the two keys was audited, each in its organization.
	var created []string
	if err := d.SelectContext(ctx, &created, `SELECT target_client_id FROM audit_log WHERE event = 'api_key.created' ORDER BY id`); err != nil ||
		len(created) != 2 || created[0] != k.ClientID || created[1] != foreign.ClientID {
		t.Fatalf("key creations in the audit log: %v %v", created, err)
	}
	auditRows := func() int {
		var n int
		if err := d.GetContext(ctx, &n, `SELECT count(*) FROM audit_log WHERE event <> 'api_key.created'`); err != nil {
			t.Fatal(err)
		}
		return n
	}
	entry := func() *turbinesim.AuditEntry {
		return &turbinesim.AuditEntry{Method: "DELETE", Path: "/api-keys/x", Status: 204}
	}

	listed, err := ks.ListOrgAPIKeys(ctx, org.ID)
	if err != nil || len(listed) != 1 || listed[0].ID != k.ID || listed[0].OwnerEmail != member.Email {
		t.Fatalf("org keys = %+v, %v", listed, err)
	}
	// Another organization's key is absent, and nothing is audited.
	if _, err := ks.RevokeOrgAPIKey(ctx, admin, foreign.ID, entry()); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("foreign revoke: %v", err)
	}
	if _, err := ks.SetOrgAPIKeyActive(ctx, admin, foreign.ID, false, entry()); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("foreign deactivate: %v", err)
	}
	if _, err := ks.AuthenticateAPIKey(ctx, foreign.Key); err != nil {
		t.Fatalf("foreign key after refused changes: %v", err)
	}
	if n := auditRows(); n != 0 {
		t.Fatalf("%d audit rows after refused changes", n)
	}

	e := entry()
	revoked, err := ks.RevokeOrgAPIKey(ctx, admin, k.ID, e)
	if err != nil || revoked.RevokedAt == nil || revoked.Active {
		t.Fatalf("revoke: %+v %v", revoked, err)
	}
	if _, err := ks.AuthenticateAPIKey(ctx, k.Key); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("revoked member key: %v", err)
	}
	if e.ID == 0 || e.UserID != admin.ID || e.OrganizationID != org.ID || e.ClientID != "" ||
		e.TargetUserID == nil || *e.TargetUserID != member.ID || e.TargetClientID == nil || *e.TargetClientID != k.ClientID {
		t.Fatalf("audit entry %+v", e)
	}
	got, total, err := ks.ListAudit(ctx, org.ID, turbinesim.AuditFilter{Event: turbinesim.AuditAPIKeyRevoked}, 1, 10)
	if err != nil || total != 1 || got[0].Event != turbinesim.AuditAPIKeyRevoked || got[0].UserEmail != admin.Email || got[0].TargetUserID == nil || *got[0].TargetUserID != member.ID || got[0].Status != 204 {
		t.Fatalf("audit log = %+v (%d), %v", got, total, err)
	}
	// Reactivating a revoked key is a conflict and leaves no audit row.
	if _, err := ks.SetOrgAPIKeyActive(ctx, admin, k.ID, true, entry()); turbinesim.ErrorCode(err) != turbinesim.ECONFLICT {
		t.Fatalf("reactivate revoked: %v", err)
	}
	if n := auditRows(); n != 1 {
		t.Fatalf("%d audit rows, want 1", n)
	}
}
