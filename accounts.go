package turbinesim

import (
	"context"
	"time"
)

// SignUpRequest is what a visitor gives to open an account. Sign-up creates
// a new organization (Beta plan) whose first user is its administrator, as
// an unverified (demo) account until the e-mail link is followed.
type SignUpRequest struct {
	OrganizationName string `json:"org_name"`
	Name             string `json:"name"`
	Email            string `json:"email"`
	Password         string `json:"password"`
}

// Email is the record of one message in the outbox: who it went to and
// its subject, never its body. Bodies carry one-time links (verification,
// invitation, password reset) that must reach only the mailbox, so they
// exist only on their way to the Mailer. SentAt is set once the Mailer
// took the message.
type Email struct {
	ID             int64      `json:"id" db:"id"`
	OrganizationID *string    `json:"org_id" db:"organization_id"`
	To             string     `json:"to" db:"to_address"`
	Subject        string     `json:"subject" db:"subject"`
	CreatedAt      time.Time  `json:"created_at" db:"created_at"`
	SentAt         *time.Time `json:"sent_at" db:"sent_at"`
}

// Mailer delivers a message: SMTPMailer in production, LogMailer (the
// operator's log) in development.
type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

// AccountService manages sign-up, e-mail verification and an
// organization's members. Methods that take an orgID act only on users of
// that organization: users of other organizations are ENOTFOUND.
type AccountService interface {
	// SignUp creates the organization and its unverified administrator and
	// sends the verification link. A taken address is not revealed (OWASP
	// ASVS 5.0 6.3.8): its owner is told by mail that someone tried to
	// sign up with it, and SignUp returns a nil user and no error, after
	// the same work (the password is hashed either way).
	SignUp(ctx context.Context, req SignUpRequest) (*User, error)
	// VerifyEmail consumes a verification token and marks the account
	// verified (EUNAUTHORIZED for an unknown, used or expired token).
	VerifyEmail(ctx context.Context, token string) (*User, error)
	// Invite creates an account in orgID without a password and sends an
	// invitation link.
	Invite(ctx context.Context, orgID, email string, role Role) (*User, error)
	// AcceptInvite consumes an invitation token, sets the password and
	// marks the account verified (the address received the link).
	AcceptInvite(ctx context.Context, token, password string) (*User, error)
	ListMembers(ctx context.Context, orgID string) ([]*User, error)
	SetRole(ctx context.Context, orgID, userID string, role Role) (*User, error)
	SetActive(ctx context.Context, orgID, userID string, active bool) (*User, error)
	// UpdateMember sets the role and/or the active flag (nil leaves a field
	// as it is) in one statement, so a request changing both is applied
	// whole or not at all. EINVALID when both are nil or the role is
	// unknown; ENOTFOUND for a user outside orgID.
	UpdateMember(ctx context.Context, orgID, userID string, role *Role, active *bool) (*User, error)
	// DeleteUser soft-deletes: the row stays (audit, ownership), sign-in
	// and every credential stop on the next request.
	DeleteUser(ctx context.Context, orgID, userID string) error
	// Outbox lists the messages addressed to an organization's users,
	// newest first.
	Outbox(ctx context.Context, orgID string) ([]*Email, error)
}

// LoginThrottle slows down password and second-factor guessing per pair of
// account and client address, with an exponential back-off once a pair has
// failed a few times (ASVS 5.0 6.3.1: anti-automation without enabling
// malicious lockout; NIST SP 800-63B §5.2.2). Failures from one address
// never hold back the account at another address, so nobody can lock an
// owner out by failing on purpose: a correct password and second factor
// from an address that has not failed always go through.
type LoginThrottle interface {
	// Check returns ERATELIMIT (with the wait) while the pair is backed off.
	Check(ctx context.Context, account, clientIP string, now time.Time) (retryAfter time.Duration, err error)
	// Fail records one failure of the pair and extends its back-off.
	Fail(ctx context.Context, account, clientIP string, now time.Time) error
	// Succeed forgets the pair's failures.
	Succeed(ctx context.Context, account, clientIP string) error
}

// RequestThrottle counts requests that cost the service something whether
// or not they succeed (password-reset mail, sign-ups) in fixed windows,
// per subject (a submitted address; may be empty) and per client address.
type RequestThrottle interface {
	// Take counts one request for both keys, or returns ERATELIMIT and the
	// wait without counting it when either key has used its budget.
	Take(ctx context.Context, subject, clientIP string, now time.Time) (retryAfter time.Duration, err error)
}
