package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
	"github.com/holon-actors/holon-actors/persistence"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// runCLI runs the command line with args and returns its exit code and output.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// decodeJSON decodes out into a map, failing the test when it is not JSON.
func decodeJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	return m
}

// wantPositive fails for each key of m that is missing or not a number > 0.
func wantPositive(t *testing.T, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if v, ok := m[k].(float64); !ok || v <= 0 {
			t.Errorf("%s = %v, want a number > 0", k, m[k])
		}
	}
}

func TestHelp(t *testing.T) {
	t.Setenv("COLUMNS", "80") // kong wraps help to COLUMNS
	tests := []struct {
		name string
		args []string
	}{
		{"root", []string{"--help"}},
		{"bench", []string{"bench", "--help"}},
		{"bench-journal", []string{"bench", "journal", "--help"}},
		{"bench-journal-recovery", []string{"bench", "journal-recovery", "--help"}},
		{"bench-mailbox", []string{"bench", "mailbox", "--help"}},
		{"bench-turns", []string{"bench", "turns", "--help"}},
		{"bench-children", []string{"bench", "children", "--help"}},
		{"bench-recovery", []string{"bench", "recovery", "--help"}},
		{"bench-exec", []string{"bench", "exec", "--help"}},
		{"bench-sse", []string{"bench", "sse", "--help"}},
		{"run", []string{"run", "--help"}},
		{"prompt", []string{"prompt", "--help"}},
		{"agents", []string{"agents", "--help"}},
		{"tail", []string{"tail", "--help"}},
		{"daemon", []string{"daemon", "--help"}},
		{"daemon-start", []string{"daemon", "start", "--help"}},
		{"providers-doctor", []string{"providers", "doctor", "--help"}},
		{"once", []string{"once", "--help"}},
		{"suspensions", []string{"suspensions", "--help"}},
		{"suspensions-list", []string{"suspensions", "list", "--help"}},
		{"suspensions-cancel", []string{"suspensions", "cancel", "--help"}},
		{"respond", []string{"respond", "--help"}},
		{"notifications", []string{"notifications", "--help"}},
		{"work-items", []string{"work-items", "--help"}},
		{"work-items-add", []string{"work-items", "add", "--help"}},
		{"tools-list", []string{"tools", "list", "--help"}},
		{"ca-issue", []string{"ca", "issue", "--help"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.args...)
			if code != exitOK || errOut != "" {
				t.Fatalf("run(%q) = %d, stderr %q; want 0 and no stderr", tt.args, code, errOut)
			}
			golden := filepath.Join("testdata", "help-"+tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if out != string(want) {
				t.Errorf("help for %q differs from %s (go test -update rewrites it):\n%s", tt.args, golden, out)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOLON_HOME", home)

	code, out, errOut := runCLI(t, "version")
	if code != exitOK || errOut != "" {
		t.Fatalf("version = %d, stderr %q; want 0", code, errOut)
	}
	for _, want := range []string{"holon-actors", runtime.Version(), "commit", home} {
		if !strings.Contains(out, want) {
			t.Errorf("version output lacks %q:\n%s", want, out)
		}
	}

	code, out, _ = runCLI(t, "--json", "version")
	if code != exitOK {
		t.Fatalf("--json version = %d, want 0", code)
	}
	m := decodeJSON(t, out)
	want := map[string]any{"go_version": runtime.Version(), "home": home}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("version %s = %v, want %v", k, m[k], v)
		}
	}
	for _, k := range []string{"version", "commit"} {
		if s, _ := m[k].(string); s == "" {
			t.Errorf("version %s = %v, want a non-empty string", k, m[k])
		}
	}
}

func TestBenchJournal(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "bench", "journal", "--streams", "3", "--events", "20", "--dir", dir, "--json")
	if code != exitOK {
		t.Fatalf("bench journal = %d, stderr %q; want 0", code, errOut)
	}
	m := decodeJSON(t, out)
	wantPositive(t, m, "durable_events_per_sec", "unsynced_events_per_sec", "append_p50_ms",
		"append_p99_ms", "bytes_per_event", "durable_seconds")
	for k, want := range map[string]float64{"streams": 3, "events": 20, "total_events": 60} {
		if m[k] != want {
			t.Errorf("%s = %v, want %v", k, m[k], want)
		}
	}
	if p50, p99 := m["append_p50_ms"].(float64), m["append_p99_ms"].(float64); p50 > p99 {
		t.Errorf("append_p50_ms = %v > append_p99_ms = %v", p50, p99)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%s holds %d entries after the run without --keep, want 0", dir, len(entries))
	}
}

func TestBenchJournalTable(t *testing.T) {
	profile := filepath.Join(t.TempDir(), "cpu.prof")
	code, out, errOut := runCLI(t, "bench", "journal", "--streams", "2", "--events", "5", "--batch", "2",
		"--dir", t.TempDir(), "--cpu-profile", profile)
	if code != exitOK {
		t.Fatalf("bench journal = %d, stderr %q; want 0", code, errOut)
	}
	if info, err := os.Stat(profile); err != nil || info.Size() == 0 {
		t.Errorf("--cpu-profile wrote nothing: %v", err)
	}
	for _, want := range []string{"durable events/s", "append p99", "bytes per event", "2 streams × 5 events, 2 per append"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestBenchJournalKeep(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := runCLI(t, "bench", "journal", "--streams", "1", "--events", "1", "--dir", dir, "--keep")
	if code != exitOK {
		t.Fatalf("bench journal --keep = %d, stderr %q; want 0", code, errOut)
	}
	for _, sub := range []string{bench.JournalDurableDir, bench.JournalUnsyncedDir} {
		if _, err := os.Stat(filepath.Join(dir, sub)); err != nil {
			t.Errorf("--keep: %v", err)
		}
	}
	// The kept stores are not empty, so a second run into them must refuse.
	code, _, errOut = runCLI(t, "bench", "journal", "--streams", "1", "--events", "1", "--dir", dir)
	if code != exitFailure || !strings.Contains(errOut, "use an empty directory") {
		t.Errorf("second run into kept stores = %d, stderr %q; want %d and 'use an empty directory'", code, errOut, exitFailure)
	}
}

func TestBenchJournalRecovery(t *testing.T) {
	code, out, errOut := runCLI(t, "bench", "journal-recovery", "--streams", "25", "--events", "30", "--dir", t.TempDir(), "--json")
	if code != exitOK {
		t.Fatalf("bench journal-recovery = %d, stderr %q; want 0", code, errOut)
	}
	m := decodeJSON(t, out)
	wantPositive(t, m, "recovery_ms", "open_ms")
	// Snapshots sit at 30 - 30/10 = 27, so each stream replays 3 events.
	for k, want := range map[string]float64{"streams": 25, "events_per_stream": 30, "snapshots_loaded": 25, "events_read": 75} {
		if m[k] != want {
			t.Errorf("%s = %v, want %v", k, m[k], want)
		}
	}
	if m["recovery_ms"].(float64) < m["open_ms"].(float64) {
		t.Errorf("recovery_ms = %v < open_ms = %v", m["recovery_ms"], m["open_ms"])
	}
}

func TestBenchMailbox(t *testing.T) {
	code, out, errOut := runCLI(t, "bench", "mailbox", "--messages", "2000", "--rounds", "1", "--json")
	if code != exitOK {
		t.Fatalf("bench mailbox = %d, stderr %q; want 0", code, errOut)
	}
	m := decodeJSON(t, out)
	wantPositive(t, m, "band_pingpong_msgs_per_sec", "default_pingpong_msgs_per_sec", "band_fanin_msgs_per_sec", "default_fanin_msgs_per_sec")
	if m["messages"] != float64(2000) {
		t.Errorf("messages = %v, want 2000", m["messages"])
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		hint string
	}{
		{"no command", nil, "holon-actors --help"},
		{"unknown command", []string{"serve"}, "holon-actors --help"},
		{"bench without subcommand", []string{"bench"}, "holon-actors bench --help"},
		{"unknown flag", []string{"bench", "journal", "--nope"}, "holon-actors bench journal --help"},
		{"not a number", []string{"bench", "journal", "--streams", "many"}, "holon-actors bench journal --help"},
		{"zero streams", []string{"bench", "journal", "--streams", "0"}, "holon-actors bench journal --help"},
		{"negative events", []string{"bench", "journal-recovery", "--events", "-1"}, "holon-actors bench journal-recovery --help"},
		{"zero turns", []string{"bench", "turns", "--turns", "0"}, "holon-actors bench turns --help"},
		{"no memory index without memory", []string{"bench", "turns", "--no-memory-index"}, "holon-actors bench turns --help"},
		{"zero agents to recover", []string{"bench", "recovery", "--agents", "0"}, "holon-actors bench recovery --help"},
		{"children over the per-parent limit", []string{"bench", "children", "--count", "65", "--parents", "1"}, "holon-actors bench children --help"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.args...)
			if code != exitUsage {
				t.Errorf("run(%q) = %d, want %d", tt.args, code, exitUsage)
			}
			if out != "" {
				t.Errorf("run(%q) wrote %q to stdout, want nothing", tt.args, out)
			}
			if lines := strings.Split(strings.TrimSpace(errOut), "\n"); len(lines) != 2 || !strings.Contains(lines[1], tt.hint) {
				t.Errorf("run(%q) stderr = %q, want one error line and a hint naming %q", tt.args, errOut, tt.hint)
			}
		})
	}
}

func TestLockedDataDir(t *testing.T) {
	dir := t.TempDir()
	held := filepath.Join(dir, bench.JournalDurableDir)
	st, err := persistence.Open(persistence.DefaultOptions(held))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })

	code, out, errOut := runCLI(t, "bench", "journal", "--streams", "1", "--events", "1", "--dir", dir)
	if code != exitLocked {
		t.Errorf("bench journal on a locked dir = %d, want %d", code, exitLocked)
	}
	want := fmt.Sprintf("holon-actors: another holon-actors process (pid %d) is using %s: stop it or use another --dir\n", os.Getpid(), held)
	if errOut != want || out != "" {
		t.Errorf("bench journal on a locked dir: stdout %q, stderr %q; want no stdout and stderr %q", out, errOut, want)
	}
}

func TestBenchTurns(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "bench", "turns", "--agents", "6", "--turns", "2", "--dir", dir, "--json")
	if code != exitOK {
		t.Fatalf("bench turns = %d, stderr %q; want 0", code, errOut)
	}
	m := decodeJSON(t, out)
	wantPositive(t, m, "turns_per_sec", "turn_p50_ms", "turn_p99_ms", "events_per_turn", "bytes_per_turn", "seconds")
	if _, ok := m["idle_agent_rss_bytes"].(float64); !ok {
		t.Errorf("idle_agent_rss_bytes = %v, want a number", m["idle_agent_rss_bytes"])
	}
	for k, want := range map[string]float64{"agents": 6, "turns": 2, "total_turns": 12} {
		if m[k] != want {
			t.Errorf("%s = %v, want %v", k, m[k], want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%s holds %d entries after the run without --keep, want 0", dir, len(entries))
	}
}

func TestBenchTurnsTable(t *testing.T) {
	profile := filepath.Join(t.TempDir(), "cpu.prof")
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "bench", "turns", "--agents", "2", "--turns", "1", "--dir", dir, "--keep", "--cpu-profile", profile)
	if code != exitOK {
		t.Fatalf("bench turns = %d, stderr %q; want 0", code, errOut)
	}
	if info, err := os.Stat(profile); err != nil || info.Size() == 0 {
		t.Errorf("--cpu-profile wrote nothing: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, bench.TurnsDir)); err != nil {
		t.Errorf("--keep: %v", err)
	}
	for _, want := range []string{"turns/s", "turn p99", "events per turn", "RSS per idle agent", "2 agents × 1 turns"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestBenchRecovery(t *testing.T) {
	code, out, errOut := runCLI(t, "bench", "recovery", "--agents", "12", "--events", "30", "--dir", t.TempDir(), "--json")
	if code != exitOK {
		t.Fatalf("bench recovery = %d, stderr %q; want 0", code, errOut)
	}
	m := decodeJSON(t, out)
	wantPositive(t, m, "recovery_ms", "open_ms", "events_per_agent", "populate_seconds")
	for k, want := range map[string]float64{"agents": 12, "agents_recovered": 12, "turns_per_agent": 2} {
		if m[k] != want {
			t.Errorf("%s = %v, want %v", k, m[k], want)
		}
	}
	if m["recovery_ms"].(float64) < m["open_ms"].(float64) {
		t.Errorf("recovery_ms = %v < open_ms = %v", m["recovery_ms"], m["open_ms"])
	}
}

// TestProvidersDoctor: the report names each model, says whether its key
// is present without showing it, and names what to set when it is not.
func TestProvidersDoctor(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-canary-0123456789")
	t.Setenv("OPENAI_API_KEY", "")
	code, out, errOut := runCLI(t, "--home", t.TempDir(), "--json", "providers", "doctor",
		"--model", "anthropic/claude-sonnet-4-5", "--fallback", "openai/gpt-5")
	if code != exitFailure || !strings.Contains(errOut, "OPENAI_API_KEY") {
		t.Fatalf("doctor = %d, stderr %q; want exit 1 naming OPENAI_API_KEY", code, errOut)
	}
	if strings.Contains(out+errOut, "canary") {
		t.Fatal("doctor printed a key")
	}
	var r struct {
		Candidates []struct {
			ModelRef          string `json:"model_ref"`
			CredentialPresent bool   `json:"credential_present"`
			Problem           string `json:"problem"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Candidates) != 2 ||
		!r.Candidates[0].CredentialPresent || r.Candidates[1].CredentialPresent || r.Candidates[1].Problem == "" {
		t.Fatalf("doctor report = %s (%v)", out, err)
	}
}

// TestShellCompletion: with COMP_LINE set (as bash, zsh and fish do
// through complete -C), the binary answers with the completions and exits.
func TestShellCompletion(t *testing.T) {
	t.Setenv("COMP_LINE", "holon-actors daemon st")
	code, out, _ := runCLI(t)
	if code != exitOK || !strings.Contains(out, "start") || !strings.Contains(out, "stop") || !strings.Contains(out, "status") {
		t.Fatalf("completion = %d %q", code, out)
	}
	t.Setenv("COMP_LINE", "holon-actors prompt --pri")
	if code, out, _ = runCLI(t); code != exitOK || strings.TrimSpace(out) != "--priority" {
		t.Fatalf("flag completion = %d %q", code, out)
	}
}
