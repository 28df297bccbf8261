package apidoc_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// oapiCodegen is the pinned client generator.
const oapiCodegen = "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2"

// clientConfig makes a typed client and its models into package holon.
const clientConfig = `package: holon
generate:
  client: true
  models: true
output: holon/client.gen.go
`

// TestGeneratedClient generates a Go client from control/openapi.json with
// oapi-codegen (from the module proxy, into a module of its own with no
// replace), builds it, and drives a live server with it: a real runtime
// on a real Badger store, on the unix socket, in another process
// (TestServerProcess: the runtime refuses the processes it started, as
// its tool processes). It creates an agent, prompts it, reads its events
// and status, and decodes the Error schema of three refusals. The
// generator and the client's one dependency come through GOPROXY; the
// test is skipped only when the proxy cannot be reached.
func TestGeneratedClient(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	writeClientModule(t, dir)
	goCmd(ctx, t, dir, "run", oapiCodegen, "-config", "config.yaml", "openapi.json")
	goCmd(ctx, t, dir, "mod", "tidy")
	goCmd(ctx, t, dir, "build", "-o", "client", ".")

	srv := startServerProcess(t)
	sock := srv.sock
	var prompted struct {
		RuntimePID     int    `json:"runtime_pid"`
		RuntimeHealthy bool   `json:"runtime_healthy"`
		Created        string `json:"created"`
		MessageID      string `json:"message_id"`
		EventSeq       uint64 `json:"event_seq"`
	}
	runClient(ctx, t, dir, sock, "prompt", &prompted)
	if prompted.RuntimePID != srv.cmd.Process.Pid || !prompted.RuntimeHealthy || prompted.Created != "researcher" ||
		prompted.MessageID == "" || prompted.EventSeq == 0 {
		t.Fatalf("prompt step saw %+v", prompted)
	}
	high := srv.settle(t, "researcher")

	var inspected struct {
		AdmittedMessageID string         `json:"admitted_message_id"`
		AdmittedSeq       uint64         `json:"admitted_seq"`
		AssistantPayload  string         `json:"assistant_payload"`
		EventKinds        []string       `json:"event_kinds"`
		HighestSeq        uint64         `json:"highest_seq"`
		Status            string         `json:"status"`
		TurnIndex         uint64         `json:"turn_index"`
		ModelRounds       uint64         `json:"model_rounds"`
		Missing           *control.Error `json:"missing"`
		Empty             *control.Error `json:"empty"`
		Duplicate         *control.Error `json:"duplicate"`
	}
	runClient(ctx, t, dir, sock, "inspect", &inspected)
	if inspected.AdmittedMessageID != prompted.MessageID || inspected.AdmittedSeq != prompted.EventSeq {
		t.Errorf("events: admitted %s at %d, want %s at %d", inspected.AdmittedMessageID, inspected.AdmittedSeq,
			prompted.MessageID, prompted.EventSeq)
	}
	if !strings.Contains(inspected.AssistantPayload, "Hello from the model.") {
		t.Errorf("events: assistant round %q, want the model's reply", inspected.AssistantPayload)
	}
	if inspected.HighestSeq != high || uint64(len(inspected.EventKinds)) != high {
		t.Errorf("events: %d events, highest %d; the journal has %d", len(inspected.EventKinds), inspected.HighestSeq, high)
	}
	if inspected.Status != string(messages.StatusAwakeIdle) || inspected.TurnIndex != 1 || inspected.ModelRounds != 1 {
		t.Errorf("status = %s, turn %d, %d model rounds; want awake_idle after one turn of one round",
			inspected.Status, inspected.TurnIndex, inspected.ModelRounds)
	}
	for _, c := range []struct {
		name string
		got  *control.Error
		kind string
	}{
		{"prompt to a missing agent", inspected.Missing, control.KindNotFound},
		{"empty prompt", inspected.Empty, control.KindInvalid},
		{"create again", inspected.Duplicate, control.KindConflict},
	} {
		if c.got == nil || c.got.Kind != c.kind || c.got.Message == "" || c.got.Hint == "" {
			t.Errorf("%s: error %+v, want kind %s with a message and a hint", c.name, c.got, c.kind)
		}
	}
}

// writeClientModule lays out the client's module: the committed document,
// the generator's config, the driver, and a go.mod with no replace.
func writeClientModule(t *testing.T, dir string) {
	t.Helper()
	doc, err := os.ReadFile("../openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	driver, err := os.ReadFile(filepath.Join("testdata", "client", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"openapi.json": doc, "config.yaml": []byte(clientConfig), "main.go": driver,
		"go.mod": []byte("module apiclient\n\ngo 1.24\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "holon"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// goCmd runs the go command in dir with modules fetched through GOPROXY.
// It skips the test when the module proxy cannot be reached.
func goCmd(ctx context.Context, t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err == nil {
		return
	}
	if unreachable(out) {
		t.Skipf("the module proxy (GOPROXY=%s) cannot be reached, so oapi-codegen cannot be fetched: go %s: %s",
			os.Getenv("GOPROXY"), strings.Join(args, " "), out)
	}
	t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
}

// unreachable reports whether the go command failed to reach the module
// proxy: a network failure, or GOPROXY=off with the module not cached.
func unreachable(out []byte) bool {
	for _, s := range []string{"dial tcp", "no such host", "connection refused", "i/o timeout", "TLS handshake timeout",
		"module lookup disabled by GOPROXY=off"} {
		if bytes.Contains(out, []byte(s)) {
			return true
		}
	}
	return false
}

// serverEnv names the socket TestServerProcess serves on; unset, it is
// skipped.
const serverEnv = "HOLON_APIDOC_TEST_SOCKET"

// serverProcess is TestServerProcess running in a child process: it says
// "ready" once it serves, and to "settle <agent>" it answers "settled
// <highest seq>" once the agent's turn is over. Closing its input ends it.
type serverProcess struct {
	cmd  *exec.Cmd
	sock string
	in   io.WriteCloser
	out  *bufio.Scanner
}

// startServerProcess starts the server; it ends when the test's cleanup
// closes its input (not when the test's context ends: the cleanup waits
// for it to close its runtime and store).
func startServerProcess(t *testing.T) *serverProcess {
	t.Helper()
	p := &serverProcess{sock: filepath.Join(t.TempDir(), "run", "control.sock")}
	p.cmd = exec.Command(os.Args[0], "-test.run=^TestServerProcess$")
	p.cmd.Env = append(os.Environ(), serverEnv+"="+p.sock)
	p.cmd.Stderr = os.Stderr
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.out = bufio.NewScanner(stdout)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.in.Close()
		for p.out.Scan() { // the rest of its output, up to its exit
		}
		if err := p.cmd.Wait(); err != nil {
			t.Errorf("server process: %v", err)
		}
	})
	p.expect(t, "ready")
	return p
}

// expect reads the server's output up to a line starting with prefix and
// returns the rest of it.
func (p *serverProcess) expect(t *testing.T, prefix string) string {
	t.Helper()
	for p.out.Scan() {
		if rest, ok := strings.CutPrefix(p.out.Text(), prefix); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("server process ended before saying %q: %v", prefix, p.out.Err())
	return ""
}

// settle waits for agent's turn to end and returns its highest event seq.
func (p *serverProcess) settle(t *testing.T, agent string) uint64 {
	t.Helper()
	if _, err := fmt.Fprintf(p.in, "settle %s\n", agent); err != nil {
		t.Fatal(err)
	}
	high, err := strconv.ParseUint(p.expect(t, "settled "), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return high
}

// TestServerProcess is the server of TestGeneratedClient, run in a child
// process of it: a harness runtime (real Badger, scripted model) served
// on the socket serverEnv names.
func TestServerProcess(t *testing.T) {
	sock := os.Getenv(serverEnv)
	if sock == "" {
		t.Skip("the server process of TestGeneratedClient")
	}
	h := testkit.New(t, testkit.Reply("Hello from the model."))
	serve(t, h, sock)
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		agent, ok := strings.CutPrefix(in.Text(), "settle ")
		if !ok {
			t.Fatalf("unknown command %q", in.Text())
		}
		// Settled: created→idle, idle→running, running→idle.
		h.WaitEvent(agent, testkit.NthOfType(messages.EventAgentStateChanged, 3))
		high, err := h.Store().HighestSeq(context.Background(), agent)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("settled %d\n", high)
	}
}

// serve serves h's runtime on the control socket sock until the test ends.
func serve(t *testing.T, h *testkit.Harness, sock string) {
	t.Helper()
	srv := control.NewServer(control.Config{Runtime: h.Runtime, Store: h.Store(), Clock: h.Clock, Log: zerolog.Nop(),
		Info: control.RuntimeInfo{PID: os.Getpid(), HomeDir: h.Home, SocketPath: sock, Version: "test"}})
	l, err := control.ListenUnix(sock)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	t.Cleanup(func() {
		if err := srv.Close(context.Background()); err != nil {
			t.Errorf("close server: %v", err)
		}
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve = %v, want ErrServerClosed", err)
		}
	})
}

// runClient runs a step of the built client and decodes what it printed.
func runClient(ctx context.Context, t *testing.T, dir, sock, step string, out any) {
	t.Helper()
	cmd := exec.CommandContext(ctx, filepath.Join(dir, "client"), sock, step)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("client %s: %v\n%s", step, err, stderr.Bytes())
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("client %s printed %q: %v", step, b, err)
	}
}
