package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"text/tabwriter"
	"time"

	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers"
)

// providersCmd groups the provider commands.
type providersCmd struct {
	Doctor providersDoctorCmd `cmd:"" help:"Show the configured models, whether their credentials are present (never the values), the retry policy, and optionally probe reachability."`
}

// providersDoctorCmd is `holon-actors providers doctor`.
type providersDoctorCmd struct {
	runCmd `embed:""`
	Probe  bool `help:"Send one unauthenticated GET to each model's base URL and report reachability."`
}

// Run prints the doctor report.
func (c *providersDoctorCmd) Run(ctx context.Context, e *env) error {
	home, err := persistence.ResolveHome(e.Home)
	if err != nil {
		return err
	}
	cfg, err := c.modelConfig(home)
	if err != nil {
		return err
	}
	pid := c.useRunning(ctx, e, &cfg)
	if pid > 0 && !e.JSON {
		fmt.Fprintf(e.stdout, "the running runtime (pid %d) uses these models; credentials are checked in this shell's environment\n", pid)
	}
	if cfg.Model == "" || cfg.Model == "scripted" {
		fmt.Fprintf(e.stdout, "model: %s (no provider transport to check)\n", orNone(cfg.Model))
		return nil
	}
	eps, problems := cfg.Inspect(os.Getenv)
	opts := providers.DoctorOptions{Policy: providers.DefaultRetryPolicy(), Breaker: providers.DefaultBreakerConfig()}
	if c.Probe {
		opts.Probe = &http.Client{Timeout: 10 * time.Second}
	}
	report := providers.Doctor(ctx, eps, opts)
	var cfgErr error
	for i, p := range problems {
		if p != nil && i < len(report.Candidates) {
			report.Candidates[i].Problem = p.Error()
			cfgErr = p
		}
	}
	if e.JSON {
		if err := printJSON(e, struct {
			providers.DoctorReport
			RuntimePID int `json:"runtime_pid,omitempty"` // the running runtime whose models these are
		}{report, pid}); err != nil {
			return err
		}
	} else if err := printDoctor(e, report); err != nil {
		return err
	}
	if cfgErr != nil {
		return fmt.Errorf("the model configuration has a problem: %w", cfgErr)
	}
	return nil
}

func printDoctor(e *env, r providers.DoctorReport) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tTRANSPORT\tBASE URL\tCREDENTIAL\tREACHABLE")
	for _, c := range r.Candidates {
		cred := "missing"
		if c.CredentialPresent {
			cred = "present"
		}
		reach := "(not probed)"
		if c.Probe != nil {
			reach = fmt.Sprintf("%t", c.Probe.Reachable)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.ModelRef, c.Transport, c.BaseURL, cred, reach)
	}
	for _, c := range r.Candidates {
		if c.Problem != "" {
			fmt.Fprintf(tw, "problem with %s: %s\n", c.ModelRef, c.Problem)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	p := r.RetryPolicy
	fmt.Fprintf(e.stdout, "\nretries per request: %d; fallback to the next model on fail-fast errors or exhausted retries\n", p.MaxRetries)
	return nil
}
