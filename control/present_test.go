package control_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// TestPresentOperatorLoop: the question's brief asks the operator to act;
// the suspension events say what was asked and how it ended.
func TestPresentOperatorLoop(t *testing.T) {
	at := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	expires := at.Add(time.Hour)
	rec := messages.SuspensionRecord{ID: "susp_1", AgentID: "main", Question: "Deploy to production?",
		ResponseType: messages.ResponseConfirm, FallbackPolicy: messages.FallbackFail, SuspendedAt: at,
		ExpiresAt: &expires, MessageID: "msg_1"}
	tests := []struct {
		name       string
		payload    messages.Payload
		visibility control.Visibility
		summary    string
	}{
		{"action required brief", messages.BriefRecorded{Brief: messages.Brief{ID: "brief_1", AgentID: "main",
			Kind: messages.BriefActionRequired, Text: "Deploy to production?", CreatedAt: at}},
			control.VisibilityActionRequired, "Deploy to production?"},
		{"question", messages.SuspensionRequested{Suspension: rec},
			control.VisibilityProgress, "main asks (confirm): Deploy to production? [yes|no]"},
		{"answer", messages.SuspensionResumed{SuspensionID: "susp_1", Response: messages.InputResponse{SuspensionID: "susp_1",
			Resolution: messages.ResolutionResponded, Value: json.RawMessage(`"yes"`), ChoiceLabel: "Yes", RespondedBy: "alice", RespondedAt: at}},
			control.VisibilityProgress, `suspension susp_1 responded with "yes" (Yes) by alice`},
		{"cancel", messages.SuspensionResumed{SuspensionID: "susp_1", Response: messages.InputResponse{SuspensionID: "susp_1",
			Resolution: messages.ResolutionCancelled, RespondedBy: "alice", RespondedAt: at}},
			control.VisibilityProgress, "suspension susp_1 cancelled by alice"},
		{"expiry", messages.SuspensionExpired{SuspensionID: "susp_1", Policy: messages.FallbackFail, Attempts: 1},
			control.VisibilityTurnResult, "suspension susp_1 expired after 1 attempt(s): fail"},
		{"notification", messages.OperatorNotificationRequested{Notification: messages.OperatorNotification{
			NotificationID: "ntf_1", AgentID: "main", RequestedByAgentID: "main", TargetOperatorBoundary: messages.BoundaryPrimaryOperator,
			Message: "Deploy to production?\nAnswer with: holon-actors respond main susp_1 <value>", Reason: messages.NotifySuspensionRequested,
			CreatedAt: at}},
			control.VisibilityProgress, "main: Deploy to production?"},
		{"model retry", messages.ModelRetryScheduled{TurnID: "turn_1", Round: 1, Attempt: 2, TimerID: "tmr_1", DueAt: expires,
			FirstFailedAt: at, Failure: messages.Failure{Category: messages.FailureTransport, Code: "rate_limited",
				Message: "openai/gpt-5: rate_limited: HTTP 429", Summary: "The model call to openai/gpt-5 failed (rate_limited)."}},
			control.VisibilityProgress, "retrying at 2026-11-22T07:00:00Z, attempt 3: The model call to openai/gpt-5 failed (rate_limited)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := messages.NewEvent("main", at, tt.payload)
			if err != nil {
				t.Fatal(err)
			}
			p := control.NewStreamEvent(ev, false).Presentation
			if p.Visibility != tt.visibility || p.Summary != tt.summary || strings.TrimSpace(p.Title) == "" {
				t.Fatalf("presentation = %+v, want %s %q", p, tt.visibility, tt.summary)
			}
		})
	}
}

// TestProvenanceTraceID: an event of a traced turn names its trace in its
// provenance, so an operator can open it in the tracing backend; an
// untraced one (and every older journal) names none.
func TestProvenanceTraceID(t *testing.T) {
	const trace = "4bf92f3577b34da6a3ce929d0e0e4736"
	at := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		payload messages.Payload
		want    string
	}{
		{"turn start", messages.MessageProcessingStarted{MessageID: "msg_1", TurnID: "turn_1", TraceID: trace}, trace},
		{"model round", messages.ProviderRoundCompleted{TurnID: "turn_1", Round: 1, TraceID: trace}, trace},
		{"tool call", messages.ToolCallStarted{TurnID: "turn_1", CallID: "c1", ToolName: "echo", Arguments: json.RawMessage(`{}`), TraceID: trace}, trace},
		{"tool result", messages.ToolExecuted{TurnID: "turn_1", CallID: "c1", ToolName: "echo", Status: messages.ToolOK, Envelope: json.RawMessage(`{}`), TraceID: trace}, trace},
		{"turn end", messages.TurnTerminal{TurnID: "turn_1", MessageID: "msg_1", Kind: messages.TerminalCompleted, Closure: messages.Closure{Outcome: messages.OutcomeCompleted}, TraceID: trace}, trace},
		{"untraced", messages.MessageProcessingStarted{MessageID: "msg_1", TurnID: "turn_1"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := messages.NewEvent("main", at, tc.payload)
			if err != nil {
				t.Fatal(err)
			}
			if got := control.NewStreamEvent(ev, false).Provenance.TraceID; got != tc.want {
				t.Fatalf("provenance trace_id = %q, want %q", got, tc.want)
			}
		})
	}
}
