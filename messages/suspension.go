package messages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// ResponseType is the kind of answer a suspension expects from the operator
// (RFC-0025 §4.1).
type ResponseType string

// The response types.
const (
	ResponseChoice  ResponseType = "choice"  // one of the suspension's choices
	ResponseConfirm ResponseType = "confirm" // "yes" or "no"
	ResponseText    ResponseType = "text"    // any non-empty text
	ResponseForm    ResponseType = "form"    // a JSON object of fields
)

var responseTypes = enum[ResponseType]{name: "response type", values: []ResponseType{
	ResponseChoice, ResponseConfirm, ResponseText, ResponseForm,
}}

// String returns the ResponseType as spelled in JSON.
func (t ResponseType) String() string { return string(t) }

// Valid reports whether t is a response type.
func (t ResponseType) Valid() bool { return responseTypes.valid(t) }

// UnmarshalText parses a response type, rejecting unknown values.
func (t *ResponseType) UnmarshalText(text []byte) error { return responseTypes.unmarshal(t, text) }

// FallbackPolicy says what happens when a suspension times out (RFC-0025 §6).
type FallbackPolicy string

// The fallback policies.
const (
	FallbackFail                  FallbackPolicy = "fail"                     // the wait ends as a failure
	FallbackCompleteWithFallback  FallbackPolicy = "complete_with_fallback"   // resume with fallback_value
	FallbackUseDefaultAndContinue FallbackPolicy = "use_default_and_continue" // alias of complete_with_fallback
)

var fallbackPolicies = enum[FallbackPolicy]{name: "fallback policy", values: []FallbackPolicy{
	FallbackFail, FallbackCompleteWithFallback, FallbackUseDefaultAndContinue,
}}

// String returns the FallbackPolicy as spelled in JSON.
func (p FallbackPolicy) String() string { return string(p) }

// Valid reports whether p is a fallback policy.
func (p FallbackPolicy) Valid() bool { return fallbackPolicies.valid(p) }

// UnmarshalText parses a fallback policy, rejecting unknown values.
func (p *FallbackPolicy) UnmarshalText(text []byte) error { return fallbackPolicies.unmarshal(p, text) }

// Resumes reports whether the policy resumes the agent with the fallback
// value on timeout.
func (p FallbackPolicy) Resumes() bool { return p != FallbackFail }

// SuspensionResolution is how a suspension ended.
type SuspensionResolution string

// The resolutions.
const (
	ResolutionResponded SuspensionResolution = "responded" // an operator answered
	ResolutionExpired   SuspensionResolution = "expired"   // the timeout fired first
	ResolutionCancelled SuspensionResolution = "cancelled" // an operator cancelled the question
)

var resolutions = enum[SuspensionResolution]{name: "suspension resolution", values: []SuspensionResolution{
	ResolutionResponded, ResolutionExpired, ResolutionCancelled,
}}

// String returns the SuspensionResolution as spelled in JSON.
func (r SuspensionResolution) String() string { return string(r) }

// Valid reports whether r is a resolution.
func (r SuspensionResolution) Valid() bool { return resolutions.valid(r) }

// UnmarshalText parses a resolution, rejecting unknown values.
func (r *SuspensionResolution) UnmarshalText(text []byte) error {
	return resolutions.unmarshal(r, text)
}

// SuspensionChoice is one option offered to the operator (RFC-0025 §4.2).
type SuspensionChoice struct {
	Value       string          `json:"value"`
	Label       string          `json:"label"`
	Description string          `json:"description,omitempty"`
	Style       string          `json:"style,omitempty"` // primary, danger, default
	Metadata    json.RawMessage `json:"metadata,omitempty"`
}

// HumanRetryPolicy re-notifies the operator before the final fallback
// (RFC-0026): up to MaxAttempts notifications IntervalSeconds apart, then
// FinalFallbackPolicy.
type HumanRetryPolicy struct {
	IntervalSeconds     int64          `json:"interval_seconds"`
	MaxAttempts         int            `json:"max_attempts"`
	FinalFallbackPolicy FallbackPolicy `json:"final_fallback_policy,omitempty"`
}

// SuspensionRecord is one question to the operator and, once settled, its
// answer (RFC-0025 §5). The first block of fields is the RFC's; the rest
// binds it to the agent's turn and tracks re-notification.
type SuspensionRecord struct {
	ID                     string               `json:"id"`
	Question               string               `json:"question"`
	ResponseType           ResponseType         `json:"response_type"`
	Choices                []SuspensionChoice   `json:"choices,omitempty"`
	Context                json.RawMessage      `json:"context,omitempty"`
	ChannelHint            string               `json:"channel_hint,omitempty"`
	SuspendedAt            time.Time            `json:"suspended_at"`
	TimeoutSeconds         int64                `json:"timeout_seconds,omitempty"`
	ExpiresAt              *time.Time           `json:"expires_at,omitempty"`
	FallbackValue          json.RawMessage      `json:"fallback_value,omitempty"`
	FallbackPolicy         FallbackPolicy       `json:"fallback_policy"`
	RetryPolicy            *HumanRetryPolicy    `json:"retry_policy,omitempty"`
	ConfidenceAtSuspension *float64             `json:"confidence_at_suspension,omitempty"`
	DecisionRecord         *EngagementDecision  `json:"decision_record,omitempty"`
	Response               json.RawMessage      `json:"response,omitempty"`
	RespondedAt            *time.Time           `json:"responded_at,omitempty"`
	Resolution             SuspensionResolution `json:"resolution,omitempty"`

	AgentID     string `json:"agent_id"`
	TurnID      string `json:"turn_id,omitempty"`
	MessageID   string `json:"message_id,omitempty"`
	CallID      string `json:"call_id,omitempty"`
	WorkItemID  string `json:"work_item_id,omitempty"`
	RespondedBy string `json:"responded_by,omitempty"`
	// Attempts counts the operator notifications sent for this question
	// (the first, then one per retry_policy re-notification).
	Attempts int `json:"attempts"`
	// DeadlineTimerID is the timer that ends the current attempt.
	DeadlineTimerID string `json:"deadline_timer_id,omitempty"`
}

// Open reports whether the suspension still waits for an answer.
func (r *SuspensionRecord) Open() bool { return r.Resolution == "" }

// EffectiveChoices are the choices an answer is checked against: the
// record's, or yes/no for a confirm without explicit choices.
func (r *SuspensionRecord) EffectiveChoices() []SuspensionChoice {
	if len(r.Choices) == 0 && r.ResponseType == ResponseConfirm {
		return []SuspensionChoice{{Value: "yes", Label: "Yes"}, {Value: "no", Label: "No"}}
	}
	return r.Choices
}

// FinalPolicy is the policy applied when the last attempt times out.
func (r *SuspensionRecord) FinalPolicy() FallbackPolicy {
	if r.RetryPolicy != nil && r.RetryPolicy.FinalFallbackPolicy != "" {
		return r.RetryPolicy.FinalFallbackPolicy
	}
	return r.FallbackPolicy
}

// AttemptWindow is how long one attempt waits before the next
// re-notification or the final fallback; 0 means no timeout.
func (r *SuspensionRecord) AttemptWindow() time.Duration {
	if r.RetryPolicy != nil && r.RetryPolicy.IntervalSeconds > 0 {
		return time.Duration(r.RetryPolicy.IntervalSeconds) * time.Second
	}
	return time.Duration(r.TimeoutSeconds) * time.Second
}

// MaxAttempts is how many notifications the question gets, at least 1.
func (r *SuspensionRecord) MaxAttempts() int {
	if r.RetryPolicy != nil && r.RetryPolicy.MaxAttempts > 1 {
		return r.RetryPolicy.MaxAttempts
	}
	return 1
}

// InvalidAnswerError says why a value does not answer a suspension; it maps
// to HTTP 422. ValidChoices lists the accepted values when there are any.
type InvalidAnswerError struct {
	Message      string
	ValidChoices []string
}

func (e *InvalidAnswerError) Error() string { return "invalid answer: " + e.Message }

// CheckAnswer validates value (JSON) against the record's response type and
// choices, and returns the matching choice for choice and confirm answers.
func (r *SuspensionRecord) CheckAnswer(value json.RawMessage) (*SuspensionChoice, error) {
	value = bytes.TrimSpace(value)
	if len(value) == 0 || bytes.Equal(value, []byte("null")) {
		return nil, &InvalidAnswerError{Message: "value is missing", ValidChoices: r.choiceValues()}
	}
	switch r.ResponseType {
	case ResponseChoice, ResponseConfirm:
		var s string
		if err := json.Unmarshal(value, &s); err != nil {
			return nil, &InvalidAnswerError{Message: "value must be a string naming one of the choices", ValidChoices: r.choiceValues()}
		}
		if r.ResponseType == ResponseConfirm && s != "yes" && s != "no" {
			return nil, &InvalidAnswerError{Message: fmt.Sprintf("a confirm question takes \"yes\" or \"no\", not %q", s), ValidChoices: []string{"yes", "no"}}
		}
		choices := r.EffectiveChoices()
		if i := slices.IndexFunc(choices, func(c SuspensionChoice) bool { return c.Value == s }); i >= 0 {
			c := choices[i]
			return &c, nil
		}
		if r.ResponseType == ResponseConfirm {
			return &SuspensionChoice{Value: s}, nil
		}
		return nil, &InvalidAnswerError{Message: fmt.Sprintf("%q is not one of the choices", s), ValidChoices: r.choiceValues()}
	case ResponseText:
		var s string
		if err := json.Unmarshal(value, &s); err != nil || strings.TrimSpace(s) == "" {
			return nil, &InvalidAnswerError{Message: "a text question takes a non-empty string"}
		}
	case ResponseForm:
		var m map[string]json.RawMessage
		if err := json.Unmarshal(value, &m); err != nil || m == nil {
			return nil, &InvalidAnswerError{Message: "a form question takes a JSON object of fields"}
		}
	}
	return nil, nil
}

func (r *SuspensionRecord) choiceValues() []string {
	cs := r.EffectiveChoices()
	if len(cs) == 0 {
		return nil
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Value
	}
	return out
}

// InputResponse is what the model sees when a suspension ends (RFC-0025
// §10): the operator's answer, or the fallback value marked as such, or a
// cancellation.
type InputResponse struct {
	SuspensionID      string               `json:"suspension_id"`
	Resolution        SuspensionResolution `json:"resolution"`
	Value             json.RawMessage      `json:"value,omitempty"`
	ChoiceLabel       string               `json:"choice_label,omitempty"`
	ChoiceDescription string               `json:"choice_description,omitempty"`
	RespondedBy       string               `json:"responded_by,omitempty"`
	RespondedAt       time.Time            `json:"responded_at"`
	Metadata          json.RawMessage      `json:"metadata,omitempty"`
	// Fallback is true when Value is the suspension's fallback value,
	// applied because nobody answered in time.
	Fallback bool   `json:"fallback,omitempty"`
	Question string `json:"question,omitempty"`
}

// EngagementMode is the outcome of the engagement decision (RFC-0025 §7.2).
type EngagementMode string

// The engagement modes.
const (
	EngageAutonomous   EngagementMode = "autonomous"    // act without asking
	EngageRequestInput EngagementMode = "request_input" // moderate uncertainty: ask
	EngageRequireInput EngagementMode = "require_input" // low confidence or high risk: must ask
	EngageDefer        EngagementMode = "defer"         // too risky to act or ask about: hand over
)

var engagementModes = enum[EngagementMode]{name: "engagement mode", values: []EngagementMode{
	EngageAutonomous, EngageRequestInput, EngageRequireInput, EngageDefer,
}}

// String returns the EngagementMode as spelled in JSON.
func (m EngagementMode) String() string { return string(m) }

// Valid reports whether m is an engagement mode.
func (m EngagementMode) Valid() bool { return engagementModes.valid(m) }

// UnmarshalText parses an engagement mode, rejecting unknown values.
func (m *EngagementMode) UnmarshalText(text []byte) error { return engagementModes.unmarshal(m, text) }

// EngagementSignals are the inputs of the engagement decision (RFC-0025
// §7.1). Nil fields take the RFC's defaults: confidence 1, risk 0,
// reversibility 1.
type EngagementSignals struct {
	Confidence    *float64        `json:"confidence,omitempty"`
	Risk          *float64        `json:"risk,omitempty"`
	Reversibility *float64        `json:"reversibility,omitempty"`
	Context       json.RawMessage `json:"context,omitempty"`
}

// EngagementDecision is the result of should_request_input.
type EngagementDecision struct {
	Mode          EngagementMode  `json:"mode"`
	ShouldAsk     bool            `json:"should_ask"`
	Reason        string          `json:"reason"`
	Confidence    float64         `json:"confidence"`
	Risk          float64         `json:"risk"`
	Reversibility float64         `json:"reversibility"`
	Context       json.RawMessage `json:"context,omitempty"`
}

// The engagement thresholds of RFC-0025 §7.2.
const (
	autonomousMinConfidence    = 0.85
	autonomousMaxRisk          = 0.20
	autonomousMinReversibility = 0.50
	requireBelowConfidence     = 0.50
	requireAboveRisk           = 0.50
	deferMinRisk               = 0.80
	deferMaxReversibility      = 0.10
)

// Decide applies the RFC's thresholds, most severe first: defer (risk ≥
// 0.80 or reversibility ≤ 0.10), require_input (confidence < 0.50 or risk
// > 0.50), autonomous (confidence ≥ 0.85, risk ≤ 0.20, reversibility ≥
// 0.50), otherwise request_input. Values are clamped to [0, 1].
func (s EngagementSignals) Decide() EngagementDecision {
	c, r, v := clamp01(s.Confidence, 1), clamp01(s.Risk, 0), clamp01(s.Reversibility, 1)
	d := EngagementDecision{Confidence: c, Risk: r, Reversibility: v, Context: s.Context}
	switch {
	case r >= deferMinRisk || v <= deferMaxReversibility:
		d.Mode, d.Reason = EngageDefer, fmt.Sprintf("risk %.2f ≥ %.2f or reversibility %.2f ≤ %.2f: do not act; hand the decision to the operator", r, deferMinRisk, v, deferMaxReversibility)
	case c < requireBelowConfidence || r > requireAboveRisk:
		d.Mode, d.ShouldAsk, d.Reason = EngageRequireInput, true, fmt.Sprintf("confidence %.2f < %.2f or risk %.2f > %.2f: operator input is required", c, requireBelowConfidence, r, requireAboveRisk)
	case c >= autonomousMinConfidence && r <= autonomousMaxRisk && v >= autonomousMinReversibility:
		d.Mode, d.Reason = EngageAutonomous, "confident, low risk and reversible: act without asking"
	default:
		d.Mode, d.ShouldAsk, d.Reason = EngageRequestInput, true, "moderate uncertainty: ask the operator"
	}
	return d
}

func clamp01(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return min(1, max(0, *p))
}
