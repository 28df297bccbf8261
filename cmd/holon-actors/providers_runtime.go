package main

import (
	"context"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/providers/catalog"
)

// modelChain is the model and fallbacks the runtime runs with (none
// when the configuration cannot be read: the start reports that).
func (c *runCmd) modelChain(home string) []string {
	cfg, err := c.modelConfig(home)
	if err != nil || cfg.Model == "" {
		return nil
	}
	return append([]string{cfg.Model}, cfg.Fallback...)
}

// runningModels returns the status of the runtime of e.Home when one
// answers within a second and reports its models.
func runningModels(ctx context.Context, e *env) (control.RuntimeStatus, bool) {
	c, err := dial(e)
	if err != nil {
		return control.RuntimeStatus{}, false
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	st, err := c.RuntimeStatus(ctx)
	return st, err == nil && len(st.Models) > 0
}

// useRunning replaces cfg's models with the running runtime's, unless
// the command line names models to check; it returns the runtime's pid
// (0 when its models are not used).
func (c *providersDoctorCmd) useRunning(ctx context.Context, e *env, cfg *catalog.Config) int {
	if c.Model != "" || len(c.Fallback) > 0 {
		return 0
	}
	st, ok := runningModels(ctx, e)
	if !ok {
		return 0
	}
	cfg.Model, cfg.Fallback = st.Models[0], st.Models[1:]
	return st.PID
}
