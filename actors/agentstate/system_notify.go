package agentstate

import (
	"github.com/holon-actors/holon-actors/messages"
)

// IsCarrierStart reports a message_processing_started that carries
// notifications to the model: a splice into a running turn, or a turn
// whose message the model sees.
func IsCarrierStart(p messages.MessageProcessingStarted) bool {
	return p.Continuation == nil || p.Continuation.ModelVisible
}
