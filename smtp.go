package turbinesim

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/smtp"
	"strings"
)

// SMTPMailer sends mail through an SMTP relay (net/smtp: STARTTLS when the
// server offers it, PLAIN auth only over TLS or to localhost).
type SMTPMailer struct {
	Addr     string // host:port
	From     string
	Username string
	Password string
}

// LogMailer writes each message, body and links included, to the
// operator's log instead of sending it: the development mailer when no
// SMTP relay is configured. The log is readable only by whoever runs the
// server, so one-time links still reach nobody through the product.
type LogMailer struct{ Log *slog.Logger }

// Send implements Mailer.
func (m *LogMailer) Send(ctx context.Context, to, subject, body string) error {
	m.Log.InfoContext(ctx, "mail (SMTP_ADDR unset, so written here instead of sent)", "to", to, "subject", subject, "body", body)
	return nil
}

// MailerFromEnv configures an SMTP mailer from SMTP_ADDR, SMTP_FROM,
// SMTP_USERNAME and SMTP_PASSWORD, or, when SMTP_ADDR is unset, a
// LogMailer writing to log.
func MailerFromEnv(getenv func(string) string, log *slog.Logger) Mailer {
	addr := getenv("SMTP_ADDR")
	if addr == "" {
		return &LogMailer{Log: log}
	}
	from := getenv("SMTP_FROM")
	if from == "" {
		from = "no-reply@localhost"
	}
	return &SMTPMailer{Addr: addr, From: from, Username: getenv("SMTP_USERNAME"), Password: getenv("SMTP_PASSWORD")}
}

// Send implements Mailer.
func (m *SMTPMailer) Send(_ context.Context, to, subject, body string) error {
	for _, v := range []string{to, subject, m.From} {
		if strings.ContainsAny(v, "\r\n") {
			return Errorf(EINVALID, "mail header contains a line break")
		}
	}
	var auth smtp.Auth
	if m.Username != "" {
		host, _, err := net.SplitHostPort(m.Addr)
		if err != nil {
			return fmt.Errorf("smtp address %q: %w", m.Addr, err)
		}
		auth = smtp.PlainAuth("", m.Username, m.Password, host)
	}
	msg := "From: " + m.From + "\r\nTo: " + to + "\r\nSubject: " + subject +
		"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n") + "\r\n"
	if err := smtp.SendMail(m.Addr, auth, m.From, []string{to}, []byte(msg)); err != nil {
		return fmt.Errorf("sending mail to %s: %w", to, err)
	}
	return nil
}
