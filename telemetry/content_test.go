package telemetry_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/secrets"
	"github.com/holon-actors/holon-actors/telemetry"
	"github.com/holon-actors/holon-actors/telemetry/telemetrytest"
)

// TestInputMessagesBounded: a round's input larger than the attribute's
// bound keeps its latest messages, oldest first, as valid JSON within
// 16 KiB; a part longer than 4 KiB is cut and says so; secrets are
// redacted in text and in tool arguments, even where JSON would escape
// them; and HTML characters are not escaped.
func TestInputMessagesBounded(t *testing.T) {
	const secret = "sk-<bound>-0123456789"
	reg := secrets.NewRegistry()
	reg.Add(secret)
	tel, exp := telemetrytest.New(t, telemetry.Config{CaptureContent: true}, telemetry.Options{Secrets: reg, Log: zerolog.Nop()})
	var input []telemetry.ChatMessage
	for i := range 40 {
		input = append(input, telemetry.ChatMessage{Role: "user", Parts: []telemetry.MessagePart{{Type: "text", Content: strings.Repeat("x", 1000) + string(rune('a'+i%26))}}})
	}
	input = append(input,
		telemetry.ChatMessage{Role: "assistant", Parts: []telemetry.MessagePart{{Type: "tool_call", ID: "c1", Name: "sh",
			Arguments: json.RawMessage(`{"cmd":"curl -H 'key: ` + secret + `' a<b"}`)}}},
		telemetry.ChatMessage{Role: "tool", Parts: []telemetry.MessagePart{{Type: "tool_call_response", ID: "c1", Response: strings.Repeat("y", 10000)}}})
	tel.ObserveTurn("a", messages.AgentDefault, time.Now(), telemetry.OpenTurn{ID: "t1", Input: input}, []messages.Payload{
		messages.ProviderRoundCompleted{TurnID: "t1", Round: 1, Provider: "openai/gpt-5", StopReason: "stop"},
		messages.TurnTerminal{TurnID: "t1", Kind: messages.TerminalCompleted}})
	var raw string
	for _, s := range exp.GetSpans() {
		if v := telemetrytest.Attr(s, "gen_ai.input.messages"); v != "" {
			raw = v
		}
	}
	if len(raw) > 16<<10 {
		t.Fatalf("input messages are %d bytes, want at most 16 KiB", len(raw))
	}
	var got []struct {
		Role  string `json:"role"`
		Parts []struct {
			Content   string          `json:"content"`
			Arguments json.RawMessage `json:"arguments"`
			Response  string          `json:"response"`
		} `json:"parts"`
	}
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("input messages are not JSON: %v\n%s", err, raw)
	}
	if n := len(got); n < 3 || n >= len(input) || got[n-1].Role != "tool" || got[n-2].Role != "assistant" {
		t.Fatalf("kept %d of %d messages, last roles %s %s: want the latest few, the tool's response last", n, len(input), got[n-2].Role, got[n-1].Role)
	}
	if want := strings.Repeat("x", 1000) + string(rune('a'+39%26)); got[len(got)-3].Parts[0].Content != want {
		t.Fatalf("the message before the tool call is %.20q…, want the 40th", got[len(got)-3].Parts[0].Content)
	}
	if r := got[len(got)-1].Parts[0].Response; len(r) > 4200 || !strings.HasSuffix(r, "bytes cut]") {
		t.Fatalf("the 10,000-byte response is %d bytes ending %q, want it cut to 4 KiB and marked", len(r), r[len(r)-20:])
	}
	args := string(got[len(got)-2].Parts[0].Arguments)
	if strings.Contains(raw, secret) || !strings.Contains(args, secrets.Redacted) || !strings.Contains(args, "a<b") {
		t.Fatalf("tool arguments %s: want the secret redacted and a<b as it was", args)
	}
}
