package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// clientStdin is client with stdin.
func clientStdin(t *testing.T, home, in string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"--home", home}, args...)...)
	var out, errb strings.Builder
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(in), &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String(), errb.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errb.String()
	}
	t.Fatal(err)
	return 0, "", ""
}

// tailJSON runs tail --json with args and decodes its events.
func tailJSON(t *testing.T, home string, args ...string) []control.StreamEvent {
	t.Helper()
	code, out, errOut := client(t, home, append([]string{"--json", "tail"}, args...)...)
	if code != 0 {
		t.Fatalf("tail %v = %d %s", args, code, errOut)
	}
	var evs []control.StreamEvent
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev control.StreamEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("tail %v printed %q: %v", args, line, err)
		}
		evs = append(evs, ev)
	}
	return evs
}

func seqsOf(evs []control.StreamEvent) []uint64 {
	out := make([]uint64, len(evs))
	for i, ev := range evs {
		out[i] = ev.Provenance.EventSeq
	}
	return out
}

// TestPromptInputsAndNewestFirst: prompt reads its text from the
// arguments, stdin (-) or --file, refusing bad input with nothing
// admitted; tail shows the newest events (--last, its --limit alias),
// --after goes back, --display filters by mode; transcript and briefs
// take --last.
func TestPromptInputsAndNewestFirst(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"then": "echo"}`)
	startRun(t, home, "--model", "scripted", "--script", script)

	file := filepath.Join(t.TempDir(), "prompt.txt")
	if err := os.WriteFile(file, []byte("three\nfrom a file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"arguments", "", []string{"one"}, "echo: one"},
		{"stdin", "two\nfrom stdin", []string{"-"}, "echo: two\nfrom stdin"},
		{"file", "", []string{"--file", file}, "echo: three\nfrom a file"},
	} {
		code, out, errOut := clientStdin(t, home, c.stdin, append([]string{"prompt", "--wait"}, c.args...)...)
		if code != 0 || strings.TrimSpace(out) != c.want {
			t.Fatalf("prompt %s = %d %q %q, want %q", c.name, code, out, errOut, c.want)
		}
	}
	for _, c := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"missing file", "", []string{"--file", filepath.Join(t.TempDir(), "nope.txt")}, "no such file"},
		{"file and text", "", []string{"--file", file, "text"}, "not both"},
		{"empty stdin", "  \n", []string{"-"}, "empty"},
		{"no text", "", nil, "- to read it from stdin, or --file"},
		{"binary stdin", "\xff\xfe", []string{"-"}, "not UTF-8"},
		{"directory", "", []string{"--file", t.TempDir()}, "is a directory: give a file"},
	} {
		code, _, errOut := clientStdin(t, home, c.stdin, append([]string{"prompt"}, c.args...)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("prompt %s = %d %q, want exit %d saying %q", c.name, code, errOut, exitUsage, c.want)
		}
	}
	// A stopped agent writes nothing more: the reads below are stable.
	if code, _, errOut := client(t, home, "agents", "stop"); code != 0 {
		t.Fatalf("stop = %d %s", code, errOut)
	}
	all := tailJSON(t, home, "--last", "1000")
	admitted := 0
	for _, ev := range all {
		if ev.Provenance.Kind == messages.EventMessageAdmitted {
			admitted++
		}
	}
	if admitted != 3 {
		t.Fatalf("%d messages admitted, want the 3 good prompts only", admitted)
	}
	high := all[len(all)-1].Provenance.EventSeq
	if got := seqsOf(tailJSON(t, home, "--last", "3")); len(got) != 3 || got[0] != high-2 || got[2] != high {
		t.Fatalf("tail --last 3 = %v, want %d..%d", got, high-2, high)
	}
	if got := seqsOf(tailJSON(t, home, "--limit", "2")); len(got) != 2 || got[1] != high {
		t.Fatalf("tail --limit 2 = %v, want the newest 2", got)
	}
	if got := seqsOf(tailJSON(t, home)); len(got) != 20 || got[19] != high {
		t.Fatalf("tail = %v, want the newest 20", got)
	}
	if got := seqsOf(tailJSON(t, home, "--after", "0", "--last", "2")); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("tail --after 0 --last 2 = %v, want [1 2]", got)
	}
	info := tailJSON(t, home, "--last", "1000", "--display", "info")
	briefs := 0
	for _, ev := range info {
		switch ev.Provenance.Kind {
		case messages.EventBriefRecorded:
			briefs++
		case messages.EventAgentStateChanged, messages.EventToolExecuted:
			t.Errorf("tail --display info shows %s", ev.Provenance.Kind)
		}
	}
	if briefs != 3 || len(info) >= len(all) {
		t.Fatalf("tail --display info: %d briefs in %d of %d events; want 3 in fewer", briefs, len(info), len(all))
	}
	if code, _, errOut := client(t, home, "tail", "--last", "0"); code != exitUsage || !strings.Contains(errOut, "1 to 1000") {
		t.Errorf("tail --last 0 = %d %q, want a usage error", code, errOut)
	}
	if code, _, errOut := client(t, home, "tail", "--display", "loud"); code != exitUsage || !strings.Contains(errOut, `"info","verbose","debug"`) {
		t.Errorf("tail --display loud = %d %q, want a usage error naming the modes", code, errOut)
	}

	code, out, errOut := client(t, home, "briefs", "--last", "1")
	if code != 0 || strings.Count(out, "\n") != 1 || !strings.Contains(out, "echo: three from a file") {
		t.Fatalf("briefs --last 1 = %d %q %q, want the newest brief only", code, out, errOut)
	}
	code, out, errOut = client(t, home, "--json", "transcript", "--last", "2")
	var items []providers.Item
	if code != 0 || json.Unmarshal([]byte(out), &items) != nil || len(items) != 2 || items[1].Text != "echo: three\nfrom a file" {
		t.Fatalf("transcript --last 2 = %d %s %s, want the newest two items", code, out, errOut)
	}
	if code, _, errOut := client(t, home, "briefs", "--last", "-1"); code != exitUsage {
		t.Errorf("briefs --last -1 = %d %q, want a usage error", code, errOut)
	}
}
