package actors

import (
	"errors"
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
)

// ErrNoModelRetry is returned by RetryModel when the agent has no model
// retry waiting.
var ErrNoModelRetry = errors.New("no model retry scheduled")

// retryModelRound decides whether the failed round err (journaled as f)
// is tried again later. If so it journals model_retry_scheduled, arms the
// timer and returns true: the turn stays open, waiting. Otherwise f gains
// the story of the run, if there was one, and the caller fails the turn.
func (a *agent) retryModelRound(err error, f *messages.Failure) bool {
	t, now := a.state.Turn, a.deps.Clock.Now()
	d := decideModelRetry(a.deps.ModelRetry, t.Retry, modelFailureOf(err), retryEnv{Now: now, Jitter: a.deps.ModelRetry.Jitter})
	if d.Verdict != retryScheduled {
		if d.Attempt > 1 {
			f.Summary = fmt.Sprintf("%s Gave up after %d attempts over %v.", f.Summary, d.Attempt, now.Sub(d.FirstFailedAt).Round(time.Second))
			f.Message = f.Summary
		}
		return false
	}
	ev := messages.ModelRetryScheduled{TurnID: t.ID, Round: t.Round + 1, Attempt: d.Attempt, TimerID: messages.NewID("tmr"),
		DueAt: d.DueAt, FirstFailedAt: d.FirstFailedAt, Failure: *f}
	a.mustPersist(ev)
	a.deps.Log.Info().Str("agent_id", a.id).Str("turn_id", t.ID).Int("attempt", d.Attempt).Str("failure_code", f.Code).
		Time("due_at", d.DueAt).Msg("model round failed, retry scheduled")
	return true
}

// modelRetryDue applies the fire of a retry timer: the round runs again
// as soon as the agent may take steps.
func (a *agent) modelRetryDue(f timers.Fire) {
	a.mustPersist(messages.TimerFired{TimerID: f.TimerID, FireID: f.FireID})
}

// RetryModel asks an agent to try its waiting model round now, or with
// Cancel to give up and fail the turn with the last failure. The reply is
// *RetryModelResult; without a pending retry its Err wraps ErrNoModelRetry
// and nothing changes.
type RetryModel struct {
	Cancel bool
}

// Priority implements mailbox.Prioritized: like lifecycle commands, before work.
func (*RetryModel) Priority() messages.Priority { return messages.PriorityInterject }

// RetryModelResult answers RetryModel with the agent's info after it.
type RetryModelResult struct {
	Info agentstate.AgentInfo
	Err  error
}

// retryModel fires the pending retry now (the timer service's own fire, if
// it still comes, finds no timer), or cancels it by failing the turn.
func (a *agent) retryModel(m *RetryModel) *RetryModelResult {
	t := a.state.Turn
	if t == nil || !t.Retry.Pending() {
		return &RetryModelResult{Err: fmt.Errorf("%w for agent %s: it is not waiting to retry a model call", ErrNoModelRetry, a.id)}
	}
	if !m.Cancel && a.state.Status == messages.StatusPaused {
		return &RetryModelResult{Err: fmt.Errorf("%w (agent %s)", ErrRetryPaused, a.id)}
	}
	id := t.Retry.TimerID
	if m.Cancel {
		last := t.Retry.Failure
		summary := fmt.Sprintf("The operator cancelled the model retry (attempt %d); the turn failed with: %s", t.Retry.Attempt+1, last.Summary)
		a.failTurnWith(messages.TerminalAborted, messages.Failure{Category: messages.FailureRuntime, Code: agentstate.CodeModelRetryCancelled,
			Message: summary, Summary: summary, Details: last.Details})
	} else if err := a.persist(messages.TimerFired{TimerID: id, FireID: timers.FireID(id, a.deps.Clock.Now())}); err != nil {
		return &RetryModelResult{Err: err}
	}
	a.wire.toTimers(&timers.Cancel{AgentID: a.id, TimerID: id})
	return &RetryModelResult{Info: a.info()}
}
