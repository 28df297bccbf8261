package bench

import (
	"fmt"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/tools"
)

// newBenchRuntimeOpts is newBenchRuntime with runtime options of its own.
func newBenchRuntimeOpts(st persistence.Store, o actors.RuntimeOptions) (*actors.Runtime, error) {
	reg, err := tools.NewRegistry(benchEcho{})
	if err != nil {
		return nil, err
	}
	deps := actors.AgentDeps{Store: st, Provider: benchProvider{}, Tools: reg, Log: zerolog.Nop(),
		SystemPrompt: "You are a benchmark agent. Use the echo tool once, then answer."}
	return startBenchRuntime(deps, o)
}

func startBenchRuntime(deps actors.AgentDeps, o actors.RuntimeOptions) (*actors.Runtime, error) {
	rt, err := actors.NewRuntime(deps, o)
	if err != nil {
		return nil, fmt.Errorf("start runtime: %w", err)
	}
	return rt, nil
}
