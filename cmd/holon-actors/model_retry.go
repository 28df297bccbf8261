package main

import (
	"context"
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
)

// agentsRetryCmd is `agents retry`: run a waiting model retry now, or
// cancel it.
type agentsRetryCmd struct {
	ID     string `arg:"" optional:"" help:"Agent id (default: --agent, else the default agent)."`
	Cancel bool   `help:"Give the retry up instead: the turn fails with the last model failure."`
}

// Run retries or cancels, then prints what the agent does now.
func (a *agentsRetryCmd) Run(ctx context.Context, e *env) error {
	c, id, err := agentSession(ctx, e, a.ID)
	if err != nil {
		return err
	}
	defer c.Close()
	in, err := c.RetryModel(ctx, id, a.Cancel)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, in)
	}
	what := "retrying the model call now"
	if a.Cancel {
		what = "retry cancelled; the turn failed"
	}
	fmt.Fprintf(e.stdout, "%s: %s (%s)\n", in.ID, what, in.Status)
	return nil
}

// describeModelRetry is a pending model retry in a line: "retrying at …,
// attempt n".
func describeModelRetry(r *agentstate.ModelRetryInfo) string {
	return fmt.Sprintf("retrying at %s, attempt %d (%s since %s)", r.DueAt.Local().Format(time.DateTime), r.Attempt,
		r.FailureCode, r.FirstFailedAt.Local().Format(time.DateTime))
}

// modelRetry maps the model retry flags onto the agents' config; delays
// that cannot work are a usage error.
func (c *runCmd) modelRetry() (actors.ModelRetry, error) {
	r := actors.ModelRetry{Horizon: c.RetryHorizon, BaseDelay: c.RetryBase, MaxDelay: c.RetryMax}
	if err := r.Validate(); err != nil {
		return actors.ModelRetry{}, usage(fmt.Errorf("--model-retry-horizon %v, --model-retry-base %v, --model-retry-max %v: %w",
			c.RetryHorizon, c.RetryBase, c.RetryMax, err))
	}
	return r, nil
}
