package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIHintsAndTriggerNote: the runtime's refusals reach a CLI user
// with the flag or command to use, not an HTTP route or a JSON field;
// a trigger URL over the socket only says that --advertise is needed,
// and says nothing once it is given.
func TestCLIHintsAndTriggerNote(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	code, _, errOut := client(t, home, "agents", "trigger", "--revoke")
	if code != exitFailure || !strings.Contains(errOut, "Hint: create one with holon-actors agents trigger") || strings.Contains(errOut, "POST") {
		t.Errorf("trigger --revoke without one = %d %q, want a CLI hint", code, errOut)
	}
	code, _, errOut = client(t, home, "prompt", "--message-id", strings.Repeat("m", 200), "hi")
	if code != exitFailure || !strings.Contains(errOut, "--message-id is 200 bytes long") || strings.Contains(errOut, "message_id") {
		t.Errorf("prompt with a long --message-id = %d %q, want the flag named", code, errOut)
	}
	code, out, errOut := client(t, home, "agents", "trigger")
	if code != 0 || !strings.HasPrefix(out, "unix://") || strings.Count(out, "\n") != 1 || !strings.Contains(errOut, "--advertise") {
		t.Errorf("trigger over the socket = %d %q %q, want the URL alone on stdout and a note naming --advertise", code, out, errOut)
	}
	d.stop()

	d = startRun(t, home, "--model", "scripted", "--script", script, "--advertise", "https://agents.example.com")
	code, out, errOut = client(t, home, "agents", "trigger")
	if code != 0 || !strings.HasPrefix(out, "https://agents.example.com/triggers/") || errOut != "" {
		t.Errorf("trigger with --advertise = %d %q %q, want its URL and no note", code, out, errOut)
	}
	d.stop()
}
