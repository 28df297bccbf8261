package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

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
	rt, err := actors.NewRuntime(deps, actors.RuntimeOptions{Logger: cfg.Logger, NoMemoryIndex: cfg.NoMemoryIndex,
		MemoryToolsWithoutIndex: cfg.MemoryToolsWithoutIndex})
	if err != nil {
		return nil, fmt.Errorf("start runtime: %w", err)
	}
	return rt, nil
}

// flushMemory indexes, with cfg.Memory, the records the run left pending
// (the runtime indexes lazily, in batches) and sets
// res.MemoryFlushSeconds and res.MemoryFlushCPUSeconds.
func flushMemory(ctx context.Context, rt *actors.Runtime, cfg TurnsConfig, res *TurnsResult) {
	if !cfg.Memory {
		return
	}
	cpu0, cpuErr := processCPU(os.Getpid())
	t := time.Now()
	rt.FlushMemory(ctx)
	res.MemoryFlushSeconds = time.Since(t).Seconds()
	if cpu1, err := processCPU(os.Getpid()); cpuErr == nil && err == nil {
		res.MemoryFlushCPUSeconds = (cpu1 - cpu0).Seconds()
	}
}
