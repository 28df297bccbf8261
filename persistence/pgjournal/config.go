package pgjournal

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// Config configures a Store.
type Config struct {
	// URL is the database's connection string: postgres://user@host:port/db.
	URL string
	// Committers is how many goroutines commit appends; each owns a share
	// of the streams, so one stream's appends stay in order.
	Committers int
	// MaxGroup bounds how many appends one commit carries.
	MaxGroup int
	// Linger bounds how long a committer waits for more appends before a
	// commit, when the last commit carried several (see committer.linger);
	// 0 never waits.
	Linger time.Duration
	// MaxBatchBytes bounds one Append (and one snapshot): larger ones fail
	// with persistence.ErrBatchTooLarge.
	MaxBatchBytes int
	// MaxConns bounds the connection pool (committers, reads, the listener
	// has one of its own).
	MaxConns int
	// Redact, when set, scrubs each event's payload (JSON) before it is
	// stored, as the Badger store's Options.Redact does: secrets never
	// reach the database.
	Redact func([]byte) []byte
	// Log receives the store's warnings (a skipped snapshot, a lost
	// listener connection).
	Log zerolog.Logger
}

// DefaultConfig is the configuration for the database at url.
func DefaultConfig(url string) Config {
	return Config{URL: url, Committers: 1, MaxGroup: 512, Linger: 2 * time.Millisecond, MaxBatchBytes: 64 << 20, MaxConns: 8, Log: zerolog.Nop()}
}

// IsURL reports whether s names a PostgreSQL database rather than a
// directory.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Validate reports the first setting that cannot work.
func (c Config) Validate() error {
	switch {
	case !IsURL(c.URL):
		return fmt.Errorf("pgjournal: URL %q must start with postgres:// or postgresql://", redact(c.URL))
	case c.Committers < 1:
		return errors.New("pgjournal: Committers must be at least 1")
	case c.MaxGroup < 1:
		return errors.New("pgjournal: MaxGroup must be at least 1")
	case c.Linger < 0:
		return fmt.Errorf("pgjournal: Linger %v is negative (0 never waits)", c.Linger)
	case c.MaxBatchBytes < 1:
		return errors.New("pgjournal: MaxBatchBytes must be at least 1")
	case c.MaxConns < c.Committers+1:
		return fmt.Errorf("pgjournal: MaxConns %d must exceed Committers %d (reads need a connection too)", c.MaxConns, c.Committers)
	}
	return nil
}

// redact hides a password in a connection string, for errors and logs.
func redact(url string) string {
	scheme, rest, ok := strings.Cut(url, "://")
	if !ok {
		return url
	}
	userinfo, host, ok := strings.Cut(rest, "@")
	if !ok {
		return url
	}
	if name, _, hasPass := strings.Cut(userinfo, ":"); hasPass {
		return scheme + "://" + name + ":***@" + host
	}
	return url
}
