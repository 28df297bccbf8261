package exec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// testHost is the in-package TaskHost: it keeps promoted processes and
// stops them at cleanup.
type testHost struct {
	mu    sync.Mutex
	tasks map[string]exec.Promotion
	n     int
	err   error // Promote fails with it when set
}

func (h *testHost) FindRunning(_ context.Context, digest, workdir string) (exec.TaskHandle, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id, p := range h.tasks {
		if _, _, done := p.Process.Exit(); !done && p.Identity.CmdDigest == digest && p.Identity.Workdir == workdir {
			return exec.TaskHandle{TaskID: id, Kind: exec.TaskKindCommand}, true
		}
	}
	return exec.TaskHandle{}, false
}

func (h *testHost) Promote(_ context.Context, p exec.Promotion) (exec.TaskHandle, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err != nil {
		return exec.TaskHandle{}, h.err
	}
	h.n++
	id := fmt.Sprintf("task_%d", h.n)
	if h.tasks == nil {
		h.tasks = map[string]exec.Promotion{}
	}
	h.tasks[id] = p
	return exec.TaskHandle{TaskID: id, Kind: exec.TaskKindCommand}, nil
}

func (h *testHost) task(t *testing.T, id string) exec.Promotion {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	p, ok := h.tasks[id]
	if !ok {
		t.Fatalf("no task %s", id)
	}
	return p
}

func (h *testHost) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.tasks)
}

func (h *testHost) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, p := range h.tasks {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, _ = p.Process.Stop(ctx, time.Second)
		cancel()
		_ = p.Process.Close()
	}
}

type env struct {
	cfg  exec.Config
	host *testHost
	base string
}

// newEnv makes an execution root and an artifact directory in a temp dir,
// a test host, and cleanup that stops every promoted process.
func newEnv(t *testing.T) *env { return newEnvB(t) }

func newEnvB(t testing.TB) *env {
	t.Helper()
	base := t.TempDir()
	for _, d := range []string{"root/sub", "outside", "artifacts"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(base, "root", "escape")); err != nil {
		t.Fatal(err)
	}
	root, err := tools.NewExecRoot(filepath.Join(base, "root"))
	if err != nil {
		t.Fatal(err)
	}
	arts, err := tools.NewArtifactDir(filepath.Join(base, "artifacts"))
	if err != nil {
		t.Fatal(err)
	}
	h := &testHost{}
	t.Cleanup(h.close)
	n := 0
	var mu sync.Mutex
	return &env{host: h, base: base, cfg: exec.Config{Root: root, Artifacts: arts, Tasks: h, StopGrace: 5 * time.Second,
		NewID: func() string { mu.Lock(); defer mu.Unlock(); n++; return fmt.Sprintf("cmd_%d", n) }}}
}

func call(t *testing.T, tool tools.Tool, args any) (tools.Result, tools.Envelope) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res := tool.Call(context.Background(), raw)
	var env tools.Envelope
	if err := json.Unmarshal(res.Envelope, &env); err != nil {
		t.Fatalf("envelope %s: %v", res.Envelope, err)
	}
	return res, env
}

func execResult(t *testing.T, env tools.Envelope) exec.ExecResult {
	t.Helper()
	if env.Status != tools.StatusSuccess {
		t.Fatalf("status %s: %+v", env.Status, env.Error)
	}
	var r exec.ExecResult
	if err := json.Unmarshal(env.Result, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// waitOutput waits until the process's stream which contains want; the
// deadline only guards against a hang.
func waitOutput(t *testing.T, p *exec.Process, which, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		pv, _ := p.Preview(which, 1<<20)
		if strings.Contains(pv.Text, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never contained %q; it has %q", which, want, pv.Text)
		}
		time.Sleep(5 * time.Millisecond) // polling a condition, not timing
	}
}

// output is everything the process wrote to which so far.
func output(t *testing.T, p *exec.Process, which string) string {
	t.Helper()
	pv, err := p.Preview(which, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	return pv.Text
}

func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func fmtSscan(s string, v *int) (int, error) { return fmt.Sscan(s, v) }

func mustArgs(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// waitPID waits until a command has written its pid to path.
func waitPID(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var pid int
		if b, err := os.ReadFile(path); err == nil {
			if _, err := fmtSscan(strings.TrimSpace(string(b)), &pid); err == nil && pid > 0 {
				return pid
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", path)
		}
		time.Sleep(5 * time.Millisecond) // polling a condition, not timing
	}
}

// waitGroupGone waits until process group pgid has no process left (a
// killed process may take a moment to be reaped).
func waitGroupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for exec.GroupAlive(pgid) {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still alive", pgid)
		}
		time.Sleep(5 * time.Millisecond) // polling a condition, not timing
	}
}
