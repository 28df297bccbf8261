package telemetry_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/telemetry"
	"github.com/holon-actors/holon-actors/telemetry/telemetrytest"
)

// TestTurnRecordReused: a turn's record, reused by the next turns, brings
// nothing of it along. The first turn is resumed after a restart, has a
// model round, fails with a runtime error and ends with a tool call still
// running; the agent's next turns have spans that say none of it, no
// tool span under them, and log lines with no rounds or tokens.
func TestTurnRecordReused(t *testing.T) {
	var logs strings.Builder
	tel, exp := telemetrytest.New(t, telemetry.Config{}, telemetry.Options{Log: zerolog.New(&logs)})
	now := time.Now()
	tel.Observe("a", messages.AgentDefault, now, []messages.Payload{
		messages.ProviderRoundCompleted{TurnID: "t1", Round: 1, Provider: "openai/gpt-5", Model: "gpt-5",
			TokenUsage: messages.TokenUsage{InputTokens: 50, OutputTokens: 5}, StopReason: "tool_calls"},
		messages.ToolCallStarted{TurnID: "t1", Round: 1, CallID: "c1", ToolName: "echo", Arguments: json.RawMessage(`{}`)},
		messages.RuntimeError{TurnID: "t1", Failure: messages.Failure{Category: "provider", Code: "boom"}},
		messages.TurnTerminal{TurnID: "t1", Kind: messages.TerminalAborted}})
	for _, turn := range []string{"t2", "t3", "t4"} { // the pool may hand out another record first
		tel.Observe("a", messages.AgentDefault, now, []messages.Payload{
			messages.MessageProcessingStarted{MessageID: "m" + turn, TurnID: turn, TurnIndex: 2},
			messages.TurnTerminal{TurnID: turn, Kind: messages.TerminalCompleted}})
	}
	spans := exp.GetSpans()
	turns := telemetrytest.Named(spans, "invoke_agent a")
	if len(turns) != 4 || telemetrytest.Attr(turns[0], "holon.turn.resumed") != "true" || telemetrytest.Attr(turns[0], "holon.failure.code") != "boom" {
		t.Fatalf("turn spans:\n%s want 4, the first resumed and failed with boom", telemetrytest.List(spans))
	}
	for _, s := range turns[1:] {
		for _, k := range []string{"holon.turn.resumed", "holon.failure.code", "error.type"} {
			if v := telemetrytest.Attr(s, k); v != "" {
				t.Errorf("a later turn's span carries %s=%s", k, v)
			}
		}
		for _, c := range spans {
			if c.Parent.SpanID() == s.SpanContext.SpanID() {
				t.Errorf("a later turn's span has %s under it", c.Name)
			}
		}
	}
	ended := 0
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var line map[string]any
		if json.Unmarshal([]byte(l), &line) != nil || line["message"] != "turn ended" || line["turn_id"] == "t1" {
			continue
		}
		ended++
		if line["rounds"] != 0.0 || line["tools"] != 0.0 || line["input_tokens"] != 0.0 {
			t.Errorf("a later turn's log line counts the first turn's work: %s", l)
		}
	}
	if ended != 3 {
		t.Fatalf("%d turn ended lines for the later turns, want 3:\n%s", ended, logs.String())
	}
}
