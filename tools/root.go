package tools

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ExecRoot is the execution root of an agent: the directory file and
// shell tools work in. Every model-given path goes through it, so none
// leaves it: not by "..", not as an absolute path elsewhere, not through
// a symlink.
type ExecRoot struct {
	dir string // absolute, symlinks resolved
}

// NewExecRoot returns the execution root at dir, which must be an
// existing directory.
func NewExecRoot(dir string) (ExecRoot, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ExecRoot{}, fmt.Errorf("execution root %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return ExecRoot{}, fmt.Errorf("execution root %s: %w", dir, err)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return ExecRoot{}, fmt.Errorf("execution root %s is not a directory", dir)
	}
	return ExecRoot{dir: real}, nil
}

// Dir is the root directory, absolute with symlinks resolved.
func (r ExecRoot) Dir() string { return r.dir }

// Open opens the root as an os.Root, which refuses any escape at the
// moment of each file operation. The caller closes it.
func (r ExecRoot) Open() (*os.Root, error) {
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		return nil, fmt.Errorf("open execution root %s: %w", r.dir, err)
	}
	return root, nil
}

// PathError is a model-given path the execution root refuses. It carries
// what the model needs to fix its call.
type PathError struct {
	Field  string // the argument that held the path
	Path   string // as the model gave it
	Reason string
}

func (e *PathError) Error() string {
	return fmt.Sprintf("path %q in %s %s", e.Path, e.Field, e.Reason)
}

// ToolError is the execution_root_violation error for e.
func (e *PathError) ToolError() ToolError {
	return ToolError{
		Kind:         KindExecutionRootViolation,
		Message:      "requested path is outside the current execution root: " + e.Error(),
		Details:      mustJSON(map[string]string{"field": e.Field, e.Field: e.Path, "reason": e.Reason}),
		RecoveryHint: "omit " + e.Field + " or use a relative path inside the active workspace, without .. or absolute paths",
	}
}

// ErrNotDirectory is returned by Workdir for a path inside the root that
// is not an existing directory.
var ErrNotDirectory = errors.New("tools: not an existing directory")

// Workdir resolves a working directory given by the model: "" is the
// root, a relative path is taken from the root, an absolute path must lie
// inside it. Symlinks are resolved before the check. It returns the
// absolute directory, a *PathError for a path outside the root, or an
// error wrapping ErrNotDirectory.
func (r ExecRoot) Workdir(field, p string) (string, error) {
	if p == "" {
		return r.dir, nil
	}
	if strings.ContainsRune(p, 0) {
		return "", &PathError{Field: field, Path: p, Reason: "contains a NUL byte"}
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(r.dir, p)
	}
	abs = filepath.Clean(abs)
	if !r.contains(abs) {
		return "", &PathError{Field: field, Path: p, Reason: "is outside the execution root"}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("%w: %s %q: %w", ErrNotDirectory, field, p, err)
	}
	if !r.contains(real) {
		return "", &PathError{Field: field, Path: p, Reason: "leads outside the execution root through a symlink"}
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%w: %s %q", ErrNotDirectory, field, p)
	}
	return real, nil
}

func (r ExecRoot) contains(abs string) bool {
	rel, err := filepath.Rel(r.dir, abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// FilePath checks a file path given by the model for a file-touching
// tool: relative, slash-separated, clean, no ".." element, no NUL, not
// the root itself, not inside .git. It returns the clean path, to be used
// through the os.Root of Open so symlinks cannot lead out either.
func (r ExecRoot) FilePath(field, p string) (string, error) {
	bad := func(reason string) error { return &PathError{Field: field, Path: p, Reason: reason} }
	switch {
	case p == "":
		return "", bad("is empty")
	case strings.ContainsRune(p, 0):
		return "", bad("contains a NUL byte")
	case strings.HasPrefix(p, "/") || filepath.IsAbs(p) || strings.ContainsRune(p, '\\'):
		return "", bad("is absolute; paths are relative to the execution root")
	}
	for _, el := range strings.Split(p, "/") {
		if el == ".." {
			return "", bad("contains ..")
		}
		if el == ".git" {
			return "", bad("is inside .git")
		}
	}
	clean := path.Clean(p)
	if clean == "." {
		return "", bad("names the execution root itself")
	}
	if r.dir != "" && r.escapesBySymlink(clean) {
		return "", bad("leads outside the execution root through a symlink")
	}
	return clean, nil
}

// escapesBySymlink reports whether an existing prefix of the clean
// relative path p is a symlink that resolves outside the root.
func (r ExecRoot) escapesBySymlink(p string) bool {
	cur := r.dir
	for _, el := range strings.Split(p, "/") {
		cur = filepath.Join(cur, el)
		fi, err := os.Lstat(cur)
		if err != nil {
			return false // the rest does not exist yet
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			real, err := filepath.EvalSymlinks(cur)
			if err != nil {
				return true // dangling: where it leads cannot be checked
			}
			if !r.contains(real) {
				return true
			}
			cur = real
		}
	}
	return false
}
