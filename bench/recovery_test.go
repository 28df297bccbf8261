package bench_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

func TestRecovery(t *testing.T) {
	dir := t.TempDir()
	cfg := bench.DefaultRecoveryConfig(dir)
	cfg.Agents, cfg.Events, cfg.Keep = 30, 30, true
	r, err := bench.Recovery(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", r)
	if r.Agents != 30 || r.AgentsRecovered != 30 || r.AgentsActivated != 0 {
		t.Errorf("recovered %d of %d agents, %d activated; want 30 of 30, none activated (graceful shutdown)",
			r.AgentsRecovered, r.Agents, r.AgentsActivated)
	}
	// 30 events: 2 at creation, then 2 turns of about 12.
	if r.TurnsPerAgent != 2 || r.EventsPerAgent < 20 || r.EventsPerAgent > 40 {
		t.Errorf("turns_per_agent %d, events_per_agent %v; want 2 turns and 20 to 40 events", r.TurnsPerAgent, r.EventsPerAgent)
	}
	if r.OpenMs <= 0 || r.RecoveryMs < r.OpenMs || r.PopulateSeconds <= 0 {
		t.Errorf("open_ms %v, recovery_ms %v, populate_seconds %v: want 0 < open <= recovery, populate > 0",
			r.OpenMs, r.RecoveryMs, r.PopulateSeconds)
	}
	if _, err := os.Stat(filepath.Join(dir, bench.RecoveryDir)); err != nil {
		t.Errorf("Keep: %v", err)
	}
	// The kept store is not empty, so a second run into it must refuse.
	if _, err := bench.Recovery(context.Background(), cfg); err == nil {
		t.Error("second Recovery into the kept store = nil error, want one")
	}
}

// TestRecoveryAfterCrash: without a graceful shutdown no snapshot is
// current, yet every agent had settled and published its stream header, so
// none is activated; each still answers at its journal's last event.
func TestRecoveryAfterCrash(t *testing.T) {
	cfg := bench.DefaultRecoveryConfig(t.TempDir())
	cfg.Agents, cfg.Events, cfg.Crash = 8, 40, true
	r, err := bench.Recovery(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Crash || r.AgentsRecovered != 8 || r.AgentsActivated != 0 || r.TurnsPerAgent != 3 {
		t.Errorf("Recovery = %+v, want crash, 8 agents recovered, none activated, 3 turns each", r)
	}
}

func TestRecoveryResultJSON(t *testing.T) {
	wantKeys(t, bench.RecoveryResult{}, "agents", "crash", "agents_activated", "events_per_agent", "recovery_ms", "open_ms", "populate_seconds")
}

func TestRecoveryConfigValidate(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*bench.RecoveryConfig)
		wantErr bool
	}{
		{"default", func(*bench.RecoveryConfig) {}, false},
		{"one event", func(c *bench.RecoveryConfig) { c.Events = 1 }, false},
		{"no dir", func(c *bench.RecoveryConfig) { c.Dir = "" }, true},
		{"zero agents", func(c *bench.RecoveryConfig) { c.Agents = 0 }, true},
		{"negative events", func(c *bench.RecoveryConfig) { c.Events = -1 }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := bench.DefaultRecoveryConfig("d")
			tt.mutate(&c)
			if err := c.Validate(); (err != nil) != tt.wantErr {
				t.Errorf("Validate() = %v, want error %t", err, tt.wantErr)
			}
		})
	}
}
