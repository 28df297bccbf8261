package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// gateCycles is how many crash cycles TestRunInlineCommandKilledAtCrash
// runs: each one a command SIGKILLed with its runtime inside its inline
// window, the runtime restarted, and its effect counted.
const gateCycles = 3

// inlineScript writes a script whose first round runs cmd inline (a long
// yield window), and returns it with the directory its commands use.
func inlineScript(t *testing.T, cmd string) (script, dir string) {
	t.Helper()
	dir = t.TempDir()
	args, _ := json.Marshal(map[string]any{"cmd": strings.ReplaceAll(cmd, "DIR", dir), "yield_time_ms": 600000})
	return writeScript(t, fmt.Sprintf(`{"steps": [
		{"text": "Running it.", "tool_calls": [{"name": "ExecCommand", "arguments": %s}]},
		{"text": "Done."}
	], "then": "echo"}`, args)), dir
}

// waitPid waits until the command wrote its pid to file name of dir.
func waitPid(t *testing.T, dir, name string) int {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("%s holds %q", name, b)
			}
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command never wrote %s", name)
		}
		time.Sleep(10 * time.Millisecond) // polling a process we do not control
	}
}

// alive reports whether pid runs (exists and is not a zombie).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// toolResult waits, after a restart, for the tool_executed of the call cut
// by the crash.
func toolResult(t *testing.T, home string) messages.ToolExecuted {
	t.Helper()
	var te messages.ToolExecuted
	if err := json.Unmarshal(followEvents(t, home)(ofKind(messages.EventToolExecuted)).Payload, &te); err != nil {
		t.Fatal(err)
	}
	return te
}

// TestRunInlineCommandKilledAtCrash: a command still inside its inline
// yield window when the runtime is SIGKILLed is found by the restarted
// runtime from its journaled launch, killed with the child it moved out
// of its group (setsid), and reported killed: its effect, which it would
// land once released, never happens after the restart's report.
func TestRunInlineCommandKilledAtCrash(t *testing.T) {
	t.Parallel()
	effects := 0
	for cycle := range gateCycles {
		home := filepath.Join(t.TempDir(), "home")
		script, dir := inlineScript(t, `setsid sh -c 'echo $$ > DIR/escaped; while [ ! -e DIR/go ]; do sleep 0.02; done; echo escaped >> DIR/effects' > /dev/null 2>&1 &
echo $$ > DIR/pid; while [ ! -e DIR/go ]; do sleep 0.02; done; echo effect >> DIR/effects`)
		d := startRun(t, home, "--model", "scripted", "--script", script)
		if code, _, errOut := client(t, home, "prompt", "run it"); code != 0 {
			t.Fatalf("prompt = %d %s", code, errOut)
		}
		pid, escaped := waitPid(t, dir, "pid"), waitPid(t, dir, "escaped")
		d.kill()
		if !alive(pid) || !alive(escaped) {
			t.Fatalf("cycle %d: the command did not outlive the SIGKILLed runtime: nothing to find", cycle)
		}

		d = startRun(t, home, "--model", "scripted", "--script", script)
		te := toolResult(t, home)
		if te.Status != messages.ToolInterrupted || !strings.Contains(te.Receipt, "was still running, so it was killed") {
			t.Fatalf("cycle %d: the cut call was recorded %s: %s", cycle, te.Status, te.Receipt)
		}
		if alive(pid) || alive(escaped) {
			t.Fatalf("cycle %d: reported killed, but the command (%v) or its escaped child (%v) still runs", cycle, alive(pid), alive(escaped))
		}
		if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "effects")); err == nil {
			effects += strings.Count(string(b), "\n")
		}
		d.stop()
	}
	t.Logf("%d crash cycles, %d effects after the restart's report", gateCycles, effects)
	if effects != 0 {
		t.Fatalf("%d effects landed after the restart reported the commands killed", effects)
	}
}

// TestRunCommandFinishedWhileDown: a command that ends by itself while
// the runtime is down is reported, after the restart, with its real exit
// status and output, not as interrupted.
func TestRunCommandFinishedWhileDown(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script, dir := inlineScript(t, `echo $$ > DIR/pid; while [ ! -e DIR/go ]; do sleep 0.02; done; echo finished-output; echo to-stderr >&2; exit 7`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	if code, _, errOut := client(t, home, "prompt", "run it"); code != 0 {
		t.Fatalf("prompt = %d %s", code, errOut)
	}
	pid := waitPid(t, dir, "pid")
	d.kill()
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(e2eWait); alive(pid); time.Sleep(10 * time.Millisecond) { // polling a process we do not control
		if time.Now().After(deadline) {
			t.Fatal("the command did not finish while the runtime was down")
		}
	}

	d = startRun(t, home, "--model", "scripted", "--script", script)
	te := toolResult(t, home)
	for _, want := range []string{"finished by itself while the runtime was down", "Process exited with code 7", "finished-output", "to-stderr"} {
		if te.Status != messages.ToolOK || !strings.Contains(te.Receipt, want) {
			t.Fatalf("the call was recorded %s, want ok with %q:\n%s", te.Status, want, te.Receipt)
		}
	}
	d.stop()
}

// TestRunCompletedCommandLeavesNoEscapedChild: a command that completes
// inline takes the child it moved out of its group (setsid) with it.
func TestRunCompletedCommandLeavesNoEscapedChild(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script, dir := inlineScript(t, `setsid sh -c 'echo $$ > DIR/escaped; exec sleep 1000' > /dev/null 2>&1 & while [ ! -s DIR/escaped ]; do sleep 0.02; done; echo started`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	next := followEvents(t, home)
	if code, _, errOut := client(t, home, "prompt", "run it"); code != 0 {
		t.Fatalf("prompt = %d %s", code, errOut)
	}
	var te messages.ToolExecuted
	if err := json.Unmarshal(next(ofKind(messages.EventToolExecuted)).Payload, &te); err != nil {
		t.Fatal(err)
	}
	escaped := waitPid(t, dir, "escaped")
	if te.Status != messages.ToolOK || !strings.Contains(te.Receipt, "started") {
		t.Fatalf("the call was recorded %s: %s", te.Status, te.Receipt)
	}
	if alive(escaped) {
		t.Fatal("the escaped child outlived its completed command")
	}
	_ = next(func(ev control.StreamEvent) bool { return ev.Provenance.Kind == messages.EventBriefRecorded })
	d.stop()
}
