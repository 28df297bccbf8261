package mailbox

import (
	"sync/atomic"

	"github.com/holon-actors/holon-actors/messages"
)

// queued counts the user messages waiting in every band mailbox of the
// process, by band (Priority.Rank). A mailbox counts a message when it is
// queued and uncounts it when it is taken, to run or, after its actor
// stopped, to be dropped; so the count is what waits now.
var queued [numBands]atomic.Int64

// bands are the bands' priorities, whose names label Queued.
var bands = [numBands]messages.Priority{
	messages.PriorityInterject, messages.PriorityNext, messages.PriorityNormal, messages.PriorityBackground,
}

// Queued returns the user messages waiting in the process's band
// mailboxes now, by band ("interject", "next", "normal", "background").
// It is cheap: four atomic loads.
func Queued() map[string]int {
	out := make(map[string]int, numBands)
	for _, p := range bands {
		out[string(p)] = int(queued[p.Rank()].Load())
	}
	return out
}
