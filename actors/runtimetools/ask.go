package runtimetools

import (
	"fmt"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
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
	p["timeout_seconds"].Minimum, p["timeout_seconds"].Maximum = Ptr(1.0), Ptr(maxSuspensionWindow.Seconds())
	for _, k := range []string{"confidence", "risk", "reversibility"} {
		p[k].Minimum, p[k].Maximum = Ptr(0.0), Ptr(1.0)
	}
	if c := p["choices"].Items; c != nil {
		c.Properties["style"].Enum = []any{"primary", "danger", "default"}
	}
	if r := p["retry_policy"]; r != nil {
		r.Properties["final_fallback_policy"].Enum = []any{"fail", "complete_with_fallback", "use_default_and_continue"}
		r.Properties["interval_seconds"].Minimum = Ptr(1.0)
		r.Properties["max_attempts"].Minimum, r.Properties["max_attempts"].Maximum = Ptr(1.0), Ptr(20.0)
	}
}

func Ptr[T any](v T) *T { return &v }

// Validate checks what the schema cannot: choices for a choice question,
// a fallback value that is itself a valid answer.
func (a *RequestInputArgs) Validate() error {
	st := a.State()
	rec, err := st.Record()
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

// State is the record of the arguments a successful call keeps in its
// turn (TurnState.Ask).
func (a *RequestInputArgs) State() agentstate.AskState {
	st := agentstate.AskState{Question: a.Question, ResponseType: a.ResponseType, Context: a.Context, ChannelHint: a.ChannelHint,
		TimeoutSeconds: a.TimeoutSeconds, FallbackPolicy: a.FallbackPolicy, FallbackValue: a.FallbackValue,
		Confidence: a.Confidence, Risk: a.Risk, Reversibility: a.Reversibility}
	for _, c := range a.Choices {
		st.Choices = append(st.Choices, agentstate.AskChoice(c))
	}
	if r := a.RetryPolicy; r != nil {
		st.RetryPolicy = (*agentstate.AskRetry)(r)
	}
	return st
}
