package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

// TestBenchCluster runs `bench cluster --json` small: it starts its own
// PostgreSQL and three nodes (this binary, built without -race: several
// processes speaking Proto.Actor's remote, see plainBinary), drives turns
// through them, kills an agent's owner twice, and reports every figure,
// with no acknowledged prompt lost.
func TestBenchCluster(t *testing.T) {
	bin, err := plainBinary()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--json", "bench", "cluster", "--agents", "6", "--turns", "3", "--kills", "2",
		"--pg-streams", "20", "--pg-events", "20", "--dir", t.TempDir()).Output()
	if err != nil {
		var stderr []byte
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			stderr = ee.Stderr
		}
		t.Fatalf("bench cluster = %v\n%s\n%s", err, out, stderr)
	}
	var r bench.ClusterResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("bench cluster printed %q: %v", out, err)
	}
	t.Logf("%+v", r)
	if r.Nodes != 3 || r.Agents != 6 || r.Turns != 3 || r.Kills != 2 || len(r.FailoverRunsMs) != 2 {
		t.Fatalf("workload = %+v, want 3 nodes, 6 agents × 3 turns, 2 kills timed", r)
	}
	for name, v := range map[string]float64{"failover_ms": r.FailoverMs, "failover_p50_ms": r.FailoverP50Ms,
		"pg_durable_events_per_sec": r.PGDurableEventsPerSec, "cluster_turns_per_sec": r.ClusterTurnsPerSec,
		"single_node_badger_turns_per_sec": r.SingleNodeBadgerTurnsPerSec} {
		if !(v > 0) {
			t.Errorf("%s = %v, want > 0", name, v)
		}
	}
	if r.FailoverMs < r.FailoverP50Ms || r.FailoverMs != max(r.FailoverRunsMs[0], r.FailoverRunsMs[1]) {
		t.Errorf("failover_ms %v, p50 %v, runs %v: want the worst run, at least the p50", r.FailoverMs, r.FailoverP50Ms, r.FailoverRunsMs)
	}
	// 6 agents × 3 turns, and each kill's agent two prompts.
	if r.Acked != 6*3+2*2 || r.LostAcked != 0 {
		t.Errorf("acked %d, lost %d: want 22 acknowledged, none lost", r.Acked, r.LostAcked)
	}
}

// TestBenchClusterRefusesBadWorkload: a workload that cannot run is a
// usage error naming the setting, before anything starts.
func TestBenchClusterRefusesBadWorkload(t *testing.T) {
	bin, err := plainBinary()
	if err != nil {
		t.Fatal(err)
	}
	for flag, want := range map[string]string{"--kills": "kills is 0", "--agents": "0 agents", "--pg-events": "0 events"} {
		dir := t.TempDir()
		out, err := exec.Command(bin, "bench", "cluster", flag, "0", "--dir", dir).CombinedOutput()
		if err == nil || !strings.Contains(string(out), want) {
			t.Errorf("bench cluster %s 0 = %v, %q; want a refusal saying %q", flag, err, out, want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("bench cluster %s 0 wrote %d entries into its dir", flag, len(entries))
		}
	}
}
