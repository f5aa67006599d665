package turbinesim_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/turbinesim/turbinesim"
)

// An ES256 key set and Microsoft's tenant-templated issuer: the token's
// tid fills {tenantid}; another tenant's issuer, a kid flood and an
// unreachable key set are handled (the last as EUNAVAILABLE, not 401).
func TestIDTokenVerifierES256AndTenantIssuer(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var fetches atomic.Int32
	var down atomic.Bool
	jwks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		if down.Load() {
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		pt, _ := key.PublicKey.Bytes() // 0x04 || X || Y
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kty": "EC", "crv": "P-256", "kid": "ec1", "use": "sig", "alg": "ES256",
			"x": base64.RawURLEncoding.EncodeToString(pt[1:33]), "y": base64.RawURLEncoding.EncodeToString(pt[33:]),
		}}})
	}))
	defer jwks.Close()
	now := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	clock := now
	v := &turbinesim.IDTokenVerifier{ClientID: "app-1", JWKSURL: jwks.URL,
		Issuers: []string{"https://login.microsoftonline.com/{tenantid}/v2.0"}, Now: func() time.Time { return clock }}
	const tid = "9188040d-6c67-4c5b-b112-36a304b66dad"
	sign := func(mod func(jwt.MapClaims), kid string) string {
		c := jwt.MapClaims{"iss": "https://login.microsoftonline.com/" + tid + "/v2.0", "aud": "app-1", "tid": tid,
			"sub": "ms-sub", "email": "x@contoso.example", "nonce": "n-1", "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
		if mod != nil {
			mod(c)
		}
		tok := jwt.NewWithClaims(jwt.SigningMethodES256, c)
		tok.Header["kid"] = kid
		s, err := tok.SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ctx := context.Background()
	got, err := v.Verify(ctx, sign(nil, "ec1"), "n-1")
	if err != nil || got.Subject != "ms-sub" || got.Email != "x@contoso.example" || got.EmailVerified {
		t.Fatalf("valid token: %+v %v", got, err)
	}
	for name, tok := range map[string]string{
		"other tenant's issuer": sign(func(c jwt.MapClaims) { c["tid"] = "00000000-0000-0000-0000-000000000000" }, "ec1"),
		"template not filled":   sign(func(c jwt.MapClaims) { c["iss"] = "https://login.microsoftonline.com/{tenantid}/v2.0" }, "ec1"),
		"tid with a path": sign(func(c jwt.MapClaims) {
			c["tid"] = tid + "/x"
			c["iss"] = "https://login.microsoftonline.com/" + tid + "/x/v2.0"
		}, "ec1"),
		"nonce":       sign(func(c jwt.MapClaims) { c["nonce"] = "n-2" }, "ec1"),
		"unknown kid": sign(nil, "nope"),
	} {
		if _, err := v.Verify(ctx, tok, "n-1"); turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Unknown kids refetch at most once a minute.
	before := fetches.Load()
	for range 5 {
		_, _ = v.Verify(ctx, sign(nil, "flood"), "n-1")
	}
	if n := fetches.Load() - before; n > 1 {
		t.Fatalf("%d key-set fetches for 5 unknown kids within a minute", n)
	}
	// After an hour the cached set is stale; an unreachable key set is
	// EUNAVAILABLE (503), never a 401 that would look like a forgery.
	clock = now.Add(2 * time.Hour)
	down.Store(true)
	if _, err := v.Verify(ctx, sign(func(c jwt.MapClaims) {
		c["iat"], c["exp"] = clock.Unix(), clock.Add(time.Hour).Unix()
	}, "ec1"), "n-1"); turbinesim.ErrorCode(err) != turbinesim.EUNAVAILABLE {
		t.Fatalf("key set down: %v", err)
	}
}
