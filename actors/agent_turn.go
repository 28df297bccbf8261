package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/actors/transport"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/task"
)

// advance takes the next step of the agent's work, if any and if no step is
// running. It is called after every change, and after recovery, so a turn
// cut by a crash resumes from its last durable step:
//
//   - no turn: start one with the next queued message (band order);
//   - the model is owed a reply (turn start, or a tool batch recorded):
//     splice trusted interjects, then call the model;
//   - a call of the last round has no durable tool_executed: if its
//     tool_call_started is durable the call may have run, so it is recorded
//     as interrupted with an unknown outcome and never re-run; otherwise
//     tool_call_started is journaled and the tool runs;
//   - the last round asked for no tools: the turn settles, unless a trusted
//     interject is waiting, which the model then sees in one more round.
func (a *agent) advance(c actor.Context) {
	defer a.settleChild(c)
	for !a.stepping && a.runnable() {
		t := a.state.Turn
		switch {
		case t == nil:
			if a.state.Queue.Len() == 0 && a.state.PendingWakeHint != nil {
				a.takeWakeHint()
				continue
			}
			if a.forceIdleDelivery() || a.activateWorkQueue() {
				continue
			}
			if !a.startTurn() {
				return
			}
		case t.AwaitingModel && t.Ask != nil:
			a.finishSuspend()
		case t.AwaitingModel && t.Sleep != nil:
			a.finishSleep()
		case t.AwaitingModel && t.Retry.Pending():
			return // waiting for the model retry's timer
		case t.AwaitingModel:
			a.spliceInterjects()
			a.spliceCritical()
			a.startModel(c)
		default:
			call, started, ok := t.NextCall()
			switch {
			case ok && started && len(t.LaunchesOf(call.ID)) > 0:
				a.settleLaunches(c, call, t.LaunchesOf(call.ID))
			case ok && started:
				a.recordInterruptedCall(call)
			case ok:
				a.startTool(c, call)
			case a.hasTrustedInterject():
				a.spliceInterjects()
				a.spliceCritical()
				a.startModel(c)
			default:
				a.finishTurn()
			}
		}
	}
}

// runnable reports whether the agent may take steps: not paused, stopped
// or suspended awaiting its operator's answer.
func (a *agent) runnable() bool {
	if a.archiving {
		return false
	}
	switch a.state.Status {
	case messages.StatusPaused, messages.StatusStopped, messages.StatusSuspended, messages.StatusArchived:
		return false
	}
	return true
}

// startTurn starts a turn with the next queued message; false when the
// queue is empty (the agent settles idle).
func (a *agent) startTurn() bool {
	env, ok := a.state.Queue.Next()
	if !ok {
		if a.state.Status == messages.StatusAwakeRunning || a.state.Status == messages.StatusBooting {
			a.setStatus(messages.StatusAwakeIdle, "queue empty")
		}
		a.watchStall() // settled: is it waiting for something that cannot come?
		return false
	}
	a.mustCommit(agentstate.TurnStart(a.state, a.env(), env))
	if agentstate.IsLivenessOnly(env) {
		a.settleLiveness()
	}
	return true
}

// settleLiveness ends a liveness-only SystemTick without a model call
// (agentstate.LivenessTurn).
func (a *agent) settleLiveness() { a.mustCommit(agentstate.LivenessTurn(a.state)) }

func (a *agent) hasTrustedInterject() bool {
	for _, env := range a.state.Queue.Bands[messages.PriorityInterject.Rank()] {
		if agentstate.IsTrustedInterject(env) {
			return true
		}
	}
	return false
}

// spliceInterjects moves every queued trusted interject into the running
// turn (agentstate.InterjectSplice).
func (a *agent) spliceInterjects() { a.mustCommit(agentstate.InterjectSplice(a.state, a.env())) }

// startModel runs one model round in a goroutine the agent owns.
func (a *agent) startModel(c actor.Context) {
	if a.stopRunaway() { // over budget or looping: the turn failed instead
		return
	}
	if cc, ok := a.state.Compaction(a.deps.Compaction); ok {
		a.mustPersist(cc)
	}
	start := a.deps.Clock.Now()
	req := a.request()
	buildMS := a.elapsedMS(start)
	a.gen++
	a.stepping, a.stepKind = true, stepModel
	gen, ctx, self, root, p, clock := a.gen, a.ctx, c.Self(), c.ActorSystem().Root, a.deps.Provider, a.deps.Clock
	go func() {
		t0 := clock.Now()
		resp, err := transport.CompleteSafely(ctx, p, req)
		root.Send(self, &stepDone{gen: gen, kind: stepModel, resp: resp, err: err,
			buildMS: buildMS, roundMS: clock.Since(t0).Milliseconds(), modelName: p.Name()})
	}()
}

// request builds the provider-neutral request of the next round
// (agentstate.Request) over the agent's tool catalog.
func (a *agent) request() providers.Request {
	req, answered := agentstate.Request(a.state, a.env(), a.toolCatalog())
	if answered > 0 {
		a.deps.Log.Error().Str("agent_id", a.id).Int("calls", answered).Msg("request had unanswered tool calls; answered in the request only")
	}
	return req
}

// toolCatalog is the tools the model may call: the runtime's own first,
// then the registry's, whose namesakes of the runtime's tools are left out.
func (a *agent) toolCatalog() []providers.ToolSpec {
	var specs []providers.ToolSpec
	for _, t := range a.wire.opTools {
		s := t.Spec()
		specs = append(specs, providers.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	for _, s := range a.deps.Tools.Specs() {
		if runtimetools.Is(s.Name) {
			continue // the runtime's own tools win
		}
		specs = append(specs, providers.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	return specs
}

// stepFinished applies the result of a step, unless it is stale.
func (a *agent) stepFinished(c actor.Context, m *stepDone) {
	if m.gen != a.gen || !a.stepping || a.state.Turn == nil {
		return // a stale result: the agent moved on
	}
	a.stepping = false
	switch m.kind {
	case stepModel:
		a.modelFinished(m)
	case stepTool:
		if a.toolFinished(m) {
			a.ensureChildren(c)
		}
	}
	a.advance(c)
}

func (a *agent) modelFinished(m *stepDone) {
	t := a.state.Turn
	if m.err != nil {
		kind := providers.KindOf(m.err)
		text := fmt.Sprintf("The model call failed (%s): %v", kind, m.err)
		var pe *providers.Error
		if errors.As(m.err, &pe) {
			text = fmt.Sprintf("The model call to %s failed (%s): %s", pe.Provider, kind, pe.Message)
		}
		// The failure artifact and the whole attempt timeline go with the
		// runtime_error, for operators and `once --json`.
		f := providers.FailureOf(m.err)
		f.Message, f.Summary = text, text
		if a.retryModelRound(m.err, &f) {
			return
		}
		a.failTurnWith(messages.TerminalAborted, f)
		return
	}
	round := t.Round + 1
	var fallback []messages.Payload
	if tl := m.resp.Timeline; tl != nil && tl.WinningModelRef != "" && tl.RequestedModelRef != "" && tl.WinningModelRef != tl.RequestedModelRef {
		fallback = append(fallback, messages.SystemNotificationQueued{Notification: messages.SystemNotification{
			Kind: "provider.fallback", Level: messages.LevelWarning,
			Message: fmt.Sprintf("The model %s failed this round; the fallback %s answered instead.", tl.RequestedModelRef, tl.WinningModelRef),
		}})
	}
	a.mustPersist(append(fallback,
		messages.ProviderRoundCompleted{
			TurnID: t.ID, Round: round, Provider: m.modelName, Model: m.resp.Model,
			TokenUsage: m.resp.Usage, ContextBuildMS: m.buildMS, ProviderRoundMS: m.roundMS,
			StopReason: m.resp.StopReason, ResponseID: m.resp.ResponseID,
			AttemptTimeline: timelineJSON(m.resp.Timeline),
		},
		messages.AssistantRoundRecorded{TurnID: t.ID, Round: round, Text: m.resp.Text, ToolCalls: journalCalls(m.resp.ToolCalls)},
	)...)
}

// startTool journals tool_call_started, then runs the tool in a goroutine,
// bound to the agent's execution root, artifacts, tasks and inspector
// (ToolEnv). Unknown tools and arguments that are not a JSON object
// become error results the model can correct; nothing runs for them. A
// freeform tool (ApplyPatch) also takes its raw text.
func (a *agent) startTool(c actor.Context, call messages.ToolCall) {
	t := a.state.Turn
	a.mustPersist(messages.ToolCallStarted{
		TurnID: t.ID, Round: t.Round, CallID: call.ID, ToolName: call.Name, Arguments: rawOrNull(call.Arguments),
	})
	a.gen++
	a.stepping, a.stepKind = true, stepTool
	gen, self, root := a.gen, c.Self(), c.ActorSystem().Root
	if res, extra, later, ok := a.runRuntimeTool(call); ok {
		if later == nil {
			root.Send(self, &stepDone{gen: gen, kind: stepTool, call: call, result: res, extra: extra})
			return
		}
		ctx, clock := a.ctx, a.deps.Clock
		go func() {
			t0 := clock.Now()
			res, extra := finishSafely(ctx, call, later)
			root.Send(self, &stepDone{gen: gen, kind: stepTool, call: call, result: res, extra: extra, duration: clock.Since(t0).Milliseconds()})
		}()
		return
	}
	tool, ok := a.deps.Tools.Lookup(call.Name)
	if !ok {
		root.Send(self, &stepDone{gen: gen, kind: stepTool, call: call, result: tools.Failure(call.Name, messages.ToolError, tools.ToolError{
			Kind: tools.KindUnknownTool, Message: fmt.Sprintf("there is no tool named %q", call.Name),
			RecoveryHint: "call one of: " + strings.Join(a.deps.Tools.Names(), ", "),
		})})
		return
	}
	if _, freeform := tool.(tools.Freeform); !freeform && !isJSONObject(call.Arguments) {
		root.Send(self, &stepDone{gen: gen, kind: stepTool, call: call, result: tools.Failure(call.Name, messages.ToolError, tools.ToolError{
			Kind: tools.KindInvalidToolInput, Message: "the arguments are not a JSON object: " + truncate(string(call.Arguments), 200),
			RecoveryHint: "send the arguments as one JSON object matching the tool's schema",
		})})
		return
	}
	ctx, clock := a.toolContext(a.ctx), a.deps.Clock
	go func() {
		t0 := clock.Now()
		res := callSafely(ctx, tool, call)
		root.Send(self, &stepDone{gen: gen, kind: stepTool, call: call, result: res, duration: clock.Since(t0).Milliseconds()})
	}()
}

// journalCalls keeps the model's calls journalable: arguments that are
// not valid JSON are kept verbatim as a JSON string (and later refused as
// invalid_tool_input) instead of breaking the event.
func journalCalls(calls []messages.ToolCall) []messages.ToolCall {
	out := make([]messages.ToolCall, len(calls))
	for i, c := range calls {
		c.Arguments = rawOrNull(c.Arguments)
		out[i] = c
	}
	return out
}

func isJSONObject(b json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(b, &m) == nil && m != nil
}

func rawOrNull(b json.RawMessage) json.RawMessage {
	if json.Valid(b) {
		return b
	}
	s, _ := json.Marshal(string(b))
	return s
}

// recordInterruptedCall settles a call whose start is durable but whose
// outcome is not: it may or may not have run, so it is never re-run and the
// model is told exactly that.
func (a *agent) recordInterruptedCall(call messages.ToolCall) {
	res := tools.Failure(call.Name, messages.ToolInterrupted, tools.ToolError{
		Kind:         tools.KindInterrupted,
		Message:      "the runtime restarted while this call was running; its outcome is unknown and it was not run again",
		RecoveryHint: "check whether its effect happened before repeating it",
	})
	a.mustPersist(messages.ToolExecuted{
		TurnID: a.state.Turn.ID, CallID: call.ID, ToolName: call.Name,
		Status: res.Status, Envelope: res.Envelope, Receipt: res.Receipt,
		Notifications: a.batchCarrier(call),
	})
}

// finishTurn settles a completed turn (agentstate.CompletedTurn) in one atomic
// batch, so a crash never leaves a turn half settled.
func (a *agent) finishTurn() { a.mustCommit(agentstate.CompletedTurn(a.state, a.env())) }

// failTurn settles the turn in flight as failed by the runtime with code
// and summary (agentstate.FailedTurn).
func (a *agent) failTurn(kind messages.TurnTerminalKind, code, summary string) {
	a.failTurnWith(kind, agentstate.RuntimeFailure(code, summary))
}

// failTurnWith ends the turn with failure f (agentstate.FailedTurn).
func (a *agent) failTurnWith(kind messages.TurnTerminalKind, f messages.Failure) {
	a.mustCommit(agentstate.FailedTurn(a.state, a.env(), kind, f))
}

// callSafely runs a tool; a panic in it becomes an error result the model
// sees instead of a crash of the daemon.
func callSafely(ctx context.Context, t tools.Tool, call messages.ToolCall) (res tools.Result) {
	defer func() {
		if r := recover(); r != nil {
			res = tools.Failure(call.Name, messages.ToolError, tools.ToolError{
				Kind: "tool_panicked", Message: fmt.Sprintf("the tool crashed: %v", r),
				RecoveryHint: "the call may have had partial effects; check before retrying",
			})
		}
	}()
	return t.Call(ctx, call.Arguments)
}

// timelineJSON encodes a provider attempt timeline for the journal; nil
// when the provider gave none (a single transport, the scripted player).
func timelineJSON(tl *providers.ProviderAttemptTimeline) json.RawMessage {
	if tl == nil {
		return nil
	}
	b, err := json.Marshal(tl)
	if err != nil {
		return nil
	}
	return b
}

// toolFinished journals a tool's result, with the pending notifications
// when it ends its batch, and what a runtime-owned tool's success records
// besides (m.extra: an engagement decision, an operator notification, a
// child's task, a work item's events). It reports whether a child's
// supervision task started, whose actor the caller then ensures.
func (a *agent) toolFinished(m *stepDone) (childStarted bool) {
	t := a.state.Turn
	payloads := []messages.Payload{messages.ToolExecuted{
		TurnID: t.ID, CallID: m.call.ID, ToolName: m.call.Name,
		Status: m.result.Status, Envelope: m.result.Envelope, Receipt: m.result.Receipt,
		DurationMS: m.duration, Notifications: a.batchCarrier(m.call),
	}}
	if m.result.Status == messages.ToolOK {
		payloads = append(payloads, m.extra...)
	}
	a.mustPersist(payloads...)
	for _, p := range payloads[1:] {
		if s, ok := p.(messages.TaskStarted); ok && s.Kind == task.KindChildAgent {
			childStarted = true
		}
	}
	return childStarted
}
