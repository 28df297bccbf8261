package actors

import (
	"testing"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/persistence"
)

// TestEnvAllocatesNothing: a decision's Env carries the agent's method
// values made once, not new closures each time it is taken.
func TestEnvAllocatesNothing(t *testing.T) {
	deps := AgentDeps{Store: persistence.NewMemStore(), Log: zerolog.Nop()}.withDefaults()
	a := &agent{id: "a", deps: deps, state: &agentstate.State{ID: "a"}}
	env := a.env()
	if env.Plans == nil || env.Tools == nil || env.Approval == nil {
		t.Fatalf("env() = %+v, want its Plans, Tools and Approval set", env)
	}
	if raceOn {
		return // the race detector changes what allocates
	}
	if n := testing.AllocsPerRun(100, func() { _ = a.env() }); n != 0 {
		t.Errorf("env() allocates %v times, want 0", n)
	}
}
