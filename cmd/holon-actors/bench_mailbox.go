package main

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/bench"
)

// benchMailboxCmd is `holon-actors bench mailbox`.
type benchMailboxCmd struct {
	Messages int `help:"Messages delivered in each run of each workload." default:"1000000"`
	Senders  int `help:"Sending goroutines in the fan-in workload." default:"4"`
	Rounds   int `help:"Runs of each workload on each mailbox; the median is reported." default:"3"`
}

// Run measures both mailboxes and prints the result.
func (c *benchMailboxCmd) Run(ctx context.Context, e *env) error {
	cfg := bench.MailboxConfig{Messages: c.Messages, Senders: c.Senders, Rounds: c.Rounds, Logger: e.log}
	if err := cfg.Validate(); err != nil {
		return usage(err)
	}
	r, err := bench.Mailbox(ctx, cfg)
	if err != nil {
		return err
	}
	return printResult(e, r, [][2]string{
		{"workload", fmt.Sprintf("%d messages per run, %d fan-in senders, median of %d", r.Messages, r.Senders, r.Rounds)},
		{"band ping-pong msgs/s", fmt.Sprintf("%.0f", r.BandPingpongMsgsPerSec)},
		{"default ping-pong msgs/s", fmt.Sprintf("%.0f", r.DefaultPingpongMsgsPerSec)},
		{"band fan-in msgs/s", fmt.Sprintf("%.0f", r.BandFaninMsgsPerSec)},
		{"default fan-in msgs/s", fmt.Sprintf("%.0f", r.DefaultFaninMsgsPerSec)},
	})
}
