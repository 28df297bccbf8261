package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/holon-actors/holon-actors/bench"
)

// benchTurnsCmd is `holon-actors bench turns`.
type benchTurnsCmd struct {
	benchFlags `embed:""`

	Agents int  `help:"Agents, each sent its prompts by its own goroutine." default:"1000"`
	Turns  int  `help:"Prompts each agent answers, one after another." default:"5"`
	Memory bool `help:"Give the agents homes, so the runtime keeps their memory indexes current as they run (the cost of memory maintenance)."`
	// NoMemoryIndex is the other side of that cost: homes, no index.
	NoMemoryIndex bool `name:"no-memory-index" help:"With --memory, give the agents homes but keep no memory index (the base the cost of indexing is measured against)."`
	MemoryTools   bool `name:"memory-tools" help:"With --memory --no-memory-index, still offer the agents' models the memory tools: all of --memory but the index's upkeep."`
}

// Run measures turns and prints the result.
func (c *benchTurnsCmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.TurnsConfig{Dir: dir, Agents: c.Agents, Turns: c.Turns, Keep: c.Keep, Logger: e.log, Memory: c.Memory, NoMemoryIndex: c.NoMemoryIndex,
			MemoryToolsWithoutIndex: c.MemoryTools}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.Turns(ctx, cfg)
		return r, turnsRows(r), err
	})
}

func turnsRows(r bench.TurnsResult) [][2]string {
	return [][2]string{
		{"workload", fmt.Sprintf("%d agents × %d turns, one echo call per turn, durable journal", r.Agents, r.Turns)},
		{"total turns", fmt.Sprint(r.TotalTurns)},
		{"turns/s", fmt.Sprintf("%.0f", r.TurnsPerSec)},
		{"run", fmt.Sprintf("%.2f s", r.Seconds)},
		{"turn p50", fmt.Sprintf("%.2f ms", r.TurnP50Ms)},
		{"turn p99", fmt.Sprintf("%.2f ms", r.TurnP99Ms)},
		{"turn max", fmt.Sprintf("%.2f ms", r.TurnMaxMs)},
		{"events per turn", fmt.Sprintf("%.1f", r.EventsPerTurn)},
		{"bytes per turn", fmt.Sprintf("%.0f", r.BytesPerTurn)},
		{"turns/s by tenth of the run", decileRow(r.TurnsPerSecByDecile)},
		{"journal bytes per turn by tenth", decileRow(r.BytesPerTurnByDecile)},
		{"RSS by tenth of the first agent's run", mibRow(r.RSSByDecileBytes)},
		{"anonymous RSS by tenth (no mapped journal files)", mibRow(r.RSSAnonByDecileBytes)},
		{"RSS per idle agent", fmt.Sprintf("%.0f B (reopened store: all activated, then passivated)", r.IdleAgentRSSBytes)},
		{"heap per idle agent", fmt.Sprintf("%.0f B", r.IdleAgentHeapBytes)},
		{"RSS per active idle agent", fmt.Sprintf("%.0f B", r.ActiveAgentRSSBytes)},
		{"RSS growth per agent after the run", fmt.Sprintf("%.0f B (store write buffers included)", r.RSSGrowthPerAgentAfterRunBytes)},
	}
}

// mibRow prints byte counts in MiB, one decimal.
func mibRow(v []int64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%.1f", float64(x)/(1<<20))
	}
	return strings.Join(parts, " ") + " MiB"
}

// decileRow prints a by-decile list as whole numbers.
func decileRow(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%.0f", x)
	}
	return strings.Join(parts, " ")
}

// benchRecoveryCmd is `holon-actors bench recovery`.
type benchRecoveryCmd struct {
	benchFlags `embed:""`

	Agents int  `help:"Agents to recover." default:"10000"`
	Events int  `help:"About how many journal events each agent has (whole turns of about 12)." default:"100"`
	Crash  bool `help:"End the populating runtime as a crash would (no snapshots at shutdown), so only an agent without a current stream header replays its journal; default is a graceful shutdown."`
}

// Run measures recovery of a runtime and prints the result.
func (c *benchRecoveryCmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.RecoveryConfig{Dir: dir, Agents: c.Agents, Events: c.Events, Crash: c.Crash, Keep: c.Keep, Logger: e.log}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.Recovery(ctx, cfg)
		return r, [][2]string{
			{"workload", fmt.Sprintf("%d agents × %d turns, %.1f events each, %s", r.Agents, r.TurnsPerAgent, r.EventsPerAgent, shutdownKind(r.Crash))},
			{"recovery", fmt.Sprintf("%.1f ms", r.RecoveryMs)},
			{"open", fmt.Sprintf("%.1f ms", r.OpenMs)},
			{"agents recovered", fmt.Sprint(r.AgentsRecovered)},
			{"agents activated", fmt.Sprint(r.AgentsActivated)},
			{"populate (untimed)", fmt.Sprintf("%.2f s", r.PopulateSeconds)},
		}, err
	})
}

// shutdownKind names how bench recovery ended its populating runtime.
func shutdownKind(crash bool) string {
	if crash {
		return "after a crash"
	}
	return "after a graceful shutdown"
}

// benchAPICmd is `holon-actors bench api`.
type benchAPICmd struct {
	benchFlags `embed:""`

	Clients  int `help:"Concurrent control clients." default:"50"`
	Requests int `help:"Prompts in all." default:"20000"`
	Agents   int `help:"Agents addressed round robin (0: one per client)." default:"0"`
}

// Run measures admission through the control socket and prints the result.
func (c *benchAPICmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.APIConfig{Dir: dir, Clients: c.Clients, Requests: c.Requests, Agents: c.Agents, Keep: c.Keep, Logger: e.log}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.API(ctx, cfg)
		return r, [][2]string{
			{"workload", fmt.Sprintf("%d clients, %d prompts to %d paused agents", r.Clients, r.Requests, r.Agents)},
			{"prompts/s (durable)", fmt.Sprintf("%.0f", r.PromptsPerSec)},
			{"admit p50", fmt.Sprintf("%.2f ms", r.AdmitP50Ms)},
			{"admit p99", fmt.Sprintf("%.2f ms", r.AdmitP99Ms)},
		}, err
	})
}

// benchTransportCmd is `holon-actors bench transport`.
type benchTransportCmd struct {
	Rounds int `help:"Model rounds a side." default:"20000"`
}

// Run measures the provider path and prints the result.
func (c *benchTransportCmd) Run(ctx context.Context, e *env) error {
	cfg := bench.TransportConfig{Rounds: c.Rounds}
	if err := cfg.Validate(); err != nil {
		return usage(err)
	}
	r, err := bench.Transport(ctx, cfg)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, r)
	}
	return printRows(e, [][2]string{
		{"rounds", fmt.Sprint(r.Rounds)},
		{"through the transport", fmt.Sprintf("%.0f µs", r.TransportMeanUS)},
		{"bare net/http", fmt.Sprintf("%.0f µs", r.BareMeanUS)},
		{"overhead ratio", fmt.Sprintf("%.2f", r.TransportOverheadRatio)},
	})
}
