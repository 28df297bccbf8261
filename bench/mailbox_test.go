package bench_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

func TestMailbox(t *testing.T) {
	tests := []struct {
		name string
		cfg  bench.MailboxConfig
	}{
		{"one round", bench.MailboxConfig{Messages: 2000, Senders: 3, Rounds: 1}},
		{"even rounds", bench.MailboxConfig{Messages: 1000, Senders: 4, Rounds: 2}},
		{"one message", bench.MailboxConfig{Messages: 1, Senders: 2, Rounds: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := bench.Mailbox(context.Background(), tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%+v", r)
			if r.Messages != tt.cfg.Messages || r.Senders != tt.cfg.Senders || r.Rounds != tt.cfg.Rounds {
				t.Errorf("config echoed as %d messages, %d senders, %d rounds; want %+v", r.Messages, r.Senders, r.Rounds, tt.cfg)
			}
			rates := map[string]float64{
				"band_pingpong": r.BandPingpongMsgsPerSec, "default_pingpong": r.DefaultPingpongMsgsPerSec,
				"band_fanin": r.BandFaninMsgsPerSec, "default_fanin": r.DefaultFaninMsgsPerSec,
			}
			for name, v := range rates {
				if v <= 0 {
					t.Errorf("%s = %v msgs/s, want > 0", name, v)
				}
			}
		})
	}
}

func TestMailboxResultJSON(t *testing.T) {
	b, err := json.Marshal(bench.MailboxResult{})
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]any
	if err := json.Unmarshal(b, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"messages", "senders", "rounds", "band_pingpong_msgs_per_sec",
		"default_pingpong_msgs_per_sec", "band_fanin_msgs_per_sec", "default_fanin_msgs_per_sec"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("MailboxResult JSON %s has no key %q", b, k)
		}
	}
}

func TestMailboxConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*bench.MailboxConfig)
		ok   bool
	}{
		{"default", func(*bench.MailboxConfig) {}, true},
		{"no messages", func(c *bench.MailboxConfig) { c.Messages = 0 }, false},
		{"no senders", func(c *bench.MailboxConfig) { c.Senders = 0 }, false},
		{"no rounds", func(c *bench.MailboxConfig) { c.Rounds = 0 }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := bench.DefaultMailboxConfig()
			tt.edit(&cfg)
			if err := cfg.Validate(); (err == nil) != tt.ok {
				t.Errorf("Validate() = %v, want ok %v", err, tt.ok)
			}
		})
	}
}

func TestMailboxCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := bench.Mailbox(ctx, bench.MailboxConfig{Messages: 1_000_000, Senders: 2, Rounds: 1})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Mailbox with a cancelled context = %v, want context.Canceled", err)
	}
}
