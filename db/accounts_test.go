package db_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alexedwards/argon2id"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/internal/mailtest"
)

// testParams are argon2id parameters sized for tests only.
var testParams = &argon2id.Params{Memory: 1024, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}

func TestSignUpVerifyInviteAndMembers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	box := &mailtest.Mailbox{}
	acc := db.NewAccountService(d, db.AccountConfig{BaseURL: "https://sim.example/", PasswordParams: testParams, Mailer: box})
	u, err := acc.SignUp(ctx, turbinesim.SignUpRequest{OrganizationName: "Gust Labs", Name: "Gus", Email: "Gus@Example.com", Password: "long enough pw"})
	if err != nil {
		t.Fatal(err)
	}
	if u.Verified || u.Role != turbinesim.RoleAdmin || u.Email != "gus@example.com" {
		t.Fatalf("signed-up user %+v: want an unverified admin", u)
	}
	// A taken address answers like a new one; its owner gets a notice.
	if again, err := acc.SignUp(ctx, turbinesim.SignUpRequest{Name: "x", Email: "gus@example.com", Password: "long enough pw"}); again != nil || err != nil {
		t.Fatalf("second sign-up: %+v %v", again, err)
	}
	if msgs := box.Messages(); len(msgs) != 2 || msgs[1].To != "gus@example.com" || !strings.HasPrefix(msgs[1].Subject, "Someone tried to sign up") {
		t.Fatalf("mail after the second sign-up: %+v", msgs)
	}
	auth, err := db.NewAuthService(d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := auth.Authenticate(ctx, "gus@example.com", "long enough pw"); err != nil {
		t.Fatalf("sign in after sign-up: %v", err)
	}
	// The outbox records recipient and subject; the link is only in the
	// mailbox.
	mails, err := acc.Outbox(ctx, u.OrganizationID)
	if err != nil || len(mails) != 2 || mails[1].To != "gus@example.com" || mails[1].SentAt == nil {
		t.Fatalf("outbox %+v %v", mails, err)
	}
	msg, tok := box.Next(t, "gus@example.com")
	if !strings.Contains(msg.Body, "https://sim.example/verify-email?token=") {
		t.Fatalf("verification mail %q", msg.Body)
	}
	if _, err := acc.VerifyEmail(ctx, tok+"x"); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("wrong token: %v", err)
	}
	v, err := acc.VerifyEmail(ctx, tok)
	if err != nil || !v.Verified {
		t.Fatalf("verify: %+v %v", v, err)
	}
	if _, err := acc.VerifyEmail(ctx, tok); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("second use of the link: %v", err)
	}

	// Invitation: no password until accepted.
	inv, err := acc.Invite(ctx, u.OrganizationID, "ivy@example.com", turbinesim.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := auth.Authenticate(ctx, "ivy@example.com", ""); err == nil {
		t.Fatal("invited user signs in without a password")
	}
	_, itok := box.Next(t, "ivy@example.com")
	if a, err := acc.AcceptInvite(ctx, itok, "ivy's password"); err != nil || !a.Verified || a.ID != inv.ID {
		t.Fatalf("accept: %+v %v", a, err)
	}
	if _, err := auth.Authenticate(ctx, "ivy@example.com", "ivy's password"); err != nil {
		t.Fatalf("invited user sign-in: %v", err)
	}
	// Members of another organization are not found.
	otherOrg, other := mustOrgUser(t, d, "other@example.com")
	if _, err := acc.SetRole(ctx, u.OrganizationID, other.ID, turbinesim.RoleAdmin); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("cross-org role change: %v", err)
	}
	if err := acc.DeleteUser(ctx, otherOrg.ID, inv.ID); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("cross-org delete: %v", err)
	}
	if r, err := acc.SetRole(ctx, u.OrganizationID, inv.ID, turbinesim.RoleAdmin); err != nil || r.Role != turbinesim.RoleAdmin {
		t.Fatalf("role: %+v %v", r, err)
	}
	if r, err := acc.SetActive(ctx, u.OrganizationID, inv.ID, false); err != nil || r.Active {
		t.Fatalf("deactivate: %+v %v", r, err)
	}
	// Role and active change together or not at all: an unknown role
	// leaves the member inactive, a valid pair sets both.
	bogus, yes := turbinesim.Role("owner"), true
	if _, err := acc.UpdateMember(ctx, u.OrganizationID, inv.ID, &bogus, &yes); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
		t.Fatalf("unknown role with active: %v", err)
	}
	member := turbinesim.RoleMember
	if r, err := acc.UpdateMember(ctx, u.OrganizationID, inv.ID, nil, nil); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
		t.Fatalf("empty update: %+v %v", r, err)
	}
	if r, err := acc.UpdateMember(ctx, u.OrganizationID, inv.ID, &member, &yes); err != nil || r.Role != member || !r.Active {
		t.Fatalf("role and active together: %+v %v", r, err)
	}
	if r, err := acc.SetActive(ctx, u.OrganizationID, inv.ID, false); err != nil || r.Active || r.Role != member {
		t.Fatalf("deactivate keeps the role: %+v %v", r, err)
	}
	if err := acc.DeleteUser(ctx, u.OrganizationID, inv.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := auth.LoadAuth(ctx, inv.ID, turbinesim.AuthBearer); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("deleted user loads: %v", err)
	}
	members, err := acc.ListMembers(ctx, u.OrganizationID)
	if err != nil || len(members) != 1 || members[0].ID != u.ID {
		t.Fatalf("members %+v %v", members, err)
	}
}

// Failures back off one (account, address) pair exponentially and never
// the account at another address (fails on the fixed-window throttle,
// which locked the account everywhere after 10 failures).
func TestLoginThrottleBacksOffPairs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	lt := db.NewLoginThrottle(d)
	now := time.Date(2026, 1, 1, 10, 1, 0, 0, time.UTC)
	const attacker, owner = "203.0.113.9", "198.51.100.7"
	// 5 free failures, then 1 s, 2 s, 4 s, ... at the attacker's address.
	for i := range 40 {
		wait, err := lt.Check(ctx, "a@example.com", attacker, now)
		if err != nil {
			t.Fatalf("attempt %d refused after waiting: %v %v", i+1, wait, err)
		}
		if err := lt.Fail(ctx, "A@example.com", attacker, now); err != nil {
			t.Fatal(err)
		}
		wait, err = lt.Check(ctx, "a@example.com", attacker, now)
		want := time.Duration(0)
		if over := i + 1 - 5; over >= 10 {
			want = 15 * time.Minute
		} else if over >= 0 {
			want = time.Second << over
		}
		if (want == 0) != (err == nil) || wait != want {
			t.Fatalf("after failure %d: wait %v %v, want %v", i+1, wait, err, want)
		}
		if want > 0 && turbinesim.ErrorCode(err) != turbinesim.ERATELIMIT {
			t.Fatalf("after failure %d: %v", i+1, err)
		}
		now = now.Add(want)
	}
	// The owner's address is untouched by the attacker's 40 failures.
	if wait, err := lt.Check(ctx, "a@example.com", owner, now); err != nil || wait != 0 {
		t.Fatalf("owner's address: %v %v", wait, err)
	}
	// A success clears the pair; a day without failures forgets it too.
	if err := lt.Succeed(ctx, "a@example.com", attacker); err != nil {
		t.Fatal(err)
	}
	if _, err := lt.Check(ctx, "a@example.com", attacker, now); err != nil {
		t.Fatalf("after success: %v", err)
	}
	for range 6 {
		if err := lt.Fail(ctx, "b@example.com", attacker, now); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := lt.Check(ctx, "b@example.com", attacker, now); turbinesim.ErrorCode(err) != turbinesim.ERATELIMIT {
		t.Fatalf("6 failures: %v", err)
	}
	later := now.Add(25 * time.Hour)
	if err := lt.Fail(ctx, "b@example.com", attacker, later); err != nil {
		t.Fatal(err)
	}
	if _, err := lt.Check(ctx, "b@example.com", attacker, later); err != nil {
		t.Fatalf("first failure after a quiet day backs off: %v", err)
	}
}

// Sign-ups and password-reset requests have budgets of their own.
func TestWindowThrottlesAreSeparate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	signUp, reset := db.NewSignUpThrottle(d), db.NewPasswordResetThrottle(d)
	now := time.Date(2026, 1, 1, 10, 30, 0, 0, time.UTC)
	for i := range 20 {
		if _, err := signUp.Take(ctx, fmt.Sprintf("u%d@example.com", i), "192.0.2.1", now); err != nil {
			t.Fatalf("sign-up %d: %v", i+1, err)
		}
	}
	wait, err := signUp.Take(ctx, "new@example.com", "192.0.2.1", now)
	if turbinesim.ErrorCode(err) != turbinesim.ERATELIMIT || wait != 30*time.Minute {
		t.Fatalf("21st sign-up: %v %v", wait, err)
	}
	if _, err := reset.Take(ctx, "u1@example.com", "192.0.2.1", now); err != nil {
		t.Fatalf("reset after 20 sign-ups: %v", err)
	}
	if _, err := signUp.Take(ctx, "new@example.com", "192.0.2.1", now.Add(30*time.Minute)); err != nil {
		t.Fatalf("next window: %v", err)
	}
}

func TestTOTPEnrolmentReplayAndRecovery(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	_, u := mustOrgUser(t, d, "m@example.com")
	mfa, err := db.NewMFAService(d, "", []byte(strings.Repeat("k", 32)))
	if err != nil {
		t.Fatal(err)
	}
	enr, err := mfa.BeginEnrolment(ctx, u)
	if err != nil || !strings.HasPrefix(enr.URI, "otpauth://totp/") {
		t.Fatalf("enrol: %+v %v", enr, err)
	}
	// D7: the seed is stored sealed, bound to its user.
	var stored string
	if err := d.GetContext(ctx, &stored, `SELECT secret FROM user_mfa WHERE user_id = $1`, u.ID); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stored, "v1:") || strings.Contains(stored, enr.Secret) {
		t.Fatalf("TOTP seed stored in the clear: %q", stored)
	}
	opts := totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}
	code := func(at time.Time) string {
		c, err := totp.GenerateCodeCustom(enr.Secret, at, opts)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	t0 := time.Date(2026, 2, 2, 12, 0, 0, 0, time.UTC) // step boundary
	if _, err := mfa.ConfirmEnrolment(ctx, u.ID, "000000", t0); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED && code(t0) != "000000" {
		t.Fatalf("wrong confirmation code: %v", err)
	}
	codes, err := mfa.ConfirmEnrolment(ctx, u.ID, code(t0), t0)
	if err != nil || len(codes) != 10 {
		t.Fatalf("confirm: %v %v", codes, err)
	}
	if on, _ := mfa.Enabled(ctx, u.ID); !on {
		t.Fatal("not enabled")
	}
	if _, err := mfa.BeginEnrolment(ctx, u); turbinesim.ErrorCode(err) != turbinesim.ECONFLICT {
		t.Fatalf("re-enrol while enabled: %v", err)
	}
	// D1: the confirmation step is spent; D3: s+1 once, s+2 not.
	t1 := t0.Add(30 * time.Second)
	if err := mfa.Verify(ctx, u.ID, code(t0), t0); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("replay of the confirmation code: %v", err)
	}
	if err := mfa.Verify(ctx, u.ID, code(t1.Add(60*time.Second)), t1); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("code two steps ahead accepted: %v", err)
	}
	if err := mfa.Verify(ctx, u.ID, code(t1.Add(30*time.Second)), t1); err != nil {
		t.Fatalf("code one step ahead: %v", err)
	}
	// D2: step s (earlier than the accepted s+1) is now refused.
	if err := mfa.Verify(ctx, u.ID, code(t1), t1); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("earlier step after a later one: %v", err)
	}
	// D1 concurrent: one code, 8 goroutines, exactly one success.
	t3 := t0.Add(5 * time.Minute)
	var ok atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if mfa.Verify(ctx, u.ID, code(t3), t3) == nil {
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1 {
		t.Fatalf("concurrent use of one code: %d successes", ok.Load())
	}
	// D6: recovery codes are single use, old sets die on regeneration.
	if err := mfa.Verify(ctx, u.ID, strings.ToUpper(codes[0]), t3); err != nil {
		t.Fatalf("recovery code: %v", err)
	}
	if err := mfa.Verify(ctx, u.ID, codes[0], t3); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("recovery code reused: %v", err)
	}
	fresh, err := mfa.RegenerateRecoveryCodes(ctx, u.ID)
	if err != nil || len(fresh) != 10 {
		t.Fatal(err)
	}
	if err := mfa.Verify(ctx, u.ID, codes[1], t3); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("old set after regeneration: %v", err)
	}
	if err := mfa.Verify(ctx, u.ID, strings.ReplaceAll(fresh[1], "-", ""), t3); err != nil {
		t.Fatalf("new code without dashes: %v", err)
	}
	// D7: codes at rest are hashes only.
	var raw int
	if err := d.GetContext(ctx, &raw, `SELECT count(*) FROM recovery_codes WHERE code_hash = $1`, []byte(fresh[2])); err != nil || raw != 0 {
		t.Fatalf("raw recovery code stored: %d %v", raw, err)
	}
	if err := mfa.Disable(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if on, _ := mfa.Enabled(ctx, u.ID); on {
		t.Fatal("still enabled after disable")
	}
}
