package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/rs/zerolog"
	_ "modernc.org/sqlite" // SQLite with FTS5, pure Go: no cgo toolchain needed to build the runtime
)

// File names inside the index directory.
const (
	dbFile    = "memory.sqlite3"
	dirtyFile = "memory.dirty"
)

// schemaVersion names the index layout; an index written under another is rebuilt.
const schemaVersion = "memory-fts5-2"

// Options configure an Index.
type Options struct {
	// AgentID is the agent whose memory the index holds. Required.
	AgentID string
	// StateDir holds the source_ref secret; default: <dir>/../state, i.e. agent_home/.holon/state
	// when dir is agent_home/.holon/indexes.
	StateDir string
	// Source yields every record when the index is rebuilt (missing, stale, corrupt or dirty).
	// Without one a rebuilt index starts empty.
	Source Source
	// Logger receives rebuild notices; zero value logs nothing.
	Logger zerolog.Logger
}

// Index is one agent's memory search index. Safe for concurrent use; Close ends it.
type Index struct {
	dir  string
	opts Options
	refs refSigner
	log  zerolog.Logger

	mu     sync.RWMutex // guards db and closed; held exclusively by rebuild and Close
	db     *sql.DB
	closed bool
	stmts  stmtCache // statements prepared on db
}

// Open opens the index in dir (agent_home/.holon/indexes), rebuilding it from opts.Source when it
// is missing, stale, corrupt or marked dirty. Errors are only those of the directories and the
// source_ref secret; a broken index file is never one.
func Open(dir string, opts Options) (*Index, error) {
	if opts.AgentID == "" {
		return nil, errors.New("memory: open index: agent id is required")
	}
	if opts.StateDir == "" {
		opts.StateDir = filepath.Join(filepath.Dir(filepath.Clean(dir)), "state")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("memory: make index dir %s: %w", dir, err)
	}
	key, err := loadRefKey(opts.StateDir)
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	ix := &Index{dir: dir, opts: opts, refs: refSigner{agentID: opts.AgentID, key: key}, log: opts.Logger}
	if reason := ix.openExisting(); reason != "" {
		if err := ix.rebuildLocked(context.Background(), opts.Source, reason); err != nil {
			return nil, err
		}
	}
	return ix, nil
}

// openExisting opens the index file when it is usable, or says why it must be rebuilt.
func (ix *Index) openExisting() (reason string) {
	path := filepath.Join(ix.dir, dbFile)
	if _, err := os.Stat(path); err != nil {
		return "missing"
	}
	db, err := openDB(path)
	if err != nil {
		return "unreadable"
	}
	var version, agent string
	err = db.QueryRow(`SELECT (SELECT v FROM meta WHERE k='schema'), (SELECT v FROM meta WHERE k='agent')`).Scan(&version, &agent)
	switch {
	case err != nil:
		reason = "corrupt"
	case version != schemaVersion:
		reason = "stale"
	case agent != ix.opts.AgentID:
		reason = "other agent"
	case ix.Dirty():
		reason = "dirty"
	}
	if reason != "" {
		_ = db.Close()
		return reason
	}
	ix.db = db
	return ""
}

// openDB opens the serving connection pool: WAL so searches run beside a write; the file mapped
// into memory (up to 256 MiB) and a 16 MiB page cache per connection, so the random reads of a
// search are not each a system call.
func openDB(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(5000)"+
		"&_pragma=mmap_size(268435456)&_pragma=cache_size(-16384)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	if err := db.Ping(); err != nil {
		_ = db.Close()
		return nil, err
	}
	return db, nil
}

// schema creates the tables: docs holds each record's provenance (narrow, so the scope check of
// every match reads few pages), bodies its exact title and body, fts their projection
// (bigram-expanded title and body), all three under the same rowid.
const schema = `
CREATE TABLE meta(k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE docs(
	id INTEGER PRIMARY KEY,
	kind TEXT NOT NULL, key TEXT NOT NULL, agent_id TEXT NOT NULL,
	scope_kind TEXT NOT NULL, workspace_id TEXT NOT NULL, source_path TEXT NOT NULL,
	updated_at INTEGER NOT NULL, metadata TEXT NOT NULL,
	UNIQUE(kind, key));
CREATE TABLE bodies(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL);
CREATE VIRTUAL TABLE fts USING fts5(title, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
`

// Close closes the index. Further calls return ErrClosed.
func (ix *Index) Close() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return nil
	}
	ix.closed = true
	ix.stmts.reset()
	if ix.db == nil {
		return nil
	}
	err := ix.db.Close()
	ix.db = nil
	return err
}

// withDB runs fn on the serving database. A corrupt-file error rebuilds the index from the Source
// and runs fn once more, so the caller sees the answer of the rebuilt index.
func (ix *Index) withDB(ctx context.Context, fn func(*sql.DB) error) error {
	if ix.Dirty() && ix.opts.Source != nil {
		if err := ix.rebuild(ctx, ix.opts.Source, "dirty"); err != nil {
			return err
		}
	}
	err := ix.run(fn)
	if !isCorrupt(err) {
		return err
	}
	if err := ix.rebuild(ctx, ix.opts.Source, "corrupt"); err != nil {
		return err
	}
	return ix.run(fn)
}

// run calls fn under the read lock.
func (ix *Index) run(fn func(*sql.DB) error) error {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return ErrClosed
	}
	return fn(ix.db)
}

// isCorrupt reports whether err says the database file is damaged or not a database.
func isCorrupt(err error) bool {
	var coded interface{ Code() int }
	if !errors.As(err, &coded) {
		return false
	}
	const sqliteCorrupt, sqliteNotADB = 11, 26
	c := coded.Code() & 0xff
	return c == sqliteCorrupt || c == sqliteNotADB
}

// MarkDirty records that a source-of-truth write may not have reached the index: the next Open,
// Search or Get rebuilds it from the Source. The marker is a file so it survives a crash.
func (ix *Index) MarkDirty() error {
	f, err := os.OpenFile(filepath.Join(ix.dir, dirtyFile), os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("memory: mark index dirty: %w", err)
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return fmt.Errorf("memory: mark index dirty: %w", err)
	}
	return f.Close()
}

// Dirty reports whether the dirty marker is present.
func (ix *Index) Dirty() bool {
	_, err := os.Stat(filepath.Join(ix.dir, dirtyFile))
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}
