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
