package actors_test

import (
	"testing"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/telemetry"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestResumedTurnJoinsItsTrace: a turn traced until the process dies
// right after its tool call's result is durable is resumed by the next
// process (a new runtime and telemetry over the same data), and the
// resumed turn's spans join the trace its start journaled: its
// invoke_agent span is a child of the first one, its second model round
// is in the same trace, and its turn_terminal carries the same trace id.
func TestResumedTurnJoinsItsTrace(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	h := testkit.NewWith(t, testkit.Options{Steps: crashScript(), Deps: func(_ string, d *actors.AgentDeps) {
		// A new telemetry each start: what the process before knew of the
		// turn in memory is gone.
		tel, err := telemetry.New(telemetry.Config{}, telemetry.Options{Exporter: exp, Log: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		d.Telemetry = tel
	}})
	h.Store().CrashAfter(testkit.OfType(messages.EventToolExecuted))
	h.Prompt("main", "Echo ping.")
	<-h.Store().Died()
	h.Restart()
	ended := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	started := decode[messages.MessageProcessingStarted](t, h.WaitEvent("main", testkit.OfType(messages.EventMessageProcessingStarted)))
	if started.TraceID == "" || started.SpanID == "" {
		t.Fatalf("message_processing_started carries trace %q span %q, want both", started.TraceID, started.SpanID)
	}
	if ended.TraceID != started.TraceID {
		t.Fatalf("the resumed turn's turn_terminal carries trace %q, want its start's %q", ended.TraceID, started.TraceID)
	}

	spans := exp.GetSpans()
	turns := named(spans, "invoke_agent main")
	if len(turns) != 1 {
		// The first process died with its turn span open: only the
		// resumed turn's span was exported.
		t.Fatalf("turn spans = %d, want 1 (the resumed turn's):\n%s", len(turns), spanList(spans))
	}
	resumed := turns[0]
	if attr(resumed, "holon.turn.resumed") != "true" || resumed.SpanContext.TraceID().String() != started.TraceID ||
		resumed.Parent.SpanID().String() != started.SpanID || attr(resumed, "holon.turn.id") != started.TurnID ||
		attr(resumed, "holon.message.id") != started.MessageID {
		t.Fatalf("resumed turn span: trace %s parent %s attributes %v; want trace %s under span %s",
			resumed.SpanContext.TraceID(), resumed.Parent.SpanID(), resumed.Attributes, started.TraceID, started.SpanID)
	}
	chats := named(spans, "chat scripted")
	if len(chats) != 2 {
		t.Fatalf("chat spans = %d, want 2:\n%s", len(chats), spanList(spans))
	}
	if first := chats[0]; first.SpanContext.TraceID().String() != started.TraceID || first.Parent.SpanID().String() != started.SpanID {
		t.Fatalf("the first round's chat span is in trace %s under %s, want %s under %s",
			first.SpanContext.TraceID(), first.Parent.SpanID(), started.TraceID, started.SpanID)
	}
	if second := chats[1]; second.SpanContext.TraceID() != resumed.SpanContext.TraceID() || second.Parent.SpanID() != resumed.SpanContext.SpanID() {
		t.Fatalf("the resumed round's chat span is in trace %s under %s, want under the resumed turn %s",
			second.SpanContext.TraceID(), second.Parent.SpanID(), resumed.SpanContext.SpanID())
	}
}
