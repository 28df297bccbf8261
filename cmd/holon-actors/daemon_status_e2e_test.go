package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// daemonStatusJSON runs daemon status --json and decodes it.
func daemonStatusJSON(t *testing.T, home string) daemonStatus {
	t.Helper()
	code, out, errOut := client(t, home, "--json", "daemon", "status")
	var st daemonStatus
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("daemon status = %d %q %q: %v", code, out, errOut, err)
	}
	return st
}

// TestDaemonStatusTells: a turn failure shows with its time and is marked
// resolved by a later completed turn; a running task counts as an active
// task and its agent as waiting; a crash is reported by the start after
// it, though daemon start cleans the stale files first.
func TestDaemonStatusTells(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [
		{"text": "Hello back."},
		{"text": "Starting.", "tool_calls": [{"name": "ExecCommand", "arguments": {"cmd": "sleep 30", "yield_time_ms": 50}}]},
		{"text": "It runs."}
	], "then": "echo"}`)
	flags := []string{"--model", "scripted", "--script", script}
	t.Cleanup(func() { client(t, home, "daemon", "stop", "--timeout", "5s") })
	if code, out, errOut := client(t, home, append([]string{"daemon", "start"}, flags...)...); code != 0 {
		t.Fatalf("daemon start = %d %q %q", code, out, errOut)
	}
	// A one-token budget: the first turn runs, the second fails on it.
	if code, out, errOut := client(t, home, "agents", "budget", "--tokens", "1"); code != 0 {
		t.Fatalf("agents budget = %d %q %q", code, out, errOut)
	}
	if code, out, errOut := client(t, home, "prompt", "--wait", "hello"); code != 0 {
		t.Fatalf("first prompt = %d %q %q", code, out, errOut)
	}
	before := time.Now().Add(-time.Second)
	if code, _, errOut := client(t, home, "prompt", "--wait", "over the budget"); code != exitFailure {
		t.Fatalf("prompt over the budget = %d %q", code, errOut)
	}
	st := daemonStatusJSON(t, home)
	if f := st.LastFailure; f == nil || f.Phase != "runtime_turn" || f.OccurredAt.Before(before) || f.OccurredAt.After(time.Now()) {
		t.Fatalf("last failure = %+v, want the turn failure with its time", st.LastFailure)
	}
	if code, out, _ := client(t, home, "status"); code != 0 || !strings.Contains(out, "(at ") || strings.Contains(out, "resolved") {
		t.Fatalf("status = %d %q, want the last error with its time", code, out)
	}

	if code, out, errOut := client(t, home, "agents", "budget", "--tokens", "1000000"); code != 0 {
		t.Fatalf("agents budget = %d %q %q", code, out, errOut)
	}
	if code, out, errOut := client(t, home, "prompt", "--wait", "run it"); code != 0 || !strings.Contains(out, "Still running in the background") {
		t.Fatalf("prompt --wait = %d %q %q", code, out, errOut)
	}
	st = daemonStatusJSON(t, home)
	if a := st.Activity; a == nil || a.ActiveTaskCount != 1 || a.WaitingAgentCount != 1 || a.State != "waiting" {
		t.Fatalf("activity = %+v, want one task and its agent waiting", st.Activity)
	}
	if st.LastFailure != nil {
		t.Fatalf("last failure = %+v after a completed turn, want it resolved", st.LastFailure)
	}
	if code, out, _ := client(t, home, "status"); code != 0 || !strings.Contains(out, "resolved at") {
		t.Fatalf("status = %d %q, want the last error marked resolved", code, out)
	}

	// A crash: daemon start removes the stale runtime file, and still the
	// new runtime says the previous run did not shut down cleanly.
	pid := st.PID
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return !processAlive(pid) }, "the killed runtime to go")
	if code, out, errOut := client(t, home, append([]string{"daemon", "start"}, flags...)...); code != 0 {
		t.Fatalf("daemon start after the crash = %d %q %q", code, out, errOut)
	}
	if code, out, _ := client(t, home, "daemon", "logs", "-n", "200"); code != 0 || !strings.Contains(out, "did not shut down cleanly") {
		t.Fatalf("daemon logs = %d %q, want the unclean-shutdown warning", code, out)
	}
}

// TestDaemonStartBelowDiskReserve: a runtime started below its disk
// reserve is reported unhealthy by start (which fails) and by status.
func TestDaemonStartBelowDiskReserve(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	t.Cleanup(func() { client(t, home, "daemon", "stop", "--timeout", "5s") })
	began := time.Now()
	code, out, errOut := client(t, home, "daemon", "start", "--disk-reserve-mib", "1099511627776")
	// The default agent cannot journal and restarts until it is stopped;
	// the status daemon start waits for must not wait on it for a whole
	// request timeout (30 s; the status gives an agent 2 s).
	if took := time.Since(began); took >= 20*time.Second {
		t.Errorf("daemon start below the reserve took %v: the runtime status waited on an agent that cannot answer", took)
	}
	if code != exitFailure || !strings.Contains(out, "UNHEALTHY") || !strings.Contains(errOut, "free disk space") {
		t.Fatalf("daemon start below the reserve = %d %q %q", code, out, errOut)
	}
	st := daemonStatusJSON(t, home)
	if !st.Running || st.ControlHealthy || !strings.Contains(st.StoreProblem, "disk full") {
		t.Fatalf("daemon status = %+v, want running, unhealthy, disk full", st)
	}
	if code, out, _ := client(t, home, "daemon", "status"); !strings.Contains(out, "store unhealthy: persistence: disk full") {
		t.Fatalf("daemon status = %d %q", code, out)
	}
}
