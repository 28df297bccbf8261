package main

import (
	"context"
	"fmt"
	"os"

	"github.com/holon-actors/holon-actors/bench"
)

// benchRemoteCmd is `holon-actors bench remote`.
type benchRemoteCmd struct {
	benchFlags `embed:""`

	Clients  int `help:"Concurrent callers on each surface." default:"50"`
	Requests int `help:"Prompts on each surface." default:"10000"`
	Agents   int `help:"Agents each surface addresses round robin (0: one per client)." default:"0"`
}

// Run measures admission over the cluster protocol and over the control
// socket of the same node, and prints the result.
func (c *benchRemoteCmd) Run(ctx context.Context, e *env) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this binary to run the node: %w", err)
	}
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.RemoteConfig{Dir: dir, Binary: self, Clients: c.Clients, Requests: c.Requests, Agents: c.Agents}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.Remote(ctx, cfg)
		return r, [][2]string{
			{"workload", fmt.Sprintf("%d clients, %d prompts on each surface to %d paused agents", r.Clients, r.Requests, r.Agents)},
			{"remote prompts/s (durable, mTLS)", fmt.Sprintf("%.0f", r.RemotePromptsPerSec)},
			{"remote admit p50 / p99", fmt.Sprintf("%.2f / %.2f ms", r.RemoteAdmitP50Ms, r.RemoteAdmitP99Ms)},
			{"http prompts/s (durable, socket)", fmt.Sprintf("%.0f", r.HTTPPromptsPerSec)},
			{"http admit p50 / p99", fmt.Sprintf("%.2f / %.2f ms", r.HTTPAdmitP50Ms, r.HTTPAdmitP99Ms)},
			{"remote / http p50", fmt.Sprintf("%.2f", r.RemoteOverHTTPRatio)},
		}, err
	})
}
