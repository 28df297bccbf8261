package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/agenthome"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// binary is the holon-actors binary built once for the end-to-end tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "holon-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "holon-actors")
	// The runtimes these tests start seed templates into their agents
	// directory: a scratch one, never the user's ~/.agents. It is seeded
	// here, before any of them runs, so the runtimes of tests running side
	// by side find the templates as they would write them and write
	// nothing there: none reads a file another is still writing.
	agentsDir := filepath.Join(dir, "agents-dir")
	os.Setenv("HOLON_AGENTS_DIR", agentsDir)
	if _, err := agenthome.SeedBuiltins(filepath.Join(agentsDir, "templates"), time.Now()); err != nil {
		fmt.Fprintln(os.Stderr, "seed the agents directory:", err)
		os.Exit(1)
	}
	build := exec.Command("go", "build", "-race", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build holon-actors:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// e2eWait bounds every wait of these tests; it is a failure bound only.
const e2eWait = 60 * time.Second

// daemon is a `holon-actors run` process.
type daemon struct {
	t      *testing.T
	home   string
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has been waited for
	err    error         // its exit status, set before exited closes
	log    *os.File
}

// startRun starts `run` with args over home and waits until its control
// socket answers.
func startRun(t *testing.T, home string, args ...string) *daemon {
	t.Helper()
	return startRunEnv(t, home, nil, args...)
}

// startRunEnv is startRun with extra environment variables.
func startRunEnv(t *testing.T, home string, env []string, args ...string) *daemon {
	t.Helper()
	return startRunOf(t, binary, home, env, args...)
}

// startRunOf is startRunEnv with the binary bin.
func startRunOf(t *testing.T, bin, home string, env []string, args ...string) *daemon {
	t.Helper()
	logf, err := os.CreateTemp(t.TempDir(), "run-*.log")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"--home", home, "run", "--shutdown-timeout", "5s"}, args...)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	d := &daemon{t: t, home: home, cmd: cmd, exited: make(chan struct{}), log: logf}
	go func() { d.err = cmd.Wait(); close(d.exited) }()
	t.Cleanup(func() { d.kill() })
	c := control.NewUnixClient(filepath.Join(home, "run", "control.sock"))
	defer c.Close()
	deadline := time.Now().Add(e2eWait)
	for {
		st, err := c.RuntimeStatus(context.Background())
		if err == nil && st.PID == cmd.Process.Pid {
			return d
		}
		select {
		case <-d.exited:
			t.Fatalf("run exited early (%v):\n%s", d.err, d.output())
		case <-time.After(20 * time.Millisecond): // polling a process we do not control
		}
		if time.Now().After(deadline) {
			t.Fatalf("runtime not ready after %s:\n%s", e2eWait, d.output())
		}
	}
}

func (d *daemon) output() string {
	b, _ := os.ReadFile(d.log.Name())
	return string(b)
}

// kill SIGKILLs the process (no-op if it has exited) and waits for it.
func (d *daemon) kill() {
	_ = d.cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-d.exited:
	case <-time.After(e2eWait):
		d.t.Errorf("run did not exit after SIGKILL")
	}
}

// stop sends SIGTERM and waits for a clean exit.
func (d *daemon) stop() {
	d.t.Helper()
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		d.t.Fatal(err)
	}
	select {
	case <-d.exited:
		if d.err != nil {
			d.t.Fatalf("run exited with %v after SIGTERM:\n%s", d.err, d.output())
		}
	case <-time.After(e2eWait):
		d.t.Fatalf("run did not exit after SIGTERM:\n%s", d.output())
	}
}

// client runs the binary as a client and returns exit code, stdout, stderr.
func client(t *testing.T, home string, args ...string) (int, string, string) {
	t.Helper()
	return clientEnv(t, home, nil, args...)
}

// clientEnv is client with extra environment variables (a daemon it
// starts inherits them).
func clientEnv(t *testing.T, home string, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"--home", home}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String(), errb.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errb.String()
	}
	t.Fatal(err)
	return 0, "", ""
}

func writeScript(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunPromptTailAndCrashRecovery drives the binary as a user would:
// run, prompt --wait, tail --follow live, a second run refused, SIGKILL
// with an acknowledged prompt queued, run again, and the prompt answered.
func TestRunPromptTailAndCrashRecovery(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [{"text": "Hello from the script."}], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)

	code, out, errOut := client(t, home, "prompt", "--wait", "hi")
	if code != 0 || strings.TrimSpace(out) != "Hello from the script." {
		t.Fatalf("prompt --wait = %d %q %q", code, out, errOut)
	}

	// tail --follow prints events as they are written.
	tail := exec.Command(binary, "--home", home, "--json", "tail", "--follow")
	stdout, err := tail.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := tail.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tail.Process.Kill(); _ = tail.Wait() })
	lines := bufio.NewScanner(stdout)
	seen := func(want func(control.StreamEvent) bool) control.StreamEvent {
		t.Helper()
		for lines.Scan() {
			var ev control.StreamEvent
			if err := json.Unmarshal(lines.Bytes(), &ev); err != nil {
				t.Fatalf("tail printed %q: %v", lines.Text(), err)
			}
			if want(ev) {
				return ev
			}
		}
		t.Fatalf("tail ended: %v", lines.Err())
		return control.StreamEvent{}
	}
	first := seen(func(ev control.StreamEvent) bool { return ev.Provenance.Kind == messages.EventBriefRecorded })
	if !first.Provenance.Replayed {
		t.Errorf("the first brief came live, want replayed")
	}
	if code, _, errOut := client(t, home, "prompt", "live one"); code != 0 {
		t.Fatalf("prompt = %d %s", code, errOut)
	}
	live := seen(func(ev control.StreamEvent) bool { return ev.Provenance.Kind == messages.EventBriefRecorded })
	if live.Provenance.Replayed || live.Presentation.Body != "echo: live one" {
		t.Fatalf("live brief = %+v", live)
	}

	// A second runtime on the same home is refused, and changes nothing.
	code, _, errOut = client(t, home, "run")
	if code != exitLocked || !strings.Contains(errOut, fmt.Sprintf("pid %d", d.cmd.Process.Pid)) {
		t.Fatalf("second run = %d %q, want exit %d naming the owner", code, errOut, exitLocked)
	}

	// Pause, queue an acknowledged prompt, SIGKILL: nothing acknowledged is lost.
	if code, _, errOut := client(t, home, "agents", "pause"); code != 0 {
		t.Fatalf("pause = %d %s", code, errOut)
	}
	code, out, _ = client(t, home, "--json", "prompt", "kept across the crash")
	var acked control.PromptResponse
	if code != 0 || json.Unmarshal([]byte(out), &acked) != nil || acked.MessageID == "" {
		t.Fatalf("prompt = %d %s", code, out)
	}
	d.kill()
	if code, _, errOut := client(t, home, "status"); code != exitDown || !strings.Contains(errOut, "holon-actors run") {
		t.Fatalf("status with no runtime = %d %q, want exit %d with a hint", code, errOut, exitDown)
	}

	d = startRun(t, home, "--model", "scripted", "--script", script)
	if !strings.Contains(d.output(), "did not shut down cleanly") {
		t.Errorf("restart after SIGKILL did not note the unclean exit:\n%s", d.output())
	}
	code, out, _ = client(t, home, "--json", "agents", "state")
	var state control.AgentStateSnapshot
	if code != 0 || json.Unmarshal([]byte(out), &state) != nil || len(state.Queue) != 1 || state.Queue[0].MessageID != acked.MessageID {
		t.Fatalf("state after restart = %d %s; want the acknowledged prompt queued", code, out)
	}
	if code, _, errOut := client(t, home, "agents", "resume"); code != 0 {
		t.Fatalf("resume = %d %s", code, errOut)
	}
	_, out, _ = client(t, home, "briefs")
	for deadline := time.Now().Add(e2eWait); !strings.Contains(out, "echo: kept across the crash"); {
		if time.Now().After(deadline) {
			t.Fatalf("the queued prompt was not answered after resume; briefs:\n%s", out)
		}
		time.Sleep(20 * time.Millisecond) // polling another process
		_, out, _ = client(t, home, "briefs")
	}
	d.stop()
	if _, err := os.Stat(filepath.Join(home, "run", cleanMarkerName)); err != nil {
		t.Fatalf("no clean-shutdown marker after SIGTERM: %v", err)
	}
}

// TestRunWithoutModel: the runtime runs with no model, and a prompt ends in
// a failure brief that says how to configure one, with exit code 1.
func TestRunWithoutModel(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	d := startRun(t, home)
	code, out, errOut := client(t, home, "prompt", "--wait", "anyone there?")
	if code != exitFailure || !strings.Contains(out, "--model") || !strings.Contains(errOut, "failed") {
		t.Fatalf("prompt --wait = %d %q %q; want exit 1 and a brief saying how to set a model", code, out, errOut)
	}
	code, out, _ = client(t, home, "--json", "status")
	if code != 0 || !strings.Contains(out, `"last_error"`) {
		t.Fatalf("status = %d %s", code, out)
	}
	// Bad input to the runtime is refused before it starts anything.
	if code, _, errOut := client(t, t.TempDir(), "run", "--model", "scripted"); code != exitUsage || !strings.Contains(errOut, "--script") {
		t.Fatalf("run --model scripted without --script = %d %q", code, errOut)
	}
	d.stop()
}

// daemonPID reads the pid the daemon of home recorded.
func daemonPID(t *testing.T, home string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, "run", runtimeFileName))
	if err != nil {
		t.Fatalf("read runtime file: %v", err)
	}
	var f runtimeFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.PID
}

// TestDaemonLifecycle: start is idempotent for one configuration and fails
// closed for another; SIGKILL leaves stale files that the next start
// recovers, with the agent's history intact; stop is graceful; status and
// logs say what happened.
func TestDaemonLifecycle(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	flags := []string{"--model", "scripted", "--script", script}
	t.Cleanup(func() { // never leave a daemon behind
		if b, err := os.ReadFile(filepath.Join(home, "run", runtimeFileName)); err == nil {
			var f runtimeFile
			if json.Unmarshal(b, &f) == nil && f.PID > 0 {
				_ = syscall.Kill(f.PID, syscall.SIGKILL)
			}
		}
	})
	if code, out, errOut := client(t, home, append([]string{"daemon", "start"}, flags...)...); code != 0 || !strings.Contains(out, "started") {
		t.Fatalf("daemon start = %d %q %q", code, out, errOut)
	}
	pid := daemonPID(t, home)
	if code, out, _ := client(t, home, append([]string{"daemon", "start"}, flags...)...); code != 0 || !strings.Contains(out, "already running") {
		t.Fatalf("second daemon start = %d %q", code, out)
	}
	if code, _, errOut := client(t, home, "daemon", "start", "--model", "scripted", "--script", script, "--default-agent", "other"); code != exitFailure || !strings.Contains(errOut, "daemon restart") {
		t.Fatalf("daemon start with another config = %d %q, want a refusal pointing to restart", code, errOut)
	}
	code, out, _ := client(t, home, append([]string{"--json", "daemon", "status"}, flags...)...)
	var st daemonStatus
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || !st.Running || st.PID != pid || !st.ControlHealthy ||
		st.FingerprintMatch == nil || !*st.FingerprintMatch || st.Activity == nil || st.Activity.State != "idle" {
		t.Fatalf("daemon status = %d %s", code, out)
	}
	if code, out, _ := client(t, home, "prompt", "--wait", "before the crash"); code != 0 || strings.TrimSpace(out) != "echo: before the crash" {
		t.Fatalf("prompt --wait = %d %q", code, out)
	}

	// SIGKILL: the next start finds the stale files and recovers them.
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for processAlive(pid) {
		time.Sleep(10 * time.Millisecond) // not our child: poll until the kernel reaps it
	}
	if code, _, _ := client(t, home, "daemon", "status"); code != exitDown {
		t.Fatalf("daemon status after SIGKILL = %d, want %d", code, exitDown)
	}
	if code, out, errOut := client(t, home, append([]string{"daemon", "start"}, flags...)...); code != 0 || !strings.Contains(out, "started") {
		t.Fatalf("daemon start after SIGKILL = %d %q %q", code, out, errOut)
	}
	if code, out, _ := client(t, home, "transcript"); code != 0 || !strings.Contains(out, "echo: before the crash") {
		t.Fatalf("transcript after restart = %d %q, want the history", code, out)
	}
	// restart replaces the process; the agent's history survives it.
	if code, out, errOut := client(t, home, append([]string{"daemon", "restart"}, flags...)...); code != 0 || !strings.Contains(out, "restarted") {
		t.Fatalf("daemon restart = %d %q %q", code, out, errOut)
	}
	if newPID := daemonPID(t, home); newPID == pid {
		t.Fatalf("restart kept pid %d", pid)
	}
	if code, out, _ := client(t, home, "briefs"); code != 0 || !strings.Contains(out, "echo: before the crash") {
		t.Fatalf("briefs after restart = %d %q", code, out)
	}
	code, out, _ = client(t, home, "daemon", "stop")
	if code != 0 || !strings.Contains(out, "graceful shutdown") {
		t.Fatalf("daemon stop = %d %q", code, out)
	}
	code, out, _ = client(t, home, "--json", "daemon", "logs", "-n", "5")
	var logs daemonLogs
	if code != 0 || json.Unmarshal([]byte(out), &logs) != nil || len(logs.Tail) == 0 ||
		!strings.Contains(strings.Join(logs.Tail, "\n"), "stopped cleanly") {
		t.Fatalf("daemon logs = %d %s", code, out)
	}
	if code, out, _ := client(t, home, "daemon", "stop"); code != 0 || !strings.Contains(out, "no runtime") {
		t.Fatalf("daemon stop when stopped = %d %q", code, out)
	}
}

// TestDaemonStartLeavesForeignSocket: a socket path held by an unrelated
// process is not taken over; start fails and says where to look.
func TestDaemonStartLeavesForeignSocket(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(filepath.Join(home, "run"), 0o700); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(home, "run", "control.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.NotFoundHandler()}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	code, _, errOut := client(t, home, "daemon", "start")
	if code != exitFailure || !strings.Contains(errOut, "daemon logs") {
		t.Fatalf("daemon start over a foreign socket = %d %q", code, errOut)
	}
	code, out, _ := client(t, home, "daemon", "logs")
	if code != 0 || !strings.Contains(out, "in use") {
		t.Fatalf("daemon logs = %d %q, want the startup failure", code, out)
	}
	if _, err := os.Stat(sock); err != nil {
		t.Fatalf("the foreign socket was removed: %v", err)
	}
}

// TestRunTCPWithTokenAndCanary: the runtime serves TCP with a token from
// a file; the token works in the header, is refused elsewhere, and never
// appears in logs, the journal, the runtime files or any response.
func TestRunTCPWithTokenAndCanary(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	canary := "canary-" + strings.Repeat("7f3a", 10)
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(canary+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Off-loopback without a token is refused before anything starts.
	if code, _, errOut := client(t, home, "run", "--listen", "0.0.0.0:0", "--access", "lan"); code != exitUsage || !strings.Contains(errOut, "token") {
		t.Fatalf("lan without token = %d %q", code, errOut)
	}
	d := startRun(t, home, "--listen", "127.0.0.1:0", "--access", "tunnel", "--token-file", tokenFile, "--log-level", "debug",
		"--advertise", "http://127.0.0.1:1/")
	code, out, _ := client(t, home, "--json", "daemon", "status")
	var st daemonStatus
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.HTTPAddr == "" {
		t.Fatalf("daemon status = %d %s", code, out)
	}
	get := func(auth string) (int, string) {
		req, _ := http.NewRequest("GET", "http://"+st.HTTPAddr+"/agents/main/events", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		_, _ = io.Copy(&b, resp.Body)
		return resp.StatusCode, b.String()
	}
	if code, _ := get(""); code != http.StatusUnauthorized {
		t.Fatalf("no token = %d", code)
	}
	var bodies []string
	code, body := get("Bearer " + canary)
	if code != http.StatusOK {
		t.Fatalf("with token = %d %s", code, body)
	}
	bodies = append(bodies, body)
	_, body = get("Bearer wrong-" + canary[6:])
	bodies = append(bodies, body)
	if code, out, _ := client(t, home, "prompt", "--wait", "check the canary"); code != exitFailure {
		t.Fatalf("prompt = %d %s", code, out)
	}

	// A trigger URL works on TCP without the control token; a repeated
	// delivery makes one wake.
	code, out, _ = client(t, home, "agents", "trigger")
	url := strings.TrimSpace(out)
	if code != 0 || !strings.Contains(url, "/triggers/") {
		t.Fatalf("agents trigger = %d %q", code, out)
	}
	path := url[strings.Index(url, "/triggers/"):]
	for range 2 {
		req, _ := http.NewRequest("POST", "http://"+st.HTTPAddr+path, strings.NewReader(`{"source": "ci", "reason": "build green"}`))
		req.Header.Set("Idempotency-Key", "build-42")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("trigger delivery = %d", resp.StatusCode)
		}
	}
	code, out, _ = client(t, home, "--json", "tail", "--limit", "1000")
	if n := strings.Count(out, `"kind":"wake_hint_recorded"`); code != 0 || n != 1 {
		t.Fatalf("%d wake hints after a duplicate delivery, want 1:\n%s", n, out)
	}
	d.stop()
	for _, b := range bodies {
		if strings.Contains(b, canary) {
			t.Fatalf("a response carries the token: %s", b)
		}
	}
	// Every file the runtime wrote: journal, snapshots, logs, runtime files.
	err := filepath.WalkDir(home, func(path string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), canary) {
			t.Errorf("%s contains the control token", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(d.output(), canary) {
		t.Error("the runtime's output contains the control token")
	}
}

// fakeVendor serves a vendor's documented wire format from the transport
// fixtures: the first round asks for a tool, the round that carries the
// tool's result gets the final answer. It records each request body.
type fakeVendor struct {
	path, toolCall, final, resultMarker string
	contentType                         string // "" is application/json
	mu                                  sync.Mutex
	bodies                              []string
}

func (f *fakeVendor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.bodies = append(f.bodies, string(b))
	f.mu.Unlock()
	if !strings.HasSuffix(r.URL.Path, f.path) {
		http.Error(w, `{"error":{"message":"unexpected path `+r.URL.Path+`"}}`, http.StatusNotFound)
		return
	}
	fixture := f.toolCall
	if strings.Contains(string(b), f.resultMarker) {
		fixture = f.final
	}
	data, err := os.ReadFile(fixture)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	ct := f.contentType
	if ct == "" {
		ct = "application/json"
	}
	w.Header().Set("Content-Type", ct)
	_, _ = w.Write(data)
}

// TestRunWithVendorTransports: an agent driven by each real transport (on
// the vendor's official SDK; Codex streams its reply as Server-Sent
// Events) completes a two-round tool-using turn against a server speaking
// that vendor's wire format. The tool the model asks for
// does not exist, so the model gets an error result and answers.
func TestRunWithVendorTransports(t *testing.T) {
	t.Parallel()
	const fx = "../../providers/"
	tests := []struct {
		name, model string
		env         []string
		vendor      *fakeVendor
	}{
		{"anthropic", "anthropic/claude-sonnet-4-5", []string{"ANTHROPIC_API_KEY=test-key", "HOLON_ANTHROPIC_BASE_URL="},
			&fakeVendor{path: "/v1/messages", toolCall: fx + "anthropic/testdata/messages_tool_use.json",
				final: fx + "anthropic/testdata/messages_success.json", resultMarker: `"tool_result"`}},
		{"openai", "openai/gpt-5", []string{"OPENAI_API_KEY=test-key", "HOLON_OPENAI_BASE_URL="},
			&fakeVendor{path: "/responses", toolCall: fx + "openai/testdata/responses_tool_call.json",
				final: fx + "openai/testdata/responses_success.json", resultMarker: `"function_call_output"`}},
		{"openai-codex", "openai-codex/gpt-5-codex", []string{"OPENAI_API_KEY=test-key", "HOLON_OPENAI_CODEX_BASE_URL="},
			&fakeVendor{path: "/responses", toolCall: fx + "openai/testdata/codex_stream.sse", contentType: "text/event-stream",
				final: fx + "openai/testdata/codex_completed_output.sse", resultMarker: `"function_call_output"`}},
		{"ollama", "ollama/llama3.2", []string{"HOLON_OLLAMA_BASE_URL="},
			&fakeVendor{path: "/chat/completions", toolCall: fx + "openaichat/testdata/chat_tool_call.json",
				final: fx + "openaichat/testdata/chat_success.json", resultMarker: `"role":"tool"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(tt.vendor)
			defer srv.Close()
			env := append([]string{}, tt.env...)
			env[len(env)-1] += srv.URL + "/v1/"
			home := filepath.Join(t.TempDir(), "home")
			d := startRunEnv(t, home, env, "--model", tt.model)
			code, out, errOut := client(t, home, "--json", "prompt", "--wait", "What is the weather in Bergen?")
			var res promptResult
			if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Brief == nil || res.Brief.Text == "" {
				t.Fatalf("prompt --wait = %d %s %s\nruntime:\n%s", code, out, errOut, d.output())
			}
			tt.vendor.mu.Lock()
			bodies := tt.vendor.bodies
			tt.vendor.mu.Unlock()
			if len(bodies) != 2 || !strings.Contains(bodies[1], "unknown_tool") || !strings.Contains(bodies[1], "get_weather") {
				t.Fatalf("the vendor saw %d requests; want 2, the second carrying the tool error:\n%s", len(bodies), strings.Join(bodies, "\n---\n"))
			}
			code, out, _ = client(t, home, "transcript")
			if code != 0 || !strings.Contains(out, "get_weather") || !strings.Contains(out, res.Brief.Text) {
				t.Fatalf("transcript = %s", out)
			}
			d.stop()
			if log := d.output(); strings.Count(log, "transport actor started") != 1 || !strings.Contains(log, tt.model) {
				t.Fatalf("want one transport actor for %s, started once:\n%s", tt.model, log)
			}
		})
	}
}

// TestRunRefusesMissingKey: a vendor model without its key is refused at
// start, naming the variable to set.
func TestRunRefusesMissingKey(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	cmd := exec.Command(binary, "--home", home, "run", "--model", "anthropic/claude-sonnet-4-5")
	cmd.Env = filteredEnv("ANTHROPIC_API_KEY")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUsage || !strings.Contains(string(out), "ANTHROPIC_API_KEY") {
		t.Fatalf("run without key = %v %s", err, out)
	}
}

// filteredEnv is the environment without the named variables.
func filteredEnv(drop ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		keep := true
		for _, d := range drop {
			if strings.HasPrefix(kv, d+"=") {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}

// fixtureServer answers every request with one fixture and status.
func fixtureServer(t *testing.T, status int, fixture string) *httptest.Server {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestOnceFallbackAndTimeline: `once --json` on a primary that refuses the
// key (fail-fast, no retry) falls back to the next model; the output
// carries the attempt timeline, and a run where every model fails carries
// the failure artifact and exits 1.
func TestOnceFallbackAndTimeline(t *testing.T) {
	t.Parallel()
	const fx = "../../providers/"
	bad := fixtureServer(t, http.StatusUnauthorized, fx+"anthropic/testdata/error_401.json")
	good := fixtureServer(t, http.StatusOK, fx+"openai/testdata/responses_success.json")
	once := func(openaiURL string) (int, onceResult, string) {
		cmd := exec.Command(binary, "--home", t.TempDir(), "--json", "once", "--model", "anthropic/claude-sonnet-4-5",
			"--fallback", "openai/gpt-5", "hello")
		cmd.Env = append(os.Environ(), "ANTHROPIC_API_KEY=k-1", "OPENAI_API_KEY=k-2",
			"HOLON_ANTHROPIC_BASE_URL="+bad.URL+"/v1/", "HOLON_OPENAI_BASE_URL="+openaiURL+"/v1/")
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		var res onceResult
		if err := json.Unmarshal([]byte(out.String()), &res); err != nil {
			t.Fatalf("once output %q (%v), stderr %s", out.String(), err, errb.String())
		}
		return code, res, errb.String()
	}
	code, res, errOut := once(good.URL)
	if code != 0 || res.Status != "completed" || res.FinalText == "" || len(res.ProviderAttemptTimeline) != 1 {
		t.Fatalf("once = %d %+v %s", code, res, errOut)
	}
	tl := string(res.ProviderAttemptTimeline[0])
	if !strings.Contains(tl, "anthropic/claude-sonnet-4-5") || !strings.Contains(tl, "openai/gpt-5") || !strings.Contains(tl, "401") {
		t.Fatalf("timeline lacks the failed primary and the fallback: %s", tl)
	}
	code, res, _ = once(bad.URL) // both refuse
	if code != exitFailure || res.Status != "failed" || len(res.FailureArtifact) == 0 || res.Failure == nil ||
		len(res.ProviderAttemptTimeline) == 0 {
		t.Fatalf("failing once = %d %+v", code, res)
	}
	if strings.Contains(fmt.Sprintf("%+v", res), "k-1") {
		t.Fatal("an API key leaked into the output")
	}
}

// TestAgentModelOverride: an agent's override is vetted (a model the
// runtime cannot build is refused with a hint and changes nothing) and its
// turns go to the override's transport; clearing returns to the default.
func TestAgentModelOverride(t *testing.T) {
	t.Parallel()
	const fx = "../../providers/"
	vendor := fixtureServer(t, http.StatusOK, fx+"anthropic/testdata/messages_success.json")
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	d := startRunEnv(t, home, []string{"ANTHROPIC_API_KEY=k", "HOLON_ANTHROPIC_BASE_URL=" + vendor.URL + "/v1/"},
		"--model", "scripted", "--script", script)
	if code, _, errOut := client(t, home, "agents", "model", "--set", "nowhere/model"); code != exitFailure || !strings.Contains(errOut, "HOLON_NOWHERE_BASE_URL") {
		t.Fatalf("set an unbuildable model = %d %q", code, errOut)
	}
	if code, out, _ := client(t, home, "agents", "model"); code != 0 || !strings.Contains(out, "runtime default") {
		t.Fatalf("model after a refused set = %d %q", code, out)
	}
	if code, out, errOut := client(t, home, "agents", "model", "--set", "anthropic/claude-sonnet-4-5"); code != 0 || !strings.Contains(out, "anthropic/claude-sonnet-4-5") {
		t.Fatalf("set = %d %q %q", code, out, errOut)
	}
	code, out, _ := client(t, home, "prompt", "--wait", "which model?")
	want, _ := os.ReadFile(fx + "anthropic/testdata/messages_success.json")
	var fixture struct {
		Content []struct{ Text string } `json:"content"`
	}
	_ = json.Unmarshal(want, &fixture)
	if code != 0 || len(fixture.Content) == 0 || strings.TrimSpace(out) != fixture.Content[0].Text {
		t.Fatalf("prompt with the override = %d %q, want the Anthropic fixture's text", code, out)
	}
	if code, _, _ := client(t, home, "agents", "model", "--clear"); code != 0 {
		t.Fatal("clear failed")
	}
	if code, out, _ := client(t, home, "prompt", "--wait", "and now?"); code != 0 || strings.TrimSpace(out) != "echo: and now?" {
		t.Fatalf("prompt after clear = %d %q, want the scripted default", code, out)
	}
	d.stop()
}

// TestOnceWaitsForBackgroundTasks: a run whose first turn leaves a
// promoted command running acknowledges it, and once goes on until the
// task's result has come back and been answered.
func TestOnceWaitsForBackgroundTasks(t *testing.T) {
	t.Parallel()
	script := writeScript(t, `{"steps": [
		{"tool_calls": [{"name": "ExecCommand", "arguments": {"cmd": "sleep 1; echo built", "yield_time_ms": 50}}]},
		{"text": "Building in the background."},
		{"text": "The build finished."}]}`)
	code, out, errOut := client(t, t.TempDir(), "--json", "once", "--model", "scripted", "--script", script, "build it")
	var res onceResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Status != "completed" || res.Turns != 2 ||
		res.FinalText != "The build finished." {
		t.Fatalf("once = %d %s %s", code, out, errOut)
	}
}

// TestDaemonStaleRuntimeFileWithReusedPID: runtime.json left by a dead
// daemon whose pid now belongs to an unrelated live process (here, this
// test) is stale: status says not running, stop kills nothing, start
// recovers.
func TestDaemonStaleRuntimeFileWithReusedPID(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(filepath.Join(home, "run"), 0o700); err != nil {
		t.Fatal(err)
	}
	stale := runtimeFile{PID: os.Getpid(), HomeDir: home, SocketPath: filepath.Join(home, "run", "control.sock")}
	if err := writeJSONFile(filepath.Join(home, "run", runtimeFileName), stale); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := client(t, home, "daemon", "status"); code != exitDown {
		t.Fatalf("status with a reused pid = %d, want %d", code, exitDown)
	}
	if code, out, _ := client(t, home, "daemon", "stop"); code != 0 || !strings.Contains(out, "no runtime") {
		t.Fatalf("stop with a reused pid = %d %q (it must not signal pid %d)", code, out, os.Getpid())
	}
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	t.Cleanup(func() {
		if b, err := os.ReadFile(filepath.Join(home, "run", runtimeFileName)); err == nil {
			var f runtimeFile
			if json.Unmarshal(b, &f) == nil && f.PID > 0 && f.PID != os.Getpid() {
				_ = syscall.Kill(f.PID, syscall.SIGKILL)
			}
		}
	})
	if code, out, errOut := client(t, home, "daemon", "start", "--model", "scripted", "--script", script); code != 0 || !strings.Contains(out, "started") {
		t.Fatalf("start over a stale runtime file = %d %q %q", code, out, errOut)
	}
	if code, _, _ := client(t, home, "daemon", "stop"); code != 0 {
		t.Fatal("stop failed")
	}
}
