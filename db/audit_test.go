package db_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/internal/mailtest"
)

// Every change an administrator answers for is in the audit log, written
// by the store that makes it, naming the caller and the request from the
// context, the target, and old and new values; a refused or empty change
// writes nothing. The filters narrow by event, user and time.
func TestAuditLogRecordsEveryAdministrativeChange(t *testing.T) {
	t.Parallel()
	f := newStudyFixture(t)
	d, org := f.db, f.author.Organization
	admin := f.author
	admin.User.Role = turbinesim.RoleAdmin
	ctx := turbinesim.NewContextWithRequestLine(turbinesim.NewContextWithAuth(context.Background(), admin), "POST", "/test")

	acc := db.NewAccountService(d, db.AccountConfig{BaseURL: "http://app.test", PasswordParams: testParams, Mailer: &mailtest.Mailbox{}})
	invited, err := acc.Invite(ctx, org.ID, "new@example.com", turbinesim.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := acc.SetRole(ctx, org.ID, invited.ID, turbinesim.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	if _, err := acc.SetActive(ctx, org.ID, invited.ID, false); err != nil {
		t.Fatal(err)
	}
	if err := acc.DeleteUser(ctx, org.ID, invited.ID); err != nil {
		t.Fatal(err)
	}
	caps := db.NewCapService(d, nil)
	if err := caps.SetCaps(ctx, org.ID, turbinesim.Caps{SpendCapCents: -1}); err == nil {
		t.Fatal("negative cap accepted")
	}
	before, err := caps.CurrentUsage(ctx, org.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := caps.SetCaps(ctx, org.ID, turbinesim.Caps{SpendCapCents: 12345, TokenCap: 678}); err != nil {
		t.Fatal(err)
	}
	if err := caps.SetCaps(ctx, org.ID, turbinesim.Caps{SpendCapCents: 12345, TokenCap: 678}); err != nil {
		t.Fatal(err) // the same caps again: no change, no entry
	}
	ks := db.NewAPIKeyService(d)
	k, err := ks.CreateAPIKey(ctx, admin.User, "ci")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ks.SetAPIKeyActive(ctx, admin.User.ID, k.ID, false); err != nil {
		t.Fatal(err)
	}
	if _, err := ks.SetAPIKeyActive(ctx, admin.User.ID, k.ID, true); err != nil {
		t.Fatal(err)
	}
	if err := ks.RevokeAPIKey(ctx, admin.User.ID, k.ID); err != nil {
		t.Fatal(err)
	}
	st, err := f.svc.CreateStudy(ctx, admin, turbinesim.StudyInput{Title: "Yaw study"})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DisableShare(ctx, admin, st.ID); err != nil {
		t.Fatal(err) // nothing was public: no entry
	}
	if _, err := f.svc.EnableShare(ctx, admin, st.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RotateShare(ctx, admin, st.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DisableShare(ctx, admin, st.ID); err != nil {
		t.Fatal(err)
	}

	got, total, err := ks.ListAudit(context.Background(), org.ID, turbinesim.AuditFilter{}, 1, 50)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for i := len(got) - 1; i >= 0; i-- {
		e := got[i]
		if e.UserID != admin.User.ID || e.UserEmail != admin.User.Email || e.Method != "POST" || e.Path != "/test" {
			t.Fatalf("entry %+v: want the caller and request from the context", e)
		}
		lines = append(lines, string(e.Event)+" "+e.TargetType+": "+e.Summary)
	}
	want := []string{
		"member.invited user: new@example.com invited as org_member",
		"member.role_changed user: role of new@example.com: org_member → org_admin",
		"member.deactivated user: new@example.com deactivated",
		"member.removed user: new@example.com removed from the organization",
		"settings.caps_changed organization: monthly spend cap " + turbinesim.FormatCents(before.SpendCapCents) +
			" → $123.45; monthly token cap " + strconv.FormatInt(before.TokenCap, 10) + " → 678",
		`api_key.created api_key: API key "ci" (simulation) created for author@example.com`,
		`api_key.deactivated api_key: API key "ci" (` + k.ClientID + `) of author@example.com deactivated`,
		`api_key.reactivated api_key: API key "ci" (` + k.ClientID + `) of author@example.com reactivated`,
		`api_key.revoked api_key: API key "ci" (` + k.ClientID + `) of author@example.com revoked`,
		`share.enabled study: study "Yaw study" published: share link enabled`,
		`share.rotated study: share link of study "Yaw study" rotated; the old link stops working`,
		`share.disabled study: study "Yaw study" unpublished: share link disabled`,
	}
	if total != len(want) || strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("audit log (%d):\n%s\nwant:\n%s", total, strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}

	// Filters: by event, by user, by time.
	if _, n, err := ks.ListAudit(ctx, org.ID, turbinesim.AuditFilter{Event: turbinesim.AuditShareRotated}, 1, 50); err != nil || n != 1 {
		t.Fatalf("event filter: %d %v", n, err)
	}
	if _, n, err := ks.ListAudit(ctx, org.ID, turbinesim.AuditFilter{UserID: f.member.User.ID}, 1, 50); err != nil || n != 0 {
		t.Fatalf("user filter: %d %v", n, err)
	}
	future := time.Now().Add(time.Hour)
	if _, n, err := ks.ListAudit(ctx, org.ID, turbinesim.AuditFilter{From: &future}, 1, 50); err != nil || n != 0 {
		t.Fatalf("from filter: %d %v", n, err)
	}
	if page2, n, err := ks.ListAudit(ctx, org.ID, turbinesim.AuditFilter{To: &future}, 2, 5); err != nil || n != len(want) || len(page2) != 5 || page2[0].ID != got[5].ID {
		t.Fatalf("to filter, page 2: %d entries of %d, %v", len(page2), n, err)
	}
	if _, _, err := ks.ListAudit(ctx, org.ID, turbinesim.AuditFilter{Event: "bogus"}, 1, 50); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
		t.Fatalf("unknown event: %v", err)
	}
	// The other organization's log stays empty.
	if _, n, err := ks.ListAudit(ctx, f.outsider.Organization.ID, turbinesim.AuditFilter{}, 1, 50); err != nil || n != 0 {
		t.Fatalf("outsider's log: %d %v", n, err)
	}
}
