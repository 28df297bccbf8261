package actors

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
)

// TimerView is a created timer as read surfaces show it
// (agentstate.TimerView).
type TimerView = agentstate.TimerView

// TimerRequest is a timer to create (agentstate.TimerRequest).
type TimerRequest = agentstate.TimerRequest

// The timer refusals (agentstate's), for errors.Is in control and cmd.
var (
	ErrTimerInvalid     = agentstate.ErrTimerInvalid
	ErrTooManyTimers    = agentstate.ErrTooManyTimers
	ErrTimerTooFrequent = agentstate.ErrTimerTooFrequent
	ErrTimerNotFound    = agentstate.ErrTimerNotFound
)

// TimerOp is an operator's action on a created timer.
type TimerOp string

// The operator's timer actions.
const (
	TimerList   TimerOp = "list"
	TimerCreate TimerOp = "create"
	TimerCancel TimerOp = "cancel"
	TimerPause  TimerOp = "pause"
	TimerResume TimerOp = "resume"
	TimerRunNow TimerOp = "run-now"
)

// timerOp asks an agent to do op on its timers; the reply is
// *timerOpDone.
type timerOp struct {
	op  TimerOp
	id  string
	req TimerRequest
}

// Priority implements mailbox.Prioritized.
func (*timerOp) Priority() messages.Priority { return messages.PriorityNext }

type timerOpDone struct {
	timers []TimerView
	err    error
}

// Timers returns agent id's created timers, the next due first.
func (r *Runtime) Timers(ctx context.Context, id string) ([]TimerView, error) {
	return r.timerOp(ctx, id, &timerOp{op: TimerList})
}

// CreateTimer creates a timer for agent id on its operator's behalf and
// returns it. A refusal wraps ErrTimerInvalid, ErrTooManyTimers or
// ErrTimerTooFrequent and changes nothing.
func (r *Runtime) CreateTimer(ctx context.Context, id string, req TimerRequest) (TimerView, error) {
	out, err := r.timerOp(ctx, id, &timerOp{op: TimerCreate, req: req})
	if err != nil {
		return TimerView{}, err
	}
	return out[0], nil
}

// ChangeTimer cancels, pauses, resumes or runs now timer timerID of agent
// id and returns the agent's timers after it; an unknown timer is
// ErrTimerNotFound.
func (r *Runtime) ChangeTimer(ctx context.Context, id string, op TimerOp, timerID string) ([]TimerView, error) {
	switch op {
	case TimerCancel, TimerPause, TimerResume, TimerRunNow:
	default:
		return nil, fmt.Errorf("timer action %q: use cancel, pause, resume or run-now", op)
	}
	return r.timerOp(ctx, id, &timerOp{op: op, id: timerID})
}

func (r *Runtime) timerOp(ctx context.Context, id string, m *timerOp) ([]TimerView, error) {
	res, err := r.ask(ctx, id, m)
	if err != nil {
		return nil, err
	}
	out := res.(*timerOpDone)
	return out.timers, out.err
}

// timerOp does an operator's timer action and journals it.
func (a *agent) timerOp(m *timerOp) *timerOpDone {
	if m.op == TimerList {
		return &timerOpDone{timers: agentstate.TimerViews(a.state)}
	}
	if a.state.Status == messages.StatusStopped && m.op != TimerCancel && m.op != TimerPause {
		return &timerOpDone{err: ErrAgentStopped}
	}
	batch, err := a.decideTimerOp(m)
	if err == nil {
		err = a.commit(batch)
	}
	if err != nil {
		return &timerOpDone{err: err}
	}
	if m.op == TimerCreate {
		c := batch[0].(messages.TimerCreated)
		for _, v := range agentstate.TimerViews(a.state) {
			if v.TimerID == c.Record.TimerID {
				return &timerOpDone{timers: []TimerView{v}}
			}
		}
	}
	return &timerOpDone{timers: agentstate.TimerViews(a.state)}
}

// decideTimerOp is the batch of an operator's timer action.
func (a *agent) decideTimerOp(m *timerOp) (agentstate.Batch, error) {
	switch m.op {
	case TimerCreate:
		c, err := agentstate.CreateTimer(a.state, a.env(), "operator", m.req)
		return agentstate.Batch{c}, err
	case TimerCancel:
		c, err := agentstate.CancelTimer(a.state, m.id, "operator", "")
		return agentstate.Batch{c}, err
	case TimerPause:
		return agentstate.PauseTimer(a.state, m.id)
	case TimerResume:
		return agentstate.ResumeTimer(a.state, a.env(), m.id)
	default:
		return agentstate.RunTimerNow(a.state, a.env(), m.id)
	}
}

// userTimerFired applies the fire of a created timer: the fire, the
// messages it delivers and its next due time in one batch, so it happens
// once across crashes. False when f is not a created timer's.
func (a *agent) userTimerFired(f timers.Fire) bool {
	if _, ok := a.state.UserTimers[f.TimerID]; !ok {
		return false
	}
	if a.state.Status != messages.StatusStopped {
		a.mustCommit(agentstate.TimerFire(a.state, a.env(), f.TimerID, f.FireID))
	}
	return true
}

// userTimerEffects arms and disarms the timer service for the created
// timers' events of a durable batch.
func (a *agent) userTimerEffects(p messages.Payload) {
	switch p := p.(type) {
	case messages.TimerCreated:
		a.armTimer(p.Record.TimerID, p.DueAt)
	case messages.TimerResumed:
		a.armTimer(p.TimerID, p.DueAt)
	case messages.TimerFired:
		if p.NextDueAt != nil && !p.Manual {
			a.armTimer(p.TimerID, *p.NextDueAt)
		}
	case messages.TimerCancelled:
		a.wire.toTimers(&timers.Cancel{AgentID: a.id, TimerID: p.TimerID})
	case messages.TimerPaused:
		a.wire.toTimers(&timers.Cancel{AgentID: a.id, TimerID: p.TimerID})
	}
}

// rearmUserTimers re-arms the created timers that wait for a fire.
func (a *agent) rearmUserTimers() {
	for _, t := range agentstate.ArmedUserTimers(a.state) {
		a.armTimer(t.TimerID, t.DueAt)
	}
}
