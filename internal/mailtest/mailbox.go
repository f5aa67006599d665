// Package mailtest is a Mailer for tests: it keeps the messages in memory,
// where a test reads the one-time links a user would find in their
// mailbox. Production wiring never uses it: the service keeps no message
// body anywhere it could be read back.
package mailtest

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Message is one delivered message.
type Message struct {
	To, Subject, Body string
}

// Mailbox implements turbinesim.Mailer in memory.
type Mailbox struct {
	mu   sync.Mutex
	msgs []Message
	read map[int]bool
}

// Send implements turbinesim.Mailer.
func (m *Mailbox) Send(_ context.Context, to, subject, body string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.msgs = append(m.msgs, Message{To: to, Subject: subject, Body: body})
	return nil
}

// Messages returns the messages delivered so far, oldest first.
func (m *Mailbox) Messages() []Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Message(nil), m.msgs...)
}

var linkToken = regexp.MustCompile(`token=([A-Za-z0-9%]+)`)

// Next waits (up to 10 s: some mail is sent after the response) for the
// oldest message to `to` carrying a one-time link that no earlier Next
// returned, and returns it with the link's token.
func (m *Mailbox) Next(t testing.TB, to string) (Message, string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		m.mu.Lock()
		if m.read == nil {
			m.read = map[int]bool{}
		}
		for i, msg := range m.msgs {
			if m.read[i] || !strings.EqualFold(msg.To, to) {
				continue
			}
			if sub := linkToken.FindStringSubmatch(msg.Body); sub != nil {
				m.read[i] = true
				m.mu.Unlock()
				tok, err := url.QueryUnescape(sub[1])
				if err != nil {
					t.Fatalf("link token in %q: %v", msg.Body, err)
				}
				return msg, tok
			}
		}
		m.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no new mail with a link to %s", to)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
