package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

var (
	mcpServerOnce sync.Once
	mcpServerBin  string
	mcpServerErr  error
)

// mcpServer builds the stdio MCP test server (internal/mcptest), once.
func mcpServer(t *testing.T) string {
	t.Helper()
	mcpServerOnce.Do(func() {
		mcpServerBin = filepath.Join(filepath.Dir(binary), "mcptest-server")
		out, err := exec.Command("go", "build", "-o", mcpServerBin, "../../internal/mcptest/mcptest-server").CombinedOutput()
		if err != nil {
			mcpServerErr = errors.New(string(out))
		}
	})
	if mcpServerErr != nil {
		t.Fatalf("build the MCP test server: %v", mcpServerErr)
	}
	return mcpServerBin
}

// mcpHome writes a home whose config.json has the stdio test server t,
// with SERVICE_TOKEN taken from MCPTEST_SECRET, plus extra config keys.
func mcpHome(t *testing.T, extra string) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := `{"mcp_servers": {"t": {"command": ` + strconv.Quote(mcpServer(t)) + `, "env": {"SERVICE_TOKEN": "MCPTEST_SECRET"}}}` + extra + `}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// TestMCPToolsApprovalAcrossRestart drives MCP tools through the binary:
// the scripted model calls a read-only tool (it runs at once, its secret
// from the environment scrubbed from the journal), then a tool the server
// marks destructive, which suspends the turn with a confirm question
// showing the exact arguments (prompt --wait returns at it, saying how to
// answer); the runtime restarts; the operator's yes
// then runs the call, once, and the turn finishes. An agent created with
// --mcp none keeps that choice across the restart; one naming an unknown
// server is refused.
func TestMCPToolsApprovalAcrossRestart(t *testing.T) {
	t.Parallel()
	const secret = "mcp-canary-7f3a9c"
	home := mcpHome(t, ``)
	script := writeScript(t, `{"steps": [
		{"tool_calls": [{"name": "mcp__t__env", "arguments": {"name": "SERVICE_TOKEN"}}, {"name": "mcp__t__echo", "arguments": {"text": "hello from mcp"}}]},
		{"tool_calls": [{"name": "mcp__t__delete_repo", "arguments": {"name": "prod"}}]},
		{"text": "Deleted as approved."}
	], "then": "echo"}`)
	env := []string{"MCPTEST_SECRET=" + secret}
	d := startRunEnv(t, home, env, "--model", "scripted", "--script", script)

	code, out, errOut := client(t, home, "prompt", "--wait", "--timeout", "2m", "clean up")
	if code != 0 || !strings.Contains(out, "waits for your approval (susp_") || !strings.Contains(out, "mcp__t__delete_repo") ||
		!strings.Contains(out, "holon-actors respond main susp_") {
		t.Fatalf("prompt --wait = %d %q %q; want it to return at the approval question with how to answer", code, out, errOut)
	}
	waitFor(t, func() bool {
		_, out, _ = client(t, home, "--json", "suspensions", "list")
		return strings.Contains(out, "mcp__t__delete_repo")
	}, "the approval question")
	if !strings.Contains(out, `\"name\": \"prod\"`) {
		t.Fatalf("suspensions list = %q; want the call's exact arguments", out)
	}
	i := strings.Index(out, `"id": "susp_`)
	id := out[i+7 : i+7+strings.Index(out[i+7:], `"`)]

	var tail string
	code, tail, _ = client(t, home, "--json", "tail", "--limit", "1000")
	if code != 0 || !strings.Contains(tail, "hello from mcp") || !strings.Contains(tail, "[redacted]") {
		t.Fatalf("tail = %d; want the echo result and the scrubbed secret:\n%s", code, tail)
	}
	noCanary(t, "the journal", tail, []string{secret})
	if strings.Contains(tail, "deleted prod") {
		t.Fatal("the destructive call ran before its approval")
	}

	if code, _, errOut := client(t, home, "agents", "create", "bad", "--mcp", "t,nope"); code == 0 ||
		!strings.Contains(errOut, `"nope"`) || !strings.Contains(errOut, "configured: t") {
		t.Fatalf("agents create --mcp t,nope = %d %q; want a refusal naming nope and the configured servers", code, errOut)
	}
	if code, out, errOut := client(t, home, "agents", "create", "quiet", "--mcp", "none"); code != 0 {
		t.Fatalf("agents create --mcp none = %d %q %q", code, out, errOut)
	}

	d.stop()
	d = startRunEnv(t, home, env, "--model", "scripted", "--script", script)
	if _, out, _ := client(t, home, "agents", "list"); strings.Contains(out, "bad ") {
		t.Fatalf("the refused agent exists:\n%s", out)
	}
	if _, out, _ := client(t, home, "--agent", "quiet", "status"); !strings.Contains(out, "none (agents create --mcp none)") {
		t.Fatalf("status of quiet after a restart:\n%s\nwant its journaled --mcp none", out)
	}
	code, out, errOut = client(t, home, "respond", "main", id, "yes")
	if code != 0 {
		t.Fatalf("respond yes after a restart = %d %q %q", code, out, errOut)
	}
	waitFor(t, func() bool {
		_, out, _ := client(t, home, "briefs")
		return strings.Contains(out, "Deleted as approved.")
	}, "the approved turn's brief")
	_, tail, _ = client(t, home, "--json", "tail", "--limit", "1000")
	if n := strings.Count(tail, "deleted prod"); n == 0 {
		t.Fatalf("the approved call did not run:\n%s", tail)
	}
	noCanary(t, "the journal", tail, []string{secret})
	d.stop()
}

// TestMCPToolDenied: a deny rule refuses the call with a hint; nothing
// reaches the server.
func TestMCPToolDenied(t *testing.T) {
	t.Parallel()
	home := mcpHome(t, `, "tool_approval": {"default": [{"tool": "mcp__t__echo", "mode": "deny"}]}`)
	script := writeScript(t, `{"steps": [
		{"tool_calls": [{"name": "mcp__t__echo", "arguments": {"text": "should not run"}}]},
		{"text": "Refused."}
	], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	if code, out, errOut := client(t, home, "prompt", "--wait", "try"); code != 0 || !strings.Contains(out, "Refused.") {
		t.Fatalf("prompt --wait = %d %q %q", code, out, errOut)
	}
	_, tail, _ := client(t, home, "--json", "tail", "--limit", "1000")
	if !strings.Contains(tail, "tool_denied") || strings.Contains(tail, `should not run\n`) {
		t.Fatalf("tail lacks the denial:\n%s", tail)
	}
	d.stop()
}

// TestMCPBadConfigRefused: a bad mcp_servers entry stops the start with
// the field named.
func TestMCPBadConfigRefused(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := `{"mcp_servers": {"gh": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ghp_x"}}}}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "--home", home, "run", "--model", "scripted", "--script", writeScript(t, `{"steps": [], "then": "echo"}`))
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUsage || !strings.Contains(string(out), "mcp_servers.gh.headers.Authorization") {
		t.Fatalf("run with a bad mcp server = %v\n%s\nwant a usage error naming mcp_servers.gh.headers.Authorization", err, out)
	}
}

// TestMCPServerDiesWithTheDaemon: a stdio server started by the runtime
// does not outlive a runtime killed with SIGKILL, even one that ignores
// its stdin closing and the usual signals (MCPTEST_HOLD_GROUP): the
// parent-death signal ends it. The child it left in its process group is
// killed by the next start, from the recorded group.
func TestMCPServerDiesWithTheDaemon(t *testing.T) {
	t.Parallel()
	home := mcpHome(t, ``)
	cfg := `{"mcp_servers": {"t": {"command": ` + strconv.Quote(mcpServer(t)) +
		`, "env": {"SERVICE_TOKEN": "MCPTEST_SECRET", "MCPTEST_HOLD_GROUP": "MCPTEST_SECRET"}}}}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	script := writeScript(t, `{"steps": [{"tool_calls": [{"name": "mcp__t__pid", "arguments": {}}]}, {"text": "got it"}], "then": "echo"}`)
	env := []string{"MCPTEST_SECRET=x"}
	d := startRunEnv(t, home, env, "--model", "scripted", "--script", script)
	if code, out, errOut := client(t, home, "prompt", "--wait", "pid?"); code != 0 {
		t.Fatalf("prompt = %d %q %q", code, out, errOut)
	}
	_, tail, _ := client(t, home, "--json", "tail", "--limit", "1000")
	const mark = `"title":"Tool mcp__t__pid","body":"`
	i := strings.LastIndex(tail, mark) + len(mark) // the tool_executed after the tool_call_started
	if i < len(mark) {
		t.Fatalf("no pid result in:\n%s", tail)
	}
	pid, err := strconv.Atoi(tail[i : i+strings.Index(tail[i:], `"`)])
	if err != nil || syscall.Kill(pid, 0) != nil {
		t.Fatalf("server pid %d (%v) not alive", pid, err)
	}
	code, out, _ := client(t, home, "mcp", "list")
	if code != 0 || !strings.Contains(out, "t       stdio      ready") || !strings.Contains(out, "delete_repo") {
		t.Fatalf("mcp list = %d\n%s\nwant t ready with its tools", code, out)
	}
	code, out, _ = client(t, home, "mcp", "tools", "t")
	if code != 0 || !strings.Contains(out, "mcp__t__delete_repo  true") || !strings.Contains(out, "mcp__t__echo         false") {
		t.Fatalf("mcp tools t = %d\n%s", code, out)
	}
	if code, out, _ = client(t, home, "status"); code != 0 || !strings.Contains(out, "t (ready, 12 tools)") {
		t.Fatalf("status = %d\n%s\nwant the agent's MCP server", code, out)
	}
	if code, _, errOut := client(t, home, "mcp", "tools", "nope"); code == 0 || !strings.Contains(errOut, "mcp list") {
		t.Fatalf("mcp tools nope = %d %q; want a failure pointing at mcp list", code, errOut)
	}
	left := slices.DeleteFunc(liveGroup(pid), func(p int) bool { return p == pid })
	if len(left) == 0 {
		t.Fatalf("the server %d has no child in its process group", pid)
	}
	d.kill()
	waitFor(t, func() bool {
		return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) || zombie(pid)
	}, "the MCP server's end after SIGKILL of the runtime")
	d = startRunEnv(t, home, env, "--model", "scripted", "--script", script)
	waitFor(t, func() bool { return len(liveGroup(pid)) == 0 }, "the next start's kill of the server's process group")
	d.stop()
}

// liveGroup lists the live (not zombie) processes of process group pgid.
func liveGroup(pgid int) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if g, err := syscall.Getpgid(pid); err == nil && g == pgid && !zombie(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// zombie reports a process that has exited but not been reaped (its
// parent, the killed runtime's reaper, may not have waited yet).
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	j := strings.LastIndexByte(s, ')')
	return j > 0 && len(s) > j+2 && s[j+2] == 'Z'
}
