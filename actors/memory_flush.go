package actors

import "context"

// FlushMemory indexes every memory record the runtime's agents made
// durable before it (indexing is otherwise lazy: memoryService). A search
// needs no flush, since it indexes its agent's records first; this is for
// measuring what indexing costs, and for a caller that reads an index
// file directly.
func (r *Runtime) FlushMemory(ctx context.Context) {
	r.wire.memory.flushMemory(ctx)
}

// memoryHome is the HOLON_HOME the memory service keeps indexes under:
// none without agent homes or with o.NoMemoryIndex.
func memoryHome(deps AgentDeps, o RuntimeOptions) string {
	if o.NoMemoryIndex {
		return ""
	}
	return deps.ToolEnv.Home
}
