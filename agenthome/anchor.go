package agenthome

import (
	"os"
	"path/filepath"
)

// Anchor is the workspace anchor of dir: the root of the git repository
// holding it (the nearest directory with a .git entry), else dir itself.
// Guidance is read from the anchor, never from a shell's cwd.
func Anchor(dir string) string {
	dir = filepath.Clean(dir)
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
