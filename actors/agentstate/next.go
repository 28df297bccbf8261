package agentstate

import (
	"encoding/json"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec/execspec"
)

// Step is what the agent does next (Next): Idle, Record, CallModel,
// RunTool or SettleLaunches.
type Step interface{ step() }

// Idle: nothing to do until a message, a timer or a step's result arrives
// (no work, paused, stopped, suspended, archived, or waiting for a model
// retry's timer).
type Idle struct{}

// Record journals Batch; the agent then asks Next again. Applying Batch
// always changes what Next decides, so the loop moves on. A Report batch
// (a budget warning, the watchdog's stall report) is one whose failure to
// be written is logged rather than fatal; the agent then waits for its
// next stimulus.
type Record struct {
	Batch  Batch
	Report bool
}

// CallModel runs one model round with Request. Answered counts the tool
// calls of the conversation with no result, answered in the request only
// (Request).
type CallModel struct {
	Request  llm.Request
	Answered int
}

// RunTool journals Started (the call's tool_call_started), then runs Call.
type RunTool struct {
	Call    messages.ToolCall
	Started Batch
}

// SettleLaunches settles the commands Call launched before the runtime
// restarted mid-call (exec.Settle), then records the call's result.
type SettleLaunches struct {
	Call     messages.ToolCall
	Launches []execspec.Launch
}

func (Idle) step()           {}
func (Record) step()         {}
func (CallModel) step()      {}
func (RunTool) step()        {}
func (SettleLaunches) step() {}

// Next decides the agent's next step, a function of its state and env; the
// agent's loop journals each Record and asks again, until a step runs
// (model, tool, settlement) or it is Idle. A turn cut by a crash resumes
// from its last durable step:
//
//   - no turn: take a pending wake hint, force the delivery of critical
//     notifications, take up the work queue, or start a turn with the next
//     queued message (band order); with none, settle idle and let the
//     watchdog report an impossible wait;
//   - the model is owed a reply (turn start, or a tool batch recorded):
//     settle a suspension or a sleep, or wait for a model retry's timer;
//     otherwise splice trusted interjects and critical notifications, stop
//     a runaway turn (or warn of the budget), compact, then call the model;
//   - a call of the last round has no durable tool_executed: if its
//     tool_call_started is durable the call may have run, so its launched
//     commands are settled, or it is recorded as interrupted with an
//     unknown outcome and never re-run; otherwise the tool runs, once
//     its approval allows (approval.go: auto, deny, or ask the operator);
//   - the last round asked for no tools: the turn settles, unless a trusted
//     interject is waiting, which the model then sees in one more round;
//   - between turns, the memory boundary (memory_boundary.go) joins
//     whatever is recorded next.
func Next(st *State, env Env) Step {
	if !Runnable(st) {
		return memoryStep(st, env, Idle{})
	}
	t := st.Turn
	switch {
	case t == nil:
		return memoryStep(st, env, nextIdle(st, env))
	case t.AwaitingModel && t.Ask != nil:
		return Record{Batch: SuspendedTurn(st, env)}
	case t.AwaitingModel && t.Sleep != nil:
		return Record{Batch: SleptTurn(st, env)}
	case t.AwaitingModel && t.Retry.Pending():
		return Idle{}
	case t.AwaitingModel:
		return nextRound(st, env)
	}
	call, started, ok := t.NextCall()
	switch {
	case ok && started && len(t.LaunchesOf(call.ID)) > 0:
		return SettleLaunches{Call: call, Launches: t.LaunchesOf(call.ID)}
	case ok && started:
		return Record{Batch: InterruptedCall(st, env, call)}
	case ok:
		if step, wait := approvalStep(st, env, call); wait {
			return step
		}
		return RunTool{Call: call, Started: Batch{messages.ToolCallStarted{
			TurnID: t.ID, Round: t.Round, CallID: call.ID, ToolName: call.Name, Arguments: RawOrNull(call.Arguments),
		}}}
	case HasTrustedInterject(st):
		return nextRound(st, env)
	}
	return Record{Batch: CompletedTurn(st, env)}
}

// memoryStep joins the memory boundary to step: ahead of the batch it
// records, or alone when step records none (or only a report, whose
// failure to be written must not lose the memory).
func memoryStep(st *State, env Env, step Step) Step {
	b := MemoryBoundary(st, env)
	if len(b) == 0 {
		return step
	}
	if r, ok := step.(Record); ok && !r.Report {
		return Record{Batch: append(b, r.Batch...)}
	}
	return Record{Batch: b}
}

// Runnable reports whether the agent may take steps: not paused, stopped,
// suspended awaiting its operator's answer, or archived.
func Runnable(st *State) bool {
	switch st.Status {
	case messages.StatusPaused, messages.StatusStopped, messages.StatusSuspended, messages.StatusArchived:
		return false
	}
	return true
}

// nextIdle is Next for an agent with no turn.
func nextIdle(st *State, env Env) Step {
	if st.Queue.Len() == 0 && st.PendingWakeHint != nil {
		return Record{Batch: TakeWakeHint(st, env)}
	}
	if b := ForceIdleDelivery(st, env); len(b) > 0 {
		return Record{Batch: b}
	}
	if b, _ := WorkActivation(st, env); len(b) > 0 {
		return Record{Batch: b}
	}
	if m, ok := st.Queue.Next(); ok {
		if IsLivenessOnly(m) {
			return Record{Batch: LivenessTurnStart(st, env, m)}
		}
		return Record{Batch: TurnStart(st, env, m)}
	}
	if st.Status == messages.StatusAwakeRunning || st.Status == messages.StatusBooting {
		return Record{Batch: Batch{StatusChange(st, messages.StatusAwakeIdle, "queue empty")}}
	}
	if b := Stall(st, env); len(b) > 0 {
		return Record{Batch: b, Report: true}
	}
	return Idle{}
}

// nextRound is Next before a model round: what must be journaled first,
// then the round's request.
func nextRound(st *State, env Env) Step {
	if b := InterjectSplice(st, env); len(b) > 0 {
		return Record{Batch: b}
	}
	if b := CriticalSplice(st, env); len(b) > 0 {
		return Record{Batch: b}
	}
	f, stop, warn := Runaway(st, env, env.Ancestor)
	if stop {
		return Record{Batch: FailedTurn(st, env, messages.TerminalAborted, f)}
	}
	if len(warn) > 0 {
		return Record{Batch: warn, Report: true}
	}
	if cc, ok := st.Compaction(env.Cfg.Compaction); ok {
		return Record{Batch: Batch{cc}}
	}
	var catalog []llm.ToolSpec
	if env.Tools != nil {
		catalog = env.Tools()
	}
	req, answered := Request(st, env, catalog)
	return CallModel{Request: req, Answered: answered}
}

// HasTrustedInterject reports a trusted interject waiting in the queue.
func HasTrustedInterject(st *State) bool {
	for _, m := range st.Queue.Bands[messages.PriorityInterject.Rank()] {
		if IsTrustedInterject(m) {
			return true
		}
	}
	return false
}

// LivenessTurnStart starts and at once ends a turn with m, a liveness-only
// SystemTick (IsLivenessOnly): the agent is awake, its closure unchanged,
// no model call and no brief (LivenessTurn), in one atomic batch.
func LivenessTurnStart(st *State, env Env, m messages.MessageEnvelope) Batch {
	b := TurnStart(st, env, m)
	closure := messages.Closure{Outcome: messages.OutcomeCompleted}
	if c := st.LastClosure; c != nil {
		closure = *c
	}
	for _, p := range b {
		if s, ok := p.(messages.MessageProcessingStarted); ok {
			return append(b, messages.TurnTerminal{
				TurnID: s.TurnID, MessageID: s.MessageID, TurnIndex: s.TurnIndex, Kind: messages.TerminalCompleted, Closure: closure,
			})
		}
	}
	return b
}

// InterruptedCall settles a call whose start is durable but whose outcome
// is not: it may or may not have run, so it is never re-run and the model
// is told exactly that.
func InterruptedCall(st *State, env Env, call messages.ToolCall) Batch {
	res := tools.Failure(call.Name, messages.ToolInterrupted, tools.ToolError{
		Kind:         tools.KindInterrupted,
		Message:      "the runtime restarted while this call was running; its outcome is unknown and it was not run again",
		RecoveryHint: "check whether its effect happened before repeating it",
	})
	return Batch{messages.ToolExecuted{
		TurnID: st.Turn.ID, CallID: call.ID, ToolName: call.Name,
		Status: res.Status, Envelope: res.Envelope, Receipt: res.Receipt,
		Notifications: BatchCarrier(st, env),
	}}
}

// RawOrNull keeps b journalable: arguments that are not valid JSON are
// kept verbatim as a JSON string (and later refused as
// invalid_tool_input) instead of breaking the event.
func RawOrNull(b json.RawMessage) json.RawMessage {
	if json.Valid(b) {
		return b
	}
	s, _ := json.Marshal(string(b))
	return s
}
