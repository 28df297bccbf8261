// Package proctest builds the programs that tests run as separate
// processes: each once per test process, without -race, into a temporary
// directory its Remove deletes (call it from TestMain after m.Run).
//
// Multi-node tests run their nodes from such binaries because upstream
// protoactor-go has data races when several remotes talk in one process;
// the test process itself keeps the race detector.
package proctest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Program is a main package a test builds on first use.
type Program struct {
	pkg, name string
	once      sync.Once
	path      string
	err       error
}

// New is the main package at pkg (a path go build takes, relative to the
// test's package directory), built as name.
func New(pkg, name string) *Program { return &Program{pkg: pkg, name: name} }

// Path builds the program the first time it is called and returns its
// path; a failed build fails t with the compiler's output.
func (p *Program) Path(t testing.TB) string {
	t.Helper()
	p.once.Do(func() {
		dir, err := os.MkdirTemp("", p.name)
		if err != nil {
			p.err = err
			return
		}
		p.path = filepath.Join(dir, p.name)
		if out, err := exec.Command("go", "build", "-o", p.path, p.pkg).CombinedOutput(); err != nil {
			p.err = errors.New(string(out))
		}
	})
	if p.err != nil {
		t.Fatalf("build %s: %v", p.name, p.err)
	}
	return p.path
}

// Remove deletes the built program, if it was built.
func (p *Program) Remove() {
	if p.path != "" {
		_ = os.RemoveAll(filepath.Dir(p.path))
	}
}
