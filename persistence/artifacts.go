package persistence

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
)

// ErrInvalidArtifactPath is returned for an artifact path that is empty,
// absolute, contains "..", or would leave the artifact directory.
var ErrInvalidArtifactPath = errors.New("persistence: invalid artifact path")

// Artifact references a file in an agent's artifact store. Journal events
// and tool results carry this reference, never the bytes.
type Artifact struct {
	// Path is relative to the artifact directory, slash-separated.
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// ArtifactStore keeps large payloads (command output, large tool results)
// as files under <agent_home>/.holon/artifacts/. Every path is resolved
// through os.Root, so no path, symlink or ".." can reach outside it. Files
// are written 0600 and synced before a reference to them is returned, so a
// journal event that names an artifact never outlives its file.
type ArtifactStore struct {
	dir string
}

// NewArtifactStore returns the artifact store of the agent whose home
// directory is agentHome. The directory is created on first write.
func NewArtifactStore(agentHome string) *ArtifactStore {
	return &ArtifactStore{dir: ArtifactsDir(agentHome)}
}

// Dir is the artifact directory on disk.
func (a *ArtifactStore) Dir() string { return a.dir }

// Put writes r to name atomically (a temporary file, synced, then renamed)
// and returns its reference. An existing artifact of that name is replaced.
func (a *ArtifactStore) Put(name string, r io.Reader) (Artifact, error) {
	w, err := a.create(name, ".tmp-"+rand.Text())
	if err != nil {
		return Artifact{}, err
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Abort()
		return Artifact{}, fmt.Errorf("put artifact %s: %w", name, err)
	}
	return w.Commit()
}

// Create starts a streaming artifact at name, which must not exist yet. It
// is readable through Open while being written, as command output must be.
// Finish it with Commit, or with Abort to remove it.
func (a *ArtifactStore) Create(name string) (*ArtifactWriter, error) {
	return a.create(name, "")
}

func (a *ArtifactStore) create(name, tmpSuffix string) (*ArtifactWriter, error) {
	if err := checkArtifactPath(name); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(a.dir, 0o700); err != nil {
		return nil, fmt.Errorf("create artifact %s: %w", name, err)
	}
	root, err := os.OpenRoot(a.dir)
	if err != nil {
		return nil, fmt.Errorf("create artifact %s: %w", name, err)
	}
	if dir := path.Dir(name); dir != "." {
		if err := root.MkdirAll(dir, 0o700); err != nil {
			root.Close()
			return nil, fmt.Errorf("create artifact %s: %w", name, err)
		}
	}
	target := name + tmpSuffix
	f, err := root.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		root.Close()
		return nil, fmt.Errorf("create artifact %s: %w", name, err)
	}
	h := sha256.New()
	return &ArtifactWriter{root: root, f: f, name: name, tmp: target, hash: h, w: io.MultiWriter(f, h)}, nil
}

// Open opens an artifact for reading by its reference path.
func (a *ArtifactStore) Open(name string) (*os.File, error) {
	if err := checkArtifactPath(name); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(a.dir)
	if err != nil {
		return nil, fmt.Errorf("open artifact %s: %w", name, err)
	}
	defer root.Close()
	f, err := root.Open(name)
	if err != nil {
		return nil, fmt.Errorf("open artifact %s: %w", name, err)
	}
	return f, nil
}

// Remove deletes an artifact; a missing one is not an error.
func (a *ArtifactStore) Remove(name string) error {
	if err := checkArtifactPath(name); err != nil {
		return err
	}
	root, err := os.OpenRoot(a.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("remove artifact %s: %w", name, err)
	}
	defer root.Close()
	if err := root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove artifact %s: %w", name, err)
	}
	return nil
}

// checkArtifactPath accepts relative, slash-separated, clean paths of safe
// elements. os.Root enforces containment again at open time (symlinks).
func checkArtifactPath(name string) error {
	if name == "" || strings.HasPrefix(name, "/") || strings.ContainsRune(name, '\\') || path.Clean(name) != name {
		return fmt.Errorf("%w: %q must be a clean relative path like task_1/stdout.log", ErrInvalidArtifactPath, name)
	}
	for _, el := range strings.Split(name, "/") {
		if err := checkPathElement(el); err != nil || strings.Contains(el, ".tmp-") {
			return fmt.Errorf("%w: %q: element %q is not allowed", ErrInvalidArtifactPath, name, el)
		}
	}
	return nil
}

// ArtifactWriter writes one artifact. It is not safe for concurrent use.
type ArtifactWriter struct {
	root  *os.Root
	f     *os.File
	name  string // the artifact's path
	tmp   string // the file being written: name, or a temporary for Put
	hash  hash.Hash
	w     io.Writer
	bytes int64
}

// Write appends p to the artifact.
func (w *ArtifactWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	w.bytes += int64(n)
	return n, err
}

// Commit syncs and closes the file and returns its reference. A file
// written for Put is renamed into place here, after its bytes are synced.
func (w *ArtifactWriter) Commit() (Artifact, error) {
	defer w.root.Close()
	err := w.f.Sync()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err == nil && w.tmp != w.name {
		err = w.root.Rename(w.tmp, w.name)
	}
	if err != nil {
		_ = w.root.Remove(w.tmp)
		return Artifact{}, fmt.Errorf("commit artifact %s: %w", w.name, err)
	}
	syncDir(w.root, path.Dir(w.name))
	return Artifact{Path: w.name, Bytes: w.bytes, SHA256: hex.EncodeToString(w.hash.Sum(nil))}, nil
}

// Abort closes and removes the artifact.
func (w *ArtifactWriter) Abort() {
	_ = w.f.Close()
	_ = w.root.Remove(w.tmp)
	_ = w.root.Close()
}

// syncDir makes a rename in dir durable. A failure weakens only the
// durability of the name, never correctness, so it is ignored.
func syncDir(root *os.Root, dir string) {
	d, err := root.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
