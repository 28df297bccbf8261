package telemetry_test

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/telemetry"
	"github.com/holon-actors/holon-actors/telemetry/telemetrytest"
)

// turnBatches are the batches of one turn with one tool call, as an
// agent journals them.
func turnBatches(turn string) [][]messages.Payload {
	args := json.RawMessage(`{"text":"hi"}`)
	return [][]messages.Payload{
		{messages.MessageProcessingStarted{MessageID: "msg_" + turn, TurnID: turn, TurnIndex: 1}},
		{messages.ProviderRoundCompleted{TurnID: turn, Round: 1, Provider: "openai/gpt-5", Model: "gpt-5",
			TokenUsage: messages.TokenUsage{InputTokens: 1200, OutputTokens: 80, CacheReadInputTokens: 1000}, ProviderRoundMS: 900, StopReason: "tool_calls"},
			messages.AssistantRoundRecorded{TurnID: turn, Round: 1, ToolCalls: []messages.ToolCall{{ID: "c1", Name: "echo", Arguments: args}}}},
		{messages.ToolCallStarted{TurnID: turn, Round: 1, CallID: "c1", ToolName: "echo", Arguments: args}},
		{messages.ToolExecuted{TurnID: turn, CallID: "c1", ToolName: "echo", Status: messages.ToolOK, Envelope: args, Receipt: "hi", DurationMS: 3}},
		{messages.ProviderRoundCompleted{TurnID: turn, Round: 2, Provider: "openai/gpt-5", Model: "gpt-5", ProviderRoundMS: 700, StopReason: "stop"},
			messages.AssistantRoundRecorded{TurnID: turn, Round: 2, Text: "Done."}},
		{messages.TurnTerminal{TurnID: turn, MessageID: "msg_" + turn, TurnIndex: 1, Kind: messages.TerminalCompleted, DurationMS: 1700,
			Closure: messages.Closure{Outcome: messages.OutcomeCompleted}}},
	}
}

func observeTurn(tel *telemetry.Telemetry, agent, turn string, at time.Time) []messages.Payload {
	var all []messages.Payload
	for _, b := range turnBatches(turn) {
		all = append(all, tel.Observe(agent, messages.AgentDefault, at, b)...)
	}
	return all
}

// TestObserveStampsAndLogs: a traced turn's events carry its trace id,
// the caller's batch is left as it was, and the turn's end is one log
// line with its closure, tokens, tools and trace id.
func TestObserveStampsAndLogs(t *testing.T) {
	var logs strings.Builder
	tel, _ := telemetrytest.New(t, telemetry.Config{}, telemetry.Options{Log: zerolog.New(&logs)})
	batch := []messages.Payload{messages.MessageProcessingStarted{MessageID: "m", TurnID: "t0"}}
	out := tel.Observe("a", messages.AgentDefault, time.Now(), batch)
	if batch[0].(messages.MessageProcessingStarted).TraceID != "" || out[0].(messages.MessageProcessingStarted).TraceID == "" {
		t.Fatalf("caller's batch %+v, returned %+v: want the copy stamped, the caller's untouched", batch[0], out[0])
	}
	all := observeTurn(tel, "a", "t1", time.Now())
	trace := all[0].(messages.MessageProcessingStarted).TraceID
	for _, p := range all {
		if b, _ := json.Marshal(p); !strings.Contains(string(b), `"trace_id":"`+trace+`"`) && p.EventType() != messages.EventAssistantRoundRecorded {
			t.Errorf("%s carries no trace id %s: %s", p.EventType(), trace, b)
		}
	}
	var line map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if strings.Contains(l, `"turn ended"`) {
			_ = json.Unmarshal([]byte(l), &line)
		}
	}
	if line["agent_id"] != "a" || line["closure"] != "completed" || line["tools"] != 1.0 || line["rounds"] != 2.0 ||
		line["input_tokens"] != 1200.0 || line["trace_id"] != trace || line["span_id"] == "" || line["level"] != "info" {
		t.Fatalf("turn-end line = %v\nlogs:\n%s", line, logs.String())
	}
}

// TestConfigValidate: settings that cannot work are refused, naming the
// flag and what to give.
func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  telemetry.Config
		want string
	}{
		{"negative agent labels", telemetry.Config{AgentLabels: -1}, "--metrics-agent-labels"},
		{"too many agent labels", telemetry.Config{AgentLabels: telemetry.MaxAgentLabels + 1}, "--metrics-agent-labels"},
		{"endpoint without scheme", telemetry.Config{OTLPEndpoint: "127.0.0.1:4318"}, "http://"},
		{"grpc scheme", telemetry.Config{OTLPEndpoint: "grpc://collector:4317"}, "OTLP/HTTP"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := telemetry.New(tc.cfg, telemetry.Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New(%+v) = %v, want an error naming %s", tc.cfg, err, tc.want)
			}
		})
	}
	off, err := telemetry.New(telemetry.Config{Env: func(string) string { return "" }}, telemetry.Options{})
	if err != nil || off.Tracing() {
		t.Fatalf("no endpoint: tracing %v, %v", off.Tracing(), err)
	}
	env, err := telemetry.New(telemetry.Config{Env: func(k string) string {
		if k == "OTEL_EXPORTER_OTLP_ENDPOINT" {
			return "http://127.0.0.1:4318"
		}
		return ""
	}}, telemetry.Options{})
	if err != nil || !env.Tracing() {
		t.Fatalf("OTEL_EXPORTER_OTLP_ENDPOINT set: tracing %v, %v", env.Tracing(), err)
	}
	if err := env.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkObserveTurn is the telemetry's cost of one turn with a tool
// call: off (metrics and logs only), and tracing into a batch processor.
func BenchmarkObserveTurn(b *testing.B) {
	for _, tc := range []struct {
		name string
		o    telemetry.Options
	}{
		{"metrics", telemetry.Options{Log: zerolog.Nop()}},
		{"tracing", telemetry.Options{Log: zerolog.Nop(), Exporter: discard{}}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			tel, err := telemetry.New(telemetry.Config{}, tc.o)
			if err != nil {
				b.Fatal(err)
			}
			// The batches are built once: the loop measures telemetry,
			// not the fixture.
			batches := turnBatches("t")
			b.ReportAllocs()
			now := time.Now()
			for b.Loop() {
				for _, batch := range batches {
					tel.Observe("a", messages.AgentDefault, now, batch)
				}
			}
		})
	}
}

type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }

// TestGrafanaDashboardMetrics: every holon_ metric the sample dashboard
// queries is one the runtime exports (here, or the node's gauges).
func TestGrafanaDashboardMetrics(t *testing.T) {
	b, err := os.ReadFile("../docs/grafana-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(b) {
		t.Fatal("docs/grafana-dashboard.json is not valid JSON")
	}
	tel, err := telemetry.New(telemetry.Config{}, telemetry.Options{Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	observeTurn(tel, "a", "t1", time.Now())
	tel.ModelFailed("a", "openai/gpt-5", time.Now(), time.Second, "server")
	tel.Observe("a", messages.AgentDefault, time.Now(), []messages.Payload{
		messages.RuntimeError{Failure: messages.Failure{Category: messages.FailureCategory("provider"), Code: "x"}},
		messages.AgentStateChanged{To: messages.StatusAsleep}, messages.ModelRetryScheduled{},
		messages.MessageProcessingStarted{TurnID: "t2", MessageID: "m2"},
		messages.ProviderRoundCompleted{TurnID: "t2", Round: 1, Provider: "openai/gpt-5",
			AttemptTimeline: json.RawMessage(`{"attempts":[{},{}],"requested_model_ref":"openai/gpt-5","winning_model_ref":"anthropic/claude"}`)},
		messages.TurnTerminal{TurnID: "t2", Kind: messages.TerminalAborted, Closure: messages.Closure{Outcome: messages.OutcomeFailed}}})
	tel.Metrics().JournalAppended(time.Millisecond, 10)
	tel.Metrics().SnapshotSaved(time.Millisecond)
	tel.Metrics().WatchBreakers(func() map[string]string { return map[string]string{"openai/gpt-5": "open"} })
	fams, err := tel.Metrics().Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	// The node's gauges, and those WatchRuntime reads from a runtime.
	have := map[string]bool{"holon_agents_active": true, "holon_event_streams_open": true, "holon_recovery_seconds": true,
		"holon_mailbox_queue_depth": true, "holon_agents_passivated": true, "holon_agents_quarantined": true,
		"holon_tasks_running": true, "holon_timers_pending": true}
	for _, f := range fams {
		have[f.GetName()] = true
	}
	for _, name := range regexp.MustCompile(`holon_[a-z_]+`).FindAllString(string(b), -1) {
		if base := strings.TrimSuffix(name, "_bucket"); !have[base] {
			t.Errorf("the dashboard queries %s, which no metric is", name)
		}
	}
}
