package turbinesim

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// IDTokenVerifier checks the ID tokens of one OpenID Connect provider as
// OpenID Connect Core 1.0 §3.1.3.7 requires: the signature with a key
// from the provider's JWKS (RFC 7517), an asymmetric algorithm only
// (RS256 or ES256, never "none" or an HMAC keyed with a public key, RFC
// 8725 §3.1), iss, aud (and azp when there are several audiences), exp
// and iat, and the nonce this browser's sign-in sent.
type IDTokenVerifier struct {
	ClientID string
	// Issuers are the accepted iss values. "{tenantid}" in one stands for
	// the token's tid claim: Microsoft's multi-tenant endpoints issue
	// tokens whose issuer names the user's tenant.
	Issuers []string
	// JWKSURL is the provider's key set (jwks_uri of its discovery
	// document).
	JWKSURL string
	// HTTPClient fetches the key set; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Now is the clock of exp/iat; nil means time.Now.
	Now func() time.Time

	mu      sync.Mutex
	keys    map[string]any // kid → *rsa.PublicKey or *ecdsa.PublicKey
	fetched time.Time
}

// IDTokenClaims is what a verified ID token says about the user.
type IDTokenClaims struct {
	Subject       string
	Email         string
	EmailVerified bool
	Name          string
}

// Key-set caching: keys are kept for jwksMaxAge; a token signed by an
// unknown kid triggers a refetch, at most once per jwksMinRefetch (so
// forged kids cannot make us hammer the provider).
const (
	jwksMaxAge     = time.Hour
	jwksMinRefetch = time.Minute
	// idTokenLeeway allows for clock skew between us and the provider.
	idTokenLeeway = time.Minute
)

var errIDToken = Errorf(EUNAUTHORIZED, "the identity provider's ID token could not be verified; start the sign-in again")

func (v *IDTokenVerifier) now() time.Time {
	if v.Now != nil {
		return v.Now()
	}
	return time.Now()
}

type idTokenClaims struct {
	Nonce         string `json:"nonce"`
	Email         string `json:"email"`
	EmailVerified any    `json:"email_verified"` // bool, or "true" from some providers
	Name          string `json:"name"`
	TenantID      string `json:"tid"`
	AZP           string `json:"azp"`
	jwt.RegisteredClaims
}

// Verify checks raw and returns its claims; every failure is
// EUNAUTHORIZED (the cause is kept for the log), EUNAVAILABLE when the key
// set cannot be fetched.
func (v *IDTokenVerifier) Verify(ctx context.Context, raw, nonce string) (*IDTokenClaims, error) {
	fail := func(format string, args ...any) (*IDTokenClaims, error) {
		return nil, &Error{Code: errIDToken.Code, Message: errIDToken.Message, Err: fmt.Errorf(format, args...)}
	}
	if raw == "" {
		return fail("no id_token in the token response")
	}
	if nonce == "" {
		return fail("no nonce was stored for this sign-in")
	}
	var c idTokenClaims
	var keyErr error
	_, err := jwt.ParseWithClaims(raw, &c, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		k, err := v.key(ctx, kid)
		keyErr = err
		return k, err
	},
		jwt.WithValidMethods([]string{"RS256", "ES256"}),
		jwt.WithAudience(v.ClientID),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(idTokenLeeway),
		jwt.WithTimeFunc(v.now),
	)
	if err != nil {
		if ErrorCode(keyErr) == EUNAVAILABLE {
			return nil, keyErr
		}
		return fail("id_token: %w", err)
	}
	if !v.issuerOK(c.Issuer, c.TenantID) {
		return fail("id_token issuer %q not accepted", c.Issuer)
	}
	if len(c.Audience) > 1 && c.AZP != v.ClientID {
		return fail("id_token with several audiences and azp %q", c.AZP)
	}
	if subtle.ConstantTimeCompare([]byte(c.Nonce), []byte(nonce)) != 1 {
		return fail("id_token nonce does not match this sign-in")
	}
	if c.Subject == "" {
		return fail("id_token without sub")
	}
	return &IDTokenClaims{Subject: c.Subject, Email: c.Email, Name: c.Name,
		EmailVerified: c.EmailVerified == true || c.EmailVerified == "true"}, nil
}

func (v *IDTokenVerifier) issuerOK(iss, tid string) bool {
	for _, want := range v.Issuers {
		if strings.Contains(want, "{tenantid}") {
			if tid == "" || strings.ContainsAny(tid, "/?#") {
				continue
			}
			want = strings.ReplaceAll(want, "{tenantid}", tid)
		}
		if iss == want {
			return true
		}
	}
	return false
}

// key returns the public key kid, fetching the key set when it is stale
// or does not know kid.
func (v *IDTokenVerifier) key(ctx context.Context, kid string) (any, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	now := v.now()
	k, ok := v.keys[kid]
	stale := now.Sub(v.fetched) > jwksMaxAge
	if ok && !stale {
		return k, nil
	}
	if v.keys == nil || stale || now.Sub(v.fetched) > jwksMinRefetch {
		keys, err := v.fetch(ctx)
		if err != nil {
			return nil, err
		}
		v.keys, v.fetched = keys, now
		if k, ok = keys[kid]; ok {
			return k, nil
		}
	}
	return nil, fmt.Errorf("no key %q in the provider's key set", kid)
}

type jwk struct {
	Kty string `json:"kty"`
	Kid string `json:"kid"`
	Use string `json:"use"`
	Alg string `json:"alg"`
	N   string `json:"n"`
	E   string `json:"e"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y"`
}

func (v *IDTokenVerifier) fetch(ctx context.Context) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.JWKSURL, nil)
	if err != nil {
		return nil, fmt.Errorf("key set request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	hc := v.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	unavailable := func(err error) error {
		return WrapError(EUNAVAILABLE, "the identity provider's signing keys could not be fetched; try again later", err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, unavailable(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, unavailable(fmt.Errorf("GET %s: status %d", req.URL.Host, resp.StatusCode))
	}
	var set struct {
		Keys []jwk `json:"keys"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&set); err != nil {
		return nil, unavailable(fmt.Errorf("key set: %w", err))
	}
	keys := map[string]any{}
	for _, k := range set.Keys {
		if k.Use != "" && k.Use != "sig" {
			continue
		}
		if pk, err := k.publicKey(); err == nil {
			keys[k.Kid] = pk
		}
	}
	return keys, nil
}

func b64Int(s string) (*big.Int, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) == 0 {
		return nil, errors.New("bad base64url integer")
	}
	return new(big.Int).SetBytes(b), nil
}

// publicKey decodes an RSA (RFC 7518 §6.3.1) or P-256 EC (§6.2.1) key.
func (k jwk) publicKey() (any, error) {
	switch k.Kty {
	case "RSA":
		n, err := b64Int(k.N)
		if err != nil {
			return nil, err
		}
		e, err := b64Int(k.E)
		if err != nil || !e.IsInt64() || e.Int64() < 3 || e.Int64() > 1<<31-1 {
			return nil, errors.New("bad RSA exponent")
		}
		if n.BitLen() < 2048 {
			return nil, errors.New("RSA key shorter than 2048 bits")
		}
		return &rsa.PublicKey{N: n, E: int(e.Int64())}, nil
	case "EC":
		if k.Crv != "P-256" {
			return nil, errors.New("unsupported curve")
		}
		x, err := b64Int(k.X)
		if err != nil {
			return nil, err
		}
		y, err := b64Int(k.Y)
		if err != nil {
			return nil, err
		}
		if x.BitLen() > 256 || y.BitLen() > 256 {
			return nil, errors.New("EC coordinate too large")
		}
		// Encode as an uncompressed point; parsing checks it lies on the
		// curve.
		pt := make([]byte, 65)
		pt[0] = 4
		x.FillBytes(pt[1:33])
		y.FillBytes(pt[33:])
		pk, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), pt)
		if err != nil {
			return nil, err
		}
		return pk, nil
	}
	return nil, errors.New("unsupported key type")
}
