// Package pgcluster runs a private PostgreSQL cluster from the server binaries
// installed on the machine (initdb, postgres). The service uses it as its
// default database when DATABASE_URL is unset, and db/dbtest uses it to give
// every test package a real server.
//
// PostgreSQL refuses to run as root, so when the process is root the cluster
// is initialised and run as the "postgres" OS user (SysProcAttr.Credential)
// and its directory is chowned to that user. The postmaster is started
// directly as a child process, in its own process group so that a terminal's
// Ctrl-C reaches only us, with a parent-death signal so that it never
// outlives us; Stop shuts it down with SIGINT ("fast" shutdown).
package pgcluster

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "github.com/lib/pq" // database/sql driver "postgres"
)

// SuperUser is the bootstrap superuser created by initdb.
const SuperUser = "postgres"

// passwordFile, inside the cluster's directory (mode 0700, owned by the
// server's OS user), holds the superuser's password: the server accepts
// only password (SCRAM-SHA-256) connections on 127.0.0.1, so another local
// OS user cannot connect as anybody (PostgreSQL's default "trust" would let
// them).
const passwordFile = "turbinesim-superuser-password"

// hbaConf is the whole client-authentication file of the cluster: TCP on
// 127.0.0.1 with SCRAM-SHA-256 passwords, nothing else (the server has no
// Unix socket).
const hbaConf = "# Written by turbinesim (db/pgcluster): password connections on 127.0.0.1 only.\n" +
	"# TYPE  DATABASE  USER  ADDRESS        METHOD\n" +
	"host    all       all   127.0.0.1/32   scram-sha-256\n"

// Options configure a cluster.
type Options struct {
	// Dir holds the cluster; it is created when missing. A Dir that already
	// holds PG_VERSION is reused as it is (no initdb).
	Dir string
	// Port to listen on at 127.0.0.1; 0 picks a free port.
	Port int
	// Durable keeps fsync and synchronous commit on. Off suits tests only:
	// a crash may then lose or corrupt data.
	Durable bool
	// Log receives the server's own output; nil discards it.
	Log io.Writer
	// StartTimeout bounds the wait for the server to accept connections;
	// 0 means 60 s.
	StartTimeout time.Duration
}

// Cluster is a running private PostgreSQL server.
type Cluster struct {
	dir      string
	port     int
	password string // the superuser's (passwordFile)
	timeout  time.Duration
	newCmd   func() *exec.Cmd // a postmaster command (a Cmd runs once)

	mu       sync.Mutex
	cmd      *exec.Cmd
	done     chan struct{} // closed when the current postmaster has exited
	err      error         // the postmaster's exit status, valid after done
	stopping bool          // Stop was called: the supervisor restarts nothing
}

// Start initialises the cluster when needed and starts the server.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	bin, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: resolving %q: %w", opts.Dir, err)
	}
	cred, err := credential()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("pgcluster: creating %s: %w", dir, err)
	}
	if cred != nil {
		if err := chownTree(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, err
		}
	}
	logw := opts.Log
	if logw == nil {
		logw = io.Discard
	}

	// A cluster made before passwords (no password file) is still on
	// "trust": it starts as it is, gets a password, and is switched over.
	password, legacy := "", false
	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		if password, err = initCluster(ctx, bin, dir, cred); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, fmt.Errorf("pgcluster: checking %s: %w", dir, err)
	} else if b, err := os.ReadFile(filepath.Join(dir, passwordFile)); err == nil {
		password = strings.TrimSpace(string(b))
		if err := writeOwned(filepath.Join(dir, "pg_hba.conf"), hbaConf, cred); err != nil {
			return nil, err
		}
	} else if errors.Is(err, os.ErrNotExist) {
		legacy = true
	} else {
		return nil, fmt.Errorf("pgcluster: reading the password file: %w", err)
	}

	port := opts.Port
	if port == 0 {
		if port, err = freePort(); err != nil {
			return nil, err
		}
	}
	args := []string{
		"-D", dir,
		"-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1",
		// No Unix socket: the default directory (/var/run/postgresql) may not
		// be writable, and a socket path inside a deep Dir can exceed the
		// 107-byte limit. Clients use TCP.
		"-c", "unix_socket_directories=",
		"-c", "max_connections=200",
	}
	if !opts.Durable {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	timeout := opts.StartTimeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	c := &Cluster{dir: dir, port: port, password: password, timeout: timeout}
	c.newCmd = func() *exec.Cmd {
		cmd := exec.Command(filepath.Join(bin, "postgres"), args...)
		cmd.Stdout, cmd.Stderr = logw, logw
		cmd.Env = childEnv(dir)
		cmd.SysProcAttr = &syscall.SysProcAttr{
			Credential: cred,
			Setpgid:    true, // Ctrl-C in a terminal must not reach postgres before we drain
			// SIGQUIT is PostgreSQL's immediate shutdown: the postmaster kills its
			// backends too, so nothing is left behind when we die abruptly.
			Pdeathsig: syscall.SIGQUIT,
		}
		return cmd
	}
	if err := c.run(ctx); err != nil {
		return nil, err
	}
	if legacy {
		if err := c.requirePassword(ctx, cred); err != nil {
			_ = c.Stop()
			return nil, err
		}
	}
	return c, nil
}

// run starts a postmaster and waits until it accepts connections.
func (c *Cluster) run(ctx context.Context) error {
	c.mu.Lock()
	c.cmd, c.done, c.err = c.newCmd(), make(chan struct{}), nil
	err := c.startLocked(c.cmd, c.done)
	c.mu.Unlock()
	if err != nil {
		return fmt.Errorf("pgcluster: starting postgres in %s: %w", c.dir, err)
	}
	if err := c.waitReady(ctx, c.timeout); err != nil {
		_ = c.kill()
		return err
	}
	return nil
}

// Supervise restarts the server whenever it exits on its own (a crash, an
// operator's kill, the out-of-memory killer), on the same port, so the
// service's pool reconnects by itself; meanwhile requests answer 503. It
// waits 1 s before the first attempt and doubles the wait after each
// failed one, up to 30 s, and returns when ctx ends or Stop is called.
// Each exit and restart is logged.
func (c *Cluster) Supervise(ctx context.Context, log *slog.Logger) {
	const first, most = time.Second, 30 * time.Second
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.Done():
		}
		c.mu.Lock()
		stopping, exitErr := c.stopping, c.err
		c.mu.Unlock()
		if stopping {
			return
		}
		log.Error("private PostgreSQL exited; restarting it (requests answer 503 meanwhile)", "err", exitErr, "dir", c.dir)
		for wait := first; ; wait = min(2*wait, most) {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			c.mu.Lock()
			stopping = c.stopping
			c.mu.Unlock()
			if stopping {
				return
			}
			err := c.run(ctx)
			if err == nil {
				log.Info("private PostgreSQL restarted", "port", c.port)
				break
			}
			log.Warn("private PostgreSQL did not restart; trying again", "err", err, "retry_in", min(2*wait, most))
		}
	}
}

// initCluster runs initdb with a new random superuser password and
// password-only client authentication, and returns the password.
func initCluster(ctx context.Context, bin, dir string, cred *syscall.Credential) (string, error) {
	password := rand.Text() + rand.Text()
	// initdb wants an empty directory: the password file for it goes
	// beside the cluster for the moment it runs.
	pwfile := dir + ".initdb-password"
	if err := writeOwned(pwfile, password+"\n", cred); err != nil {
		return "", err
	}
	defer os.Remove(pwfile)
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "initdb"),
		"-D", dir, "-U", SuperUser, "-A", "scram-sha-256", "--pwfile", pwfile,
		"-E", "UTF8", "--locale=C", "--no-sync")
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Env = childEnv(dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("pgcluster: initdb in %s: %w\n%s", dir, err, out.String())
	}
	if err := writeOwned(filepath.Join(dir, "pg_hba.conf"), hbaConf, cred); err != nil {
		return "", err
	}
	if err := writeOwned(filepath.Join(dir, passwordFile), password+"\n", cred); err != nil {
		return "", err
	}
	return password, nil
}

// requirePassword switches a running "trust" cluster to passwords: the
// superuser gets a new random password (kept in the password file), the
// client-authentication file is replaced and the server reloads it.
func (c *Cluster) requirePassword(ctx context.Context, cred *syscall.Credential) error {
	password := rand.Text() + rand.Text()
	db, err := sql.Open("postgres", c.URL("postgres"))
	if err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	defer db.Close()
	// rand.Text is base32: nothing to quote in the literal.
	if _, err := db.ExecContext(ctx, `ALTER ROLE `+SuperUser+` PASSWORD '`+password+`'`); err != nil {
		return fmt.Errorf("pgcluster: setting the superuser password: %w", err)
	}
	if err := writeOwned(filepath.Join(c.dir, passwordFile), password+"\n", cred); err != nil {
		return err
	}
	if err := writeOwned(filepath.Join(c.dir, "pg_hba.conf"), hbaConf, cred); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `SELECT pg_reload_conf()`); err != nil {
		return fmt.Errorf("pgcluster: reloading the client-authentication file: %w", err)
	}
	c.password = password
	return nil
}

// writeOwned writes a 0600 file owned by the server's OS user (cred; nil:
// ours).
func writeOwned(path, content string, cred *syscall.Credential) error {
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		return fmt.Errorf("pgcluster: writing %s: %w", filepath.Base(path), err)
	}
	if cred != nil {
		if err := os.Chown(path, int(cred.Uid), int(cred.Gid)); err != nil {
			return fmt.Errorf("pgcluster: handing %s to the postgres user: %w", filepath.Base(path), err)
		}
	}
	return nil
}

// startLocked starts the postmaster from a goroutine locked to its OS thread
// that stays alive until the postmaster exits: Linux sends the parent-death
// signal when the creating thread exits, not the process (golang/go#27505),
// so the thread must outlive the child.
func (c *Cluster) startLocked(cmd *exec.Cmd, done chan struct{}) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			close(done)
			return
		}
		started <- nil
		err := cmd.Wait()
		c.mu.Lock()
		if c.done == done {
			c.err = err
		}
		c.mu.Unlock()
		close(done)
	}()
	return <-started
}

func (c *Cluster) waitReady(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	db, err := sql.Open("postgres", c.URL("postgres"))
	if err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	defer db.Close()
	for {
		pingCtx, cancel := context.WithTimeout(ctx, time.Second)
		err = db.PingContext(pingCtx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-c.Done():
			return fmt.Errorf("pgcluster: postgres exited during start-up (%v); is another server using %s?", c.exitErr(), c.dir)
		case <-ctx.Done():
			return fmt.Errorf("pgcluster: waiting for postgres: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgcluster: postgres not ready after %s: %w", timeout, err)
		}
	}
}

// Port is the TCP port the server listens on at 127.0.0.1.
func (c *Cluster) Port() int { return c.port }

// Dir is the absolute path of the cluster's data directory.
func (c *Cluster) Dir() string { return c.dir }

// Pid is the process id of the postmaster.
func (c *Cluster) Pid() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cmd.Process.Pid
}

func (c *Cluster) exitErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// URL is a lib/pq connection URL for database dbname as the superuser,
// with its password.
func (c *Cluster) URL(dbname string) string {
	user := url.User(SuperUser)
	if c.password != "" {
		user = url.UserPassword(SuperUser, c.password)
	}
	u := url.URL{
		Scheme:   "postgres",
		User:     user,
		Host:     net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port)),
		Path:     "/" + dbname,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

// CreateDatabase creates database name unless it exists.
func (c *Cluster) CreateDatabase(ctx context.Context, name string) error {
	db, err := sql.Open("postgres", c.URL("postgres"))
	if err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	defer db.Close()
	var exists bool
	if err := db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return fmt.Errorf("pgcluster: checking database %q: %w", name, err)
	}
	if exists {
		return nil
	}
	// Identifiers cannot be bound as parameters; quote it as PostgreSQL does.
	quoted := `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+quoted); err != nil {
		return fmt.Errorf("pgcluster: creating database %q: %w", name, err)
	}
	return nil
}

// Done is closed when the current postmaster has exited, whatever the
// reason (after a restart by Supervise, Done is a new channel).
func (c *Cluster) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done
}

// Stop asks the server for a fast shutdown (SIGINT: active sessions are
// rolled back, data is checkpointed) and waits for it, killing it after 30 s.
// A supervisor (Supervise) restarts nothing after Stop.
func (c *Cluster) Stop() error {
	c.mu.Lock()
	c.stopping = true
	cmd, done := c.cmd, c.done
	c.mu.Unlock()
	select {
	case <-done:
		return nil
	default:
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("pgcluster: signalling postgres: %w", err)
	}
	select {
	case <-done:
		return nil
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		<-done
		return fmt.Errorf("pgcluster: postgres did not stop within 30 s; sent SIGQUIT")
	}
}

// kill ends a postmaster that did not become ready (immediate shutdown).
func (c *Cluster) kill() error {
	c.mu.Lock()
	cmd, done := c.cmd, c.done
	c.mu.Unlock()
	_ = cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
	return nil
}

// FindBinaries returns the directory holding initdb and postgres: $PG_BIN,
// else the directory of initdb on PATH (symlinks resolved, as Debian links
// /usr/lib/postgresql/N/bin/initdb), else the newest /usr/lib/postgresql/*/bin.
func FindBinaries() (string, error) {
	if dir := os.Getenv("PG_BIN"); dir != "" {
		if isExecutable(filepath.Join(dir, "postgres")) && isExecutable(filepath.Join(dir, "initdb")) {
			return dir, nil
		}
		return "", fmt.Errorf("pgcluster: PG_BIN=%s holds no initdb and postgres", dir)
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			dir := filepath.Dir(real)
			if isExecutable(filepath.Join(dir, "postgres")) {
				return dir, nil
			}
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return majorOf(dirs[i]) > majorOf(dirs[j]) })
	for _, dir := range dirs {
		if isExecutable(filepath.Join(dir, "initdb")) && isExecutable(filepath.Join(dir, "postgres")) {
			return dir, nil
		}
	}
	return "", errors.New("pgcluster: PostgreSQL server binaries not found (install postgresql, put initdb on PATH or set PG_BIN)")
}

func majorOf(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// credential returns the identity to run PostgreSQL as: nil when we are not
// root, the "postgres" OS user when we are.
func credential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("pgcluster: running as root needs an OS user \"postgres\" to run PostgreSQL as: %w", err)
	}
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: uid of postgres: %w", err)
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: gid of postgres: %w", err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func chownTree(dir string, uid, gid int) error {
	err := filepath.WalkDir(dir, func(path string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, uid, gid)
	})
	if err != nil {
		return fmt.Errorf("pgcluster: handing %s to the postgres user: %w", dir, err)
	}
	// The postgres user must be able to reach dir through its parents.
	for p := filepath.Dir(dir); p != "/" && p != "."; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("pgcluster: %w", err)
		}
		if fi.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("pgcluster: the postgres user cannot enter %s (mode %v); choose a cluster directory under a world-searchable path", p, fi.Mode().Perm())
		}
	}
	return nil
}

func childEnv(dir string) []string {
	return []string{
		"HOME=" + dir,
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"LC_ALL=C",
		"TZ=UTC",
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgcluster: finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
