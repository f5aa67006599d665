package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Config is every setting of the service, parsed from the environment in
// this one place (README.md has the table).
type Config struct {
	Port           int      // PORT, default 8080
	DatabaseURL    string   // DATABASE_URL; empty: private cluster under DataDir/pg
	DataDir        string   // DATA_DIR, default ./data
	AdminEmail     string   // ADMIN_EMAIL, for the first account
	AdminPassword  string   // ADMIN_PASSWORD; empty: generated and printed
	OrgName        string   // ORG_NAME, name of the first organization
	JWTSecret      string   // JWT_SECRET, at least 32 bytes
	BaseURL        string   // BASE_URL, the address users reach; https turns on Secure cookies
	TrustedProxies []string // TRUSTED_PROXIES, comma-separated CIDRs allowed to set X-Forwarded-For
	BodyLimit      int64    // BODY_LIMIT_BYTES, default 32 MiB
	// MaxConnsPerClient is MAX_CONNS_PER_CLIENT: open connections one
	// client address may hold (trusted proxies are exempt).
	MaxConnsPerClient int
}

func loadConfig(getenv func(string) string) (*Config, error) {
	c := &Config{
		Port:          8080,
		DatabaseURL:   getenv("DATABASE_URL"),
		DataDir:       getenv("DATA_DIR"),
		AdminEmail:    getenv("ADMIN_EMAIL"),
		AdminPassword: getenv("ADMIN_PASSWORD"),
		OrgName:       getenv("ORG_NAME"),
		JWTSecret:     getenv("JWT_SECRET"),
		BaseURL:       getenv("BASE_URL"),
		BodyLimit:     32 << 20,

		MaxConnsPerClient: defaultMaxConnsPerClient,
	}
	if c.DataDir == "" {
		c.DataDir = "data"
	}
	dataDir, err := absDir("DATA_DIR", c.DataDir)
	if err != nil {
		return nil, err
	}
	c.DataDir = dataDir
	if v := getenv("PORT"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 1 || p > 65535 {
			return nil, fmt.Errorf("PORT=%q is not a port number", v)
		}
		c.Port = p
	}
	if v := getenv("BODY_LIMIT_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1024 {
			return nil, fmt.Errorf("BODY_LIMIT_BYTES=%q: want an integer of at least 1024", v)
		}
		c.BodyLimit = n
	}
	if v := getenv("MAX_CONNS_PER_CLIENT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("MAX_CONNS_PER_CLIENT=%q: want a positive integer", v)
		}
		c.MaxConnsPerClient = n
	}
	if v := getenv("TRUSTED_PROXIES"); v != "" {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				c.TrustedProxies = append(c.TrustedProxies, p)
			}
		}
	}
	if c.BaseURL == "" {
		c.BaseURL = "http://localhost:" + strconv.Itoa(c.Port)
	}
	if c.JWTSecret != "" && len(c.JWTSecret) < 32 {
		return nil, errors.New("JWT_SECRET must be at least 32 bytes")
	}
	return c, nil
}

// absDir resolves a directory setting against the working directory once,
// at start-up. Every directory the service hands on must be absolute: the
// sandbox binds the attempt directory at the same path inside and outside
// (bubblewrap resolves a relative source against its own working
// directory, not the worker's), and a process that later changes its
// working directory would otherwise read another tree.
func absDir(name, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("%s=%q: resolving to an absolute path: %w", name, dir, err)
	}
	return abs, nil
}

// jwtSecret returns the configured secret, else one kept in the data
// directory (created on first use) so that tokens survive restarts of a
// development server.
func (c *Config) jwtSecret() ([]byte, error) {
	if c.JWTSecret != "" {
		return []byte(c.JWTSecret), nil
	}
	path := filepath.Join(c.DataDir, "jwt-secret")
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) >= 32 {
		return []byte(strings.TrimSpace(string(b))), nil
	}
	if err := os.MkdirAll(c.DataDir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", c.DataDir, err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	secret := hex.EncodeToString(key)
	if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return []byte(secret), nil
}
