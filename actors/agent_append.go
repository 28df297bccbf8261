package actors

import (
	"context"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// appendAfter writes evs to the agent's journal after seq after: deferred
// (persistence.DeferredAppender: answered once written, synced by the
// store's next sync) when the store can and the batch only records the
// start of a message's processing or a model round; durable otherwise.
//
// Those batches acknowledge nothing and start nothing that cannot be
// repeated. What follows one is a model call, or a batch that is not
// deferred (a tool's tool_call_started, the turn's terminal, a retry, a
// notification), whose sync makes the deferred one durable before the
// tool runs or anyone hears of it: the store keeps order. So a crash of
// the process finds the same step boundaries as before (the write is in
// the engine's log, which the kernel keeps), and a power loss before the
// next sync can only cost the model round in flight again, as a crash
// during the model call always could. Each such batch saves a turn one
// sync of the journal (with the one-tool turn's two, a turn of one agent
// takes five syncs where it took seven).
func (a *agent) appendAfter(after uint64, evs []messages.Event) (uint64, error) {
	if d, ok := a.deps.Store.(persistence.DeferredAppender); ok && deferrable(evs) {
		return d.AppendDeferred(context.Background(), a.id, after, evs)
	}
	return a.deps.Store.AppendAfter(context.Background(), a.id, after, evs)
}

// deferrable reports whether evs only record the start of a message's
// processing or a model round (with the status change beside it).
func deferrable(evs []messages.Event) bool {
	step := false
	for _, ev := range evs {
		switch ev.Type {
		case messages.EventMessageProcessingStarted, messages.EventProviderRoundCompleted, messages.EventAssistantRoundRecorded:
			step = true
		case messages.EventAgentStateChanged:
		default:
			return false
		}
	}
	return step
}
