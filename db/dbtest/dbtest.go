// Package dbtest gives tests a real PostgreSQL: Main starts one private
// cluster (infra/pgcluster) per test package, and New hands each test a fresh
// database cloned by pgtestdb from a template with every migration applied.
//
//	func TestMain(m *testing.M) { dbtest.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		t.Parallel()
//		db := dbtest.New(t)
//		...
//	}
//
// Set TEST_DATABASE_URL (a superuser URL, e.g.
// postgres://postgres:pw@127.0.0.1:5432/postgres?sslmode=disable) to use an
// existing server instead of starting one.
package dbtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/lib/pq" // driver "postgres" for pgtestdb
	"github.com/peterldowns/pgtestdb"
	"github.com/peterldowns/pgtestdb/migrators/goosemigrator"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/infra/pgcluster"
	"github.com/turbinesim/turbinesim/migrations"
)

// EnvURL names the variable that carries the server's superuser URL from
// Main to New (and lets a developer point tests at an existing server).
const EnvURL = "TEST_DATABASE_URL"

// Main starts a private cluster unless TEST_DATABASE_URL is set, runs the
// package's tests and stops the cluster. Call it from TestMain.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if os.Getenv(EnvURL) != "" {
		return m.Run()
	}
	// Not t.TempDir: the postgres OS user must be able to enter the parent.
	dir, err := os.MkdirTemp("", "dbtest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "dbtest:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "dbtest:", err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(dir, "pg")})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "dbtest:", err)
		return 1
	}
	defer c.Stop()
	if err := os.Setenv(EnvURL, c.URL("postgres")); err != nil {
		fmt.Fprintln(os.Stderr, "dbtest:", err)
		return 1
	}
	return m.Run()
}

// New returns a fresh, fully migrated database for t, dropped when t passes
// (kept for inspection when it fails; pgtestdb logs its URL).
func New(t testing.TB) *db.DB {
	t.Helper()
	return db.New(pgtestdb.New(t, Config(t), Migrator()))
}

// NewURL is New for code that opens its own pool: it returns the URL of a
// fresh migrated database.
func NewURL(t testing.TB) string {
	t.Helper()
	return pgtestdb.Custom(t, Config(t), Migrator()).URL()
}

// Migrator applies the embedded goose migrations to the template.
func Migrator() pgtestdb.Migrator {
	return goosemigrator.New(".", goosemigrator.WithFS(migrations.FS))
}

// Config is the pgtestdb configuration for the package's server.
func Config(t testing.TB) pgtestdb.Config {
	t.Helper()
	raw := os.Getenv(EnvURL)
	if raw == "" {
		t.Fatalf("dbtest: %s is unset; call dbtest.Main from TestMain", EnvURL)
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("dbtest: parsing %s: %v", EnvURL, err)
	}
	pw, _ := u.User.Password()
	opts := u.Query()
	if opts.Get("sslmode") == "" {
		opts.Set("sslmode", "disable")
	}
	return pgtestdb.Config{
		DriverName:                "postgres",
		Host:                      u.Hostname(),
		Port:                      u.Port(),
		User:                      u.User.Username(),
		Password:                  pw,
		Database:                  u.Path[1:],
		Options:                   opts.Encode(),
		ForceTerminateConnections: true,
	}
}

// OpenDeck opens turbine id's stored deck (OpenTurbineDeck) and returns
// the path of its main .fst; release must be called when done.
func OpenDeck(ctx context.Context, svc turbinesim.TurbineService, orgID, id string) (string, func(), error) {
	t, dir, release, err := svc.OpenTurbineDeck(ctx, orgID, id)
	if err != nil {
		return "", nil, err
	}
	if dir == "" {
		release()
		return "", nil, fmt.Errorf("turbine %q has no stored input files", t.Name)
	}
	return filepath.Join(dir, filepath.FromSlash(*t.MainFile)), release, nil
}
