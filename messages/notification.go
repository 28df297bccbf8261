package messages

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// OperatorBoundary is who receives an operator notification: the primary
// operator, or, for a private child agent, its parent's supervision
// boundary.
type OperatorBoundary string

// The operator boundaries.
const (
	BoundaryPrimaryOperator  OperatorBoundary = "primary_operator"
	BoundaryParentSupervisor OperatorBoundary = "parent_supervisor"
)

var operatorBoundaries = enum[OperatorBoundary]{name: "operator boundary", values: []OperatorBoundary{
	BoundaryPrimaryOperator, BoundaryParentSupervisor,
}}

// String returns the OperatorBoundary as spelled in JSON.
func (b OperatorBoundary) String() string { return string(b) }

// Valid reports whether b is an operator boundary.
func (b OperatorBoundary) Valid() bool { return operatorBoundaries.valid(b) }

// UnmarshalText parses an operator boundary, rejecting unknown values.
func (b *OperatorBoundary) UnmarshalText(text []byte) error {
	return operatorBoundaries.unmarshal(b, text)
}

// The reasons the runtime notifies an operator (OperatorNotification.Reason).
const (
	NotifySuspensionRequested = "suspension_requested"
	NotifySuspensionReminder  = "suspension_reminder"
	NotifySuspensionExpired   = "suspension_expired"
	NotifyTurnFailed          = "turn_failed"
	NotifyAgentQuarantined    = "agent_quarantined"
	NotifyJournalTailDropped  = "journal_tail_dropped"
	NotifyJournalQuarantined  = "journal_quarantined"
	NotifyStoreDamaged        = "store_damaged"
	NotifyAgentTool           = "notify_operator"
	NotifyChildNotification   = "child_notification"
	NotifyLoopBreaker         = "loop_breaker"
	NotifyTokenBudget         = "token_budget_exhausted"
	NotifyTokenBudgetWarning  = "token_budget_warning"
	NotifyAgentStalled        = "agent_stalled"
)

// OperatorNotification is the runtime's OperatorNotificationRequested
// record: something an operator should see, addressed to a boundary. It
// is recorded in the requesting agent's journal and, for a private child,
// also in its parent's.
type OperatorNotification struct {
	NotificationID         string           `json:"notification_id"`
	AgentID                string           `json:"agent_id"`
	RequestedByAgentID     string           `json:"requested_by_agent_id"`
	TargetOperatorBoundary OperatorBoundary `json:"target_operator_boundary"`
	// BoundaryAgentID is the parent agent whose boundary receives a
	// parent_supervisor notification.
	BoundaryAgentID string    `json:"boundary_agent_id,omitempty"`
	Message         string    `json:"message"`
	Summary         string    `json:"summary,omitempty"`
	Reason          string    `json:"reason"`
	WorkItemID      string    `json:"work_item_id,omitempty"`
	SuspensionID    string    `json:"suspension_id,omitempty"`
	CorrelationID   string    `json:"correlation_id,omitempty"`
	CausationID     string    `json:"causation_id,omitempty"`
	CreatedAt       time.Time `json:"created_at"`
}

// NotificationSummaryLimit bounds a derived summary, in runes.
const NotificationSummaryLimit = 160

// NotificationSummary derives a notification's summary from its message:
// the first non-empty line, trimmed, cut to NotificationSummaryLimit runes
// with an ellipsis.
func NotificationSummary(message string) string {
	for line := range strings.Lines(message) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) <= NotificationSummaryLimit {
			return line
		}
		r := []rune(line)
		return strings.TrimSpace(string(r[:NotificationSummaryLimit-1])) + "…"
	}
	return ""
}

// DeliveryStatus is where the external delivery of an operator
// notification stands.
type DeliveryStatus string

// The delivery statuses.
const (
	DeliveryAcceptedByTransport DeliveryStatus = "accepted_by_transport" // the webhook answered 2xx
	DeliveryRetrying            DeliveryStatus = "retrying"              // an attempt failed; another follows
	DeliveryFailed              DeliveryStatus = "failed"                // every attempt failed
)

var deliveryStatuses = enum[DeliveryStatus]{name: "delivery status", values: []DeliveryStatus{
	DeliveryAcceptedByTransport, DeliveryRetrying, DeliveryFailed,
}}

// String returns the DeliveryStatus as spelled in JSON.
func (s DeliveryStatus) String() string { return string(s) }

// Valid reports whether s is a delivery status.
func (s DeliveryStatus) Valid() bool { return deliveryStatuses.valid(s) }

// UnmarshalText parses a delivery status, rejecting unknown values.
func (s *DeliveryStatus) UnmarshalText(text []byte) error { return deliveryStatuses.unmarshal(s, text) }

// NotificationLevel is the severity of a system notification; critical
// forces delivery.
type NotificationLevel string

// The levels, least severe first.
const (
	LevelInfo     NotificationLevel = "info"
	LevelWarning  NotificationLevel = "warning"
	LevelError    NotificationLevel = "error"
	LevelCritical NotificationLevel = "critical"
)

var notificationLevels = enum[NotificationLevel]{name: "notification level", values: []NotificationLevel{
	LevelInfo, LevelWarning, LevelError, LevelCritical,
}}

// String returns the NotificationLevel as spelled in JSON.
func (l NotificationLevel) String() string { return string(l) }

// Valid reports whether l is a notification level.
func (l NotificationLevel) Valid() bool { return notificationLevels.valid(l) }

// UnmarshalText parses a notification level, rejecting unknown values.
func (l *NotificationLevel) UnmarshalText(text []byte) error {
	return notificationLevels.unmarshal(l, text)
}

// SystemNotification is a subsystem's message for the model (RFD 011). Kind
// is "source.name" (tool.stopped, provider.fallback); it drives filtering.
// It reaches the model only inside a carrier: the next model request built
// from a new message, or the next tool-result batch.
type SystemNotification struct {
	Kind    string            `json:"kind"`
	Level   NotificationLevel `json:"level"`
	Message string            `json:"message"`
}

// Source and Name split Kind at its first dot.
func (n SystemNotification) Source() string { s, _, _ := strings.Cut(n.Kind, "."); return s }

// Name is the part of Kind after its first dot.
func (n SystemNotification) Name() string { _, s, _ := strings.Cut(n.Kind, "."); return s }

// Validate checks the notification's kind, level and message.
func (n SystemNotification) Validate() error {
	switch {
	case n.Source() == "" || n.Name() == "":
		return fieldError(ErrInvalidEvent, "kind", fmt.Sprintf("%q is not source.name", n.Kind))
	case !n.Level.Valid():
		return fieldError(ErrInvalidEvent, "level", fmt.Sprintf("%q is not a notification level", n.Level))
	case strings.TrimSpace(n.Message) == "":
		return fieldError(ErrInvalidEvent, "message", "is empty")
	}
	return nil
}

// RenderSystemNotifications formats notifications as one markdown block
// grouped by level, most severe first, oldest first within a level: the
// default form transports place before (or, after tool results, after) the
// carrier's content. "" when there are none.
func RenderSystemNotifications(ns []SystemNotification) string {
	if len(ns) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("---\n**Holon System Notifications**\n\n")
	b.WriteString("These are automated messages from the holon-actors runtime, not from your operator. " +
		"They are delivered with this message to make you aware of them. You can ignore irrelevant " +
		"notifications — they will NOT be delivered again.\n")
	for i := len(notificationLevels.values) - 1; i >= 0; i-- {
		level := notificationLevels.values[i]
		first := true
		for _, n := range ns {
			if n.Level != level {
				continue
			}
			if first {
				fmt.Fprintf(&b, "\n**%s:**\n", strings.ToUpper(string(level[:1]))+string(level[1:]))
				first = false
			}
			fmt.Fprintf(&b, "- [%s] %s\n", n.Kind, strings.TrimSpace(n.Message))
		}
	}
	b.WriteString("---")
	return b.String()
}

// NotificationFilter decides, at delivery time, which system notifications
// reach the model; the journal records every one regardless. Kinds maps a
// source to its switches: "enable": false silences the whole source, and a
// name's switch (e.g. "stopped": false) silences that kind. What it does
// not mention is delivered. The zero value delivers everything.
type NotificationFilter struct {
	Kinds map[string]map[string]bool `json:"kinds,omitempty"`
}

// Allows reports whether a notification of kind (source.name) is
// delivered.
func (f NotificationFilter) Allows(kind string) bool {
	source, name, _ := strings.Cut(kind, ".")
	switches, ok := f.Kinds[source]
	if !ok {
		return true
	}
	if on, ok := switches["enable"]; ok && !on {
		return false
	}
	if on, ok := switches[name]; ok {
		return on
	}
	return true
}
