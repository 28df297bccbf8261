package bench

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/tools"
)

// TurnsHomesDir is the sub-directory of TurnsConfig.Dir that holds the
// agents' homes (and so their memory indexes) of a Memory run.
const TurnsHomesDir = "turns-homes"

// turnsRuntime is the bench runtime of cfg: with agent homes, so memory
// is indexed, when cfg.Memory.
func turnsRuntime(st persistence.Store, cfg TurnsConfig) (*actors.Runtime, error) {
	if !cfg.Memory {
		return newBenchRuntime(st, cfg.Logger)
	}
	home := filepath.Join(cfg.Dir, TurnsHomesDir)
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("agent homes: %w", err)
	}
	reg, err := tools.NewRegistry(benchEcho{})
	if err != nil {
		return nil, err
	}
	deps := actors.AgentDeps{Store: st, Provider: benchProvider{}, Tools: reg, Log: zerolog.Nop(),
		SystemPrompt: "You are a benchmark agent. Use the echo tool once, then answer.", ToolEnv: actors.ToolEnv{Home: home}}
	rt, err := actors.NewRuntime(deps, actors.RuntimeOptions{Logger: cfg.Logger})
	if err != nil {
		return nil, fmt.Errorf("start runtime: %w", err)
	}
	return rt, nil
}
