package notify

import (
	"encoding/json"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// IntentType is the type of every delivery intent.
const IntentType = "operator_notification"

// Intent is the JSON body of one delivery attempt. Receivers decode it
// after Verify accepts the raw body.
type Intent struct {
	// Type is IntentType.
	Type string `json:"type"`
	// DeliveryID is the notification's ID, the same on every attempt:
	// receivers dedupe on it.
	DeliveryID string `json:"delivery_id"`
	// Attempt counts from 1.
	Attempt int `json:"attempt"`
	// SentAt is when this attempt was sent (UTC, RFC 3339 with
	// nanoseconds).
	SentAt       time.Time                     `json:"sent_at"`
	Notification messages.OperatorNotification `json:"notification"`
}

// encodeIntent returns the body of attempt for n, sent at now.
func encodeIntent(n messages.OperatorNotification, attempt int, now time.Time) ([]byte, error) {
	return json.Marshal(Intent{Type: IntentType, DeliveryID: n.NotificationID, Attempt: attempt,
		SentAt: now.UTC(), Notification: n})
}
