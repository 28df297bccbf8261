package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentsBudget drives budgets through the binary: the config's
// runtime-wide default applies to an agent without its own, a prompt
// past it fails with a brief that says how to raise it, a negative limit
// is a usage error, and a raised budget lets the next prompt run.
func TestAgentsBudget(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"token_budget": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	if code, out, errOut := client(t, home, "agents", "budget"); code != 0 || !strings.Contains(out, "0 of 1 tokens spent (the runtime's default budget)") {
		t.Fatalf("budget = %d %q %q", code, out, errOut)
	}
	if code, out, errOut := client(t, home, "prompt", "--wait", "hello there"); code != 0 || strings.TrimSpace(out) != "echo: hello there" {
		t.Fatalf("first prompt = %d %q %q", code, out, errOut)
	}
	code, out, errOut := client(t, home, "prompt", "--wait", "once more")
	if code == 0 || !strings.Contains(out+errOut, "holon-actors agents budget main --tokens N") {
		t.Fatalf("prompt over the budget = %d %q %q", code, out, errOut)
	}
	if code, _, errOut := client(t, home, "agents", "budget", "--tokens", "-5"); code != exitUsage || !strings.Contains(errOut, "--tokens") {
		t.Fatalf("negative budget = %d %q", code, errOut)
	}
	if code, out, errOut := client(t, home, "agents", "budget", "--tokens", "1000", "--reason", "room"); code != 0 || !strings.Contains(out, "of 1000 tokens spent") {
		t.Fatalf("raise = %d %q %q", code, out, errOut)
	}
	if code, out, errOut := client(t, home, "prompt", "--wait", "third"); code != 0 || strings.TrimSpace(out) != "echo: third" {
		t.Fatalf("prompt after the raise = %d %q %q", code, out, errOut)
	}
	code, out, _ = client(t, home, "--json", "agents", "budget", "--reset")
	var got struct {
		AgentID     string `json:"agent_id"`
		LimitTokens uint64 `json:"limit_tokens"`
		SpentTokens uint64 `json:"spent_tokens"`
		Source      string `json:"source"`
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || got.AgentID != "main" || got.LimitTokens != 1000 ||
		got.SpentTokens != 0 || got.Source != "agent" {
		t.Fatalf("reset = %d %q (%+v)", code, out, got)
	}
	d.stop()
}
