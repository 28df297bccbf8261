package agentstate

import (
	"github.com/holon-actors/holon-actors/messages"
)

// NotificationView is an operator notification with where its external
// delivery stands (nil when no webhook is configured).
type NotificationView struct {
	messages.OperatorNotification
	Delivery *NotificationDelivery `json:"delivery,omitempty"`
}

// NotificationDelivery is the latest delivery record of a notification.
type NotificationDelivery struct {
	Status     messages.DeliveryStatus `json:"status"`
	Attempts   int                     `json:"attempts"`
	HTTPStatus int                     `json:"http_status,omitempty"`
	Error      string                  `json:"error,omitempty"`
	UpdatedAt  string                  `json:"updated_at"`
}
