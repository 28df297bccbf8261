package telemetrytest_test

import (
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/telemetry"
	"github.com/holon-actors/holon-actors/telemetry/telemetrytest"
)

// TestCapture: a turn observed by the Telemetry New returns ends as a span
// in its exporter, found by name, with its attributes readable as text.
func TestCapture(t *testing.T) {
	tel, exp := telemetrytest.New(t, telemetry.Config{}, telemetry.Options{})
	if !tel.Tracing() {
		t.Fatal("the capturing telemetry does not trace")
	}
	now := time.Now()
	tel.Observe("a", messages.AgentDefault, now, []messages.Payload{
		messages.MessageProcessingStarted{MessageID: "m1", TurnID: "t1", TurnIndex: 3},
		messages.TurnTerminal{TurnID: "t1", Kind: messages.TerminalCompleted}})
	spans := exp.GetSpans()
	turns := telemetrytest.Named(spans, "invoke_agent a")
	if len(turns) != 1 || len(telemetrytest.Named(spans, "chat a")) != 0 {
		t.Fatalf("spans:\n%s want one invoke_agent a", telemetrytest.List(spans))
	}
	if got := telemetrytest.Attr(turns[0], "holon.turn.index"); got != "3" {
		t.Errorf("holon.turn.index = %q, want 3", got)
	}
	if got := telemetrytest.Attr(turns[0], "no.such.key"); got != "" {
		t.Errorf("a missing attribute reads %q, want empty", got)
	}
	if l := telemetrytest.List(spans); !strings.HasPrefix(l, "invoke_agent a span=") {
		t.Errorf("List = %q", l)
	}
}
