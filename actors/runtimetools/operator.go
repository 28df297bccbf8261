package runtimetools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

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
		s.Properties[k].Minimum, s.Properties[k].Maximum = Ptr(0.0), Ptr(1.0)
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
		tools.Typed(agentstate.RequestInputToolName,
			"Ask your operator a question and end this turn: you are suspended until they answer, the question "+
				"times out or they cancel it; the answer comes back to you as an input_response message. Use it for "+
				"decisions you must not take alone (irreversible, risky, or outside your instructions); call "+
				agentstate.ShouldAskToolName+" first when unsure whether to ask.",
			func(_ context.Context, a RequestInputArgs) tools.Result {
				return tools.Success(agentstate.RequestInputToolName, "Question recorded; this turn ends and you wait for the operator's answer.", a)
			}),
		tools.Typed(agentstate.ShouldAskToolName,
			"Decide whether to ask your operator before acting, from your confidence, the risk and the "+
				"reversibility of the action. Answers a mode: autonomous (act), request_input or require_input "+
				"(call "+agentstate.RequestInputToolName+"), defer (do not act; hand the decision to the operator).",
			func(_ context.Context, a ShouldAskArgs) tools.Result {
				d := engagementSignals(a).Decide()
				return tools.Success(agentstate.ShouldAskToolName, fmt.Sprintf("mode %s: %s", d.Mode, d.Reason), d)
			}),
	}
	if notify {
		ts = append(ts, tools.Typed(agentstate.NotifyToolName,
			"Tell your operator something without stopping: the notification is recorded and delivered to your "+
				"operator (or your parent agent, if you are a private child). It does not wait for a reply.",
			func(_ context.Context, a NotifyArgs) tools.Result {
				return tools.Success(agentstate.NotifyToolName, "Your operator was notified.", map[string]string{"summary": messages.NotificationSummary(a.Message)})
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
