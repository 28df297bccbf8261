package actors_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/secrets"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestSecretsScrubbedFromLiveState: a registered secret a command prints
// is scrubbed from the journaled tool result and from the agent's live
// conversation, so the next model request does not carry it either.
func TestSecretsScrubbedFromLiveState(t *testing.T) {
	const canary = "sk-live-canary-0123456789"
	deps := func(home string, d *actors.AgentDeps) {
		withTools(t)(home, d)
		d.Secrets = secrets.NewRegistry(canary)
	}
	h := testkit.NewWith(t, testkit.Options{Deps: deps, Steps: []testkit.Step{
		testkit.Reply("", testkit.Call("c1", "ExecCommand", `{"cmd": "echo found `+canary+`"}`)),
		testkit.Reply("Done."),
	}})
	h.Prompt("main", "look")
	r := toolResult(t, h, "main", "c1")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 1))
	if strings.Contains(string(r.Envelope), canary) || !strings.Contains(string(r.Envelope), "found [redacted]") {
		t.Fatalf("journaled tool result = %s", r.Envelope)
	}
	reqs := h.Provider.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	b, _ := json.Marshal(reqs[1])
	if strings.Contains(string(b), canary) || !strings.Contains(string(b), "[redacted]") {
		t.Fatalf("the model's second request carries the secret or lost the result: %s", b)
	}
}
