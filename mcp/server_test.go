package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/internal/mcptest"
	"github.com/holon-actors/holon-actors/mcp"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// manager starts a manager over cfg's servers, closed with the test.
func manager(t *testing.T, servers string, opts mcp.Options) *mcp.Manager {
	t.Helper()
	cfg, err := mcp.ParseConfig(json.RawMessage(servers), nil)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	m := mcp.NewManager(cfg, opts)
	t.Cleanup(func() { _ = m.Close() })
	return m
}

func stdio(extra string) string {
	return `{"t":{"command":` + strconv.Quote(serverBin) + extra + `}}`
}

// toolNamed returns agent main's tool called name.
func toolNamed(t *testing.T, m *mcp.Manager, name string) *mcp.Tool {
	t.Helper()
	for _, tool := range m.Tools(context.Background(), "main") {
		if tool.Spec().Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %s among %v", name, m.Status())
	return nil
}

// bound is a call context with an artifact directory and a small output budget.
func bound(t *testing.T) context.Context {
	a, err := tools.NewArtifactDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return exec.WithConfig(context.Background(), exec.Config{Artifacts: a, Budget: tools.Budget{DefaultTokens: 100, MaxTokens: 100}})
}

func envelope(t *testing.T, r tools.Result) (tools.Envelope, mcp.CallResult) {
	t.Helper()
	var env tools.Envelope
	if err := json.Unmarshal(r.Envelope, &env); err != nil {
		t.Fatal(err)
	}
	var cr mcp.CallResult
	if len(env.Result) > 0 {
		if err := json.Unmarshal(env.Result, &cr); err != nil {
			t.Fatal(err)
		}
	}
	return env, cr
}

func TestStdioToolsAndResults(t *testing.T) {
	m := manager(t, stdio(`,"deny_tools":["crash"]`), mcp.Options{})
	if st := m.Status()[0]; st.State != mcp.StateIdle {
		t.Fatalf("state before any agent asked = %s, want idle (lazy start)", st.State)
	}
	ctx := bound(t)
	names := map[string]bool{}
	for _, tool := range m.Tools(ctx, "main") {
		names[tool.Spec().Name] = true
	}
	if !names["mcp__t__echo"] || names["mcp__t__crash"] {
		t.Fatalf("tools = %v, want mcp__t__echo and no denied mcp__t__crash", names)
	}

	res := toolNamed(t, m, "mcp__t__echo").Call(ctx, json.RawMessage(`{"text":"hello","unused":null}`))
	if res.Status != messages.ToolOK || res.Receipt != "hello" {
		t.Fatalf("echo = %s %q", res.Status, res.Receipt)
	}

	res = toolNamed(t, m, "mcp__t__image").Call(ctx, nil)
	_, cr := envelope(t, res)
	if len(cr.Artifacts) != 2 || cr.Artifacts[0].Kind != "image" || cr.Artifacts[1].Kind != "resource" {
		t.Fatalf("image artifacts = %+v", cr.Artifacts)
	}
	if b, err := os.ReadFile(cr.Artifacts[0].Path); err != nil || string(b) != string(mcptest.PNG) {
		t.Fatalf("image artifact %s = %q, %v", cr.Artifacts[0].Path, b, err)
	}
	if !strings.Contains(res.Receipt, "[image image/png, 16 bytes, kept at "+cr.Artifacts[0].Path+"]") {
		t.Fatalf("receipt has no image line: %s", res.Receipt)
	}

	res = toolNamed(t, m, "mcp__t__big").Call(ctx, json.RawMessage(`{"lines":500}`))
	_, cr = envelope(t, res)
	if !cr.Truncated || cr.TextArtifact == nil || len(res.Receipt) > 1000 {
		t.Fatalf("big: truncated %v artifact %v receipt %d bytes", cr.Truncated, cr.TextArtifact, len(res.Receipt))
	}
	if b, _ := os.ReadFile(cr.TextArtifact.Path); !strings.Contains(string(b), "line 499 of") {
		t.Fatalf("the full text is not in %s", cr.TextArtifact.Path)
	}

	res = toolNamed(t, m, "mcp__t__fail").Call(ctx, nil)
	env, _ := envelope(t, res)
	if res.Status != messages.ToolError || env.Error.Kind != mcp.KindToolError || !strings.Contains(env.Error.Message, "no such repository") {
		t.Fatalf("fail = %s %+v", res.Status, env.Error)
	}
}

func TestStdioEnvFromNamedVariable(t *testing.T) {
	m := manager(t, stdio(`,"env":{"SERVICE_TOKEN":"MY_TOKEN"}`), mcp.Options{
		Getenv: func(n string) string {
			if n == "MY_TOKEN" {
				return "s3cret"
			}
			return ""
		},
		Environ: []string{"PATH=" + os.Getenv("PATH"), "RUNTIME_KEY=not-for-servers"},
	})
	ctx := context.Background()
	if res := toolNamed(t, m, "mcp__t__env").Call(ctx, json.RawMessage(`{"name":"SERVICE_TOKEN"}`)); res.Receipt != "s3cret" {
		t.Fatalf("SERVICE_TOKEN in the server = %q, want the value of MY_TOKEN", res.Receipt)
	}
	if _, cr := envelope(t, toolNamed(t, m, "mcp__t__env").Call(ctx, json.RawMessage(`{"name":"MY_TOKEN"}`))); cr.Text != "" {
		t.Fatalf("MY_TOKEN leaked into the server: %q", cr.Text)
	}
	if _, cr := envelope(t, toolNamed(t, m, "mcp__t__env").Call(ctx, json.RawMessage(`{"name":"RUNTIME_KEY"}`))); cr.Text != "not-for-servers" {
		t.Fatalf("the base environment did not reach the server: %q", cr.Text)
	}
}

func TestStdioMissingEnvVariable(t *testing.T) {
	m := manager(t, stdio(`,"env":{"SERVICE_TOKEN":"UNSET_TOKEN"}`), mcp.Options{MaxCrashes: 1})
	if got := m.Tools(context.Background(), "main"); len(got) != 0 {
		t.Fatalf("tools = %d, want none", len(got))
	}
	if st := m.Status()[0]; !strings.Contains(st.LastError, "UNSET_TOKEN is not set") {
		t.Fatalf("last error = %q, want the unset variable named", st.LastError)
	}
}

func TestToolListChanged(t *testing.T) {
	changed := make(chan string, 4)
	m := manager(t, stdio(``), mcp.Options{OnToolsChanged: func(s string) { changed <- s }})
	ctx := context.Background()
	if res := toolNamed(t, m, "mcp__t__add_tool").Call(ctx, json.RawMessage(`{"name":"fresh"}`)); res.Status != messages.ToolOK {
		t.Fatalf("add_tool = %s", res.Receipt)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no tools/list_changed refresh")
	}
	if res := toolNamed(t, m, "mcp__t__fresh").Call(ctx, nil); res.Receipt != "added fresh" {
		t.Fatalf("fresh = %q", res.Receipt)
	}
}

// waitState waits until server t reaches want.
func waitState(t *testing.T, m *mcp.Manager, want mcp.State) mcp.Status {
	t.Helper()
	return waitFor(t, m, want, func(mcp.Status) bool { return true })
}

// waitFor waits until server t reaches want with ok true of its status.
func waitFor(t *testing.T, m *mcp.Manager, want mcp.State, ok func(mcp.Status) bool) mcp.Status {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		st := m.Status()[0]
		if st.State == want && ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("server state %s, want %s (last error %q)", st.State, want, st.LastError)
		}
		<-tick.C
	}
}

func TestCrashRestartsWithBackoff(t *testing.T) {
	m := manager(t, stdio(``), mcp.Options{Backoff: time.Millisecond})
	ctx := context.Background()
	pid := toolNamed(t, m, "mcp__t__pid").Call(ctx, nil).Receipt
	res := toolNamed(t, m, "mcp__t__crash").Call(ctx, nil)
	if res.Status == messages.ToolOK {
		t.Fatalf("crash = ok: %s", res.Receipt)
	}
	st := waitFor(t, m, mcp.StateReady, func(st mcp.Status) bool { return st.Restarts > 0 })
	if st.Restarts != 1 || !strings.Contains(st.LastError, "the connection ended") {
		t.Fatalf("restarts = %d (last error %q), want 1 after the crash", st.Restarts, st.LastError)
	}
	if again := toolNamed(t, m, "mcp__t__pid").Call(ctx, nil).Receipt; again == pid || again == "" {
		t.Fatalf("pid after restart = %q, was %q: want a new process", again, pid)
	}
}

func TestRepeatedCrashesQuarantine(t *testing.T) {
	told := make(chan string, 1)
	m := manager(t, stdio(`,"env":{"MCPTEST_EXIT_AT_START":"CRASH"}`), mcp.Options{
		Backoff: time.Millisecond, MaxCrashes: 3,
		Getenv:       func(string) string { return "1" },
		OnQuarantine: func(server, msg string) { told <- msg },
	})
	if got := m.Tools(context.Background(), "main"); len(got) != 0 {
		t.Fatalf("tools of a crashing server = %d", len(got))
	}
	var msg string
	select {
	case msg = <-told:
	case <-time.After(15 * time.Second):
		t.Fatal("no quarantine")
	}
	st := waitState(t, m, mcp.StateQuarantined)
	if st.Crashes != 3 || !strings.Contains(msg, "MCP server t crashed 3 times") {
		t.Fatalf("crashes %d, message %q", st.Crashes, msg)
	}
	if _, err := m.Server("t"); !err {
		t.Fatal("no server t")
	}
	srv, _ := m.Server("t")
	if _, err := srv.Session(context.Background()); !errors.Is(err, mcp.ErrQuarantined) {
		t.Fatalf("Session of a quarantined server = %v", err)
	}
}

func TestHangingCallTimesOutAndCancels(t *testing.T) {
	m := manager(t, stdio(`,"timeout_seconds":1`), mcp.Options{})
	hang := toolNamed(t, m, "mcp__t__hang")
	env, _ := envelope(t, hang.Call(context.Background(), nil))
	if env.Error == nil || env.Error.Kind != mcp.KindTimeout {
		t.Fatalf("hang = %+v, want a timeout", env.Error)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan tools.Result, 1)
	go func() { done <- hang.Call(ctx, nil) }()
	cancel()
	if res := <-done; res.Status != messages.ToolInterrupted {
		t.Fatalf("cancelled hang = %s %s", res.Status, res.Receipt)
	}
	if res := toolNamed(t, m, "mcp__t__echo").Call(context.Background(), json.RawMessage(`{"text":"still here"}`)); res.Receipt != "still here" {
		t.Fatalf("echo after a hang = %q", res.Receipt)
	}
}

func TestHangingStartIsBounded(t *testing.T) {
	m := manager(t, stdio(`,"env":{"MCPTEST_HANG_AT_START":"H"}`), mcp.Options{
		ConnectTimeout: 200 * time.Millisecond, MaxCrashes: 1, Getenv: func(string) string { return "1" }})
	if got := m.Tools(context.Background(), "main"); len(got) != 0 {
		t.Fatalf("tools = %d", len(got))
	}
	if st := waitState(t, m, mcp.StateQuarantined); !strings.Contains(st.LastError, "start") {
		t.Fatalf("last error = %q", st.LastError)
	}
}

func TestCloseKillsTheProcessGroup(t *testing.T) {
	procs := mcp.NewProcTable(filepath.Join(t.TempDir(), "mcp-procs.json"))
	m := manager(t, stdio(``), mcp.Options{Procs: procs})
	pid, _ := strconv.Atoi(toolNamed(t, m, "mcp__t__pid").Call(context.Background(), nil).Receipt)
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		t.Fatalf("server pid %d not alive", pid)
	}
	if err := m.Close(); err != nil && !strings.Contains(err.Error(), "signal") {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("server %d after Close: %v, want gone", pid, err)
	}
	if n, err := procs.Sweep(context.Background()); n != 0 || err != nil {
		t.Fatalf("Sweep after a clean close = %d, %v", n, err)
	}
}

func TestStreamableHTTPWithHeaderFromEnv(t *testing.T) {
	srv := httptest.NewServer(mcptest.StreamableHandler("Authorization", "Bearer s3cret"))
	t.Cleanup(srv.Close) // after the managers' Close (cleanups run last first), which ends their streams
	cfg := `{"t":{"url":"` + srv.URL + `","headers":{"Authorization":"DOCS_AUTH"}}}`
	m := manager(t, cfg, mcp.Options{Getenv: func(n string) string {
		if n == "DOCS_AUTH" {
			return "Bearer s3cret"
		}
		return ""
	}})
	if res := toolNamed(t, m, "mcp__t__echo").Call(context.Background(), json.RawMessage(`{"text":"over http"}`)); res.Receipt != "over http" {
		t.Fatalf("echo over HTTP = %s %q", res.Status, res.Receipt)
	}
	bad := manager(t, cfg, mcp.Options{MaxCrashes: 1, Getenv: func(string) string { return "Bearer wrong" }})
	if got := bad.Tools(context.Background(), "main"); len(got) != 0 {
		t.Fatalf("tools with a wrong token = %d", len(got))
	}
	if st := bad.Status()[0]; st.State != mcp.StateQuarantined || st.LastError == "" {
		t.Fatalf("wrong token: %+v", st)
	}
}
