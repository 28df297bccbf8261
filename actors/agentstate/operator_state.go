package agentstate

import (
	"slices"
	"sort"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// closedSuspensionLimit bounds the settled suspensions an agent keeps
// (to answer a repeated answer the same way, and to list them).
const closedSuspensionLimit = 64

// notificationLimit bounds the operator notifications an agent keeps in
// its state; the journal keeps them all.
const notificationLimit = 200

// applySuspensionRequested records a new open suspension.
func (s *State) applySuspensionRequested(p messages.SuspensionRequested) {
	if s.Suspensions == nil {
		s.Suspensions = make(map[string]*messages.SuspensionRecord)
	}
	r := p.Suspension
	s.Suspensions[r.ID] = &r
}

// settleSuspension closes suspension id with resp, and drops the oldest
// closed ones beyond the limit.
func (s *State) settleSuspension(id string, resp messages.InputResponse) {
	r, ok := s.Suspensions[id]
	if !ok || !r.Open() {
		return
	}
	at := resp.RespondedAt
	r.Resolution, r.Response, r.RespondedAt, r.RespondedBy = resp.Resolution, resp.Value, &at, resp.RespondedBy
	if r.DeadlineTimerID != "" {
		// Its fire, if it comes, finds no timer and changes nothing.
		delete(s.Timers, r.DeadlineTimerID)
		if len(s.Timers) == 0 {
			s.Timers = nil
		}
		r.DeadlineTimerID = ""
	}
	var closed []*messages.SuspensionRecord
	for _, x := range s.Suspensions {
		if !x.Open() {
			closed = append(closed, x)
		}
	}
	if len(closed) <= closedSuspensionLimit {
		return
	}
	sort.Slice(closed, func(i, j int) bool { return closed[i].RespondedAt.Before(*closed[j].RespondedAt) })
	for _, x := range closed[:len(closed)-closedSuspensionLimit] {
		delete(s.Suspensions, x.ID)
	}
}

// applySuspensionExpired settles an expired suspension; a failed wait
// fails the closure the suspension had left waiting.
func (s *State) applySuspensionExpired(p messages.SuspensionExpired, at time.Time) {
	resp := messages.InputResponse{SuspensionID: p.SuspensionID, Resolution: messages.ResolutionExpired, RespondedAt: at}
	if p.Response != nil {
		resp = *p.Response
	}
	s.settleSuspension(p.SuspensionID, resp)
	if !p.Policy.Resumes() {
		s.LastClosure = &messages.Closure{Outcome: messages.OutcomeFailed}
	}
}

// applyOperatorNotification keeps the notification, and counts a
// suspension's attempts.
func (s *State) applyOperatorNotification(n messages.OperatorNotification) {
	if r, ok := s.Suspensions[n.SuspensionID]; ok && r.Open() &&
		(n.Reason == messages.NotifySuspensionRequested || n.Reason == messages.NotifySuspensionReminder) {
		r.Attempts++
	}
	s.Notifications = append(s.Notifications, NotificationView{OperatorNotification: n})
	if len(s.Notifications) > notificationLimit {
		s.Notifications = slices.Clone(s.Notifications[len(s.Notifications)-notificationLimit:])
	}
}

func (s *State) applyNotificationDelivery(p messages.OperatorNotificationDelivery) {
	for i := len(s.Notifications) - 1; i >= 0; i-- {
		n := &s.Notifications[i]
		if n.NotificationID != p.NotificationID {
			continue
		}
		n.Delivery = &NotificationDelivery{Status: p.Status, Attempts: p.Attempt, HTTPStatus: p.HTTPStatus,
			Error: p.Error, UpdatedAt: p.At.UTC().Format(time.RFC3339Nano)}
		return
	}
}

// OpenSuspension returns the agent's open suspension, if any (there is at
// most one: a suspended agent runs no turn that could ask another).
func (s *State) OpenSuspension() *messages.SuspensionRecord {
	for _, r := range s.Suspensions {
		if r.Open() {
			return r
		}
	}
	return nil
}

// openSuspensionIDs lists the open suspensions' ids, sorted.
func (s *State) openSuspensionIDs() []string {
	var ids []string
	for id, r := range s.Suspensions {
		if r.Open() {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// SuspensionList is every kept suspension, newest first.
func (s *State) SuspensionList() []messages.SuspensionRecord {
	out := make([]messages.SuspensionRecord, 0, len(s.Suspensions))
	for _, r := range s.Suspensions {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].SuspendedAt.Equal(out[j].SuspendedAt) {
			return out[i].SuspendedAt.After(out[j].SuspendedAt)
		}
		return out[i].ID > out[j].ID
	})
	return out
}

// NotificationList is the kept operator notifications, newest first.
func (s *State) NotificationList() []NotificationView {
	out := slices.Clone(s.Notifications)
	slices.Reverse(out)
	return out
}

// queueSystemNotification adds a notification to the pending set.
func (s *State) queueSystemNotification(n messages.SystemNotification) {
	s.PendingNotifications = append(s.PendingNotifications, n)
}
