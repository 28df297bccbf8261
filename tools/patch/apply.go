package patch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"

	"github.com/bluekeyes/go-gitdiff/gitdiff"

	"github.com/holon-actors/holon-actors/tools"
)

// Errors of Apply besides ErrInvalidPatch and *tools.PathError.
var (
	// ErrFileNotFound is returned when a patch changes a file that does not exist.
	ErrFileNotFound = errors.New("patch: file not found")
	// ErrFileExists is returned when a patch adds a file that exists.
	ErrFileExists = errors.New("patch: file already exists")
	// ErrNotRegular is returned for a path that is a symlink, directory or device.
	ErrNotRegular = errors.New("patch: not a regular file")
)

// ConflictError is a hunk that does not match the file it patches.
type ConflictError struct {
	Path string
	Err  error
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("patch does not apply to %s: %v", e.Path, e.Err)
}
func (e *ConflictError) Unwrap() error { return e.Err }

// FileResult is one changed file in the order of the patch.
type FileResult struct {
	Op      Op     `json:"op"`
	Path    string `json:"path"`
	OldPath string `json:"old_path,omitempty"` // rename and copy source
}

// staged is a file's new state computed in memory before anything is
// written: data to write at path, or a removal when remove is set.
type staged struct {
	path   string
	data   []byte
	mode   os.FileMode
	remove bool
}

// Apply applies the patch text inside root: every file or none. It
// returns the changed files, or an error wrapping ErrInvalidPatch,
// ErrFileNotFound, ErrFileExists or ErrNotRegular, a *ConflictError or
// a *tools.PathError; on error no file was changed.
func Apply(root tools.ExecRoot, text string) ([]FileResult, error) {
	changes, err := Parse(text)
	if err != nil {
		return nil, err
	}
	r, err := root.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	steps, results, err := plan(root, r, changes)
	if err != nil {
		return nil, err
	}
	if err := commit(r, steps); err != nil {
		return nil, err
	}
	return results, nil
}

// plan checks every change and computes the new file contents.
func plan(root tools.ExecRoot, r *os.Root, changes []Change) ([]staged, []FileResult, error) {
	var steps []staged
	var results []FileResult
	touched := map[string]bool{}
	for _, c := range changes {
		oldPath, newPath, err := checkPaths(root, c)
		if err != nil {
			return nil, nil, err
		}
		for _, p := range uniq(oldPath, newPath) {
			if touched[p] {
				return nil, nil, fmt.Errorf("%w: %s is changed twice in one patch; merge its hunks into one file diff", ErrInvalidPatch, p)
			}
			touched[p] = true
		}
		s, err := stage(r, c, oldPath, newPath)
		if err != nil {
			return nil, nil, err
		}
		steps = append(steps, s...)
		res := FileResult{Op: c.Op, Path: newPath}
		switch c.Op {
		case OpDelete:
			res.Path = oldPath
		case OpRename, OpCopy:
			res.OldPath = oldPath
		}
		results = append(results, res)
	}
	return steps, results, nil
}

func uniq(a, b string) []string {
	switch {
	case a == "":
		return []string{b}
	case b == "" || a == b:
		return []string{a}
	}
	return []string{a, b}
}

func checkPaths(root tools.ExecRoot, c Change) (oldPath, newPath string, err error) {
	if c.OldPath != "" {
		if oldPath, err = root.FilePath("patch", c.OldPath); err != nil {
			return "", "", err
		}
	}
	if c.NewPath != "" {
		if newPath, err = root.FilePath("patch", c.NewPath); err != nil {
			return "", "", err
		}
	}
	return oldPath, newPath, nil
}

// stage computes what one change writes and removes.
func stage(r *os.Root, c Change, oldPath, newPath string) ([]staged, error) {
	var src []byte
	perm := os.FileMode(0o644)
	if c.Op != OpAdd {
		var err error
		if src, perm, err = readRegular(r, oldPath); err != nil {
			return nil, err
		}
	}
	if c.Op == OpAdd || c.Op == OpRename || c.Op == OpCopy {
		if _, err := r.Lstat(newPath); err == nil {
			return nil, fmt.Errorf("%w: %s; patch it as a modification instead", ErrFileExists, newPath)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("check %s: %w", newPath, err)
		}
	}
	var out bytes.Buffer
	if err := gitdiff.Apply(&out, bytes.NewReader(src), c.File); err != nil {
		return nil, &ConflictError{Path: name(Change{OldPath: oldPath, NewPath: newPath}), Err: err}
	}
	if c.Mode != 0 {
		perm = 0o644
		if c.Mode&0o111 != 0 {
			perm = 0o755
		}
	}
	switch c.Op {
	case OpDelete:
		if out.Len() != 0 {
			return nil, &ConflictError{Path: oldPath, Err: errors.New("the file has content the patch does not delete")}
		}
		return []staged{{path: oldPath, remove: true}}, nil
	case OpRename:
		return []staged{{path: newPath, data: out.Bytes(), mode: perm}, {path: oldPath, remove: true}}, nil
	}
	return []staged{{path: newPath, data: out.Bytes(), mode: perm}}, nil
}

// readRegular reads a regular file through r, refusing symlinks.
func readRegular(r *os.Root, p string) ([]byte, os.FileMode, error) {
	fi, err := r.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, fmt.Errorf("%w: %s; add it with a /dev/null source or check the path", ErrFileNotFound, p)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", p, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%w: %s is a %s", ErrNotRegular, p, kindOf(fi.Mode()))
	}
	f, err := r.Open(p)
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", p, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", p, err)
	}
	return b, fi.Mode().Perm(), nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m.IsDir():
		return "directory"
	}
	return "special file"
}

// undo restores one path to what it was before commit touched it.
type undo struct {
	path    string
	data    []byte // nil: the path did not exist
	mode    os.FileMode
	existed bool
}

// commit writes the staged files, each through a temporary file renamed
// into place, and removes the staged removals. When one step fails, the
// steps before it are undone.
func commit(r *os.Root, steps []staged) error {
	var undos []undo
	for _, s := range steps {
		u, err := snapshot(r, s.path)
		if err == nil {
			if s.remove {
				err = remove(r, s.path)
			} else {
				err = write(r, s.path, s.data, s.mode)
			}
		}
		if err != nil {
			rollback(r, undos)
			return fmt.Errorf("apply patch: %w (no file was changed)", err)
		}
		undos = append(undos, u)
	}
	return nil
}

func snapshot(r *os.Root, p string) (undo, error) {
	fi, err := r.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return undo{path: p}, nil
	}
	if err != nil {
		return undo{}, fmt.Errorf("stat %s: %w", p, err)
	}
	b, _, err := readRegular(r, p)
	if err != nil {
		return undo{}, err
	}
	return undo{path: p, data: b, mode: fi.Mode().Perm(), existed: true}, nil
}

func rollback(r *os.Root, undos []undo) {
	for i := len(undos) - 1; i >= 0; i-- {
		u := undos[i]
		if u.existed {
			_ = write(r, u.path, u.data, u.mode)
		} else {
			_ = remove(r, u.path)
		}
	}
}

func write(r *os.Root, p string, data []byte, mode os.FileMode) error {
	if dir := path.Dir(p); dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create directory of %s: %w", p, err)
		}
	}
	tmp := path.Join(path.Dir(p), ".holon-patch-"+path.Base(p))
	f, err := r.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode)
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Chmod(tmp, mode)
	}
	if err == nil {
		err = r.Rename(tmp, p)
	}
	if err != nil {
		_ = r.Remove(tmp)
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

// remove deletes p and then its directories that became empty.
func remove(r *os.Root, p string) error {
	if err := r.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
		if r.Remove(dir) != nil {
			break
		}
	}
	return nil
}
