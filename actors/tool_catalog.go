package actors

import (
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/tools"
)

// ToolCatalog lists every tool an agent of this runtime can be offered, in
// the order and the form a model request carries them: Sleep, the
// runtime-owned tools (NotifyOperator included, though a profile may leave
// it out; the memory tools, offered only when the runtime gives agents
// homes), then registry's tools but those a runtime-owned tool of the
// same name replaces.
func ToolCatalog(registry *tools.Registry) []tools.Spec {
	d := AgentDeps{NotifyOperatorTool: true, Tools: registry}.withDefaults()
	var out []tools.Spec
	for _, t := range runtimetools.Tools(d.NotifyOperatorTool) { // Sleep first
		out = append(out, t.Spec())
	}
	for _, s := range d.Tools.Specs() {
		if !runtimetools.Is(s.Name) {
			out = append(out, s)
		}
	}
	return out
}
