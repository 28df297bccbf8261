package actors_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestCrashRightAfterCommandLaunched: the runtime dies just after a
// command's launch is durable, before it released the command: the
// command never runs, and after the restart the call is recorded
// interrupted, saying so, and never re-run.
func TestCrashRightAfterCommandLaunched(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t), RequestTimeout: 2 * time.Second, Steps: []testkit.Step{
		testkit.Reply("Starting.", testkit.Call("c1", "ExecCommand", `{"cmd":"echo ran > `+marker+`"}`)),
		testkit.Reply("The call was interrupted."),
	}})
	h.Store().CrashAfter(testkit.OfType(messages.EventCommandLaunched))
	h.Prompt("main", "run it")
	<-h.Store().Died()

	h.Restart()
	r := toolResult(t, h, "main", "c1")
	if r.Status != messages.ToolInterrupted || !strings.Contains(r.Receipt, "left no exit status") {
		t.Fatalf("the call = %s: %s, want interrupted, the command found not running", r.Status, r.Receipt)
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 1))
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Fatalf("the command ran although its release never came: %v", err)
	}
}

// TestCommandLaunchedBeforeItRuns: every command a call runs is journaled
// (command_launched, with its pid, group and token) before the call's
// result, and a completed call leaves no launch open.
func TestCommandLaunchedBeforeItRuns(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t), Steps: []testkit.Step{
		testkit.Reply("Running.", testkit.Call("c1", "ExecCommandBatch", `{"items":[{"cmd":"echo one"},{"cmd":"echo two"}]}`)),
		testkit.Reply("Done."),
	}})
	h.Prompt("main", "run them")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 1))
	var launched, executed int
	for i, ev := range h.Events("main") {
		switch ev.Type {
		case messages.EventCommandLaunched:
			l := decode[messages.CommandLaunched](t, ev)
			if l.CallID != "c1" || !strings.Contains(string(l.Record), `"token":"`) || executed > 0 {
				t.Fatalf("event %d: launch %s after %d results", i, l.Record, executed)
			}
			launched++
		case messages.EventToolExecuted:
			executed++
		}
	}
	if launched != 2 || executed != 1 {
		t.Fatalf("%d launches and %d results, want 2 launches before 1 result", launched, executed)
	}
}
