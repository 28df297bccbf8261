package telemetry

import (
	"sync"
	"time"
)

// turnPool keeps the records of ended turns for turns yet to start: with
// its tool call map, a traced turn's record is two allocations, made
// again at every turn otherwise.
var turnPool = sync.Pool{New: func() any { return new(turnTrace) }}

// newTurnTrace is the record of turn id (of message messageID) started at
// start, from the pool.
func newTurnTrace(id, messageID string, start time.Time) *turnTrace {
	tt := turnPool.Get().(*turnTrace)
	tt.id, tt.messageID, tt.start = id, messageID, start
	return tt
}

// release empties tt and puts it back in the pool once its turn has
// ended and no one holds it: its owner (the agent's observation) drops it
// and it has left Telemetry.turns.
func (tt *turnTrace) release() {
	calls := tt.calls
	clear(calls)
	*tt = turnTrace{calls: calls}
	turnPool.Put(tt)
}
