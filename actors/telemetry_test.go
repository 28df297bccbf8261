package actors_test

import (
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/secrets"
	"github.com/holon-actors/holon-actors/telemetry"
	"github.com/holon-actors/holon-actors/telemetry/telemetrytest"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestTelemetrySpanTree: a turn with a tool call and a delegation, the
// child's turn, and a turn whose model call fails, traced into an
// in-memory exporter. Each turn is an invoke_agent span with its rounds
// (chat) and tool calls (execute_tool) under it; the child's first turn
// links to the parent's spawn_agent span; the failed turn and its failed
// round end in error; the journal carries each turn's trace id; and a
// secret in a tool's arguments reaches no span, content capture on.
func TestTelemetrySpanTree(t *testing.T) {
	const secret = "sk-telemetry-0123456789"
	reg := secrets.NewRegistry()
	reg.Add(secret)
	tel, exp := telemetrytest.New(t, telemetry.Config{CaptureContent: true}, telemetry.Options{Secrets: reg, Log: zerolog.Nop()})
	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("Working.", testkit.Call("c1", "echo", `{"text":"key `+secret+`"}`), spawnCall("s1", "Compute 6*7.")),
			testkit.Reply("The child is on it."),
			testkit.Fail(providers.KindAuth, "the key was refused"),
		},
		[]testkit.Step{testkit.Reply("42")},
		func(_ string, d *actors.AgentDeps) { d.Telemetry, d.Secrets = tel, reg },
	)
	f.Prompt("main", "Echo the key, then find 6*7 with a helper.")
	child := spawned(t, f.Harness, "main", "s1").ChildAgentID
	f.WaitEvent("main", testkit.OfType(messages.EventRuntimeError))
	f.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))

	spans := exp.GetSpans()
	turns := named(spans, "invoke_agent main")
	if len(turns) != 2 {
		t.Fatalf("main's turn spans = %d, want 2:\n%s", len(turns), spanList(spans))
	}
	first, failed := turns[0], turns[1]
	if first.Parent.IsValid() || attr(first, "gen_ai.agent.id") != "main" || attr(first, "gen_ai.conversation.id") != "main" ||
		attr(first, "gen_ai.operation.name") != "invoke_agent" || first.Status.Code == codes.Error {
		t.Fatalf("first turn span = %s %v parent %v status %v", first.Name, first.Attributes, first.Parent, first.Status)
	}
	under := childrenOf(spans, first)
	for _, want := range []string{"chat scripted", "chat scripted", "execute_tool echo", "execute_tool " + actors.SpawnAgentToolName} {
		i := indexNamed(under, want)
		if i < 0 {
			t.Fatalf("no %q under the first turn; under it:\n%s", want, spanList(under))
		}
		under = append(under[:i], under[i+1:]...)
	}
	echo := named(spans, "execute_tool echo")[0]
	if attr(echo, "gen_ai.tool.call.id") != "c1" || attr(echo, "gen_ai.tool.name") != "echo" ||
		!strings.Contains(attr(echo, "gen_ai.tool.call.arguments"), secrets.Redacted) {
		t.Fatalf("echo span attributes = %v", echo.Attributes)
	}
	chat := named(spans, "chat scripted")[0]
	if attr(chat, "gen_ai.operation.name") != "chat" || attr(chat, "gen_ai.provider.name") != "scripted" ||
		attr(chat, "gen_ai.usage.input_tokens") == "" || attr(chat, "gen_ai.usage.cache_read.input_tokens") == "" ||
		attr(chat, "gen_ai.response.finish_reasons") == "" {
		t.Fatalf("chat span attributes = %v", chat.Attributes)
	}

	spawn := named(spans, "execute_tool "+actors.SpawnAgentToolName)[0]
	kid := named(spans, "invoke_agent "+child)
	if len(kid) == 0 || len(kid[0].Links) != 1 || kid[0].Links[0].SpanContext.SpanID() != spawn.SpanContext.SpanID() ||
		kid[0].Links[0].SpanContext.TraceID() != spawn.SpanContext.TraceID() {
		t.Fatalf("child's turn spans %d, links %+v; want one link to spawn span %v", len(kid), linksOf(kid), spawn.SpanContext.SpanID())
	}

	if failed.Status.Code != codes.Error || attr(failed, "error.type") == "" {
		t.Fatalf("failed turn span status %v, error.type %q", failed.Status, attr(failed, "error.type"))
	}
	var failedRound bool
	for _, s := range childrenOf(spans, failed) {
		failedRound = failedRound || (strings.HasPrefix(s.Name, "chat ") && s.Status.Code == codes.Error && attr(s, "error.type") == string(providers.KindAuth))
	}
	if !failedRound {
		t.Fatalf("no failed chat span under the failed turn:\n%s", spanList(childrenOf(spans, failed)))
	}

	for _, s := range spans {
		for _, kv := range s.Attributes {
			if strings.Contains(kv.Value.Emit(), secret) {
				t.Fatalf("span %s attribute %s carries the secret", s.Name, kv.Key)
			}
		}
	}

	started := decode[messages.MessageProcessingStarted](t, f.WaitEvent("main", testkit.OfType(messages.EventMessageProcessingStarted)))
	if started.TraceID != first.SpanContext.TraceID().String() {
		t.Fatalf("journaled trace id %q, want the turn's %s", started.TraceID, first.SpanContext.TraceID())
	}
	ended := decode[messages.TurnTerminal](t, f.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if ended.TraceID != started.TraceID {
		t.Fatalf("turn_terminal trace id %q, want %q", ended.TraceID, started.TraceID)
	}
}

// TestTelemetryOffLeavesEventsAlone: without telemetry no event carries a
// trace id.
func TestTelemetryOffLeavesEventsAlone(t *testing.T) {
	h := testkit.New(t, testkit.Reply("Hi."))
	h.Prompt("main", "Hello.")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	for _, ev := range h.Events("main") {
		if strings.Contains(string(ev.Payload), "trace_id") {
			t.Fatalf("%s carries a trace id without telemetry: %s", ev.Type, ev.Payload)
		}
	}
}

// The span readers shared with the telemetry package's tests.
var (
	named    = telemetrytest.Named
	attr     = telemetrytest.Attr
	spanList = telemetrytest.List
)

func indexNamed(spans []tracetest.SpanStub, name string) int {
	for i, s := range spans {
		if s.Name == name {
			return i
		}
	}
	return -1
}

func childrenOf(spans tracetest.SpanStubs, parent tracetest.SpanStub) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range spans {
		if s.Parent.SpanID() == parent.SpanContext.SpanID() && s.Parent.TraceID() == parent.SpanContext.TraceID() {
			out = append(out, s)
		}
	}
	return out
}

func linksOf(spans []tracetest.SpanStub) [][]sdktrace.Link {
	var out [][]sdktrace.Link
	for _, s := range spans {
		out = append(out, s.Links)
	}
	return out
}
