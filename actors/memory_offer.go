package actors

import "github.com/holon-actors/holon-actors/actors/runtimetools"

// offered reports whether the agent's model is offered the runtime-owned
// tool name: the memory tools only when the runtime gives agents homes,
// since without one there is no index for them to search.
func (a *agent) offered(name string) bool {
	switch name {
	case runtimetools.MemorySearchToolName, runtimetools.MemoryGetToolName:
		return a.wire.memory.enabled()
	}
	return true
}
