package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestProvidersDoctorReportsRunningModels: with a runtime running,
// providers doctor checks that runtime's models and says so; --model
// still checks the model named; once it stops, the configuration's.
func TestProvidersDoctorReportsRunningModels(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	d := startRunEnv(t, home, []string{"OPENAI_API_KEY=test-key", "ANTHROPIC_API_KEY=test-key", "HOLON_OPENAI_BASE_URL=http://127.0.0.1:9/v1/"},
		"--model", "openai/gpt-5", "--fallback", "anthropic/claude-sonnet-4-5")
	_, out, errOut := client(t, home, "--json", "providers", "doctor")
	var r struct {
		RuntimePID int `json:"runtime_pid"`
		Candidates []struct {
			ModelRef string `json:"model_ref"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.RuntimePID != d.cmd.Process.Pid || len(r.Candidates) != 2 ||
		r.Candidates[0].ModelRef != "openai/gpt-5" || r.Candidates[1].ModelRef != "anthropic/claude-sonnet-4-5" {
		t.Fatalf("doctor = %s %s (%v); want the running runtime's two models and its pid", out, errOut, err)
	}
	if _, out, _ := client(t, home, "providers", "doctor"); !strings.Contains(out, "the running runtime (pid") {
		t.Errorf("doctor = %q; want it to say the models are the running runtime's", out)
	}
	_, out, _ = client(t, home, "--json", "providers", "doctor", "--model", "anthropic/claude-sonnet-4-5")
	r.RuntimePID, r.Candidates = 0, nil
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.RuntimePID != 0 || len(r.Candidates) != 1 {
		t.Fatalf("doctor --model = %s (%v); want the model named", out, err)
	}
	d.stop()
	if code, out, _ := client(t, home, "providers", "doctor"); code != 0 || strings.Contains(out, "running runtime") || !strings.Contains(out, "model: (none)") {
		t.Fatalf("doctor without a runtime = %d %q; want the configuration's (none)", code, out)
	}
}
