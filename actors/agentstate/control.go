package agentstate

import (
	"cmp"
	"fmt"

	"github.com/holon-actors/holon-actors/messages"
)

// ControlOp is a lifecycle command.
type ControlOp string

// The lifecycle commands.
const (
	OpPause  ControlOp = "pause"
	OpResume ControlOp = "resume"
	OpStop   ControlOp = "stop"
	OpWake   ControlOp = "wake"
	// OpInterrupt ends the turn in flight at once (its model call and
	// inline tools cancelled, its command tasks left running) and the
	// agent goes on with its queue; the agent's status does not change.
	OpInterrupt ControlOp = "interrupt"
)

// Lifecycle is what a lifecycle command decided: the batch to journal and
// the effects the agent performs around it.
type Lifecycle struct {
	// Batch is journaled as one atomic append; nil when nothing changes.
	Batch Batch
	// Abandon cancels the running step before the batch is journaled.
	Abandon bool
	// Rearm arms every pending timer again, once the batch is journaled:
	// fires ignored while the agent was stopped come now.
	Rearm bool
	// StopTasks stops the agent's command tasks.
	StopTasks bool
	// Children passes the command on to the agent's children.
	Children bool
}

// Control decides a lifecycle command op (with reason, and for an
// interrupt the message keep whose turn it spares). stopped is durable;
// resume restarts processing; a running turn is cut at once by stop and
// interrupt (failed with an operator-caused code, so nobody is notified)
// and at its next safe point by pause. An archived agent takes no
// command, a stopped one no pause or wake; a refusal changes nothing.
func Control(st *State, env Env, op ControlOp, reason, keep string) (Lifecycle, error) {
	status := st.Status
	if status == messages.StatusArchived {
		return Lifecycle{}, ErrAgentArchived
	}
	var l Lifecycle
	switch op {
	case OpPause:
		if status == messages.StatusStopped {
			return Lifecycle{}, ErrAgentStopped
		}
		l.Batch = moveTo(st, messages.StatusPaused, cmp.Or(reason, "operator pause"))
	case OpResume:
		if status == messages.StatusPaused || status == messages.StatusStopped {
			l.Batch, l.Rearm = moveTo(st, ResumedStatus(st), cmp.Or(reason, "operator resume")), true
		}
	case OpStop:
		if st.Turn != nil {
			l.Abandon = true
			l.Batch = FailedTurn(st, env, messages.TerminalAborted,
				RuntimeFailure(CodeAgentStopped, "The operator stopped the agent during this turn."))
		}
		l.Batch = append(l.Batch, moveTo(st, messages.StatusStopped, cmp.Or(reason, "operator stop"))...)
		l.StopTasks = true
	case OpInterrupt:
		if t := st.Turn; t != nil && t.MessageID != keep {
			summary := "The operator interrupted this turn; the agent goes on with its next message."
			if reason != "" && reason != "operator interrupt" {
				summary += " Reason: " + reason + "."
			}
			l.Abandon, l.Batch = true, FailedTurn(st, env, messages.TerminalAborted, RuntimeFailure(CodeTurnInterrupted, summary))
		}
	case OpWake:
		switch status {
		case messages.StatusStopped:
			return Lifecycle{}, ErrResumeRequired
		case messages.StatusAsleep:
			l.Batch = moveTo(st, messages.StatusAwakeIdle, cmp.Or(reason, "operator wake"))
		}
	default:
		return Lifecycle{}, fmt.Errorf("unknown control %q: use pause, resume, stop, wake or interrupt", op)
	}
	l.Children = op != OpWake && op != OpInterrupt
	return l, nil
}

// moveTo is the status change to to, nil when the agent is there already.
func moveTo(st *State, to messages.AgentStatus, reason string) Batch {
	if st.Status == to {
		return nil
	}
	return Batch{StatusChange(st, to, reason)}
}
