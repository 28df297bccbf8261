package agentstate

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// The decisions of per-tool approval: before a call runs, its tool's mode
// (Env.Approval) lets it run (auto), refuses it (deny), or suspends the
// turn mid-round with a confirm question showing the exact arguments
// (ask). The answer is durable: after it, the call runs on "yes" and is
// refused otherwise, live or after a restart.

// KindToolDenied is the error kind of a call its approval policy refuses;
// KindToolRefused of one the operator answered no to.
const (
	KindToolDenied  = "tool_denied"
	KindToolRefused = "tool_refused"
)

// approvalStep is Next's gate for call, which has not started: the step
// that must come first, or ok false when the call may run now.
func approvalStep(st *State, env Env, call messages.ToolCall) (Step, bool) {
	mode := messages.ApprovalAuto
	if env.Approval != nil {
		mode = env.Approval(call.Name)
	}
	switch mode {
	case messages.ApprovalDeny:
		return Record{Batch: RefusedCall(st, env, call, tools.ToolError{Kind: KindToolDenied,
			Message:      fmt.Sprintf("the operator's tool approval policy denies %s", call.Name),
			RecoveryHint: "do not call this tool; use another way or ask the operator to change tool_approval in config.json"})}, true
	case messages.ApprovalAsk:
		rec := ApprovalOf(st, call.ID)
		switch {
		case rec == nil:
			return Record{Batch: AskApproval(st, env, call)}, true
		case rec.Open():
			return Idle{}, true
		case Approved(rec):
			return nil, false
		}
		return Record{Batch: RefusedCall(st, env, call, tools.ToolError{Kind: KindToolRefused,
			Message:      fmt.Sprintf("the operator did not approve this call of %s (%s)", call.Name, rec.Resolution),
			RecoveryHint: "do not repeat the same call; ask the operator what to do instead, or continue without it"})}, true
	}
	return nil, false
}

// ApprovalOf is the tool approval suspension of call id, if any.
func ApprovalOf(st *State, callID string) *messages.SuspensionRecord {
	for _, r := range st.Suspensions {
		if r.CallID == callID && r.ToolApproval() != nil {
			return r
		}
	}
	return nil
}

// Approved reports an approval answered yes.
func Approved(rec *messages.SuspensionRecord) bool {
	return rec.Resolution == messages.ResolutionResponded && bytes.Equal(bytes.TrimSpace(rec.Response), []byte(`"yes"`))
}

// AskApproval suspends the turn on call: the confirm suspension with the
// tool and its exact arguments, the operator notification, and the
// suspended status, in one Batch. No timer: the call waits for an answer.
func AskApproval(st *State, env Env, call messages.ToolCall) Batch {
	t := st.Turn
	args := RawOrNull(call.Arguments)
	var pretty bytes.Buffer
	if json.Indent(&pretty, args, "", "  ") != nil {
		pretty.Reset()
		pretty.Write(args)
	}
	q := fmt.Sprintf("Agent %s wants to call %s with these arguments:\n%s\nRun it? (yes or no)", env.AgentID, call.Name, pretty.String())
	rec := messages.SuspensionRecord{
		ID: env.NewID("susp"), Question: q, ResponseType: messages.ResponseConfirm, FallbackPolicy: messages.FallbackFail,
		AgentID: env.AgentID, TurnID: t.ID, MessageID: t.MessageID, CallID: call.ID, SuspendedAt: env.Now,
		Context: messages.ToolApprovalRequest{ToolName: call.Name, Arguments: args}.ApprovalContext(),
	}
	return Batch{
		messages.SuspensionRequested{Suspension: rec},
		messages.OperatorNotificationRequested{Notification: NotificationOf(st, env, messages.NotifySuspensionRequested, q, rec.ID)},
		StatusChange(st, messages.StatusSuspended, "awaiting approval of "+call.Name+": "+rec.ID),
	}
}

// RefusedCall settles call as not run, with e as its error result.
func RefusedCall(st *State, env Env, call messages.ToolCall, e tools.ToolError) Batch {
	res := tools.Failure(call.Name, messages.ToolError, e)
	return Batch{messages.ToolExecuted{
		TurnID: st.Turn.ID, CallID: call.ID, ToolName: call.Name,
		Status: res.Status, Envelope: res.Envelope, Receipt: res.Receipt,
		Notifications: BatchCarrier(st, env),
	}}
}

// answerApproval is AnswerSuspension's batch for a tool approval: the
// answer and the running status again; the turn goes on from the call
// (Next runs or refuses it), so no input message is admitted.
func answerApproval(st *State, resp messages.InputResponse) Batch {
	return Batch{
		messages.SuspensionResumed{SuspensionID: resp.SuspensionID, Response: resp},
		StatusChange(st, messages.StatusAwakeRunning, fmt.Sprintf("approval %s %s", resp.SuspensionID, resp.Resolution)),
	}
}

// cancelTurnApprovals withdraws the open tool approval questions of the
// turn in flight, which is ending (interrupt, stop, a failure): nobody can
// answer them any more, the calls they ask about never run. When that
// leaves the agent suspended on nothing, it is running again (the turn's
// end settles it from there).
func cancelTurnApprovals(st *State, env Env, why string) Batch {
	t := st.Turn
	if t == nil {
		return nil
	}
	var b Batch
	open := 0
	for _, r := range st.Suspensions {
		if !r.Open() {
			continue
		}
		open++
		if r.TurnID != t.ID || r.ToolApproval() == nil {
			continue
		}
		meta, _ := json.Marshal(map[string]string{"reason": why})
		b = append(b, messages.SuspensionResumed{SuspensionID: r.ID, Response: messages.InputResponse{
			SuspensionID: r.ID, Resolution: messages.ResolutionCancelled, RespondedBy: "runtime",
			RespondedAt: env.Now, Metadata: meta, Question: r.Question}})
	}
	if len(b) > 0 && len(b) == open && st.Status == messages.StatusSuspended {
		b = append(b, StatusChange(st, messages.StatusAwakeRunning, "approval withdrawn: "+why))
	}
	return b
}
