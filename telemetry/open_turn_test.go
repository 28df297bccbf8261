package telemetry_test

import (
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/telemetry"
	"github.com/holon-actors/holon-actors/telemetry/telemetrytest"
)

// TestInterjectKeepsTheTurnSpan: a message interjected into a turn in
// flight (a second message_processing_started of the same turn) stays in
// the turn's span and trace; it opens no second turn span.
func TestInterjectKeepsTheTurnSpan(t *testing.T) {
	tel, exp := telemetrytest.New(t, telemetry.Config{}, telemetry.Options{Log: zerolog.Nop()})
	now := time.Now()
	first := tel.Observe("a", messages.AgentDefault, now, []messages.Payload{messages.MessageProcessingStarted{MessageID: "m1", TurnID: "t1"}})
	second := tel.Observe("a", messages.AgentDefault, now, []messages.Payload{messages.MessageProcessingStarted{MessageID: "m2", TurnID: "t1"}})
	tel.Observe("a", messages.AgentDefault, now, []messages.Payload{messages.TurnTerminal{TurnID: "t1", Kind: messages.TerminalCompleted}})
	a, b := first[0].(messages.MessageProcessingStarted), second[0].(messages.MessageProcessingStarted)
	if a.TraceID == "" || a.TraceID != b.TraceID || a.SpanID != b.SpanID {
		t.Fatalf("the interject was stamped trace %s span %s, the turn's start %s %s: want the same", b.TraceID, b.SpanID, a.TraceID, a.SpanID)
	}
	if spans := exp.GetSpans(); len(spans) != 1 || spans[0].SpanContext.SpanID().String() != a.SpanID {
		t.Fatalf("spans = %d, want the one turn span %s", len(spans), a.SpanID)
	}
}

// TestResumedTurnUnderItsJournaledSpan: a turn this telemetry did not see
// start, given the trace and span its start journaled, continues under
// that span; given ids that do not parse, or another turn's, it starts a
// trace of its own.
func TestResumedTurnUnderItsJournaledSpan(t *testing.T) {
	const traceID, spanID = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"
	for _, c := range []struct {
		name string
		open telemetry.OpenTurn
		join bool
	}{
		{"journaled", telemetry.OpenTurn{ID: "t1", MessageID: "m1", Index: 4, TraceID: traceID, SpanID: spanID}, true},
		{"untraced start", telemetry.OpenTurn{ID: "t1", MessageID: "m1", Index: 4}, false},
		{"another turn", telemetry.OpenTurn{ID: "t0", TraceID: traceID, SpanID: spanID}, false},
		{"bad span id", telemetry.OpenTurn{ID: "t1", TraceID: traceID, SpanID: "zz"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tel, exp := telemetrytest.New(t, telemetry.Config{}, telemetry.Options{Log: zerolog.Nop()})
			out := tel.ObserveTurn("a", messages.AgentDefault, time.Now(), c.open,
				[]messages.Payload{messages.TurnTerminal{TurnID: "t1", Kind: messages.TerminalCompleted}})
			spans := exp.GetSpans()
			if len(spans) != 1 {
				t.Fatalf("spans = %d, want 1", len(spans))
			}
			s := spans[0]
			joined := s.SpanContext.TraceID().String() == traceID && s.Parent.SpanID().String() == spanID
			if joined != c.join || out[0].(messages.TurnTerminal).TraceID != s.SpanContext.TraceID().String() {
				t.Fatalf("resumed span trace %s parent %s (stamped %s); want joined %v", s.SpanContext.TraceID(), s.Parent.SpanID(),
					out[0].(messages.TurnTerminal).TraceID, c.join)
			}
		})
	}
}
