package actors

import (
	"errors"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// Single writer across nodes. In a cluster (AgentDeps.Node set) placement
// is best effort: for a moment two nodes may both run an activation of one
// agent (a node declared dead that is only frozen, a topology change). The
// journal decides. Each activation first journals agent_activated, fenced
// at the seq it recovered, which moves the stream; every later write of the
// agent is fenced at the seq it last applied (persist), so an older
// activation's next write fails. A write that fails so marks the
// activation fenced out: it cancels its steps, writes nothing more, starts
// nothing more (every model call, tool, process and child starts only
// after one of its writes succeeded), answers every request with
// ErrFencedOut and stops. It is not restarted and not quarantined: its
// agent lives on elsewhere.

// ErrFencedOut is returned by an agent activation that another activation
// of the same agent (on another node) has superseded.
var ErrFencedOut = errors.New("agent activation fenced out: another node activated this agent since; retry the request, it reaches the agent where it now runs")

// fencedOutError is the failure of a fenced-out activation: permanent (no
// restart would help, and a restart would steal the agent back), and both
// ErrFencedOut and the store's ErrSeqConflict to errors.Is.
type fencedOutError struct {
	id    string
	cause error
}

func (e *fencedOutError) Error() string {
	return fmt.Sprintf("agent %s: %v (%v)", e.id, ErrFencedOut, e.cause)
}
func (e *fencedOutError) Unwrap() []error { return []error{ErrFencedOut, e.cause} }
func (e *fencedOutError) Permanent() bool { return true } // supervision.Decide stops it

// isFencedOut reports whether reason, a panic value or an error, is a
// fenced-out activation's failure.
func isFencedOut(reason any) bool {
	err, ok := reason.(error)
	return ok && errors.Is(err, ErrFencedOut)
}

// clustered reports whether the agent runs in a cluster.
func (a *agent) clustered() bool { return a.deps.Node != "" }

// activate journals this activation (agent_activated), fenced at the
// state just recovered; a conflict means another activation wrote first
// and this one is fenced out (mustPersist panics, supervision stops it).
// Single-node runtimes write nothing.
func (a *agent) activate() {
	if !a.clustered() {
		return
	}
	a.mustPersist(messages.AgentActivated{Node: a.deps.Node, Activation: messages.NewID("act")})
	a.deps.Log.Info().Str("agent_id", a.id).Str("node", a.deps.Node).Uint64("seq", a.state.LastSeq).Msg("agent activated")
}

// appendFailed is what persist returns for a failed append: in a cluster
// a sequence conflict fences the activation out for good.
func (a *agent) appendFailed(err error) error {
	if !a.clustered() || !errors.Is(err, persistence.ErrSeqConflict) {
		return err
	}
	a.fenceOut(err)
	return a.fenced
}

// fenceOut marks the activation superseded and stops its steps.
func (a *agent) fenceOut(cause error) {
	if a.fenced != nil {
		return
	}
	a.fenced = &fencedOutError{id: a.id, cause: cause}
	if h, ok := a.wire.host.(runtimeHost); ok {
		h.r.fenced.mark(a.id) // before the actor stops: nothing activates it here again unclaimed
	}
	a.deps.Log.Warn().Str("agent_id", a.id).Str("node", a.deps.Node).Err(cause).
		Msg("agent activation fenced out: another node runs this agent; stopping this activation")
	a.stop()
}

// reloadedElsewhere fences the activation out when the state it reloads
// after passivating is not the one it dropped: another node wrote since.
func (a *agent) reloadedElsewhere(lastSeq uint64) bool {
	if !a.clustered() || lastSeq == a.passive.LastSeq {
		return false
	}
	a.fenceOut(fmt.Errorf("%w: the journal moved from seq %d to %d while this activation was passive",
		persistence.ErrSeqConflict, a.passive.LastSeq, lastSeq))
	return true
}

// stopFenced stops a fenced-out activation's actor (once).
func (a *agent) stopFenced(c actor.Context) {
	if a.fenced == nil || a.fencedStopping {
		return
	}
	a.fencedStopping = true
	c.Stop(c.Self())
}
