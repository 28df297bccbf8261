package tools_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/holon-actors/holon-actors/tools"
)

// TraversalCorpus is the set of paths every file-touching tool must
// refuse; exec and patch tests run it against their tools too.
var traversalCorpus = []string{
	"..", "../x", "a/../../x", "/etc/passwd", "/", "a/../..", "./../x", "..\\x", "a/\x00b", ".git/config",
}

func newRoot(t *testing.T) (tools.ExecRoot, string) {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "root")
	for _, d := range []string{"root/sub", "outside"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(dir, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(dir, "inner")); err != nil {
		t.Fatal(err)
	}
	r, err := tools.NewExecRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, base
}

func TestWorkdir(t *testing.T) {
	r, base := newRoot(t)
	ok := map[string]string{"": r.Dir(), "sub": filepath.Join(r.Dir(), "sub"), "inner": filepath.Join(r.Dir(), "sub"),
		"./sub/": filepath.Join(r.Dir(), "sub"), filepath.Join(r.Dir(), "sub"): filepath.Join(r.Dir(), "sub")}
	for in, want := range ok {
		if got, err := r.Workdir("workdir", in); err != nil || got != want {
			t.Errorf("Workdir(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"..", "../outside", "sub/../..", "/", filepath.Join(base, "outside"), "escape", "escape/", "a\x00"} {
		_, err := r.Workdir("workdir", in)
		var pe *tools.PathError
		if !errors.As(err, &pe) {
			t.Errorf("Workdir(%q) err = %v, want a PathError", in, err)
			continue
		}
		if te := pe.ToolError(); te.Kind != tools.KindExecutionRootViolation || te.RecoveryHint == "" {
			t.Errorf("ToolError = %+v", te)
		}
	}
	if _, err := r.Workdir("workdir", "missing"); !errors.Is(err, tools.ErrNotDirectory) {
		t.Errorf("Workdir(missing) err = %v, want ErrNotDirectory", err)
	}
}

func TestFilePath(t *testing.T) {
	r, _ := newRoot(t)
	for _, in := range []string{"a.txt", "sub/b.go", "./c", "a//b"} {
		if _, err := r.FilePath("path", in); err != nil {
			t.Errorf("FilePath(%q) = %v", in, err)
		}
	}
	for _, in := range append([]string{"", "escape/x", "escape"}, traversalCorpus...) {
		var pe *tools.PathError
		if _, err := r.FilePath("path", in); !errors.As(err, &pe) {
			t.Errorf("FilePath(%q) err = %v, want a PathError", in, err)
		}
	}
}
