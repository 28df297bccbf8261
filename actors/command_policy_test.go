package actors_test

import (
	"context"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// TestCommandPolicyConfiguredAndOwn: the configured default refuses a
// denied command with a journaled tool error; an agent's own policy
// (journaled, so it survives a restart) replaces the default.
func TestCommandPolicyConfiguredAndOwn(t *testing.T) {
	deps := func(home string, d *actors.AgentDeps) {
		withTools(t)(home, d)
		d.CommandPolicies = messages.CommandPolicies{Default: &messages.CommandPolicy{Deny: []string{"touch"}}}
	}
	h := testkit.NewWith(t, testkit.Options{Deps: deps, Steps: []testkit.Step{
		testkit.Reply("", testkit.Call("c1", "ExecCommand", `{"cmd": "touch made"}`)),
		testkit.Reply("Refused."),
		testkit.Reply("", testkit.Call("c2", "ExecCommand", `{"cmd": "touch made && echo ok"}`),
			testkit.Call("c3", "ExecCommand", `{"cmd": "ls"}`)),
		testkit.Reply("Done."),
	}})
	h.Prompt("main", "make it")
	r := toolResult(t, h, "main", "c1")
	if r.Status != messages.ToolError || !strings.Contains(string(r.Envelope), exec.KindPolicyDenied) ||
		!strings.Contains(string(r.Envelope), "recovery_hint") {
		t.Fatalf("denied command = %s %s, want a %s error with a hint", r.Status, r.Envelope, exec.KindPolicyDenied)
	}
	own := &messages.CommandPolicy{Allow: []string{"touch"}}
	if err := h.Runtime.SetCommandPolicy(context.Background(), "main", own, "test"); err != nil {
		t.Fatal(err)
	}
	if err := h.Runtime.SetCommandPolicy(context.Background(), "main", &messages.CommandPolicy{Allow: []string{""}}, "test"); err == nil {
		t.Fatal("an invalid policy was accepted")
	}
	h.Restart()
	h.Prompt("main", "again")
	if r := toolResult(t, h, "main", "c2"); r.Status != messages.ToolOK {
		t.Fatalf("allowed by the agent's own policy after a restart = %s %s", r.Status, r.Envelope)
	}
	if r := toolResult(t, h, "main", "c3"); r.Status != messages.ToolError || !strings.Contains(string(r.Envelope), `"rule":"allow"`) {
		t.Fatalf("ls outside the agent's allow-list = %s %s", r.Status, r.Envelope)
	}
}
