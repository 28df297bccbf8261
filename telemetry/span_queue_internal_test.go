package telemetry

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/holon-actors/holon-actors/messages"
)

// keptExporter keeps its spans at shutdown (the in-memory one forgets
// them), so that the spans Close ends can be read.
type keptExporter struct{ *tracetest.InMemoryExporter }

func (keptExporter) Shutdown(context.Context) error { return nil }

// gatedExporter holds every export until gate is closed: the SDK's span
// building (End hands a span to a synchronous exporter) waits there.
type gatedExporter struct {
	keptExporter
	gate chan struct{}
}

func (g gatedExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	<-g.gate
	return g.keptExporter.ExportSpans(ctx, spans)
}

// queueScript is a parent's turn with a tool call that spawns a child, a
// model round that failed, a child's first turn, a failed turn, and a
// turn left open at Close; it returns every stamped event.
func queueScript(tel *Telemetry, at time.Time) []messages.Payload {
	var out []messages.Payload
	obs := func(agent string, d time.Duration, batch ...messages.Payload) {
		out = append(out, tel.Observe(agent, messages.AgentDefault, at.Add(d), batch)...)
	}
	args := json.RawMessage(`{"prompt":"go"}`)
	obs("p", 0, messages.MessageProcessingStarted{MessageID: "m1", TurnID: "t1", TurnIndex: 1})
	obs("p", 900*time.Millisecond, messages.ProviderRoundCompleted{TurnID: "t1", Round: 1, Provider: "openai/gpt-5", Model: "gpt-5",
		TokenUsage: messages.TokenUsage{InputTokens: 1200, OutputTokens: 80}, ProviderRoundMS: 900, StopReason: "tool_calls", ResponseID: "r1"})
	obs("p", time.Second, messages.ToolCallStarted{TurnID: "t1", Round: 1, CallID: "c1", ToolName: "SpawnAgent", Arguments: args})
	obs("p", 1100*time.Millisecond, messages.ToolExecuted{TurnID: "t1", CallID: "c1", ToolName: "SpawnAgent", Status: messages.ToolOK, DurationMS: 100},
		messages.TaskStarted{Kind: "child_agent_task", Record: json.RawMessage(`{"child_agent_id":"kid"}`)})
	obs("kid", 1200*time.Millisecond, messages.MessageProcessingStarted{MessageID: "k1", TurnID: "kt1", TurnIndex: 1})
	obs("kid", 1300*time.Millisecond, messages.TurnTerminal{TurnID: "kt1", MessageID: "k1", TurnIndex: 1, Kind: messages.TerminalCompleted,
		Closure: messages.Closure{Outcome: messages.OutcomeCompleted}})
	tel.ModelFailed("p", "openai/gpt-5", at.Add(1500*time.Millisecond), 200*time.Millisecond, "rate_limit")
	obs("p", 1600*time.Millisecond, messages.ToolCallStarted{TurnID: "t1", Round: 2, CallID: "c2", ToolName: "echo", Arguments: args})
	obs("p", 1700*time.Millisecond, messages.ToolExecuted{TurnID: "t1", CallID: "c2", ToolName: "echo", Status: messages.ToolError, DurationMS: 100})
	obs("p", 1800*time.Millisecond, messages.RuntimeError{TurnID: "t1", Failure: messages.Failure{Code: "provider_auth", Category: "provider"}},
		messages.TurnTerminal{TurnID: "t1", MessageID: "m1", TurnIndex: 1, Kind: messages.TerminalAborted,
			Closure: messages.Closure{Outcome: messages.OutcomeFailed}})
	obs("p", 2*time.Second, messages.MessageProcessingStarted{MessageID: "m2", TurnID: "t2", TurnIndex: 2})
	obs("p", 2100*time.Millisecond, messages.ToolCallStarted{TurnID: "t2", Round: 1, CallID: "c3", ToolName: "echo", Arguments: args})
	return out
}

// spanShape is what a span says with its ids replaced by what they name:
// its parent's and its link's names, and whether they share its trace.
func spanShapes(t *testing.T, spans tracetest.SpanStubs) []string {
	t.Helper()
	byID := map[string]tracetest.SpanStub{}
	for _, s := range spans {
		byID[s.SpanContext.SpanID().String()] = s
	}
	var out []string
	for _, s := range spans {
		parent := "-"
		if p, ok := byID[s.Parent.SpanID().String()]; ok && s.Parent.IsValid() {
			parent = fmt.Sprintf("%s same-trace=%v", p.Name, p.SpanContext.TraceID() == s.SpanContext.TraceID())
		}
		var links []string
		for _, l := range s.Links {
			target := byID[l.SpanContext.SpanID().String()]
			links = append(links, fmt.Sprintf("%s trace=%v %v", target.Name, l.SpanContext.TraceID() == target.SpanContext.TraceID(), l.Attributes))
		}
		end := s.EndTime.Format(time.StampMilli)
		if s.EndTime.Sub(s.StartTime) > time.Hour {
			end = "close" // the time of each Close
		}
		out = append(out, fmt.Sprintf("%s kind=%v %s→%s parent=[%s] links=%v status=%v attrs=%v sampled=%v",
			s.Name, s.SpanKind, s.StartTime.Format(time.StampMilli), end, parent, links, s.Status, s.Attributes, s.SpanContext.IsSampled()))
	}
	slices.Sort(out)
	return out
}

// TestQueuedSpansAreTheAgentsSpans: with the OTLP exporter (spans built by
// the queue's goroutine), observing a batch does not wait for the SDK or
// its exporter, and the spans built later are the spans built inline (the
// tests' exporters): same names, kinds, times, attributes, statuses,
// parents and links; their ids are the trace and span ids stamped on the
// events and the child's link names the spawn call's span.
func TestQueuedSpansAreTheAgentsSpans(t *testing.T) {
	at := time.Date(2020, 1, 2, 12, 0, 0, 0, time.UTC) // long before Close ends the open turn
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	inlineExp := keptExporter{tracetest.NewInMemoryExporter()}
	inline, err := New(Config{}, Options{Log: zerolog.Nop(), Exporter: inlineExp})
	if err != nil {
		t.Fatal(err)
	}
	queueScript(inline, at)
	if err := inline.Close(ctx); err != nil {
		t.Fatal(err)
	}

	gated := gatedExporter{keptExporter{tracetest.NewInMemoryExporter()}, make(chan struct{})}
	queued, err := New(Config{}, Options{Log: zerolog.Nop(), Exporter: gated})
	if err != nil {
		t.Fatal(err)
	}
	queued.spans = newSpanQueue(queued.tracer, queued.spans.ids, false) // as with the OTLP exporter
	done := make(chan []messages.Payload)
	go func() { done <- queueScript(queued, at) }()
	var events []messages.Payload
	select {
	case events = <-done:
	case <-ctx.Done():
		t.Fatal("observing the batches waited for the exporter: the spans are built on the agent's goroutine")
	}
	if n := len(gated.GetSpans()); n != 0 {
		t.Fatalf("%d spans exported while the exporter was held", n)
	}
	close(gated.gate)
	if err := queued.Close(ctx); err != nil {
		t.Fatal(err)
	}

	want, got := spanShapes(t, inlineExp.GetSpans()), spanShapes(t, gated.GetSpans())
	if len(want) != 8 {
		t.Fatalf("inline spans = %d, want 8:\n%s", len(want), strings.Join(want, "\n"))
	}
	if !slices.Equal(want, got) {
		t.Fatalf("queued spans differ from inline ones:\nqueued:\n%s\ninline:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	spans := gated.GetSpans()
	turnOf := map[string]tracetest.SpanStub{}
	for _, s := range spans {
		if strings.HasPrefix(s.Name, "invoke_agent ") {
			turnOf[s.SpanContext.SpanID().String()] = s
		}
	}
	for _, p := range events {
		if s, ok := p.(messages.MessageProcessingStarted); ok {
			turn, found := turnOf[s.SpanID]
			if !found || turn.SpanContext.TraceID().String() != s.TraceID {
				t.Fatalf("turn %s stamped trace %s span %s: no such turn span was exported", s.TurnID, s.TraceID, s.SpanID)
			}
		}
	}
}
