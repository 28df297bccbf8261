package exec_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

func TestExecCompleted(t *testing.T) {
	e := newEnv(t)
	tool := exec.ExecCommand(e.cfg)
	cases := []struct {
		name           string
		args           exec.ExecArgs
		code           int
		stdout, stderr string
		summary        string
	}{
		{"stdout", exec.ExecArgs{Cmd: "echo hello"}, 0, "hello\n", "", "command exited with code 0"},
		{"stderr and code", exec.ExecArgs{Cmd: "echo oops >&2; exit 3"}, 3, "", "oops\n", "command exited with code 3"},
		{"workdir", exec.ExecArgs{Cmd: "pwd", Workdir: "sub"}, 0, e.cfg.Root.Dir() + "/sub\n", "", ""},
		{"sh", exec.ExecArgs{Cmd: "basename $0", Shell: "sh"}, 0, "sh\n", "", ""},
		{"login", exec.ExecArgs{Cmd: "shopt -q login_shell && echo login", Login: true}, 0, "login\n", "", ""},
		{"json", exec.ExecArgs{Cmd: `echo '{"a":"<b>","n":[1]}'`}, 0, "{\"a\":\"<b>\",\"n\":[1]}\n", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, env := call(t, tool, c.args)
			r := execResult(t, env)
			if r.Disposition != exec.DispositionCompleted || r.ExitStatus == nil || *r.ExitStatus != c.code {
				t.Fatalf("result = %s", env.Result)
			}
			if got := deref(r.StdoutPreview); got != c.stdout {
				t.Errorf("stdout = %q, want %q", got, c.stdout)
			}
			if got := deref(r.StderrPreview); got != c.stderr {
				t.Errorf("stderr = %q, want %q", got, c.stderr)
			}
			if c.summary != "" && env.SummaryText != c.summary {
				t.Errorf("summary = %q", env.SummaryText)
			}
			if r.TaskHandle != nil || r.InitialOutputPreview != nil || len(r.Artifacts) != 0 || *r.Truncated {
				t.Errorf("completed result mixes in other fields: %s", env.Result)
			}
			if strings.Contains(res.Receipt, `\"`) || !strings.HasPrefix(res.Receipt, "Process exited with code") {
				t.Errorf("receipt = %q", res.Receipt)
			}
		})
	}
	if entries, _ := os.ReadDir(e.cfg.Artifacts.Dir() + "/exec"); len(entries) != 0 {
		t.Errorf("untruncated output left %d artifact directories", len(entries))
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func TestExecJSONOutputReadable(t *testing.T) {
	e := newEnv(t)
	res, _ := call(t, exec.ExecCommand(e.cfg), exec.ExecArgs{Cmd: `echo '{"a":"<b>","n":[1]}'`})
	if want := "stdout:\n{\n  \"a\": \"<b>\",\n  \"n\": [\n    1\n  ]\n}"; !strings.Contains(res.Receipt, want) {
		t.Fatalf("receipt = %q", res.Receipt)
	}
}

func TestExecKilledBySignal(t *testing.T) {
	e := newEnv(t)
	_, env := call(t, exec.ExecCommand(e.cfg), exec.ExecArgs{Cmd: "kill -KILL $$"})
	if r := execResult(t, env); r.Signal != "SIGKILL" {
		t.Fatalf("result = %s", env.Result)
	}
}

func TestExecWorkdirOutsideRoot(t *testing.T) {
	e := newEnv(t)
	tool := exec.ExecCommand(e.cfg)
	for _, wd := range []string{"..", "../outside", "/", "/etc", "sub/../..", "escape", e.base + "/outside", "./../x"} {
		res, env := call(t, tool, exec.ExecArgs{Cmd: "touch pwned", Workdir: wd})
		if res.Status != messages.ToolError || env.Error.Kind != tools.KindExecutionRootViolation || env.Error.RecoveryHint == "" {
			t.Errorf("workdir %q: %s", wd, res.Envelope)
		}
	}
	if _, err := os.Stat(e.base + "/outside/pwned"); err == nil {
		t.Fatal("a command ran outside the execution root")
	}
}

func TestExecSpawnFailures(t *testing.T) {
	e := newEnv(t)
	tool := exec.ExecCommand(e.cfg)
	cases := []struct {
		name  string
		args  exec.ExecArgs
		field string
	}{
		{"missing shell", exec.ExecArgs{Cmd: "true", Shell: "no-such-shell"}, "shell"},
		{"missing workdir", exec.ExecArgs{Cmd: "true", Workdir: "nope"}, "workdir"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, env := call(t, tool, c.args)
			var d map[string]string
			_ = json.Unmarshal(env.Error.Details, &d)
			if res.Status != messages.ToolError || env.Error.Kind != exec.KindSpawnFailed || d["field"] != c.field || env.Error.RecoveryHint == "" {
				t.Errorf("result = %s", res.Envelope)
			}
		})
	}
}

func TestExecInvalidInput(t *testing.T) {
	e := newEnv(t)
	tool := exec.ExecCommand(e.cfg)
	for args, field := range map[string]string{
		`{}`: "cmd", `{"cmd":"  "}`: "cmd", `{"cmd":"x","duplicate_policy":"always"}`: "duplicate_policy",
		`{"cmd":"x","yield_time_ms":"soon"}`: "yield_time_ms", `{"cmd":"x","tty":1}`: "tty", `{"cmd":"x","yield_time_ms":-1}`: "yield_time_ms",
	} {
		res := tool.Call(context.Background(), json.RawMessage(args))
		var env tools.Envelope
		_ = json.Unmarshal(res.Envelope, &env)
		var d map[string]string
		_ = json.Unmarshal(env.Error.Details, &d)
		if env.Error.Kind != tools.KindInvalidToolInput || d["field"] != field {
			t.Errorf("%s: %s", args, res.Envelope)
		}
	}
}

// TestExecLargeOutputBoundedMemory captures 10 MB of output: the preview
// stays within budget, the full output is in the stdout artifact, and the
// call allocates a small fraction of the output's size.
func TestExecLargeOutputBoundedMemory(t *testing.T) {
	e := newEnv(t)
	tool := exec.ExecCommand(e.cfg)
	const size = 10 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, env := call(t, tool, exec.ExecArgs{Cmd: "yes 'line of output' | head -c 10485760; echo done >&2"})
	runtime.ReadMemStats(&after)
	r := execResult(t, env)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size/4 {
		t.Errorf("the call allocated %d bytes for %d bytes of output", alloc, size)
	}
	if !*r.Truncated || !r.StdoutTruncated || r.StderrTruncated || r.StdoutArtifact == nil || r.StderrArtifact != nil {
		t.Fatalf("result = %.500s", env.Result)
	}
	path := r.Artifacts[*r.StdoutArtifact].Path
	if fi, err := os.Stat(path); err != nil || fi.Size() != size {
		t.Fatalf("stdout artifact %s: %v %v", path, fi, err)
	}
	if n := len(*r.StdoutPreview) + len(*r.StderrPreview); n > 32000 {
		t.Errorf("previews are %d chars, over the 32000 default budget", n)
	}
	if !strings.Contains(res.Receipt, "[output truncated: showing first") || !strings.Contains(res.Receipt, "[full stdout: "+path+"]") ||
		!strings.Contains(res.Receipt, "stderr:\ndone") {
		t.Errorf("receipt = %.300s ... %s", res.Receipt, res.Receipt[len(res.Receipt)-600:])
	}
	if _, env2 := call(t, tool, exec.ExecArgs{Cmd: "yes | head -c 100000", MaxOutputTokens: 100}); len(*execResult(t, env2).StdoutPreview) > 400 {
		t.Error("max_output_tokens did not bound the preview")
	}
}

func TestExecTTY(t *testing.T) {
	e := newEnv(t)
	_, env := call(t, exec.ExecCommand(e.cfg), exec.ExecArgs{Cmd: "test -t 0 && test -t 1 && echo on-a-tty; echo err >&2", TTY: true})
	r := execResult(t, env)
	if r.OutputPreview == nil || !strings.Contains(*r.OutputPreview, "on-a-tty") || !strings.Contains(*r.OutputPreview, "err") ||
		r.StdoutPreview != nil || r.ExitStatus == nil || *r.ExitStatus != 0 {
		t.Fatalf("result = %s", env.Result)
	}
}

func TestExecPromotionAndInput(t *testing.T) {
	for _, tty := range []bool{false, true} {
		t.Run(map[bool]string{false: "stdin", true: "tty"}[tty], func(t *testing.T) {
			e := newEnv(t)
			tool := exec.ExecCommand(e.cfg)
			args := exec.ExecArgs{Cmd: "echo ready; read line; echo got:$line", YieldTimeMS: 1, AcceptsInput: true, TTY: tty}
			res, env := call(t, tool, args)
			r := execResult(t, env)
			if r.Disposition != exec.DispositionPromoted || r.TaskHandle == nil || r.TaskHandle.Kind != "command_task" ||
				r.ExitStatus != nil || r.Truncated != nil || r.InitialOutputTruncated == nil {
				t.Fatalf("result = %s", env.Result)
			}
			if !strings.HasPrefix(res.Receipt, "Command promoted to background task\nTask: "+r.TaskHandle.TaskID) {
				t.Errorf("receipt = %q", res.Receipt)
			}
			task := e.host.task(t, r.TaskHandle.TaskID)
			if task.Identity.CmdDigest != exec.Digest(task.Process.Spec()) || task.Process.Pgid() <= 0 {
				t.Errorf("identity = %+v", task.Identity)
			}
			if _, err := task.Process.Write([]byte("hello\n")); err != nil {
				t.Fatal(err)
			}
			status, err := task.Process.Wait(waitCtx(t))
			if err != nil || status.Code != 0 {
				t.Fatalf("Wait = %v, %v", status, err)
			}
			out := task.Process.Output()
			name := out.Stdout + out.Combined
			b, _ := os.ReadFile(e.cfg.Artifacts.Path(name))
			if !strings.Contains(string(b), "got:hello") {
				t.Errorf("output = %q", b)
			}
		})
	}
}

func TestExecDuplicatePolicy(t *testing.T) {
	e := newEnv(t)
	tool := exec.ExecCommand(e.cfg)
	args := exec.ExecArgs{Cmd: "read never", YieldTimeMS: 1, AcceptsInput: true}
	_, env := call(t, tool, args)
	first := execResult(t, env)
	res, env := call(t, tool, args)
	again := execResult(t, env)
	if again.Disposition != exec.DispositionAlreadyRunning || again.TaskHandle.TaskID != first.TaskHandle.TaskID ||
		again.Command == nil || again.Command.Cmd != "read never" || again.InitialOutputPreview != nil {
		t.Fatalf("second call = %s", env.Result)
	}
	if !strings.Contains(res.Receipt, "already running as background task "+first.TaskHandle.TaskID) {
		t.Errorf("receipt = %q", res.Receipt)
	}
	args.DuplicatePolicy = exec.StartNew
	_, env = call(t, tool, args)
	if third := execResult(t, env); third.Disposition != exec.DispositionPromoted || third.TaskHandle.TaskID == first.TaskHandle.TaskID {
		t.Fatalf("start_new = %s", env.Result)
	}
}

func TestExecWithoutHostStopsAtYield(t *testing.T) {
	e := newEnv(t)
	e.cfg.Tasks = nil
	res, env := call(t, exec.ExecCommand(e.cfg), exec.ExecArgs{Cmd: "echo $$ > pid; exec sleep 1000", YieldTimeMS: 1})
	if res.Status != messages.ToolError || env.Error.Kind != exec.KindCommandTimeout {
		t.Fatalf("result = %s", res.Envelope)
	}
	assertNoLeftover(t, e)
}

func TestExecPromotionRefused(t *testing.T) {
	e := newEnv(t)
	e.host.err = errors.New("task table full")
	res, env := call(t, exec.ExecCommand(e.cfg), exec.ExecArgs{Cmd: "echo $$ > pid; exec sleep 1000", YieldTimeMS: 1})
	if res.Status != messages.ToolError || env.Error.Kind != exec.KindPromotion || !strings.Contains(env.Error.Message, "task table full") {
		t.Fatalf("result = %s", res.Envelope)
	}
	assertNoLeftover(t, e)
}

// assertNoLeftover checks the process whose pid the command wrote to
// ./pid is gone, if it got as far as writing it.
func assertNoLeftover(t *testing.T, e *env) {
	t.Helper()
	b, err := os.ReadFile(e.cfg.Root.Dir() + "/pid")
	if err != nil {
		return
	}
	var pid int
	if _, err := fmtSscan(strings.TrimSpace(string(b)), &pid); err == nil {
		if err := exec.WaitGroupGone(waitCtx(t), pid); err != nil {
			exec.KillGroup(pid)
			t.Error(err)
		}
	}
}

func TestExecContextBinding(t *testing.T) {
	e := newEnv(t)
	tool := exec.ExecCommand(exec.Config{})
	res := tool.Call(context.Background(), json.RawMessage(`{"cmd":"true"}`))
	if res.Status != messages.ToolError || !strings.Contains(res.Receipt, "runtime_misconfigured") {
		t.Fatalf("unbound call = %s", res.Receipt)
	}
	res = tool.Call(exec.WithConfig(context.Background(), e.cfg), json.RawMessage(`{"cmd":"true"}`))
	if res.Status != messages.ToolOK {
		t.Fatalf("bound call = %s", res.Receipt)
	}
}

// TestExecBackgroundChildIsPromoted: `server &` keeps the output open
// after the shell exits, so the command is still running at its yield
// time and becomes a task instead of being killed.
func TestExecBackgroundChildIsPromoted(t *testing.T) {
	e := newEnv(t)
	_, env := call(t, exec.ExecCommand(e.cfg), exec.ExecArgs{Cmd: "sleep 1000 & echo serving", YieldTimeMS: 1})
	r := execResult(t, env)
	if r.Disposition != exec.DispositionPromoted {
		t.Fatalf("result = %s", env.Result)
	}
	task := e.host.task(t, r.TaskHandle.TaskID)
	if !exec.GroupAlive(task.Process.Pgid()) {
		t.Fatal("the background child was killed")
	}
}

// TestExecCancelledCallIsKilled: a call cancelled while its command runs
// inline (its turn was interrupted or stopped) kills the command's process
// group and reports the call interrupted; the command is not handed to the
// task host. The command would leave a marker once released if it
// survived.
func TestExecCancelledCallIsKilled(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	pidFile, goFile, marker := filepath.Join(dir, "pid"), filepath.Join(dir, "go"), filepath.Join(dir, "marker")
	cmd := fmt.Sprintf(`echo $$ > %s; while [ ! -e %s ]; do sleep 0.02; done; touch %s`, pidFile, goFile, marker)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan tools.Result, 1)
	go func() {
		done <- exec.ExecCommand(e.cfg).Call(ctx, mustArgs(t, exec.ExecArgs{Cmd: cmd, YieldTimeMS: 600000}))
	}()
	pgid := waitPID(t, pidFile)
	cancel()
	res := <-done
	if err := os.WriteFile(goFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var env tools.Envelope
	if err := json.Unmarshal(res.Envelope, &env); err != nil {
		t.Fatal(err)
	}
	if res.Status != messages.ToolInterrupted || env.Error == nil || env.Error.Kind != tools.KindInterrupted {
		t.Fatalf("cancelled call = %s %s, want interrupted", res.Status, res.Receipt)
	}
	if n := e.host.count(); n != 0 {
		t.Fatalf("the cancelled command became %d task(s)", n)
	}
	waitGroupGone(t, pgid) // killed, or released by the go file if it survived
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Fatalf("the cancelled command ran on: marker %v", err)
	}
}

// TestExecHugeYieldIsCapped: a yield that would overflow a Duration is
// the maximum, not an immediate promotion.
func TestExecHugeYieldIsCapped(t *testing.T) {
	e := newEnv(t)
	_, env := call(t, exec.ExecCommand(e.cfg), json.RawMessage(`{"cmd":"echo ok","yield_time_ms":9000000000000000}`))
	if r := execResult(t, env); r.Disposition != exec.DispositionCompleted {
		t.Fatalf("result = %s", env.Result)
	}
}
