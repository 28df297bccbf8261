package actors

import (
	"context"
	"fmt"
)

// FlushMemory indexes every memory record the runtime's agents made
// durable before it (indexing is otherwise lazy: memoryService). A search
// needs no flush, since it indexes its agent's records first; this is for
// measuring what indexing costs, and for a caller that reads an index
// file directly.
func (r *Runtime) FlushMemory(ctx context.Context) {
	r.wire.memory.flushMemory(ctx)
}

// runtimeMemory is the memory service of a runtime over deps: it keeps
// indexes under the agents' HOLON_HOME; none without agent homes or with
// o.NoMemoryIndex, when o.MemoryToolsWithoutIndex keeps only the offer of
// the memory tools.
func runtimeMemory(deps AgentDeps, o RuntimeOptions) *memoryService {
	switch {
	case !o.NoMemoryIndex:
		return newMemoryService(deps.ToolEnv.Home, deps.Store)
	case o.MemoryToolsWithoutIndex && deps.ToolEnv.Home != "":
		s := newMemoryService(deps.ToolEnv.Home, deps.Store)
		s.offerOnly = true
		return s
	}
	return newMemoryService("", deps.Store)
}

// errNoIndex is the memory tools' error in a runtime that offers them
// but keeps no index (RuntimeOptions.MemoryToolsWithoutIndex).
var errNoIndex = fmt.Errorf("%w: this runtime keeps no memory index (it runs without one to measure what one costs)", ErrMemoryUnavailable)
