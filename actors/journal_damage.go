package actors

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// Damage to an agent's journal is contained to that agent: the store
// quarantines a stream whose history is corrupt or incomplete, the runtime
// never resumes it from what is left (it refuses every request for it with
// ErrJournalQuarantined) and every other agent runs. The operator is told
// once per process: through a notification recorded by the default agent,
// in its own journal (the damaged one cannot be written, and nobody writes
// an agent's journal from outside), and in the runtime's status.

// ErrJournalQuarantined is returned for requests to an agent whose journal
// the store quarantined.
var ErrJournalQuarantined = errors.New("agent journal quarantined: its history is damaged, so it is not resumed; inspect it with holon-actors doctor")

// journalDamaged carries a notification about another agent's journal, or
// the store, to the default agent, which records and sends it.
type journalDamaged struct{ n messages.OperatorNotification }

func (*journalDamaged) Priority() messages.Priority { return messages.PriorityNext }

// damageReports remembers what the operator was told in this process.
type damageReports struct {
	mu   sync.Mutex
	told map[string]bool // agent ids, and "" for the store's own report
}

// storeQuarantine returns the store's quarantine of agent id, if any.
func (r *Runtime) storeQuarantine(id string) (persistence.Quarantine, bool) {
	for _, q := range r.deps.Store.Health().Quarantined {
		if q.Stream == id {
			return q, true
		}
	}
	return persistence.Quarantine{}, false
}

// quarantinedErr is the error for a request to a quarantined agent.
func quarantinedErr(q persistence.Quarantine) error {
	return fmt.Errorf("agent %s: %w (at seq %d: %s)", q.Stream, ErrJournalQuarantined, q.Seq, q.Reason)
}

// reportStoreDamage tells the operator, once per process, about every
// quarantined journal and about what the store found when it opened
// (torn write-ahead log tails, rebuilt integrity marks).
func (r *Runtime) reportStoreDamage() {
	h := r.deps.Store.Health()
	for _, q := range h.Quarantined {
		if ValidateAgentID(q.Stream) == nil {
			r.journalQuarantined(q)
		}
	}
	if msg := storeFindings(h); msg != "" && r.firstReport("") {
		r.tellOperator(newNotification(r.deps.DefaultAgentID, messages.NotifyStoreDamaged, msg, r.deps.Clock.Now()))
	}
}

// storeFindings describes what the store's open found besides
// quarantines, or "".
func storeFindings(h persistence.Health) string {
	var parts []string
	for _, w := range h.TornWAL {
		parts = append(parts, fmt.Sprintf("the storage engine dropped a torn write-ahead log tail (%s: %d bytes at offset %d), "+
			"normally writes cut by a crash and never acknowledged", w.File, w.Bytes, w.Offset))
	}
	parts = append(parts, h.Notes...)
	if len(parts) == 0 {
		return ""
	}
	return "When the journal store opened: " + strings.Join(parts, "; ") + ". Inspect it with holon-actors doctor."
}

// journalQuarantined tells the operator, once per process, that agent
// q.Stream's journal is quarantined.
func (r *Runtime) journalQuarantined(q persistence.Quarantine) {
	if !r.firstReport(q.Stream) {
		return
	}
	msg := fmt.Sprintf("The journal of agent %s is damaged and was quarantined at seq %d: %s. "+
		"The agent is not resumed; every other agent runs. Inspect the data directory with holon-actors doctor.",
		q.Stream, q.Seq, q.Reason)
	n := newNotification(q.Stream, messages.NotifyJournalQuarantined, msg, r.deps.Clock.Now())
	r.deps.Log.Error().Str("agent_id", q.Stream).Uint64("seq", q.Seq).Str("reason", q.Reason).
		Msg("agent journal quarantined; agent not resumed")
	r.tellOperator(n)
}

func (r *Runtime) firstReport(key string) bool {
	d := &r.damage
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.told == nil {
		d.told = map[string]bool{}
	}
	if d.told[key] {
		return false
	}
	d.told[key] = true
	return true
}

// tellOperator has the default agent record n and send it; when the
// default agent's own journal is the quarantined one, n is only sent.
func (r *Runtime) tellOperator(n messages.OperatorNotification) {
	def := r.deps.DefaultAgentID
	if _, bad := r.storeQuarantine(def); def == "" || bad {
		r.deliverUnrecorded(n)
		return
	}
	r.forward(def, &journalDamaged{n: n})
}

// recordDamage records, as the default agent's own notification, news of
// damage to another journal or the store, and sends it.
func (a *agent) recordDamage(m *journalDamaged) {
	n := m.n
	n.AgentID = a.id
	if slices.ContainsFunc(a.state.Notifications, func(v agentstate.NotificationView) bool { return v.NotificationID == n.NotificationID }) {
		return
	}
	a.mustPersist(messages.OperatorNotificationRequested{Notification: n})
}

// startDamaged leaves the agent without state when its journal turned out
// quarantined as it recovered: it is not resumed from what is left, and
// not crash-looped through supervision either.
func (a *agent) startDamaged(err error) {
	a.damaged = fmt.Errorf("agent %s: %w: %w", a.id, ErrJournalQuarantined, err)
	for _, q := range a.deps.Store.Health().Quarantined {
		if q.Stream != a.id {
			continue
		}
		a.damaged = quarantinedErr(q)
		if rt := a.wire.host; rt != nil {
			rt.Quarantined(q)
		}
	}
}

// refuse answers every request with err: to an agent whose journal is
// damaged, or to an activation fenced out by another node.
func (a *agent) refuse(c actor.Context, err error) {
	switch c.Message().(type) {
	case *actor.Stopping, *actor.Restarting:
		a.stop()
	case *actor.Started, *actor.Stopped, *actor.Terminated:
	default:
		if c.Sender() != nil {
			c.Respond(&activationFailed{err: err})
		}
	}
}

// quarantinedInfo is what listings show of an agent whose journal is
// quarantined: it has no state to show.
func quarantinedInfo(q persistence.Quarantine) agentstate.AgentInfo {
	return agentstate.AgentInfo{ID: q.Stream, Status: messages.StatusStopped, LastSeq: q.Seq,
		LastError: quarantinedErr(q).Error(), JournalQuarantined: true}
}
