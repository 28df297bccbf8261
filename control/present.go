package control

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// Visibility is the operator visibility level of an event, most
// operator-facing first (runtime-spec-v0 "Local Operator Console Contract").
type Visibility string

// The visibility levels.
const (
	VisibilityActionRequired Visibility = "action_required"
	VisibilityWorkDone       Visibility = "work_done"
	VisibilityTurnResult     Visibility = "turn_result"
	VisibilityProgress       Visibility = "progress"
	VisibilityTrace          Visibility = "trace"
)

// The presentation categories used here.
const (
	CategoryBrief     = "brief"
	CategoryMessage   = "message"
	CategoryTask      = "task"
	CategoryWaiting   = "waiting"
	CategoryRuntime   = "runtime"
	CategoryProgress  = "assistant_progress"
	CategoryTool      = "tool"
	CategoryStateSync = "state_sync"
	CategoryTrace     = "trace"
)

// Presentation is how an operator surface shows an event.
type Presentation struct {
	Visibility      Visibility         `json:"visibility"`
	Category        string             `json:"category"`
	Title           string             `json:"title"`
	Body            string             `json:"body,omitempty"`
	Summary         string             `json:"summary"`
	SourceEventKind messages.EventType `json:"source_event_kind"`
}

// Provenance is the replay provenance of an event, carried apart from its
// payload so clients can index and resume replays. Cursors are EventSeq.
type Provenance struct {
	EventID          string                          `json:"event_id"`
	EventSeq         uint64                          `json:"event_seq"`
	At               time.Time                       `json:"at"`
	Kind             messages.EventType              `json:"kind"`
	AgentID          string                          `json:"agent_id"`
	Replayed         bool                            `json:"replayed"`
	MessageID        string                          `json:"message_id,omitempty"`
	Origin           *messages.Origin                `json:"origin,omitempty"`
	Trust            messages.TrustLevel             `json:"trust,omitempty"`
	AuthorityClass   messages.AuthorityClass         `json:"authority_class,omitempty"`
	DeliverySurface  messages.MessageDeliverySurface `json:"delivery_surface,omitempty"`
	AdmissionContext messages.AdmissionContext       `json:"admission_context,omitempty"`
	TaskID           string                          `json:"task_id,omitempty"`
	WorkItemID       string                          `json:"work_item_id,omitempty"`
	CorrelationID    string                          `json:"correlation_id,omitempty"`
	CausationID      string                          `json:"causation_id,omitempty"`
	// TraceID is the OpenTelemetry trace of the event's turn, when the
	// runtime traced it: the trace to open in the tracing backend.
	TraceID string `json:"trace_id,omitempty"`
}

// StreamEvent is one journal event as the events surface serves it: the
// provenance, the presentation and the canonical payload.
type StreamEvent struct {
	Provenance   Provenance      `json:"provenance"`
	Presentation Presentation    `json:"presentation"`
	Payload      json.RawMessage `json:"payload"`
}

// summaryLimit bounds one-line summaries.
const summaryLimit = 160

// NewStreamEvent builds the served form of ev. replayed is true when the
// event was read from history rather than delivered live.
func NewStreamEvent(ev messages.Event, replayed bool) StreamEvent {
	se := StreamEvent{
		Provenance: Provenance{EventID: ev.ID, EventSeq: ev.Seq, At: ev.At, Kind: ev.Type,
			AgentID: ev.AgentID, Replayed: replayed},
		Payload: ev.Payload,
	}
	p, err := ev.Decode()
	if err != nil {
		se.Presentation = Presentation{Visibility: VisibilityTrace, Category: CategoryTrace,
			Title: string(ev.Type), Summary: "undecodable event: " + err.Error(), SourceEventKind: ev.Type}
		return se
	}
	se.Presentation = present(p)
	se.Presentation.SourceEventKind = ev.Type
	addProvenance(&se.Provenance, p)
	return se
}

// addProvenance copies what the payload knows about where it came from.
func addProvenance(pv *Provenance, p messages.Payload) {
	switch p := p.(type) {
	case messages.MessageAdmitted:
		env := p.Envelope
		origin := env.Origin
		pv.MessageID, pv.Origin, pv.Trust, pv.AuthorityClass = env.ID, &origin, env.Trust, env.AuthorityClass
		pv.DeliverySurface, pv.AdmissionContext = env.DeliverySurface, env.AdmissionContext
		pv.TaskID, pv.WorkItemID = env.TaskID, env.WorkItemID
		pv.CorrelationID, pv.CausationID = env.CorrelationID, env.CausationID
	case messages.MessageProcessingStarted:
		pv.MessageID, pv.TraceID = p.MessageID, p.TraceID
	case messages.TurnTerminal:
		pv.MessageID, pv.TraceID = p.MessageID, p.TraceID
	case messages.RuntimeError:
		pv.MessageID, pv.TraceID = p.MessageID, p.TraceID
	case messages.ProviderRoundCompleted:
		pv.TraceID = p.TraceID
	case messages.ToolCallStarted:
		pv.TraceID = p.TraceID
	case messages.ToolExecuted:
		pv.TraceID = p.TraceID
	case messages.MessageDropped:
		pv.MessageID = p.MessageID
	case messages.BriefRecorded:
		pv.MessageID, pv.TaskID, pv.WorkItemID = p.Brief.RelatedMessageID, p.Brief.RelatedTaskID, p.Brief.WorkItemID
	case messages.SuspensionRequested:
		pv.MessageID, pv.WorkItemID = p.Suspension.MessageID, p.Suspension.WorkItemID
	case messages.OperatorNotificationRequested:
		n := p.Notification
		pv.WorkItemID, pv.CorrelationID, pv.CausationID = n.WorkItemID, n.CorrelationID, n.CausationID
	}
}

// present is the operator event presentation layer: what a surface shows
// for a payload instead of the raw event.
func present(p messages.Payload) Presentation {
	switch p := p.(type) {
	case messages.BriefRecorded:
		return presentBrief(p.Brief)
	case messages.MessageAdmitted:
		text := bodyText(p.Envelope.Body)
		return Presentation{Visibility: VisibilityTrace, Category: CategoryMessage,
			Title: "Message " + string(p.Envelope.Kind), Body: text,
			Summary: fmt.Sprintf("%s message admitted: %s", p.Envelope.Origin.Kind, oneLine(text))}
	case messages.AssistantRoundRecorded:
		return presentAssistant(p)
	case messages.ToolCallStarted:
		return Presentation{Visibility: VisibilityTrace, Category: CategoryTool, Title: "Tool " + p.ToolName,
			Body: string(p.Arguments), Summary: "Running " + p.ToolName}
	case messages.ToolExecuted:
		return Presentation{Visibility: VisibilityTrace, Category: CategoryTool, Title: "Tool " + p.ToolName,
			Body: p.Receipt, Summary: fmt.Sprintf("%s %s: %s", p.ToolName, p.Status, oneLine(p.Receipt))}
	case messages.TurnTerminal:
		return Presentation{Visibility: VisibilityTrace, Category: CategoryRuntime, Title: "Turn ended",
			Summary: fmt.Sprintf("turn %d %s (%d ms)", p.TurnIndex, p.Kind, p.DurationMS)}
	case messages.RuntimeError:
		return Presentation{Visibility: VisibilityTurnResult, Category: CategoryRuntime, Title: "Runtime error",
			Body: p.Failure.Message, Summary: oneLine(p.Failure.Message)}
	case messages.AgentStateChanged:
		return Presentation{Visibility: VisibilityTrace, Category: CategoryStateSync, Title: "State",
			Summary: fmt.Sprintf("%s → %s (%s)", orUnknown(string(p.From)), p.To, p.Reason)}
	case messages.AgentSlept:
		return Presentation{Visibility: VisibilityProgress, Category: CategoryWaiting, Title: "Asleep",
			Summary: fmt.Sprintf("asleep until %s: %s", p.ExpectedWake, oneLine(p.Reason))}
	case messages.SuspensionRequested:
		return presentQuestion(p.Suspension)
	case messages.SuspensionResumed:
		return Presentation{Visibility: VisibilityProgress, Category: CategoryWaiting, Title: "Question " + string(p.Response.Resolution),
			Summary: answerSummary(p.SuspensionID, p.Response)}
	case messages.SuspensionExpired:
		sum := fmt.Sprintf("suspension %s expired after %d attempt(s): %s", p.SuspensionID, p.Attempts, p.Policy)
		if p.Response != nil {
			sum += ", resumed with " + oneLine(string(p.Response.Value))
		}
		return Presentation{Visibility: VisibilityTurnResult, Category: CategoryWaiting, Title: "Question expired", Summary: sum}
	case messages.OperatorNotificationRequested:
		n := p.Notification
		sum := n.Summary
		if sum == "" {
			sum = messages.NotificationSummary(n.Message)
		}
		return Presentation{Visibility: VisibilityProgress, Category: CategoryRuntime, Title: "Operator notification",
			Body: n.Message, Summary: n.AgentID + ": " + oneLine(sum)}
	case messages.OperatorNotificationDelivery:
		return Presentation{Visibility: VisibilityTrace, Category: CategoryRuntime, Title: "Notification delivery",
			Summary: fmt.Sprintf("%s %s (attempt %d)", p.NotificationID, p.Status, p.Attempt)}
	case messages.SystemNotificationQueued:
		return Presentation{Visibility: VisibilityTrace, Category: CategoryRuntime, Title: "System notification",
			Body: p.Notification.Message, Summary: fmt.Sprintf("%s %s: %s", p.Notification.Level, p.Notification.Kind, oneLine(p.Notification.Message))}
	case messages.ModelRetryScheduled:
		return Presentation{Visibility: VisibilityProgress, Category: CategoryWaiting, Title: "Model retry",
			Body: p.Failure.Message, Summary: fmt.Sprintf("retrying at %s, attempt %d: %s", p.DueAt.UTC().Format(time.RFC3339),
				p.Attempt+1, oneLine(p.Failure.Summary))}
	case messages.ProviderRoundCompleted:
		return Presentation{Visibility: VisibilityTrace, Category: CategoryTrace, Title: "Provider round",
			Summary: fmt.Sprintf("%s round %d: %d in / %d out tokens, %d ms", p.Provider, p.Round,
				p.TokenUsage.InputTokens, p.TokenUsage.OutputTokens, p.ProviderRoundMS)}
	}
	return Presentation{Visibility: VisibilityTrace, Category: CategoryTrace,
		Title: string(p.EventType()), Summary: strings.ReplaceAll(string(p.EventType()), "_", " ")}
}

func presentBrief(b messages.Brief) Presentation {
	v, title := VisibilityTurnResult, "Result"
	switch b.Kind {
	case messages.BriefFailure:
		title = "Failure"
	case messages.BriefAck:
		v, title = VisibilityProgress, "Acknowledged"
	case messages.BriefActionRequired:
		v, title = VisibilityActionRequired, "Action required"
	}
	if b.WorkItemID != "" && b.Kind == messages.BriefResult {
		v = VisibilityWorkDone
	}
	return Presentation{Visibility: v, Category: CategoryBrief, Title: title, Body: b.Text, Summary: oneLine(b.Text)}
}

// presentQuestion shows a question to the operator with its choices. The
// action_required brief recorded with it is what asks the operator.
func presentQuestion(r messages.SuspensionRecord) Presentation {
	sum := fmt.Sprintf("%s asks (%s): %s", r.AgentID, r.ResponseType, oneLine(r.Question))
	if cs := r.EffectiveChoices(); len(cs) > 0 {
		vals := make([]string, len(cs))
		for i, c := range cs {
			vals[i] = c.Value
		}
		sum += " [" + strings.Join(vals, "|") + "]"
	}
	return Presentation{Visibility: VisibilityProgress, Category: CategoryWaiting, Title: "Question for the operator",
		Body: r.Question, Summary: oneLine(sum)}
}

// answerSummary says how a suspension ended and with what.
func answerSummary(id string, r messages.InputResponse) string {
	sum := fmt.Sprintf("suspension %s %s", id, r.Resolution)
	if len(r.Value) > 0 && string(r.Value) != "null" {
		sum += " with " + string(r.Value)
	}
	if r.ChoiceLabel != "" {
		sum += " (" + r.ChoiceLabel + ")"
	}
	if r.RespondedBy != "" {
		sum += " by " + r.RespondedBy
	}
	return oneLine(sum)
}

// presentAssistant distinguishes text progress from tool requests.
func presentAssistant(p messages.AssistantRoundRecorded) Presentation {
	pr := Presentation{Visibility: VisibilityProgress, Category: CategoryProgress, Title: "Assistant", Body: p.Text}
	switch {
	case strings.TrimSpace(p.Text) != "":
		pr.Summary = "Assistant progress: " + oneLine(p.Text)
	case len(p.ToolCalls) > 0:
		names := make([]string, len(p.ToolCalls))
		for i, c := range p.ToolCalls {
			names[i] = c.Name
		}
		pr.Summary = "Model requested tools: " + strings.Join(names, ", ")
	default:
		pr.Summary = fmt.Sprintf("Model round %d finished", p.Round)
	}
	return pr
}

func bodyText(b messages.Body) string {
	if b.Text != "" {
		return b.Text
	}
	if len(b.Value) > 0 {
		return string(b.Value)
	}
	return ""
}

// oneLine flattens s to one bounded line. It reads no further into s than
// the line needs, so a large body costs no more than a short one.
func oneLine(s string) string {
	var b strings.Builder
	runes := 0
	for f := range strings.FieldsSeq(s) {
		if runes > summaryLimit {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
			runes++
		}
		for _, r := range f {
			if runes > summaryLimit {
				break
			}
			b.WriteRune(r)
			runes++
		}
	}
	if runes <= summaryLimit {
		return b.String()
	}
	r := []rune(b.String())
	return string(r[:summaryLimit-1]) + "…"
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
