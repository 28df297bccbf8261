package agentstate

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// The decisions that start and end turns: the continuation a message
// resolves, the turn start, the trusted interject splice, and how a turn
// settles (completed, failed, liveness-only, asleep), each as one Batch, so
// a crash never leaves a turn half started or half settled.

// continuationOf derives the ContinuationResolution of m from the closure
// that existed before it became the active run.
func ContinuationOf(st *State, m messages.MessageEnvelope) *messages.Continuation {
	prior := messages.OutcomeCompleted
	var waiting messages.WaitingReason
	if c := st.LastClosure; c != nil {
		prior, waiting = c.Outcome, c.WaitingReason
	}
	trigger := messages.TriggerKindFor(m.Kind)
	return &messages.Continuation{
		TriggerKind:          trigger,
		ModelVisible:         m.Kind != messages.KindTaskStatus && !IsLivenessOnly(m),
		PriorClosureOutcome:  prior,
		PriorWaitingReason:   waiting,
		MatchedWaitingReason: waiting != "" && matchesWait(waiting, trigger),
		Evidence:             []string{"message:" + m.ID},
	}
}

// turnStart is the Batch that starts a turn with m, the next queued
// message: the running status, the start (carrying the deliverable
// notifications when the model sees it) and the turn's work-item binding.
func TurnStart(st *State, env Env, m messages.MessageEnvelope) Batch {
	var b Batch
	if st.Status != messages.StatusAwakeRunning {
		b = append(b, StatusChange(st, messages.StatusAwakeRunning, "processing "+string(m.Kind)))
	}
	started := messages.MessageProcessingStarted{
		MessageID: m.ID, TurnID: env.NewID("turn"), TurnIndex: st.TurnIndex + 1,
		Continuation: ContinuationOf(st, m),
	}
	if IsCarrierStart(started) {
		started.Notifications = DeliverableOf(st, env)
	}
	b = append(b, started)
	if c := st.CurrentWorkItem(); c != nil {
		b = append(b, messages.WorkItemBound{TurnID: started.TurnID, WorkItemID: c.ID})
	}
	return b
}

// interjectSplice moves every queued trusted interject into the running
// turn, in order, so the model sees it in its very next request; the
// first splice carries the deliverable notifications. Nil when none waits.
func InterjectSplice(st *State, env Env) Batch {
	var b Batch
	for _, m := range st.Queue.Bands[messages.PriorityInterject.Rank()] {
		if IsTrustedInterject(m) {
			p := messages.MessageProcessingStarted{MessageID: m.ID, TurnID: st.Turn.ID, TurnIndex: st.Turn.Index}
			if len(b) == 0 {
				p.Notifications = DeliverableOf(st, env)
			}
			b = append(b, p)
		}
	}
	return b
}

// settleTurn ends the turn in flight: its terminal record with kind and
// closure, and a brief of briefKind with text.
func SettleTurn(st *State, env Env, kind messages.TurnTerminalKind, closure messages.Closure,
	briefKind messages.BriefKind, text string) Batch {
	t := st.Turn
	return Batch{
		messages.TurnTerminal{
			TurnID: t.ID, MessageID: t.MessageID, TurnIndex: t.Index, Kind: kind,
			DurationMS: env.Now.Sub(t.StartedAt).Milliseconds(), LastAssistantMessage: t.LastText, Closure: closure,
		},
		messages.BriefRecorded{Brief: messages.Brief{
			ID: env.NewID("brief"), AgentID: env.AgentID, Kind: briefKind, Text: text,
			RelatedMessageID: t.MessageID, CreatedAt: env.Now, WorkspaceID: st.ActiveWorkspaceID(),
		}},
	}
}

// completedTurn settles a completed turn. The brief is the result (the
// last assistant text, possibly empty) unless the turn left background
// tasks of its own running: then the work continues asynchronously, the
// closure waits for their results and the brief is an acknowledgement
// naming them. The turn's bound work item moves with the closure
// (turnWork).
func CompletedTurn(st *State, env Env) Batch {
	t := st.Turn
	closure := messages.Closure{Outcome: messages.OutcomeCompleted}
	kind, text := messages.BriefResult, t.LastText
	running := st.RunningTasksOf(t.MessageID)
	if len(running) > 0 {
		closure = messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: messages.AwaitingTaskResult}
		kind = messages.BriefAck
		note := fmt.Sprintf("Still running in the background: %s. Their results come back to me when they finish.",
			strings.Join(running, ", "))
		text = strings.TrimSpace(t.LastText + "\n\n" + note)
	}
	if closure.Outcome == messages.OutcomeCompleted {
		closure = st.WorkClosure()
	}
	b := SettleTurn(st, env, messages.TerminalCompleted, closure, kind, text)
	return append(b, TurnEndWork(st, env, closure, running)...)
}

// failedTurn ends the turn with failure f: its open tool approval
// questions withdrawn, a result for every call left
// unanswered, the runtime_error audit record, the terminal, a failure
// brief in operator language, and the operator's notification unless the
// operator (or a supervising parent) caused it: whoever stopped it knows.
func FailedTurn(st *State, env Env, kind messages.TurnTerminalKind, f messages.Failure) Batch {
	t := st.Turn
	b := cancelTurnApprovals(st, env, endReason(f))
	b = append(b, UnansweredCalls(st, env, endReason(f))...)
	b = append(b, messages.RuntimeError{TurnID: t.ID, MessageID: t.MessageID, Failure: f})
	b = append(b, SettleTurn(st, env, kind, messages.Closure{Outcome: messages.OutcomeFailed}, messages.BriefFailure, f.Summary)...)
	if !OperatorCaused(f.Code) {
		b = append(b, messages.OperatorNotificationRequested{Notification: NotificationOf(st, env, FailureNotice(f.Code), f.Summary, "")})
	}
	return b
}

// livenessTurn ends a liveness-only SystemTick without a model call: the
// agent is awake and its closure unchanged; no brief.
func LivenessTurn(st *State) Batch {
	t := st.Turn
	closure := messages.Closure{Outcome: messages.OutcomeCompleted}
	if c := st.LastClosure; c != nil {
		closure = *c
	}
	return Batch{messages.TurnTerminal{
		TurnID: t.ID, MessageID: t.MessageID, TurnIndex: t.Index, Kind: messages.TerminalCompleted, Closure: closure,
	}}
}

// sleptTurn settles a turn whose model asked to sleep: the terminal with a
// waiting closure, the result brief, the timer if timed, the sleep record
// and the asleep status.
func SleptTurn(st *State, env Env) Batch {
	args := st.Turn.Sleep
	closure := messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: messages.AwaitingExternalChange}
	slept := messages.AgentSlept{Reason: args.Reason, ExpectedWake: messages.TriggerExternalEvent}
	var timer Batch
	if args.DurationMS > 0 {
		due := env.Now.Add(time.Duration(args.DurationMS) * time.Millisecond)
		closure.WaitingReason = messages.AwaitingTimer
		slept.ExpectedWake, slept.Until = messages.TriggerTimerFire, &due
		timer = Batch{messages.TimerScheduled{TimerID: env.NewID("tmr"), DueAt: due, Reason: "sleep: " + args.Reason}}
	}
	b := SettleTurn(st, env, messages.TerminalCompleted, closure, messages.BriefResult, st.Turn.LastText)
	b = append(b, timer...)
	return append(b, slept, StatusChange(st, messages.StatusAsleep, "slept: "+args.Reason))
}

// unansweredCalls is a tool_executed for every call of the turn in flight
// without one, to be journaled with the event that ends the turn. The last
// one carries the deliverable notifications, as a Batch's last result
// always does.
func UnansweredCalls(st *State, env Env, why string) Batch {
	t := st.Turn
	if t == nil || t.AwaitingModel {
		return nil
	}
	var out Batch
	for _, c := range t.Calls {
		if slices.Contains(t.Done, c.ID) {
			continue
		}
		res := unansweredResult(c, slices.Contains(t.Started, c.ID), why)
		out = append(out, messages.ToolExecuted{
			TurnID: t.ID, CallID: c.ID, ToolName: c.Name,
			Status: res.Status, Envelope: res.Envelope, Receipt: res.Receipt,
		})
	}
	if n := len(out); n > 0 {
		last := out[n-1].(messages.ToolExecuted)
		last.Notifications = DeliverableOf(st, env)
		out[n-1] = last
	}
	return out
}

// IsLivenessOnly reports a SystemTick that only wakes the agent.
func IsLivenessOnly(m messages.MessageEnvelope) bool {
	return m.Kind == messages.KindSystemTick && m.SourceRefs["liveness_only"] == "true"
}

// IsTrustedInterject tells an operator prompt that may join a running turn
// from a message that only jumps the queue.
func IsTrustedInterject(m messages.MessageEnvelope) bool {
	return m.Priority == messages.PriorityInterject &&
		m.Kind == messages.KindOperatorPrompt &&
		m.AuthorityClass == messages.AuthorityOperatorInstruction
}

func matchesWait(w messages.WaitingReason, t messages.TriggerKind) bool {
	switch w {
	case messages.AwaitingOperatorInput:
		return t == messages.TriggerOperatorInput
	case messages.AwaitingTaskResult:
		return t == messages.TriggerTaskResult
	case messages.AwaitingTimer:
		return t == messages.TriggerTimerFire
	case messages.AwaitingExternalChange:
		return t == messages.TriggerExternalEvent
	}
	return false
}
