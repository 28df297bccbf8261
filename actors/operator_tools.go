package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// The runtime-owned operator tools. Like Sleep, the agent runs them itself:
// they change its own lifecycle (a suspension) or journal (a decision, a
// notification).
const (
	RequestInputToolName = "RequestOperatorInput"
	ShouldAskToolName    = "ShouldRequestInput"
	NotifyToolName       = "NotifyOperator"
)

// maxSuspensionWindow bounds one attempt's timeout.
const maxSuspensionWindow = 30 * 24 * time.Hour

// ChoiceArg is one option of a RequestOperatorInput question.
type ChoiceArg struct {
	Value       string `json:"value" jsonschema:"The machine-readable value you get back when the operator picks this."`
	Label       string `json:"label" jsonschema:"What the operator reads."`
	Description string `json:"description,omitempty" jsonschema:"A longer explanation to help the operator decide."`
	Style       string `json:"style,omitempty" jsonschema:"A hint for the operator's UI: primary, danger or default."`
}

// RetryPolicyArg re-notifies the operator before the final fallback.
type RetryPolicyArg struct {
	IntervalSeconds     int64  `json:"interval_seconds" jsonschema:"Seconds between reminders; each attempt waits this long."`
	MaxAttempts         int    `json:"max_attempts" jsonschema:"How many times the operator is notified in all, the first included."`
	FinalFallbackPolicy string `json:"final_fallback_policy,omitempty" jsonschema:"The policy after the last attempt; defaults to fallback_policy."`
}

// RequestInputArgs are RequestOperatorInput's arguments (RFC-0025 §9.1).
type RequestInputArgs struct {
	Question       string            `json:"question" jsonschema:"The question: one decision, with what you will do with each answer."`
	ResponseType   string            `json:"response_type,omitempty" jsonschema:"choice (default): pick one of choices; confirm: yes or no; text: free text; form: a JSON object of fields named in context."`
	Choices        []ChoiceArg       `json:"choices,omitempty" jsonschema:"The options; required for choice, optional for confirm (defaults to yes/no)."`
	Context        map[string]string `json:"context,omitempty" jsonschema:"Facts the operator needs to decide (no secrets)."`
	ChannelHint    string            `json:"channel_hint,omitempty" jsonschema:"Preferred delivery channel, e.g. slack or email."`
	TimeoutSeconds int64             `json:"timeout_seconds,omitempty" jsonschema:"How long to wait for an answer; omit to wait until answered."`
	FallbackPolicy string            `json:"fallback_policy,omitempty" jsonschema:"On timeout: fail (default) ends the wait as a failure; complete_with_fallback or use_default_and_continue resume you with fallback_value."`
	FallbackValue  string            `json:"fallback_value,omitempty" jsonschema:"The answer used on timeout by complete_with_fallback (a choice value, yes/no, text, or a JSON object for form)."`
	Confidence     *float64          `json:"confidence,omitempty" jsonschema:"Your confidence (0..1) in deciding alone."`
	Risk           *float64          `json:"risk,omitempty" jsonschema:"The risk (0..1) of acting without asking."`
	Reversibility  *float64          `json:"reversibility,omitempty" jsonschema:"How reversible (0..1) the action is."`
	RetryPolicy    *RetryPolicyArg   `json:"retry_policy,omitempty" jsonschema:"Remind the operator before the final fallback."`
}

// AdjustSchema adds the enums and bounds struct tags cannot say.
func (RequestInputArgs) AdjustSchema(s *jsonschema.Schema) {
	p := s.Properties
	p["response_type"].Enum = []any{"choice", "confirm", "text", "form"}
	p["fallback_policy"].Enum = []any{"fail", "complete_with_fallback", "use_default_and_continue"}
	p["timeout_seconds"].Minimum, p["timeout_seconds"].Maximum = ptr(1.0), ptr(maxSuspensionWindow.Seconds())
	for _, k := range []string{"confidence", "risk", "reversibility"} {
		p[k].Minimum, p[k].Maximum = ptr(0.0), ptr(1.0)
	}
	if c := p["choices"].Items; c != nil {
		c.Properties["style"].Enum = []any{"primary", "danger", "default"}
	}
	if r := p["retry_policy"]; r != nil {
		r.Properties["final_fallback_policy"].Enum = []any{"fail", "complete_with_fallback", "use_default_and_continue"}
		r.Properties["interval_seconds"].Minimum = ptr(1.0)
		r.Properties["max_attempts"].Minimum, r.Properties["max_attempts"].Maximum = ptr(1.0), ptr(20.0)
	}
}

func ptr[T any](v T) *T { return &v }

// Validate checks what the schema cannot: choices for a choice question,
// a fallback value that is itself a valid answer.
func (a *RequestInputArgs) Validate() error {
	rec, err := a.record()
	if err != nil {
		return err
	}
	if strings.TrimSpace(a.Question) == "" {
		return &tools.FieldError{Field: "question", Problem: "is empty", Hint: "ask one clear question"}
	}
	seen := map[string]bool{}
	for _, c := range rec.Choices {
		if c.Value == "" || c.Label == "" {
			return &tools.FieldError{Field: "choices", Problem: "every choice needs a value and a label"}
		}
		if seen[c.Value] {
			return &tools.FieldError{Field: "choices", Problem: fmt.Sprintf("value %q appears twice", c.Value)}
		}
		seen[c.Value] = true
		if rec.ResponseType == messages.ResponseConfirm && c.Value != "yes" && c.Value != "no" {
			return &tools.FieldError{Field: "choices", Problem: "a confirm question's choices are yes and no", Hint: "omit choices, or use response_type choice"}
		}
	}
	if rec.ResponseType == messages.ResponseChoice && len(rec.Choices) == 0 {
		return &tools.FieldError{Field: "choices", Problem: "a choice question needs at least one choice", Hint: "add choices, or use response_type confirm or text"}
	}
	if rec.FinalPolicy().Resumes() {
		if len(rec.FallbackValue) == 0 {
			return &tools.FieldError{Field: "fallback_value", Problem: "is required by fallback policy " + string(rec.FinalPolicy())}
		}
		if _, err := rec.CheckAnswer(rec.FallbackValue); err != nil {
			return &tools.FieldError{Field: "fallback_value", Problem: "is not a valid answer: " + err.Error()}
		}
	}
	return nil
}

// record turns the arguments into the parts of a SuspensionRecord they
// decide.
func (a *RequestInputArgs) record() (messages.SuspensionRecord, error) {
	r := messages.SuspensionRecord{Question: strings.TrimSpace(a.Question), ResponseType: messages.ResponseChoice,
		FallbackPolicy: messages.FallbackFail, ChannelHint: a.ChannelHint, TimeoutSeconds: a.TimeoutSeconds,
		ConfidenceAtSuspension: a.Confidence}
	if a.ResponseType != "" {
		r.ResponseType = messages.ResponseType(a.ResponseType)
	}
	if a.FallbackPolicy != "" {
		r.FallbackPolicy = messages.FallbackPolicy(a.FallbackPolicy)
	}
	if !r.ResponseType.Valid() || !r.FallbackPolicy.Valid() {
		return r, &tools.FieldError{Field: "response_type", Problem: "unknown response type or fallback policy"}
	}
	for _, c := range a.Choices {
		r.Choices = append(r.Choices, messages.SuspensionChoice{Value: c.Value, Label: c.Label, Description: c.Description, Style: c.Style})
	}
	if len(a.Context) > 0 {
		r.Context, _ = json.Marshal(a.Context)
	}
	if a.FallbackValue != "" {
		r.FallbackValue = answerJSON(r.ResponseType, a.FallbackValue)
	}
	if p := a.RetryPolicy; p != nil {
		r.RetryPolicy = &messages.HumanRetryPolicy{IntervalSeconds: p.IntervalSeconds, MaxAttempts: p.MaxAttempts,
			FinalFallbackPolicy: messages.FallbackPolicy(p.FinalFallbackPolicy)}
		if p.FinalFallbackPolicy != "" && !r.RetryPolicy.FinalFallbackPolicy.Valid() {
			return r, &tools.FieldError{Field: "retry_policy.final_fallback_policy", Problem: "is not a fallback policy"}
		}
	}
	return r, nil
}

// signals are the engagement signals the arguments carry, if any.
func (a *RequestInputArgs) signals() (messages.EngagementSignals, bool) {
	s := messages.EngagementSignals{Confidence: a.Confidence, Risk: a.Risk, Reversibility: a.Reversibility}
	return s, a.Confidence != nil || a.Risk != nil || a.Reversibility != nil
}

// answerJSON is the JSON of a textual answer: a form's JSON object as is,
// anything else as a JSON string.
func answerJSON(t messages.ResponseType, v string) json.RawMessage {
	if t == messages.ResponseForm && json.Valid([]byte(v)) {
		return json.RawMessage(v)
	}
	b, _ := json.Marshal(v)
	return b
}

// ShouldAskArgs are ShouldRequestInput's arguments (RFC-0025 §7.1).
type ShouldAskArgs struct {
	Confidence    *float64          `json:"confidence,omitempty" jsonschema:"Your confidence (0..1) in deciding alone; default 1."`
	Risk          *float64          `json:"risk,omitempty" jsonschema:"The risk (0..1) of acting without asking; default 0."`
	Reversibility *float64          `json:"reversibility,omitempty" jsonschema:"How reversible (0..1) the action is; default 1."`
	Context       map[string]string `json:"context,omitempty" jsonschema:"What the decision is about."`
}

// AdjustSchema bounds the signals to 0..1.
func (ShouldAskArgs) AdjustSchema(s *jsonschema.Schema) {
	for _, k := range []string{"confidence", "risk", "reversibility"} {
		s.Properties[k].Minimum, s.Properties[k].Maximum = ptr(0.0), ptr(1.0)
	}
}

// NotifyArgs are NotifyOperator's arguments.
type NotifyArgs struct {
	Message string `json:"message" jsonschema:"What your operator should know; the first line is the summary."`
}

// Validate refuses an empty message.
func (a *NotifyArgs) Validate() error {
	if strings.TrimSpace(a.Message) == "" {
		return &tools.FieldError{Field: "message", Problem: "is empty", Hint: "say what the operator should know"}
	}
	return nil
}

// operatorTools are the runtime-owned operator tools of this runtime:
// RequestOperatorInput and ShouldRequestInput always, NotifyOperator when
// the profile exposes it. Their run functions only validate and echo: the
// agent applies their effect (see toolFinished and finishSuspend).
func operatorTools(notify bool) []tools.Tool {
	ts := []tools.Tool{
		tools.Typed(RequestInputToolName,
			"Ask your operator a question and end this turn: you are suspended until they answer, the question "+
				"times out or they cancel it; the answer comes back to you as an input_response message. Use it for "+
				"decisions you must not take alone (irreversible, risky, or outside your instructions); call "+
				ShouldAskToolName+" first when unsure whether to ask.",
			func(_ context.Context, a RequestInputArgs) tools.Result {
				return tools.Success(RequestInputToolName, "Question recorded; this turn ends and you wait for the operator's answer.", a)
			}),
		tools.Typed(ShouldAskToolName,
			"Decide whether to ask your operator before acting, from your confidence, the risk and the "+
				"reversibility of the action. Answers a mode: autonomous (act), request_input or require_input "+
				"(call "+RequestInputToolName+"), defer (do not act; hand the decision to the operator).",
			func(_ context.Context, a ShouldAskArgs) tools.Result {
				d := engagementSignals(a).Decide()
				return tools.Success(ShouldAskToolName, fmt.Sprintf("mode %s: %s", d.Mode, d.Reason), d)
			}),
	}
	if notify {
		ts = append(ts, tools.Typed(NotifyToolName,
			"Tell your operator something without stopping: the notification is recorded and delivered to your "+
				"operator (or your parent agent, if you are a private child). It does not wait for a reply.",
			func(_ context.Context, a NotifyArgs) tools.Result {
				return tools.Success(NotifyToolName, "Your operator was notified.", map[string]string{"summary": messages.NotificationSummary(a.Message)})
			}))
	}
	return ts
}

func engagementSignals(a ShouldAskArgs) messages.EngagementSignals {
	s := messages.EngagementSignals{Confidence: a.Confidence, Risk: a.Risk, Reversibility: a.Reversibility}
	if len(a.Context) > 0 {
		s.Context, _ = json.Marshal(a.Context)
	}
	return s
}

// isRuntimeTool reports a tool the agent runs itself.
func isRuntimeTool(name string) bool {
	return slices.Contains([]string{SleepToolName, RequestInputToolName, ShouldAskToolName, NotifyToolName, SpawnAgentToolName}, name) ||
		isWorkItemTool(name)
}

// requestArgsOf reads RequestOperatorInput's arguments back from its
// success envelope.
func requestArgsOf(envelope json.RawMessage) *RequestInputArgs {
	var env struct {
		Result RequestInputArgs `json:"result"`
	}
	_ = json.Unmarshal(envelope, &env) // our own envelope
	return &env.Result
}
