package actors

import (
	"context"
	"sync"

	"github.com/holon-actors/holon-actors/messages"
)

// deliveries runs the external deliveries of operator notifications: one
// goroutine per notification, owned by the runtime, cancelled and waited
// for when it stops. A notification is delivered once per process; a
// delivery cut by a stop resumes when its agent next starts.
type deliveries struct {
	mu       sync.Mutex
	inflight map[string]bool
	wg       sync.WaitGroup
	ctx      context.Context
	cancel   context.CancelFunc
}

func newDeliveries() *deliveries {
	ctx, cancel := context.WithCancel(context.Background())
	return &deliveries{inflight: make(map[string]bool), ctx: ctx, cancel: cancel}
}

// stop cancels every delivery and waits for them.
func (d *deliveries) stop() {
	d.cancel()
	d.wg.Wait()
}

// deliver sends n through the configured notifier, reporting each step to
// agent agentID, which journals it. Nothing happens without a notifier.
func (r *Runtime) deliver(agentID string, n messages.OperatorNotification) {
	r.deliverReporting(n, func(p messages.OperatorNotificationDelivery) {
		r.forward(agentID, &deliveryReported{d: p})
	})
}

// deliverUnrecorded sends n with no agent to journal its delivery: for
// news about a journal that cannot be written (journal_damage.go).
func (r *Runtime) deliverUnrecorded(n messages.OperatorNotification) {
	r.deliverReporting(n, func(p messages.OperatorNotificationDelivery) {
		r.deps.Log.Info().Str("notification_id", p.NotificationID).Str("status", string(p.Status)).
			Msg("unrecorded operator notification delivery")
	})
}

// deliverReporting sends n through the notifier, handing each delivery
// step to report unless the runtime is stopping.
func (r *Runtime) deliverReporting(n messages.OperatorNotification, report func(messages.OperatorNotificationDelivery)) {
	if r.deps.Notifier == nil {
		return
	}
	d := r.deliveries
	d.mu.Lock()
	if d.inflight[n.NotificationID] || d.ctx.Err() != nil {
		d.mu.Unlock()
		return
	}
	d.inflight[n.NotificationID] = true
	d.wg.Add(1)
	d.mu.Unlock()
	go func() {
		defer func() {
			d.mu.Lock()
			delete(d.inflight, n.NotificationID)
			d.mu.Unlock()
			d.wg.Done()
		}()
		r.deps.Notifier.Deliver(d.ctx, n, func(p messages.OperatorNotificationDelivery) {
			if d.ctx.Err() == nil { // a cut delivery resumes at the next start: record nothing
				report(p)
			}
		})
	}()
}

// forward sends msg to agent id without waiting for an answer, activating
// the agent if it is dormant.
func (r *Runtime) forward(id string, msg any) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.closed {
		return
	}
	if pid, ok := r.pids[id]; ok {
		r.sys.Root.Send(pid, msg)
		return
	}
	r.sys.Root.Send(r.supervisor, &deliver{id: id, msg: msg})
}
