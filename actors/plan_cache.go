package actors

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/agentstate"
)

// planCache is what an agent knows of its work items' plan files. Receive
// never reads a plan file: the prompt takes its plan previews from here
// (Env.Plans), and a goroutine reads the files the prompt asks for before
// each model step and posts them back (plansRead).
type planCache struct {
	// arts are the artifacts last read, by work item id (nil: no file).
	arts map[string]*PlanArtifact
	// asked are the ids the last decision asked Env.Plans for.
	asked map[string]bool
	// fresh are the ids read since the last model step started.
	fresh map[string]bool
	// reading is set while a read of generation gen is under way.
	reading bool
	gen     uint64
}

// plansRead carries the plan artifacts a read goroutine found back to the
// agent.
type plansRead struct {
	gen  uint64
	arts map[string]*PlanArtifact
}

// cachedPlan is the agent's Env.Plans: the cached artifact of itemID,
// noting that a decision asked for it.
func (a *agent) cachedPlan(itemID string) *PlanArtifact {
	if a.plans.asked == nil {
		a.plans.asked = map[string]bool{}
	}
	a.plans.asked[itemID] = true
	return a.plans.arts[itemID]
}

// refreshPlans starts reading the plan files the model request just built
// asked for, unless they were all read since the last model step; true
// when it did, and the agent then waits for plansRead before it builds
// the request again.
func (a *agent) refreshPlans(c actor.Context) bool {
	paths := map[string]string{}
	for id := range a.plans.asked {
		if a.plans.fresh[id] {
			continue
		}
		path, err := a.deps.ToolEnv.planPath(a.id, id)
		if err != nil {
			path = ""
		}
		paths[id] = path
	}
	if len(paths) == 0 {
		return false
	}
	a.plans.gen++
	a.plans.reading = true
	gen, self, root := a.plans.gen, c.Self(), c.ActorSystem().Root
	go func() {
		arts := make(map[string]*PlanArtifact, len(paths))
		for id, path := range paths {
			arts[id] = readPlanArtifact(path)
		}
		root.Send(self, &plansRead{gen: gen, arts: arts})
	}()
	return true
}

// plansReadBack stores a read's artifacts as fresh; false for a stale
// read.
func (a *agent) plansReadBack(m *plansRead) bool {
	if m.gen != a.plans.gen || !a.plans.reading {
		return false
	}
	a.plans.reading = false
	if a.plans.arts == nil {
		a.plans.arts = map[string]*PlanArtifact{}
	}
	if a.plans.fresh == nil {
		a.plans.fresh = map[string]bool{}
	}
	for id, art := range m.arts {
		a.plans.arts[id] = art
		a.plans.fresh[id] = true
	}
	return true
}

// planEnv is env with the plan previews of the cache, noting which ones
// the decision asks for.
func (a *agent) planEnv() agentstate.Env {
	a.plans.asked = nil
	return a.env()
}
