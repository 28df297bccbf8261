package main

import (
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
)

// TestForCLI: API hints worded for HTTP clients reach a CLI user as the
// command and flag to use.
func TestForCLI(t *testing.T) {
	for _, c := range []struct {
		name, command string
		in            control.Error
		wantMsg       string
		wantHint      string
	}{
		{"no trigger", "agents trigger", control.Error{Kind: control.KindNotFound, Message: `agent "main" has no active trigger`,
			Hint: "create one with POST /control/agents/main/trigger"}, `agent "main" has no active trigger`, "holon-actors agents trigger (without --revoke)"},
		{"message id", "prompt <text>", control.Error{Kind: control.KindInvalid, Message: "message_id is 200 bytes long",
			Hint: "send a message_id of at most 128 bytes, e.g. a UUID"}, "--message-id is 200 bytes long", "give a --message-id of at most 128 bytes"},
		{"budget", "agents budget", control.Error{Kind: control.KindInvalid, Message: "token_budget is required",
			Hint: `send {"token_budget": N}`}, "--tokens is required", "give --tokens N"},
		{"too large", "prompt <text>", control.Error{Kind: control.KindTooLarge, Message: "request body is larger than 1048576 bytes",
			Hint: "send at most 1 MiB"}, "request body is larger", "shorter prompt"},
		{"stream cap", "tail", control.Error{Kind: control.KindBackpressure, Message: "the event stream limit (1 open at once, run --max-event-streams) is reached",
			Hint: "page with GET without Accept: text/event-stream"}, "the event stream limit", "holon-actors tail without --follow"},
		{"other HTTP hint", "agents create <id>", control.Error{Kind: control.KindBadRequest, Message: "bad body",
			Hint: "send a JSON object with the documented fields (GET /openapi.json)"}, "bad body", "see holon-actors agents create --help"},
		{"CLI hint kept", "agents resume", control.Error{Kind: control.KindAgentStopped, Message: "agent is stopped",
			Hint: "resume it first: holon-actors agents resume <id>"}, "agent is stopped", "resume it first: holon-actors agents resume <id>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg, hint := forCLI(c.command, &c.in)
			if !strings.HasPrefix(msg, c.wantMsg) || !strings.Contains(hint, c.wantHint) {
				t.Fatalf("forCLI = %q, %q; want %q, a hint with %q", msg, hint, c.wantMsg, c.wantHint)
			}
		})
	}
}
