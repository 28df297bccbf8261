package actors

import (
	"errors"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/tools"
)

// Admit asks an agent to admit an envelope. The reply is *Admitted, sent
// only after the message_admitted event is durable: an acknowledged message
// is never lost. Admit carries the envelope's priority, so the band mailbox
// lets an interject overtake queued work even before admission.
type Admit struct {
	Envelope messages.MessageEnvelope
}

// Priority implements mailbox.Prioritized.
func (a *Admit) Priority() messages.Priority { return a.Envelope.Priority }

// Admitted answers Admit. Err is nil when the message is durable; Duplicate
// is true when the same envelope id was admitted before (nothing new was
// written).
type Admitted struct {
	MessageID string
	Seq       uint64
	Duplicate bool
	Err       error
}

// ControlOp is a lifecycle command (agentstate.ControlOp).
type ControlOp = agentstate.ControlOp

// The lifecycle commands.
const (
	OpPause  = agentstate.OpPause
	OpResume = agentstate.OpResume
	OpStop   = agentstate.OpStop
	OpWake   = agentstate.OpWake
	// OpInterrupt ends the turn in flight at once (its model call and
	// inline tools cancelled, its command tasks left running) and the
	// agent goes on with its queue; the agent's status does not change.
	OpInterrupt = agentstate.OpInterrupt
)

// Control asks an agent to change its lifecycle; the reply is *ControlResult.
type Control struct {
	Op     ControlOp
	Reason string
	// KeepMessageID, with OpInterrupt, spares a turn that processes this
	// message: the operator's own prompt, admitted just before.
	KeepMessageID string
}

// Priority implements mailbox.Prioritized: lifecycle commands come before work.
func (*Control) Priority() messages.Priority { return messages.PriorityInterject }

// ControlResult answers Control with the status after it.
type ControlResult struct {
	Status messages.AgentStatus
	Err    error
}

// GetInfo asks for the agent's AgentInfo; it does not reload a passivated
// agent's state.
type GetInfo struct{}

// GetRecovery asks what the agent found open when it started (activated
// or restarted); the reply is []OpenFact.
type GetRecovery struct{}

// Priority implements mailbox.Prioritized.
func (*GetRecovery) Priority() messages.Priority { return messages.PriorityNext }

// GetState asks for a copy of the agent's state; the reply is AgentState.
type GetState struct{}

// Priority implements mailbox.Prioritized.
func (*GetState) Priority() messages.Priority { return messages.PriorityNext }

// Admission errors. Each says what to do.
var (
	// ErrAgentStopped is returned for new input to a stopped agent.
	ErrAgentStopped = agentstate.ErrAgentStopped
	// ErrAgentArchived is returned for input or controls to an archived
	// private child: its supervision ended and it takes no more work.
	ErrAgentArchived = agentstate.ErrAgentArchived
	// ErrRetryPaused is returned for running a paused agent's model retry
	// now: a paused agent takes no step, so the retry would wait for the
	// resume anyway.
	ErrRetryPaused = errors.New("agent is paused: its model retry runs when it is resumed (holon-actors agents resume <id>); --cancel gives it up")
	// ErrResumeRequired is returned by wake on a stopped agent.
	ErrResumeRequired = agentstate.ErrResumeRequired
	// ErrQueueFull is the backpressure answer when an agent's queue is at
	// its limit.
	ErrQueueFull = agentstate.ErrQueueFull
	// ErrWrongAgent is returned when an envelope names another agent.
	ErrWrongAgent = agentstate.ErrWrongAgent
)

// stepKind tells the slow steps of a turn apart.
type stepKind int

const (
	stepModel stepKind = iota + 1
	stepTool
)

// stepDone is how a slow step, run in a goroutine the agent owns, reports
// back. gen is the generation the step was started with: a result whose gen
// is not the agent's current one is stale (the agent restarted, stopped or
// moved on) and is dropped.
type stepDone struct {
	gen  uint64
	kind stepKind

	// stepModel
	resp      providers.Response
	err       error
	buildMS   int64
	roundMS   int64
	modelName string

	// stepTool
	call     messages.ToolCall
	result   tools.Result
	duration int64
	// extra are a work-item tool's payloads, journaled with its success.
	extra []messages.Payload
}

// Priority implements mailbox.Prioritized: a finished step continues its turn
// before queued admissions are handled.
func (*stepDone) Priority() messages.Priority { return messages.PriorityNext }

// passivate asks an idle agent to drop its state from memory and have its
// actor retired (see agent.passivate). gen is the idle timer's generation,
// 0 for an explicit request (Runtime.PassivateIdle), which is answered
// false when the agent is busy and otherwise by the supervisor once the
// retirement is settled.
type passivate struct{ gen uint64 }

// Priority implements mailbox.Prioritized: passivation never overtakes work.
func (*passivate) Priority() messages.Priority { return messages.PriorityBackground }

// retire is the supervisor's question to a passivated agent whose PID it
// has removed from Runtime.pids: stop now, unless work came since asking.
type retire struct{}

// Priority implements mailbox.Prioritized: in the lowest band, retire comes after
// every message posted before it, so the agent decides having seen them.
func (*retire) Priority() messages.Priority { return messages.PriorityBackground }

// WakeHintRequest is a pure wake signal for an agent (an external trigger,
// a subsystem). The reply is *WakeHintResult.
type WakeHintRequest struct {
	Source     string
	Reason     string
	Contentful bool
}

// Priority implements mailbox.Prioritized.
func (*WakeHintRequest) Priority() messages.Priority { return messages.PriorityNext }

// WakeHintResult answers a WakeHintRequest.
type WakeHintResult struct {
	Disposition WakeDisposition
	Err         error
}

// timerFired delivers a fire from the timer service to its agent.
type timerFired struct{ fire timers.Fire }

// Priority implements mailbox.Prioritized.
func (*timerFired) Priority() messages.Priority { return messages.PriorityNext }
