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

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/internal/mailtest"
)

// resetLink waits for the next reset mail to addr in box and returns its
// token.
func resetLink(t *testing.T, box *mailtest.Mailbox, addr string) string {
	t.Helper()
	msg, tok := box.Next(t, addr)
	if !strings.HasPrefix(msg.Subject, "Reset") {
		t.Fatalf("next mail with a link to %s is %q", addr, msg.Subject)
	}
	return tok
}

// The reset store: a link only for active accounts; the token is usable
// once, until it expires; completing sets the password (argon2id with the
// configured parameters) and revokes refresh tokens, browser sessions,
// older access tokens (tokens_valid_after) and other links, in one
// transaction.
func TestIdentityPasswordResetStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	_, u := mustOrgUser(t, d, "reset@example.com")
	now := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	box := &mailtest.Mailbox{}
	acc := db.NewAccountService(d, db.AccountConfig{BaseURL: "http://app.test", PasswordParams: testParams, Now: func() time.Time { return now }, Mailer: box})

	if err := acc.RequestPasswordReset(ctx, "nobody@example.com", now); err != nil {
		t.Fatalf("unknown address: %v", err)
	}
	if err := acc.RequestPasswordReset(ctx, "RESET@example.com", now); err != nil {
		t.Fatal(err)
	}
	tok := resetLink(t, box, "reset@example.com")
	var n int
	if err := d.GetContext(ctx, &n, `SELECT count(*) FROM email_tokens WHERE purpose = 'reset'`); err != nil || n != 1 {
		t.Fatalf("reset tokens %d %v", n, err)
	}
	if got, err := acc.PasswordResetUser(ctx, tok, now); err != nil || got.ID != u.ID {
		t.Fatalf("reset user %v %v", got, err)
	}
	if _, err := acc.PasswordResetUser(ctx, tok, now.Add(turbinesim.PasswordResetLifetime)); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("expired link: %v", err)
	}
	// Credentials to be revoked.
	rs := db.NewRefreshTokenService(d)
	if err := rs.StartFamily(ctx, u.ID, "F1", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	ls := db.NewLoginSessionService(d, 12*time.Hour, 2*time.Hour)
	sid, err := ls.StartBrowserSession(ctx, u.ID, turbinesim.ClientInfo{IP: "192.0.2.1", UserAgent: "test"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := acc.RequestPasswordReset(ctx, "reset@example.com", now); err != nil {
		t.Fatal(err)
	}
	other := resetLink(t, box, "reset@example.com")

	if _, err := acc.CompletePasswordReset(ctx, tok, "short", now); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
		t.Fatalf("short password: %v", err)
	}
	got, err := acc.CompletePasswordReset(ctx, tok, "brand new password", now)
	if err != nil || got.ID != u.ID {
		t.Fatalf("complete: %v %v", got, err)
	}
	var row struct {
		Hash       string    `db:"password_hash"`
		ValidAfter time.Time `db:"tokens_valid_after"`
	}
	if err := d.GetContext(ctx, &row, `SELECT password_hash, tokens_valid_after FROM users WHERE id = $1`, u.ID); err != nil {
		t.Fatal(err)
	}
	if ok, err := argon2id.ComparePasswordAndHash("brand new password", row.Hash); !ok || err != nil || !row.ValidAfter.Equal(now) {
		t.Fatalf("password set %v (%v), tokens_valid_after %v", ok, err, row.ValidAfter)
	}
	if _, err := rs.Rotate(ctx, u.ID, "F1", "F2", now); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("refresh family survived the reset: %v", err)
	}
	if err := ls.TouchBrowserSession(ctx, sid, u.ID, turbinesim.ClientInfo{}, now); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("browser session survived the reset: %v", err)
	}
	for name, link := range map[string]string{"used": tok, "other": other} {
		if _, err := acc.CompletePasswordReset(ctx, link, "another new password", now); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
			t.Fatalf("%s link: %v", name, err)
		}
	}
	// A deactivated account gets no link and cannot use one it had.
	if err := acc.RequestPasswordReset(ctx, "reset@example.com", now); err != nil {
		t.Fatal(err)
	}
	late := resetLink(t, box, "reset@example.com")
	if _, err := d.ExecContext(ctx, `UPDATE users SET active = false WHERE id = $1`, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := acc.CompletePasswordReset(ctx, late, "another new password", now); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("deactivated account reset: %v", err)
	}
	if err := acc.RequestPasswordReset(ctx, "reset@example.com", now); err != nil {
		t.Fatal(err)
	}
	if err := d.GetContext(ctx, &n, `SELECT count(*) FROM email_tokens WHERE purpose = 'reset' AND user_id = $1`, u.ID); err != nil || n != 3 {
		t.Fatalf("a link was made for a deactivated account: %d %v", n, err)
	}
}

// One link used by 8 concurrent requests, 20 rounds: exactly one sets the
// password each round.
func TestIdentityPasswordResetSingleUseUnderConcurrency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	mustOrgUser(t, d, "race@example.com")
	now := time.Now()
	box := &mailtest.Mailbox{}
	acc := db.NewAccountService(d, db.AccountConfig{BaseURL: "http://app.test", PasswordParams: testParams, Mailer: box})
	for round := range 20 {
		if err := acc.RequestPasswordReset(ctx, "race@example.com", now); err != nil {
			t.Fatal(err)
		}
		tok := resetLink(t, box, "race@example.com")
		start := make(chan struct{})
		var ok atomic.Int32
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				<-start
				_, err := acc.CompletePasswordReset(ctx, tok, "concurrent password", now)
				switch turbinesim.ErrorCode(err) {
				case "":
					ok.Add(1)
				case turbinesim.EUNAUTHORIZED:
				default:
					t.Errorf("round %d: %v", round, err)
				}
			})
		}
		close(start)
		wg.Wait()
		if ok.Load() != 1 {
			t.Fatalf("round %d: %d successful uses of one link", round, ok.Load())
		}
	}
}

// Browser sessions and refresh-token families: listed with their client
// and times, revocable only by their user, and gone from the list after
// sign-out everywhere.
func TestIdentityLoginSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	_, u := mustOrgUser(t, d, "s@example.com")
	_, v := mustOrgUser(t, d, "v@example.com")
	ls := db.NewLoginSessionService(d, 12*time.Hour, 2*time.Hour)
	rs := db.NewRefreshTokenService(d)
	now := time.Now().UTC().Truncate(time.Microsecond)
	sid, err := ls.StartBrowserSession(ctx, u.ID, turbinesim.ClientInfo{IP: "192.0.2.7", UserAgent: "Firefox"}, now)
	if err != nil {
		t.Fatal(err)
	}
	cctx := turbinesim.NewContextWithClient(ctx, turbinesim.ClientInfo{IP: "198.51.100.9", UserAgent: "curl/8"})
	if err := rs.StartFamily(cctx, u.ID, "J1", now.Add(30*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := rs.Rotate(turbinesim.NewContextWithClient(ctx, turbinesim.ClientInfo{IP: "198.51.100.10", UserAgent: "curl/9"}), u.ID, "J1", "J2", now); err != nil {
		t.Fatal(err)
	}
	// A use within the minute is not written; a later one is, with the
	// new client.
	if err := ls.TouchBrowserSession(ctx, sid, u.ID, turbinesim.ClientInfo{IP: "192.0.2.8", UserAgent: "Firefox 2"}, now.Add(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	later := now.Add(5 * time.Minute)
	if err := ls.TouchBrowserSession(ctx, sid, u.ID, turbinesim.ClientInfo{IP: "192.0.2.9", UserAgent: "Firefox 3"}, later); err != nil {
		t.Fatal(err)
	}
	// Another user's id is not this user's session.
	if err := ls.TouchBrowserSession(ctx, sid, v.ID, turbinesim.ClientInfo{}, later); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("session touched as another user: %v", err)
	}
	items, err := ls.ListLoginSessions(ctx, u.ID, later)
	if err != nil || len(items) != 2 {
		t.Fatalf("list: %v %v", items, err)
	}
	byKind := map[string]*turbinesim.LoginSession{}
	for _, it := range items {
		byKind[it.Kind] = it
	}
	b, f := byKind["browser"], byKind["token"]
	if b == nil || b.ID != sid || b.IP != "192.0.2.9" || b.UserAgent != "Firefox 3" || !b.CreatedAt.Equal(now) || !b.LastUsedAt.Equal(later) {
		t.Fatalf("browser session %+v", b)
	}
	if f == nil || f.IP != "198.51.100.10" || f.UserAgent != "curl/9" || f.ExpiresAt == nil {
		t.Fatalf("family %+v", f)
	}
	// Only the owner revokes.
	for _, id := range []string{sid, f.ID} {
		if err := ls.RevokeLoginSession(ctx, v.ID, id, later); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
			t.Fatalf("revoked by another user: %v", err)
		}
	}
	if err := ls.RevokeLoginSession(ctx, u.ID, f.ID, later); err != nil {
		t.Fatal(err)
	}
	if _, err := rs.Rotate(ctx, u.ID, "J2", "J3", later); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("revoked family still rotates: %v", err)
	}
	// Sign out everywhere ends the browser session too.
	if err := rs.SignOutEverywhere(ctx, u.ID, later.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := ls.TouchBrowserSession(ctx, sid, u.ID, turbinesim.ClientInfo{}, later.Add(2*time.Second)); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
		t.Fatalf("session after sign-out everywhere: %v", err)
	}
	if items, err := ls.ListLoginSessions(ctx, u.ID, later.Add(2*time.Second)); err != nil || len(items) != 0 {
		t.Fatalf("after sign-out everywhere: %v %v", items, err)
	}
	// Idle sessions drop off the list.
	sid2, err := ls.StartBrowserSession(ctx, u.ID, turbinesim.ClientInfo{}, later.Add(3*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if items, _ := ls.ListLoginSessions(ctx, u.ID, later.Add(4*time.Hour)); len(items) != 0 {
		t.Fatalf("idle session %s listed: %v", sid2, items)
	}
}

// Production hashes use argon2id.DefaultParams (64 MiB); only tests pass
// cheaper parameters, explicitly.
func TestIdentityPasswordParamsDefaultToProduction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	org, _ := mustOrgUser(t, d, "cheap@example.com")
	u := &turbinesim.User{OrganizationID: org.ID, Email: "full@example.com"}
	if err := db.NewUserService(d).CreateUser(ctx, u, "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("$argon2id$v=19$m=%d,t=%d,p=%d$", argon2id.DefaultParams.Memory, argon2id.DefaultParams.Iterations, argon2id.DefaultParams.Parallelism)
	var full, cheap string
	if err := d.GetContext(ctx, &full, `SELECT password_hash FROM users WHERE email = 'full@example.com'`); err != nil {
		t.Fatal(err)
	}
	if err := d.GetContext(ctx, &cheap, `SELECT password_hash FROM users WHERE email = 'cheap@example.com'`); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(full, want) || strings.HasPrefix(cheap, want) || argon2id.DefaultParams.Memory < 64*1024 {
		t.Fatalf("default hash %q (want prefix %q), test hash %q", full[:40], want, cheap[:30])
	}
}

// blockingMailer holds every Send until release is closed.
type blockingMailer struct {
	started chan string
	release chan struct{}
}

func (m *blockingMailer) Send(_ context.Context, to, _, _ string) error {
	m.started <- to
	<-m.release
	return nil
}

// The reset answer does not wait for SMTP (whose round trip would tell a
// known address from an unknown one); the mail is sent afterwards and
// marked sent in the outbox.
func TestIdentityPasswordResetMailIsSentAfterTheAnswer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	mustOrgUser(t, d, "smtp@example.com")
	m := &blockingMailer{started: make(chan string, 1), release: make(chan struct{})}
	acc := db.NewAccountService(d, db.AccountConfig{BaseURL: "http://app.test", PasswordParams: testParams, Mailer: m})
	done := make(chan error, 1)
	go func() { done <- acc.RequestPasswordReset(ctx, "smtp@example.com", time.Now()) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		close(m.release)
		t.Fatal("the reset request waited for the mail server")
	}
	if to := <-m.started; to != "smtp@example.com" {
		t.Fatalf("mail to %q", to)
	}
	close(m.release)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var sent bool
		if err := d.GetContext(ctx, &sent, `SELECT sent_at IS NOT NULL FROM email_outbox WHERE to_address = 'smtp@example.com' AND subject LIKE 'Reset%'`); err != nil {
			t.Fatal(err)
		}
		if sent {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("reset mail never marked sent")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
