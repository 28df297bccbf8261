// Package pgtest starts a real PostgreSQL server for tests: initdb and
// pg_ctl in a temporary directory, listening on 127.0.0.1 at a free port
// (and on a unix socket in the same directory). A test package starts one
// server in TestMain with Main and takes a fresh database per test with
// NewDatabase, so its tests stay fast and independent.
//
// initdb refuses to run as root, so when the tests run as root the server
// runs as the postgres user. Missing PostgreSQL binaries fail the tests with
// a message saying to install the postgresql package; nothing is skipped.
//
// pgtest is imported by tests, and by bench cluster, which starts its own
// server the same way.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNoPostgres is returned by Start when the PostgreSQL server binaries
// are not installed.
var ErrNoPostgres = errors.New("pgtest: PostgreSQL binaries (initdb, pg_ctl) not found: install the postgresql package (apt-get install -y postgresql)")

// Server is a PostgreSQL server started for tests. Stop it when done.
type Server struct {
	dir  string // data directory, socket directory and log, owned by the server's user
	bin  string // directory of initdb, pg_ctl and postgres
	port int
	cred *syscall.Credential // nil when the tests do not run as root
	dbs  atomic.Int64
}

// Start runs initdb in a new temporary directory and starts the server on
// 127.0.0.1. fsync stays on: tests measure the real durability path.
func Start() (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	s := &Server{bin: bin}
	if os.Geteuid() == 0 {
		if s.cred, err = postgresUser(); err != nil {
			return nil, err
		}
	}
	parent := "" // the default temporary directory, or /tmp when the server runs as postgres: a TMPDIR of root's may be closed to it
	if s.cred != nil {
		parent = "/tmp"
	}
	if s.dir, err = os.MkdirTemp(parent, "pgtest-"); err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	if s.cred != nil {
		if err := os.Chown(s.dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			s.removeDir()
			return nil, fmt.Errorf("pgtest: give %s to postgres: %w", s.dir, err)
		}
	}
	if err := s.initdb(); err != nil {
		s.removeDir()
		return nil, err
	}
	if err := s.start(); err != nil {
		s.removeDir()
		return nil, err
	}
	return s, nil
}

// binDir finds the directory holding initdb: on PATH, or the newest
// /usr/lib/postgresql/<version>/bin.
func binDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		return filepath.Dir(p), nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return version(b) - version(a) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", ErrNoPostgres
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func postgresUser() (*syscall.Credential, error) {
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("pgtest: running as root, and initdb refuses root: %w (install the postgresql package, which creates the postgres user)", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func (s *Server) dataDir() string { return filepath.Join(s.dir, "data") }

// run runs one PostgreSQL program as the server's user; its output goes
// into the error when it fails.
func (s *Server) run(name string, args ...string) error {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("pgtest: %s %s: %w\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

func (s *Server) initdb() error {
	return s.run("initdb", "-D", s.dataDir(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions")
}

// start starts the server at a free port; another process may take the
// port between the probe and the start, so it tries a few ports.
func (s *Server) start() error {
	var err error
	for range 5 {
		if s.port, err = freePort(); err != nil {
			return err
		}
		opts := fmt.Sprintf("-h 127.0.0.1 -p %d -k %s -c max_connections=400 -c shared_buffers=64MB", s.port, s.dir)
		if err = s.run("pg_ctl", "start", "-w", "-t", "60", "-D", s.dataDir(), "-l", filepath.Join(s.dir, "log"), "-o", opts); err == nil {
			return nil
		}
	}
	return fmt.Errorf("%w\nserver log:\n%s", err, s.log())
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgtest: find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (s *Server) log() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "log"))
	return string(b)
}

// Stop stops the server at once and removes its directory.
func (s *Server) Stop() error {
	err := s.run("pg_ctl", "stop", "-w", "-m", "immediate", "-D", s.dataDir())
	s.removeDir()
	return err
}

func (s *Server) removeDir() { _ = os.RemoveAll(s.dir) }

// URL is the connection string of database db on this server.
func (s *Server) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// NewDatabase creates an empty database for t and returns its URL. It is
// not dropped when t ends (DROP DATABASE forces a checkpoint, slower than
// the test itself): Stop removes every database with the server's
// directory.
func (s *Server) NewDatabase(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("t%d", s.dbs.Add(1))
	if err := s.exec(context.Background(), "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	return s.URL(name)
}

// CreateDatabase creates an empty database name and returns its URL: for
// a caller that is not a test (bench cluster).
func (s *Server) CreateDatabase(name string) (string, error) {
	if err := s.exec(context.Background(), "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	return s.URL(name), nil
}

// exec runs one statement on the postgres database.
func (s *Server) exec(ctx context.Context, sql string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// Main is a TestMain body: it starts a server into *srv, runs the tests
// and stops the server. It fails (exit 1) with the reason when the server
// cannot start, PostgreSQL not being installed among them.
func Main(m *testing.M, srv **Server) int {
	s, err := Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: start PostgreSQL for the tests:", err)
		return 1
	}
	*srv = s
	code := m.Run()
	if err := s.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "stop PostgreSQL:", err)
	}
	return code
}

// StartT starts a server for a package whose one test needs it (a package
// with more should use Main); t's cleanup stops it. It fails t, never
// skips it, when the server cannot start.
func StartT(t testing.TB) *Server {
	t.Helper()
	s, err := Start()
	if err != nil {
		t.Fatalf("start PostgreSQL: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Errorf("stop PostgreSQL: %v", err)
		}
	})
	return s
}
