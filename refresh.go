package turbinesim

import (
	"context"
	"time"
)

// RefreshTokenService records refresh tokens so that each can be used once
// (rotation) and a reused one revokes its whole family (RFC 9700 §4.14.2).
// Tokens are identified by their jti; only its SHA-256 is stored.
type RefreshTokenService interface {
	// StartFamily records the first refresh token of a login.
	StartFamily(ctx context.Context, userID, jti string, expiresAt time.Time) error
	// Rotate consumes token oldJTI and records its successor newJTI in the
	// same family, in one transaction. It returns the family's absolute
	// expiry (unchanged by rotation). A token that was already used revokes
	// the family and gives EUNAUTHORIZED, as does an unknown, revoked or
	// expired one.
	Rotate(ctx context.Context, userID, oldJTI, newJTI string, now time.Time) (familyExpiresAt time.Time, err error)
	// RevokeFamilyOf revokes the family of token jti (logout). Unknown
	// tokens are not an error.
	RevokeFamilyOf(ctx context.Context, jti string) error
	// SignOutEverywhere revokes every refresh token of the user and marks
	// the instant before which access tokens and browser sessions are
	// refused (ASVS 5.0 7.4.1).
	SignOutEverywhere(ctx context.Context, userID string, at time.Time) error
}
