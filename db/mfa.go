package db

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/turbinesim/turbinesim"
)

// MFAService implements turbinesim.MFAService. TOTP seeds are stored
// encrypted with AES-256-GCM, so that a database dump alone does not
// yield second factors.
type MFAService struct {
	db     *DB
	issuer string
	seal   cipher.AEAD
}

var _ turbinesim.MFAService = (*MFAService)(nil)

// NewMFAService returns the PostgreSQL TOTP store; issuer names the service
// in authenticator apps; seedKey (at least 32 bytes of secret material,
// e.g. the JWT key) derives the seed-encryption key.
func NewMFAService(db *DB, issuer string, seedKey []byte) (*MFAService, error) {
	if issuer == "" {
		issuer = "TurbineSim"
	}
	if len(seedKey) < 32 {
		return nil, fmt.Errorf("db: MFA seed key shorter than 32 bytes")
	}
	// A key of its own for this purpose, derived rather than reused.
	key := sha256.Sum256(append([]byte("turbinesim totp seed v1\x00"), seedKey...))
	block, err := aes.NewCipher(key[:])
	if err != nil {
		return nil, fmt.Errorf("db: MFA seed cipher: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("db: MFA seed cipher: %w", err)
	}
	return &MFAService{db: db, issuer: issuer, seal: aead}, nil
}

// sealedPrefix marks an encrypted seed: "v1:" + base64(nonce || ciphertext).
const sealedPrefix = "v1:"

func (s *MFAService) sealSeed(userID, seed string) (string, error) {
	nonce := make([]byte, s.seal.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	// The user id is the associated data: a seed copied to another row
	// does not decrypt.
	ct := s.seal.Seal(nonce, nonce, []byte(seed), []byte(userID))
	return sealedPrefix + base64.StdEncoding.EncodeToString(ct), nil
}

func (s *MFAService) openSeed(userID, stored string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(stored, sealedPrefix))
	if !strings.HasPrefix(stored, sealedPrefix) || err != nil || len(raw) < s.seal.NonceSize() {
		return "", fmt.Errorf("MFA seed of user %s is not sealed", userID)
	}
	n := s.seal.NonceSize()
	seed, err := s.seal.Open(nil, raw[:n], raw[n:], []byte(userID))
	if err != nil {
		return "", fmt.Errorf("opening MFA seed of user %s: %w", userID, err)
	}
	return string(seed), nil
}

// totpPeriod and the options are those of RFC 6238's defaults, which every
// authenticator app implements.
const totpPeriod = 30

var totpOpts = totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// Enabled implements turbinesim.MFAService.
func (s *MFAService) Enabled(ctx context.Context, userID string) (bool, error) {
	if !isUUID(userID) {
		return false, nil
	}
	var on bool
	err := s.db.GetContext(ctx, &on, `SELECT enabled FROM user_mfa WHERE user_id = $1`, userID)
	if err = translate(err, "reading MFA state"); turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
		return false, nil
	}
	return on, err
}

// BeginEnrolment implements turbinesim.MFAService.
func (s *MFAService) BeginEnrolment(ctx context.Context, u *turbinesim.User) (*turbinesim.MFAEnrolment, error) {
	key, err := s.totpKey(u.Email, nil)
	if err != nil {
		return nil, err
	}
	sealed, err := s.sealSeed(u.ID, key.Secret())
	if err != nil {
		return nil, err
	}
	res, err := s.db.ExecContext(ctx, `
		INSERT INTO user_mfa (user_id, secret) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET secret = $2, last_step = 0, created_at = now()
		WHERE NOT user_mfa.enabled`, u.ID, sealed)
	if err != nil {
		return nil, translate(err, "starting MFA enrolment")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, turbinesim.Errorf(turbinesim.ECONFLICT, "two-factor authentication is already enabled; disable it first")
	}
	return &turbinesim.MFAEnrolment{Secret: key.Secret(), URI: key.URL()}, nil
}

// totpKey makes the authenticator entry of account: a new random secret
// when secret is nil, else the given one.
func (s *MFAService) totpKey(account string, secret []byte) (*otp.Key, error) {
	key, err := totp.Generate(totp.GenerateOpts{Issuer: s.issuer, AccountName: account, Period: totpPeriod,
		Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1, Secret: secret})
	if err != nil {
		return nil, fmt.Errorf("making the authenticator key: %w", err)
	}
	return key, nil
}

// PendingEnrolment implements turbinesim.MFAService.
func (s *MFAService) PendingEnrolment(ctx context.Context, u *turbinesim.User) (*turbinesim.MFAEnrolment, error) {
	var sealed string
	err := s.db.GetContext(ctx, &sealed, `SELECT secret FROM user_mfa WHERE user_id = $1 AND NOT enabled`, u.ID)
	if err = translate(err, "reading MFA enrolment"); isNotFound(err) {
		return nil, turbinesim.Errorf(turbinesim.ECONFLICT, "no enrolment in progress")
	} else if err != nil {
		return nil, err
	}
	secret, err := s.openSeed(u.ID, sealed)
	if err != nil {
		return nil, err
	}
	raw, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(secret)
	if err != nil {
		return nil, fmt.Errorf("decoding the pending MFA secret: %w", err)
	}
	key, err := s.totpKey(u.Email, raw)
	if err != nil {
		return nil, err
	}
	return &turbinesim.MFAEnrolment{Secret: key.Secret(), URI: key.URL()}, nil
}

// matchStep returns the RFC 6238 time step (within s-1..s+1 of now) whose
// code is code, or 0.
func matchStep(secret, code string, now time.Time) int64 {
	for _, off := range []int64{0, -1, 1} {
		t := now.Add(time.Duration(off*totpPeriod) * time.Second)
		want, err := totp.GenerateCodeCustom(secret, t, totpOpts)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return t.Unix() / totpPeriod
		}
	}
	return 0
}

var errBadCode = turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "invalid or already used authentication code")

// ConfirmEnrolment implements turbinesim.MFAService.
func (s *MFAService) ConfirmEnrolment(ctx context.Context, userID, code string, now time.Time) ([]string, error) {
	var secret string
	err := s.db.GetContext(ctx, &secret, `SELECT secret FROM user_mfa WHERE user_id = $1 AND NOT enabled`, userID)
	if err = translate(err, "reading MFA enrolment"); turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
		return nil, turbinesim.Errorf(turbinesim.ECONFLICT, "no enrolment in progress")
	} else if err != nil {
		return nil, err
	}
	if secret, err = s.openSeed(userID, secret); err != nil {
		return nil, err
	}
	step := matchStep(secret, strings.TrimSpace(code), now)
	if step == 0 {
		return nil, errBadCode
	}
	var codes []string
	err = s.inTx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, `
			UPDATE user_mfa SET enabled = true, last_step = $2 WHERE user_id = $1 AND NOT enabled`, userID, step)
		if err != nil {
			return translate(err, "enabling MFA")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return turbinesim.Errorf(turbinesim.ECONFLICT, "no enrolment in progress")
		}
		// A second factor is added because a password alone is no longer
		// trusted: every session and token signed in with it ends
		// (ASVS 5.0 7.4.3); the caller gets a fresh one.
		if err := endSessions(ctx, tx, userID, now); err != nil {
			return err
		}
		codes, err = replaceRecoveryCodes(ctx, tx, userID)
		return err
	})
	return codes, err
}

func (s *MFAService) inTx(ctx context.Context, fn func(*sqlx.Tx) error) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return translate(err, "starting transaction")
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return translate(tx.Commit(), "committing")
}

// newRecoveryCode returns 20 base32 characters (100 bits from crypto/rand)
// in four groups. At that entropy SHA-256 at rest is enough: no guessing
// attack against the hash is feasible (unlike a ~50-bit code, which ASVS
// 6.5.2 wants under a password hash).
func newRecoveryCode() string {
	t := strings.ToLower(rand.Text()[:20])
	return t[0:5] + "-" + t[5:10] + "-" + t[10:15] + "-" + t[15:20]
}

func normalizeRecoveryCode(c string) string {
	return strings.ToLower(strings.NewReplacer(" ", "", "-", "").Replace(c))
}

func replaceRecoveryCodes(ctx context.Context, tx *sqlx.Tx, userID string) ([]string, error) {
	if _, err := tx.ExecContext(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
		return nil, translate(err, "removing recovery codes")
	}
	codes := make([]string, turbinesim.RecoveryCodeCount)
	for i := range codes {
		codes[i] = newRecoveryCode()
		if _, err := tx.ExecContext(ctx, `INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)`,
			userID, tokenHash(normalizeRecoveryCode(codes[i]))); err != nil {
			return nil, translate(err, "storing recovery code")
		}
	}
	return codes, nil
}

// Verify implements turbinesim.MFAService. The accepted step is recorded
// with a conditional UPDATE (last_step < step), so of two concurrent uses
// of one code exactly one succeeds, and a code of an earlier step than the
// last accepted one is refused.
func (s *MFAService) Verify(ctx context.Context, userID, code string, now time.Time) error {
	if !isUUID(userID) {
		return errBadCode
	}
	code = strings.TrimSpace(code)
	if len(code) > 6 {
		res, err := s.db.ExecContext(ctx, `
			UPDATE recovery_codes SET used_at = now()
			 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL
			   AND EXISTS (SELECT 1 FROM user_mfa WHERE user_id = $1 AND enabled)`,
			userID, tokenHash(normalizeRecoveryCode(code)))
		if err != nil {
			return translate(err, "using recovery code")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errBadCode
		}
		return nil
	}
	var secret string
	err := s.db.GetContext(ctx, &secret, `SELECT secret FROM user_mfa WHERE user_id = $1 AND enabled`, userID)
	if err = translate(err, "reading MFA secret"); turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
		return errBadCode
	} else if err != nil {
		return err
	}
	if secret, err = s.openSeed(userID, secret); err != nil {
		return err
	}
	step := matchStep(secret, code, now)
	if step == 0 {
		return errBadCode
	}
	res, err := s.db.ExecContext(ctx, `
		UPDATE user_mfa SET last_step = $2 WHERE user_id = $1 AND enabled AND last_step < $2`, userID, step)
	if err != nil {
		return translate(err, "recording TOTP step")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errBadCode
	}
	return nil
}

// RegenerateRecoveryCodes implements turbinesim.MFAService.
func (s *MFAService) RegenerateRecoveryCodes(ctx context.Context, userID string) ([]string, error) {
	var codes []string
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		var on bool
		if err := tx.GetContext(ctx, &on, `SELECT enabled FROM user_mfa WHERE user_id = $1`, userID); err != nil || !on {
			if err == nil || turbinesim.ErrorCode(translate(err, "")) == turbinesim.ENOTFOUND {
				return turbinesim.Errorf(turbinesim.ECONFLICT, "two-factor authentication is not enabled")
			}
			return translate(err, "reading MFA state")
		}
		var err error
		codes, err = replaceRecoveryCodes(ctx, tx, userID)
		return err
	})
	return codes, err
}

// Disable implements turbinesim.MFAService.
func (s *MFAService) Disable(ctx context.Context, userID string) error {
	return s.inTx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
			return translate(err, "removing recovery codes")
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM user_mfa WHERE user_id = $1`, userID)
		return translate(err, "disabling MFA")
	})
}
