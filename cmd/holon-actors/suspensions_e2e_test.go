package main

import (
	"encoding/json"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
)

// TestSuspensionsListAndRespond drives the operator loop through the
// binary: the scripted model asks a question; suspensions list shows it; a
// wrong answer exits 1 naming the choices; respond answers it and the
// agent resumes with the answer; a different answer afterwards exits 1.
func TestSuspensionsListAndRespond(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [
		{"text": "I need a decision.", "tool_calls": [{"name": "RequestOperatorInput", "arguments": {
			"question": "Refund order #12345?", "timeout_seconds": 3600,
			"choices": [{"value": "approve", "label": "Approve refund"}, {"value": "deny", "label": "Deny refund"}]}}]},
		{"text": "Refund approved."}
	], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)

	code, out, errOut := client(t, home, "prompt", "--wait", "handle the refund")
	if code != 0 || !strings.Contains(out, "Refund order #12345?") || !strings.Contains(out, "holon-actors respond main susp_") {
		t.Fatalf("prompt --wait = %d %q %q; want the question and how to answer it", code, out, errOut)
	}

	code, out, errOut = client(t, home, "--json", "suspensions", "list")
	var list control.SuspensionList
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list.Suspensions) != 1 {
		t.Fatalf("suspensions list --json = %d %q %q; want one open suspension", code, out, errOut)
	}
	id := list.Suspensions[0].ID
	code, out, _ = client(t, home, "suspensions", "list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 {
		t.Fatalf("suspensions list = %d %q; want a header and one line", code, out)
	}
	for _, want := range []string{"main", id, "choice", "approve|deny", "Refund order #12345?", list.Suspensions[0].ExpiresAt.Local().Format("2006-01-02 15:04")} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("suspensions list line %q lacks %q", lines[1], want)
		}
	}

	code, _, errOut = client(t, home, "respond", "main", id, "maybe")
	if code != exitFailure || !strings.Contains(errOut, "not one of the choices") || !strings.Contains(errOut, "approve, deny") {
		t.Fatalf("respond maybe = %d %q; want exit 1 naming the valid choices", code, errOut)
	}
	code, _, errOut = client(t, home, "respond", "--json-value", "main", id, "{not json")
	if code != exitUsage {
		t.Fatalf("respond --json-value with bad JSON = %d %q; want a usage error", code, errOut)
	}
	code, out, errOut = client(t, home, "respond", "main", id, "approve")
	if code != 0 || !strings.Contains(out, `responded with "approve" (Approve refund) by `+currentOperator(t)) {
		t.Fatalf("respond approve = %d %q %q", code, out, errOut)
	}
	if code, out, _ = client(t, home, "--json", "respond", "main", id, "approve"); code != 0 || !strings.Contains(out, `"choice_label": "Approve refund"`) {
		t.Fatalf("the same answer again = %d %q; want the same response", code, out)
	}
	code, _, errOut = client(t, home, "respond", "main", id, "deny")
	if code != exitFailure || !strings.Contains(errOut, "no longer active") || !strings.Contains(errOut, "Hint:") {
		t.Fatalf("a different answer = %d %q; want exit 1 with a hint", code, errOut)
	}

	if code, out, _ = client(t, home, "suspensions", "list"); code != 0 || strings.TrimSpace(out) != "no open suspensions" {
		t.Fatalf("suspensions list after the answer = %d %q", code, out)
	}
	if code, out, _ = client(t, home, "--agent", "main", "suspensions", "list", "--all"); code != 0 || !strings.Contains(out, "responded") || !strings.Contains(out, id) {
		t.Fatalf("suspensions list --all = %d %q", code, out)
	}
	if code, out, _ = client(t, home, "notifications"); code != 0 || !strings.Contains(out, "suspension_requested") || !strings.Contains(out, "Refund order #12345?") {
		t.Fatalf("notifications = %d %q", code, out)
	}
	waitFor(t, func() bool {
		_, out, _ := client(t, home, "briefs")
		return strings.Contains(out, "Refund approved.")
	}, "the resumed turn's brief")
	d.stop()
}

// waitFor polls cond (another process's state) until it holds.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(e2eWait); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %s", what, e2eWait)
		}
		time.Sleep(50 * time.Millisecond) // polling a process we do not control
	}
}

// currentOperator is who the runtime records for this test's user on the
// socket.
func currentOperator(t *testing.T) string {
	t.Helper()
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	return "operator:" + u.Username
}
