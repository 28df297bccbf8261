package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

// TestPromptAdmissionTruths: a prompt sent again with its --message-id
// answers its first admission's event; whitespace-only prompts, overlong
// message ids and agent ids outside the rule are refused with what to do.
func TestPromptAdmissionTruths(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	prompt := func(args ...string) promptResult {
		t.Helper()
		code, out, errOut := client(t, home, append([]string{"--json", "prompt"}, args...)...)
		var res promptResult
		if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
			t.Fatalf("prompt %q = %d %q %q", args, code, out, errOut)
		}
		return res
	}
	first := prompt("--message-id", "op-1", "--wait", "first")
	prompt("--wait", "second")
	again := prompt("--message-id", "op-1", "first")
	if !again.Duplicate || again.EventSeq != first.EventSeq {
		t.Fatalf("retried prompt = %+v, want a duplicate of event %d", again, first.EventSeq)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"prompt", "  ", "\t"}, exitUsage, "only whitespace"},
		{[]string{"once", "--model", "scripted", "--script", script, " "}, exitUsage, "only whitespace"},
		{[]string{"prompt", "--message-id", strings.Repeat("m", messages.MessageIDMaxLen+1), "hi"}, exitFailure, "at most 128 bytes"},
		{[]string{"--agent", "bad id", "prompt", "hi"}, exitFailure, messages.AgentIDRule},
		{[]string{"agents", "create", strings.Repeat("a", messages.AgentIDMaxLen+1)}, exitFailure, messages.AgentIDRule},
	} {
		if code, _, errOut := client(t, home, tc.args...); code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q = %d %q, want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
	if code, _, errOut := client(t, home, "run", "--default-agent", "no/slash"); code != exitUsage || !strings.Contains(errOut, messages.AgentIDRule) {
		t.Errorf("run --default-agent no/slash = %d %q", code, errOut)
	}
	d.stop()
}

// TestPromptTableTellsDuplicatesAndDotIDs: the table output of a prompt
// sent again with its --message-id says it was not queued again (not
// "admitted"), and "." or ".." as an agent id is refused naming the id,
// not answered by another route (agents status .. printed the default
// agent's status).
func TestPromptTableTellsDuplicatesAndDotIDs(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	if code, out, errOut := client(t, home, "prompt", "--message-id", "op-1", "hello"); code != 0 || !strings.HasPrefix(out, "admitted op-1 ") {
		t.Fatalf("prompt = %d %q %q", code, out, errOut)
	}
	code, out, errOut := client(t, home, "prompt", "--message-id", "op-1", "other text")
	if code != 0 || !strings.Contains(out, "already admitted op-1") || !strings.Contains(out, "not queued again") {
		t.Fatalf("prompt again = %d %q %q, want it to say the copy was not queued", code, out, errOut)
	}
	for _, args := range [][]string{{"agents", "status", ".."}, {"agents", "state", "."}, {"--agent", "..", "status"}, {"--agent", ".", "prompt", "hi"}} {
		code, out, errOut := client(t, home, args...)
		if code != exitFailure || out != "" || !strings.Contains(errOut, "not a valid agent id") || !strings.Contains(errOut, messages.AgentIDRule) {
			t.Errorf("%q = %d %q %q, want the id refused with the rule", args, code, out, errOut)
		}
	}
	d.stop()
}
