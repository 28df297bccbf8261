package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnceQuestion: a model asking the operator ends a once run at once
// with the question and a failure saying once cannot answer; --answer
// answers it and the run goes on to its end.
func TestOnceQuestion(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [{"text": "Asking.", "tool_calls": [{"name": "RequestOperatorInput",
		"arguments": {"question": "Deploy to production?", "response_type": "confirm"}}]}, {"text": "Deploying."}]}`)
	once := []string{"once", "--model", "scripted", "--script", script, "--timeout", "2m"}
	code, out, errOut := client(t, home, append([]string{"--json"}, append(once, "deploy when I say so")...)...)
	var res onceResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitFailure {
		t.Fatalf("once = %d %q %q: %v", code, out, errOut, err)
	}
	if res.Status != "needs_input" || res.Question == nil || res.Question.Question != "Deploy to production?" ||
		res.Failure == nil || res.Failure.Code != codeOnceNeedsInput {
		t.Fatalf("once = %+v, want needs_input with the question", res)
	}
	if !strings.Contains(errOut, "once cannot answer questions") || !strings.Contains(errOut, "--answer") {
		t.Fatalf("stderr %q: want why and what to do", errOut)
	}
	code, out, errOut = client(t, home, append(once, "--answer", "yes", "deploy when I say so")...)
	if code != 0 || strings.TrimSpace(out) != "Deploying." {
		t.Fatalf("once --answer yes = %d %q %q", code, out, errOut)
	}
}
