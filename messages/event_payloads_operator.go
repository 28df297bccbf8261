package messages

import "time"

// SuspensionRequested records a question to the operator: the agent is
// suspended awaiting input until it is answered, cancelled or expires.
type SuspensionRequested struct {
	Suspension SuspensionRecord `json:"suspension"`
}

// Validate checks the record's enums and that a choice question has
// choices.
func (p SuspensionRequested) Validate() error {
	r := p.Suspension
	switch {
	case r.ID == "":
		return fieldError(ErrInvalidEvent, "suspension.id", "is empty")
	case !r.ResponseType.Valid():
		return fieldError(ErrInvalidEvent, "suspension.response_type", "is not a response type")
	case !r.FallbackPolicy.Valid():
		return fieldError(ErrInvalidEvent, "suspension.fallback_policy", "is not a fallback policy")
	case r.ResponseType == ResponseChoice && len(r.Choices) == 0:
		return fieldError(ErrInvalidEvent, "suspension.choices", "a choice question needs at least one choice")
	}
	return nil
}

// SuspensionResumed records that an operator answered (resolution
// responded) or cancelled (resolution cancelled) a suspension.
type SuspensionResumed struct {
	SuspensionID string        `json:"suspension_id"`
	Response     InputResponse `json:"response"`
}

// SuspensionExpired records that a suspension's last attempt timed out
// and which policy applied; Response is set when the policy resumes the
// agent with the fallback value.
type SuspensionExpired struct {
	SuspensionID string         `json:"suspension_id"`
	Policy       FallbackPolicy `json:"policy"`
	Attempts     int            `json:"attempts"`
	Response     *InputResponse `json:"response,omitempty"`
}

// EngagementDecisionRecorded records an engagement decision, made for the
// model's ShouldRequestInput call or for a RequestOperatorInput.
type EngagementDecisionRecorded struct {
	Decision     EngagementDecision `json:"decision"`
	TurnID       string             `json:"turn_id,omitempty"`
	CallID       string             `json:"call_id,omitempty"`
	SuspensionID string             `json:"suspension_id,omitempty"`
}

// OperatorNotificationRequested records an operator notification.
type OperatorNotificationRequested struct {
	Notification OperatorNotification `json:"notification"`
}

// OperatorNotificationDelivery records one step of a notification's
// external delivery (the configured webhook).
type OperatorNotificationDelivery struct {
	NotificationID string         `json:"notification_id"`
	Status         DeliveryStatus `json:"status"`
	Attempt        int            `json:"attempt"`
	HTTPStatus     int            `json:"http_status,omitempty"`
	Error          string         `json:"error,omitempty"`
	At             time.Time      `json:"at"`
}

// SystemNotificationQueued records a system notification for the model. It
// is never itself shown to the model: the next carrier delivers it.
type SystemNotificationQueued struct {
	Notification SystemNotification `json:"notification"`
}

// Validate checks the notification.
func (p SystemNotificationQueued) Validate() error { return p.Notification.Validate() }
