package tools

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ErrInvalidArtifactName is returned for an artifact name that is empty,
// absolute, unclean or contains "..".
var ErrInvalidArtifactName = errors.New("tools: invalid artifact name")

// ArtifactRef is the path-only reference a family result carries for a
// full payload kept out of the model's context. Its role (stdout, stderr,
// output, failure) is given by the index fields of the result, never by
// its position alone.
type ArtifactRef struct {
	Path string `json:"path"`
}

// ArtifactDir writes full tool payloads as files under one directory,
// normally the agent's artifact directory. Names are resolved through
// os.Root, so no name or symlink reaches outside it. It is safe for
// concurrent use; each file has one writer.
type ArtifactDir struct {
	dir    string
	redact func([]byte) []byte // nil: Redact changes nothing
}

// NewArtifactDir returns the artifact directory at dir, made absolute. The
// directory is created on first use.
func NewArtifactDir(dir string) (*ArtifactDir, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("artifact directory %s: %w", dir, err)
	}
	return &ArtifactDir{dir: abs}, nil
}

// WithRedact returns a copy of a whose Redact applies redact: the
// runtime's scrubbing of its credentials.
func (a *ArtifactDir) WithRedact(redact func([]byte) []byte) *ArtifactDir {
	c := *a
	c.redact = redact
	return &c
}

// Redact returns b scrubbed of the runtime's credentials, for a writer
// about to put b in an artifact; b itself when there is no redactor.
func (a *ArtifactDir) Redact(b []byte) []byte {
	if a.redact == nil {
		return b
	}
	return a.redact(b)
}

// maxScrub bounds the artifact Scrub rewrites: larger output files are
// left as the command wrote them.
const maxScrub = 64 << 20

// Scrub applies the redactor to the finished artifact name, rewriting it
// (through a temporary file and a rename) when that changed anything, and
// returns its size afterwards. Without a redactor, or for a file over
// 64 MiB, it changes nothing.
func (a *ArtifactDir) Scrub(name string) (int64, error) {
	fi, err := os.Stat(a.Path(name))
	if err != nil {
		return 0, fmt.Errorf("scrub artifact %s: %w", name, err)
	}
	if a.redact == nil || fi.Size() > maxScrub {
		return fi.Size(), nil
	}
	b, err := os.ReadFile(a.Path(name))
	if err != nil {
		return 0, fmt.Errorf("scrub artifact %s: %w", name, err)
	}
	out := a.redact(b)
	if bytes.Equal(out, b) {
		return int64(len(b)), nil
	}
	tmp := a.Path(name) + ".scrub"
	if err := os.WriteFile(tmp, out, 0o600); err != nil {
		return 0, fmt.Errorf("scrub artifact %s: %w", name, err)
	}
	if err := os.Rename(tmp, a.Path(name)); err != nil {
		_ = os.Remove(tmp)
		return 0, fmt.Errorf("scrub artifact %s: %w", name, err)
	}
	return int64(len(out)), nil
}

// Dir is the absolute directory.
func (a *ArtifactDir) Dir() string { return a.dir }

// Path is the absolute path of the artifact name.
func (a *ArtifactDir) Path(name string) string { return filepath.Join(a.dir, filepath.FromSlash(name)) }

// Ref is the reference to the artifact name.
func (a *ArtifactDir) Ref(name string) ArtifactRef { return ArtifactRef{Path: a.Path(name)} }

// Create creates the artifact name (slash-separated, relative, for
// example "exec/cmd_1/stdout.log") for writing; it must not exist yet. The
// caller closes the file.
func (a *ArtifactDir) Create(name string) (*os.File, error) {
	if name == "" || strings.HasPrefix(name, "/") || strings.ContainsRune(name, '\\') || path.Clean(name) != name ||
		name == ".." || strings.HasPrefix(name, "../") {
		return nil, fmt.Errorf("%w: %q must be a clean relative path like exec/cmd_1/stdout.log", ErrInvalidArtifactName, name)
	}
	if err := os.MkdirAll(a.dir, 0o700); err != nil {
		return nil, fmt.Errorf("create artifact %s: %w", name, err)
	}
	root, err := os.OpenRoot(a.dir)
	if err != nil {
		return nil, fmt.Errorf("create artifact %s: %w", name, err)
	}
	defer root.Close()
	if dir := path.Dir(name); dir != "." {
		if err := root.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("create artifact %s: %w", name, err)
		}
	}
	f, err := root.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create artifact %s: %w", name, err)
	}
	return f, nil
}

// Remove deletes the artifact name; a missing one is not an error.
func (a *ArtifactDir) Remove(name string) error {
	root, err := os.OpenRoot(a.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("remove artifact %s: %w", name, err)
	}
	defer root.Close()
	if err := root.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove artifact %s: %w", name, err)
	}
	return nil
}
