package handlers

import (
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/turbinesim/turbinesim"
)

// Token lifetimes: 15 minutes for access tokens, 30 days for refresh tokens.
const (
	AccessTokenLifetime  = 15 * time.Minute
	RefreshTokenLifetime = 30 * 24 * time.Hour
)

// Issuer and audiences of our JWTs. Access and refresh tokens carry
// different audiences so that one can never be used as the other
// (RFC 8725 §3.12, mutually exclusive validation rules).
const (
	tokenIssuer     = "turbinesim"
	audienceAccess  = "api"
	audienceRefresh = "refresh"
)

// Claims are the JWT claims the API documents (sub, email, org_id, role, exp)
// plus the registered iss, aud, iat and, for refresh tokens, jti.
type Claims struct {
	Email string `json:"email"`
	OrgID string `json:"org_id"`
	Role  string `json:"role"`
	jwt.RegisteredClaims
}

// TokenPair is the response of login and refresh.
type TokenPair struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
}

// Tokens issues and verifies HS256 JWTs with one key.
type Tokens struct {
	key []byte
	now func() time.Time
}

// NewTokens returns an issuer signing with key; now is the clock.
func NewTokens(key []byte, now func() time.Time) *Tokens {
	return &Tokens{key: key, now: now}
}

// IssuePair issues an access token (15 min) and a refresh token (30 days)
// for u. The refresh token has a random jti so that the refresh endpoint can
// record and rotate it.
func (t *Tokens) IssuePair(u *turbinesim.User) (*TokenPair, error) {
	now := t.now()
	access, err := t.sign(u, audienceAccess, now, AccessTokenLifetime, "")
	if err != nil {
		return nil, err
	}
	refresh, err := t.sign(u, audienceRefresh, now, RefreshTokenLifetime, rand.Text())
	if err != nil {
		return nil, err
	}
	return &TokenPair{
		AccessToken:  access,
		RefreshToken: refresh,
		TokenType:    "bearer",
		ExpiresIn:    int(AccessTokenLifetime / time.Second),
	}, nil
}

func (t *Tokens) sign(u *turbinesim.User, audience string, now time.Time, life time.Duration, jti string) (string, error) {
	claims := Claims{
		Email: u.Email,
		OrgID: u.OrganizationID,
		Role:  string(u.Role),
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    tokenIssuer,
			Subject:   u.ID,
			Audience:  jwt.ClaimStrings{audience},
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(life)),
			ID:        jti,
		},
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(t.key)
	if err != nil {
		return "", fmt.Errorf("signing token: %w", err)
	}
	return s, nil
}

// ParseAccess verifies an access token: HS256 only (no "none", no other
// algorithm, RFC 8725 §3.1), our issuer, the access audience, exp required.
func (t *Tokens) ParseAccess(token string) (*Claims, error) {
	return t.parse(token, audienceAccess)
}

// ParseRefresh verifies a refresh token the same way, with its audience.
func (t *Tokens) ParseRefresh(token string) (*Claims, error) {
	return t.parse(token, audienceRefresh)
}

var errInvalidToken = turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "invalid or expired token")

func (t *Tokens) parse(token, audience string) (*Claims, error) {
	var claims Claims
	_, err := jwt.ParseWithClaims(token, &claims,
		func(*jwt.Token) (any, error) { return t.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(tokenIssuer),
		jwt.WithAudience(audience),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(30*time.Second),
		jwt.WithTimeFunc(t.now),
	)
	if err != nil {
		return nil, &turbinesim.Error{Code: errInvalidToken.Code, Message: errInvalidToken.Message, Err: err}
	}
	if claims.Subject == "" {
		return nil, &turbinesim.Error{Code: errInvalidToken.Code, Message: errInvalidToken.Message, Err: errors.New("token without sub")}
	}
	return &claims, nil
}
