package turbinesim

import (
	"context"
	"strings"
	"time"
)

// PasswordResetLifetime is how long an e-mailed reset link works. Short,
// since the link alone (plus a second factor, when enabled) replaces the
// password (ASVS 5.0 6.4.1 asks for a short expiry).
const PasswordResetLifetime = time.Hour

// PasswordResetStore keeps reset tokens and applies a reset in PostgreSQL.
type PasswordResetStore interface {
	// RequestPasswordReset stores a new single-use reset token (only its
	// SHA-256) for the active account with this address and queues the
	// link by mail. An unknown, inactive or deleted address does nothing
	// and is not an error, so callers cannot tell accounts apart.
	RequestPasswordReset(ctx context.Context, email string, now time.Time) error
	// PasswordResetUser returns the user of an unused, unexpired reset
	// token without consuming it (EUNAUTHORIZED otherwise).
	PasswordResetUser(ctx context.Context, token string, now time.Time) (*User, error)
	// CompletePasswordReset consumes the token and, in the same
	// transaction, sets the new password, voids the user's other reset
	// links, revokes every refresh-token family and browser session, marks
	// access tokens issued before now as revoked, and queues a notice that
	// the password changed. EUNAUTHORIZED when the token is not usable
	// (used concurrently, expired, account deactivated).
	CompletePasswordReset(ctx context.Context, token, password string, now time.Time) (*User, error)
}

// PasswordResets is the password-reset flow: request a link by e-mail,
// then set a new password with it. It throttles requests per address and
// per client, and asks accounts with two-factor authentication for a
// current code or a recovery code as well (ASVS 5.0 6.4.3: a reset must
// not bypass the second factor).
type PasswordResets struct {
	Store PasswordResetStore
	// MFA, when set, is asked whether the account has a second factor and
	// checks the code.
	MFA MFAService
	// RequestThrottle counts reset requests (every request, found or not)
	// per address and per client address; nil disables it.
	RequestThrottle RequestThrottle
	// LoginThrottle counts wrong second-factor codes against the same
	// (account, client address) back-off as sign-in (so resets cannot
	// widen a brute force); nil disables it.
	LoginThrottle LoginThrottle
	Now           func() time.Time
}

func (p *PasswordResets) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// Request asks for a reset link for email. The answer is the same whether
// or not an account has the address; only the throttle (counted per
// submitted address and client, for every request) can refuse it, with
// ERATELIMIT and the wait.
func (p *PasswordResets) Request(ctx context.Context, email, clientIP string) (time.Duration, error) {
	email = NormalizeEmail(email)
	if email == "" || len(email) > 320 || !strings.Contains(email, "@") {
		return 0, Errorf(EINVALID, "email: a valid e-mail address is required")
	}
	now := p.now()
	if p.RequestThrottle != nil {
		if wait, err := p.RequestThrottle.Take(ctx, email, clientIP, now); err != nil {
			if ErrorCode(err) == ERATELIMIT {
				return wait, Errorf(ERATELIMIT, "too many password-reset requests; try again in %d seconds", int(wait.Seconds())+1)
			}
			return wait, err
		}
	}
	return 0, p.Store.RequestPasswordReset(ctx, email, now)
}

// ErrSecondFactorRequired is returned by Complete when the account has
// two-factor authentication and no code was given; the token is not spent.
var ErrSecondFactorRequired = Errorf(EUNAUTHORIZED, "this account uses two-factor authentication: send otp_code (a current authenticator code or a recovery code) with the new password")

// Complete sets a new password with a reset token. For an account with a
// second factor, otpCode must be a current TOTP code or an unused
// recovery code; a missing or wrong code leaves the token usable (the
// wrong code counts as a failed sign-in of the account). On success every
// refresh family, browser session and earlier access token of the user
// is revoked.
func (p *PasswordResets) Complete(ctx context.Context, token, password, otpCode, clientIP string) (*User, time.Duration, error) {
	if strings.TrimSpace(token) == "" {
		return nil, 0, Errorf(EINVALID, "token: the reset link's token is required")
	}
	if err := ValidatePassword(password); err != nil {
		return nil, 0, err
	}
	now := p.now()
	u, err := p.Store.PasswordResetUser(ctx, token, now)
	if err != nil {
		return nil, 0, err
	}
	if p.MFA != nil {
		on, err := p.MFA.Enabled(ctx, u.ID)
		if err != nil {
			return nil, 0, err
		}
		if on {
			if p.LoginThrottle != nil {
				if wait, err := p.LoginThrottle.Check(ctx, u.Email, clientIP, now); err != nil {
					return nil, wait, err
				}
			}
			if strings.TrimSpace(otpCode) == "" {
				return nil, 0, ErrSecondFactorRequired
			}
			if err := p.MFA.Verify(ctx, u.ID, otpCode, now); err != nil {
				if ErrorCode(err) == EUNAUTHORIZED && p.LoginThrottle != nil {
					if ferr := p.LoginThrottle.Fail(ctx, u.Email, clientIP, now); ferr != nil {
						return nil, 0, ferr
					}
				}
				return nil, 0, err
			}
		}
	}
	u, err = p.Store.CompletePasswordReset(ctx, token, password, now)
	if err != nil {
		return nil, 0, err
	}
	if p.LoginThrottle != nil {
		if err := p.LoginThrottle.Succeed(ctx, u.Email, clientIP); err != nil {
			return nil, 0, err
		}
	}
	return u, 0, nil
}

// Inspect reports whether a reset token is usable (EUNAUTHORIZED
// otherwise) and whether its account will be asked for a second factor.
// It changes nothing, so the e-mailed link can be opened (GET) safely.
func (p *PasswordResets) Inspect(ctx context.Context, token string) (mfa bool, err error) {
	if strings.TrimSpace(token) == "" {
		return false, Errorf(EUNAUTHORIZED, "invalid, used or expired link")
	}
	u, err := p.Store.PasswordResetUser(ctx, token, p.now())
	if err != nil {
		return false, err
	}
	if p.MFA == nil {
		return false, nil
	}
	return p.MFA.Enabled(ctx, u.ID)
}
