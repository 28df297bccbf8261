package actors

import (
	"context"
	"errors"

	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// errNoAgentHome is why a plan is not stored when the runtime has no
// HOLON_HOME.
var errNoAgentHome = errors.New("this runtime has no agent home")

// decided turns agent id's pure tool decision d into what runRuntimeTool
// returns: its result and batch at once, or, when the result waits for
// plan-file I/O (d.Plan), the rest of the decision for a step goroutine:
// the plan seeded, then read, then the result built. The batch is
// journaled after it, so a seeded plan is on disk before its work item is
// durable. Nothing of the agent is touched off the actor.
func (e ToolEnv) decided(id string, d runtimetools.Decision) (tools.Result, []messages.Payload, slowDecision) {
	if d.Plan == nil {
		return d.Result, d.Batch, nil
	}
	p := *d.Plan
	return tools.Result{}, nil, func(context.Context) (tools.Result, []messages.Payload) {
		path, pathErr := e.planPath(id, p.ItemID)
		var seedErr error
		if p.Seed != nil {
			seedErr = pathErr
			if seedErr == nil && path == "" {
				seedErr = errNoAgentHome
			}
			if seedErr == nil {
				seedErr = writePlan(path, *p.Seed)
			}
		}
		var art *PlanArtifact
		if pathErr == nil {
			art = readPlanArtifact(path)
		}
		return p.Finish(art, seedErr), d.Batch
	}
}
