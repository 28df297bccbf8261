package agentstate

import (
	"slices"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// IsCarrierStart reports a message_processing_started that carries
// notifications to the model: a splice into a running turn, or a turn
// whose message the model sees.
func IsCarrierStart(p messages.MessageProcessingStarted) bool {
	return p.Continuation == nil || p.Continuation.ModelVisible
}

// noteOwnNotification records, as the agent's own notification is
// applied, the once-only reports it stands for: the current closure's
// stall (watchdog.go) and the budget warning (budget.go).
func (s *State) noteOwnNotification(n messages.OperatorNotification) {
	if n.RequestedByAgentID != s.ID {
		return
	}
	switch n.Reason {
	case messages.NotifyAgentStalled:
		s.Watchdog.ReportedTurn = s.TurnIndex
	case messages.NotifyTokenBudgetWarning:
		s.Budget.Warned = true
	}
}

// notificationLimit bounds the operator notifications an agent keeps in
// its state; the journal keeps them all.
const notificationLimit = 200

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
