package main

import (
	"context"
	"fmt"
	"os"

	"github.com/holon-actors/holon-actors/bench"
)

// benchClusterCmd is `holon-actors bench cluster`.
type benchClusterCmd struct {
	benchFlags `embed:""`

	Agents    int `help:"Agents of the turn workload, driven through the three nodes round robin." default:"30"`
	Turns     int `help:"Turns of each agent." default:"20"`
	Kills     int `help:"Times the owner of an agent is killed (SIGKILL) and failover timed." default:"5"`
	PGStreams int `name:"pg-streams" help:"Streams of the PostgreSQL journal workload (bench pg)." default:"100"`
	PGEvents  int `name:"pg-events" help:"Single-event appends to each of those streams." default:"200"`
}

// Run measures three nodes and PostgreSQL on loopback and prints the
// result.
func (c *benchClusterCmd) Run(ctx context.Context, e *env) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this binary to run the nodes: %w", err)
	}
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.ClusterConfig{Dir: dir, Binary: self, Agents: c.Agents, Turns: c.Turns, Kills: c.Kills,
			PGStreams: c.PGStreams, PGEvents: c.PGEvents}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.Cluster(ctx, cfg)
		return r, [][2]string{
			{"workload", fmt.Sprintf("%d nodes + PostgreSQL on loopback; %d agents × %d turns; %d kills", r.Nodes, r.Agents, r.Turns, r.Kills)},
			{"failover (worst / p50)", fmt.Sprintf("%.0f / %.0f ms (target <= 2000); runs %.0f", r.FailoverMs, r.FailoverP50Ms, r.FailoverRunsMs)},
			{"pg durable events/s", fmt.Sprintf("%.0f (target >= 10000)", r.PGDurableEventsPerSec)},
			{"cluster turns/s", fmt.Sprintf("%.0f (one node over Badger: %.0f)", r.ClusterTurnsPerSec, r.SingleNodeBadgerTurnsPerSec)},
			{"acknowledged prompts lost", fmt.Sprintf("%d of %d (must be 0)", r.LostAcked, r.Acked)},
		}, err
	})
}
