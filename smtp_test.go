package turbinesim_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
)

// Without SMTP_ADDR, mail goes to the operator's log (and nowhere else);
// with it, to the relay.
func TestMailerFromEnv(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	m := turbinesim.MailerFromEnv(func(string) string { return "" }, log)
	if err := m.Send(context.Background(), "a@example.com", "Verify", "open https://x/verify-email?token=SECRET"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "token=SECRET") || !strings.Contains(logs.String(), "a@example.com") {
		t.Fatalf("log mailer wrote %q", logs.String())
	}
	env := map[string]string{"SMTP_ADDR": "mail.example:587"}
	if _, ok := turbinesim.MailerFromEnv(func(k string) string { return env[k] }, log).(*turbinesim.SMTPMailer); !ok {
		t.Fatal("SMTP_ADDR set: not an SMTP mailer")
	}
}
