package turbinesim

import (
	"context"
	"time"
)

// MFAEnrolment is a started TOTP enrolment: the secret and its otpauth://
// URI (RFC 6238 parameters: SHA-1, 6 digits, 30 s), shown once as text and
// QR code.
type MFAEnrolment struct {
	Secret string `json:"secret"`
	URI    string `json:"otpauth_uri"`
}

// RecoveryCodeCount is how many one-time recovery codes a user holds.
const RecoveryCodeCount = 10

// MFAService manages TOTP second factors and recovery codes.
type MFAService interface {
	// Enabled reports whether the user has a confirmed second factor.
	Enabled(ctx context.Context, userID string) (bool, error)
	// BeginEnrolment creates a new, unconfirmed secret (ECONFLICT when MFA
	// is already enabled).
	BeginEnrolment(ctx context.Context, u *User) (*MFAEnrolment, error)
	// PendingEnrolment returns the secret of the enrolment in progress
	// (ECONFLICT when there is none), so that a mistyped code can be
	// retried with the same authenticator entry.
	PendingEnrolment(ctx context.Context, u *User) (*MFAEnrolment, error)
	// ConfirmEnrolment checks a code of the pending secret, enables MFA and
	// returns fresh recovery codes (shown once, stored hashed). A wrong code
	// is EUNAUTHORIZED and leaves the pending secret valid.
	ConfirmEnrolment(ctx context.Context, userID, code string, now time.Time) ([]string, error)
	// Verify checks a 6-digit TOTP code (time steps s-1..s+1, each step
	// usable once: the accepted step must be later than the last one) or a
	// recovery code (once). EUNAUTHORIZED otherwise.
	Verify(ctx context.Context, userID, code string, now time.Time) error
	// RegenerateRecoveryCodes replaces every recovery code.
	RegenerateRecoveryCodes(ctx context.Context, userID string) ([]string, error)
	// Disable removes the second factor and its recovery codes.
	Disable(ctx context.Context, userID string) error
}
