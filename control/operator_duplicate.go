package control

import (
	"context"
	"net/http"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// checkDuplicate refuses a duplicate admission of c's prompt when the
// message admitted first with its id (at seq) came from another sender. A
// message_id makes one sender's retries idempotent; another operator
// reusing it would otherwise be told its prompt was admitted while the
// first sender's was. The refusal does not say who the other sender is.
// When the first admission can no longer be read, the duplicate stands.
func (o Operator) checkDuplicate(ctx context.Context, c Caller, agentID, messageID string, seq uint64) *Error {
	return duplicateOf(ctx, o.Store, c.operator(), agentID, messageID, seq)
}

// duplicateOf is checkDuplicate for the operator recorded as actor (the
// control API's prompts record "control").
func duplicateOf(ctx context.Context, store persistence.Store, actor, agentID, messageID string, seq uint64) *Error {
	evs, err := store.ReadPage(ctx, agentID, seq, seq, 1, 0)
	if err != nil {
		return runtimeError(err)
	}
	if len(evs) != 1 || evs[0].Type != messages.EventMessageAdmitted {
		return nil
	}
	p, err := evs[0].Decode()
	if err != nil {
		return runtimeError(err)
	}
	first, ok := p.(messages.MessageAdmitted)
	if !ok || first.Envelope.ID != messageID {
		return nil
	}
	if o := first.Envelope.Origin; o.Kind == messages.OriginOperator && o.ActorID == actor {
		return nil
	}
	return errorf(http.StatusConflict, KindConflict, "send your prompt with another message_id (or none, and one is made)",
		"message_id %q was admitted before from another sender", messageID)
}
