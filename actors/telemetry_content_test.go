package actors_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/secrets"
	"github.com/holon-actors/holon-actors/telemetry"
	"github.com/holon-actors/holon-actors/telemetry/telemetrytest"
	"github.com/holon-actors/holon-actors/testkit"
)

type chatMessage struct {
	Role  string `json:"role"`
	Parts []struct {
		Type      string          `json:"type"`
		Content   string          `json:"content"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Response  string          `json:"response"`
	} `json:"parts"`
	FinishReason string `json:"finish_reason"`
}

// TestChatSpansCaptureInputMessages: with content capture on, each chat
// span carries the conversation its model call was sent as
// gen_ai.input.messages, in the conventions' shape (the prompt as the
// user's text; in the second round the assistant's tool call and the
// tool's response after it), and the reply as gen_ai.output.messages with
// its finish reason; a secret in the prompt is redacted. Capture off,
// neither attribute is there.
func TestChatSpansCaptureInputMessages(t *testing.T) {
	const secret = "sk-input-0123456789abcdef"
	for _, capture := range []bool{true, false} {
		reg := secrets.NewRegistry()
		reg.Add(secret)
		tel, exp := telemetrytest.New(t, telemetry.Config{CaptureContent: capture}, telemetry.Options{Secrets: reg, Log: zerolog.Nop()})
		h := testkit.NewWith(t, testkit.Options{Steps: crashScript(), Deps: func(_ string, d *actors.AgentDeps) { d.Telemetry, d.Secrets = tel, reg }})
		h.Prompt("main", "Echo ping. The key is "+secret+".")
		h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
		chats := named(exp.GetSpans(), "chat scripted")
		if len(chats) != 2 {
			t.Fatalf("capture %v: chat spans = %d, want 2", capture, len(chats))
		}
		if !capture {
			for _, s := range chats {
				if attr(s, "gen_ai.input.messages") != "" || attr(s, "gen_ai.output.messages") != "" {
					t.Fatalf("capture off: chat span carries content %v", s.Attributes)
				}
			}
			continue
		}
		var first, second, out []chatMessage
		for _, c := range []struct {
			raw  string
			into *[]chatMessage
		}{{attr(chats[0], "gen_ai.input.messages"), &first}, {attr(chats[1], "gen_ai.input.messages"), &second},
			{attr(chats[1], "gen_ai.output.messages"), &out}} {
			if err := json.Unmarshal([]byte(c.raw), c.into); err != nil {
				t.Fatalf("messages attribute %q: %v", c.raw, err)
			}
			if strings.Contains(c.raw, secret) {
				t.Fatalf("a messages attribute carries the secret: %s", c.raw)
			}
		}
		if len(first) != 1 || first[0].Role != "user" || len(first[0].Parts) != 1 || first[0].Parts[0].Type != "text" ||
			first[0].Parts[0].Content != "Echo ping. The key is "+secrets.Redacted+"." {
			t.Fatalf("first round's input = %+v, want the prompt, redacted", first)
		}
		if len(second) != 3 || second[0].Role != "user" || second[1].Role != "assistant" || second[2].Role != "tool" {
			t.Fatalf("second round's input = %+v, want user, assistant, tool", second)
		}
		call, resp := second[1].Parts[len(second[1].Parts)-1], second[2].Parts[0]
		if call.Type != "tool_call" || call.ID != "c1" || call.Name != "echo" || string(call.Arguments) != `{"text":"ping"}` ||
			resp.Type != "tool_call_response" || resp.ID != "c1" || resp.Response == "" {
			t.Fatalf("second round's tool call %+v and response %+v", call, resp)
		}
		if len(out) != 1 || out[0].Role != "assistant" || out[0].Parts[0].Content != "Done." || out[0].FinishReason == "" {
			t.Fatalf("second round's output = %+v, want the assistant's Done. with a finish reason", out)
		}
	}
}
