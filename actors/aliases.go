package actors

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/mailbox"
)

// Names that moved out of actors, kept for one release (STYLE §8).

// BandMailbox returns mailbox.Banded(sig, mw...).
//
// Deprecated: use mailbox.Banded.
func BandMailbox(sig *mailbox.Signal, mw ...actor.MailboxMiddleware) actor.MailboxProducer {
	return mailbox.Banded(sig, mw...)
}
