package bench_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

func TestTurns(t *testing.T) {
	dir := t.TempDir()
	cfg := bench.DefaultTurnsConfig(dir)
	cfg.Agents, cfg.Turns, cfg.Keep = 20, 3, true
	r, err := bench.Turns(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", r)
	if r.Agents != 20 || r.Turns != 3 || r.TotalTurns != 60 {
		t.Errorf("Turns counted %d agents × %d turns = %d, want 20 × 3 = 60", r.Agents, r.Turns, r.TotalTurns)
	}
	if r.TurnsPerSec <= 0 || r.Seconds <= 0 || r.BytesPerTurn <= 0 {
		t.Errorf("turns_per_sec %v, seconds %v, bytes_per_turn %v: want all > 0", r.TurnsPerSec, r.Seconds, r.BytesPerTurn)
	}
	if r.TurnP50Ms <= 0 || r.TurnP50Ms > r.TurnP99Ms || r.TurnP99Ms > r.TurnMaxMs {
		t.Errorf("latencies p50 %v, p99 %v, max %v: want 0 < p50 <= p99 <= max", r.TurnP50Ms, r.TurnP99Ms, r.TurnMaxMs)
	}
	if r.EventsPerTurn < 8 || r.EventsPerTurn > 20 {
		t.Errorf("events_per_turn = %v, want between 8 and 20", r.EventsPerTurn)
	}
	if r.RSSBeforeRunBytes <= 0 || r.RSSAfterRunBytes <= 0 || r.RSSReopenedBytes <= 0 || r.RSSAllActiveBytes <= 0 || r.RSSPassivatedBytes <= 0 {
		t.Errorf("rss before run %d, after run %d, reopened %d, all active %d, passivated %d: want all > 0",
			r.RSSBeforeRunBytes, r.RSSAfterRunBytes, r.RSSReopenedBytes, r.RSSAllActiveBytes, r.RSSPassivatedBytes)
	}
	if _, err := os.Stat(filepath.Join(dir, bench.TurnsDir)); err != nil {
		t.Errorf("Keep: %v", err)
	}
}

func TestTurnsRemovesStore(t *testing.T) {
	dir := t.TempDir()
	cfg := bench.DefaultTurnsConfig(dir)
	cfg.Agents, cfg.Turns = 2, 1
	if _, err := bench.Turns(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%s holds %d entries after the run without Keep, want 0", dir, len(entries))
	}
}

func TestTurnsResultJSON(t *testing.T) {
	wantKeys(t, bench.TurnsResult{}, "agents", "turns", "total_turns", "turns_per_sec", "turn_p50_ms",
		"turn_p99_ms", "events_per_turn", "bytes_per_turn", "idle_agent_rss_bytes", "seconds",
		"active_agent_rss_bytes", "rss_growth_per_agent_after_run_bytes", "turns_per_sec_by_decile", "bytes_per_turn_by_decile", "rss_by_decile_bytes", "rss_anon_by_decile_bytes")
}

// TestTurnsByDecile: a run of ten turns an agent reports each tenth (one
// turn each): a rate and the bytes of a turn, about the same in every
// tenth but the first, which holds the agents' creation too.
func TestTurnsByDecile(t *testing.T) {
	cfg := bench.DefaultTurnsConfig(t.TempDir())
	cfg.Agents, cfg.Turns = 2, 10
	r, err := bench.Turns(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.TurnsPerSecByDecile) != 10 || len(r.BytesPerTurnByDecile) != 10 || len(r.RSSByDecileBytes) != 10 {
		t.Fatalf("by decile: %v turns/s, %v bytes/turn, %v bytes resident; want 10 of each",
			r.TurnsPerSecByDecile, r.BytesPerTurnByDecile, r.RSSByDecileBytes)
	}
	if len(r.RSSAnonByDecileBytes) != 10 {
		t.Fatalf("by decile: %v anonymous bytes resident; want 10", r.RSSAnonByDecileBytes)
	}
	for k, b := range r.RSSByDecileBytes {
		if a := r.RSSAnonByDecileBytes[k]; b <= 0 || a <= 0 || a > b {
			t.Errorf("decile %d: resident set %d bytes, %d of them anonymous; want both > 0 and the anonymous part no larger", k, b, a)
		}
	}
	last := r.BytesPerTurnByDecile[9]
	for k := range 10 {
		if r.TurnsPerSecByDecile[k] <= 0 {
			t.Errorf("decile %d: %v turns/s, want > 0", k, r.TurnsPerSecByDecile[k])
		}
		if b := r.BytesPerTurnByDecile[k]; b < 0.5*last || b > 2*last {
			t.Errorf("decile %d: %v bytes/turn, want about the last decile's %v", k, b, last)
		}
	}
	if r.BytesPerTurnByDecile[0] <= r.BytesPerTurnByDecile[1] {
		t.Errorf("first decile %v bytes/turn, want more than the second's %v (the agents' creation)",
			r.BytesPerTurnByDecile[0], r.BytesPerTurnByDecile[1])
	}
}

func TestTurnsConfigValidate(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*bench.TurnsConfig)
		wantErr bool
	}{
		{"default", func(*bench.TurnsConfig) {}, false},
		{"no dir", func(c *bench.TurnsConfig) { c.Dir = "" }, true},
		{"zero agents", func(c *bench.TurnsConfig) { c.Agents = 0 }, true},
		{"zero turns", func(c *bench.TurnsConfig) { c.Turns = 0 }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := bench.DefaultTurnsConfig("d")
			tt.mutate(&c)
			if err := c.Validate(); (err != nil) != tt.wantErr {
				t.Errorf("Validate() = %v, want error %t", err, tt.wantErr)
			}
		})
	}
}

// wantKeys fails for each key missing from v's JSON object.
func wantKeys(t *testing.T, v any, keys ...string) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("%T JSON %s has no key %q", v, b, k)
		}
	}
}
