package background_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/background"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/secrets"
)

// The test binary plays the runtime: with childEnv=serve it answers the
// runtime status on childSocketEnv with its pid, once it has received
// canary through the handoff and not through its environment; with
// childEnv=exit it exits at once.
const (
	childEnv       = "BACKGROUND_TEST_CHILD"
	childSocketEnv = "BACKGROUND_TEST_SOCKET"
	canary         = "sk-background-canary-0123456789"
)

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "serve":
		serveStatus()
	case "exit":
		os.Exit(3)
	}
	os.Exit(m.Run())
}

// serveStatus is the child's runtime: it serves until killed.
func serveStatus() {
	vars, err := secrets.Receive()
	environ, _ := os.ReadFile("/proc/self/environ")
	if err != nil || vars["HOLON_TEST_KEY"] != canary || strings.Contains(string(environ), canary) {
		os.Exit(4)
	}
	l, err := net.Listen("unix", os.Getenv(childSocketEnv))
	if err != nil {
		os.Exit(5)
	}
	http.HandleFunc("GET /control/runtime/status", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(control.RuntimeStatus{RuntimeInfo: control.RuntimeInfo{PID: os.Getpid()}})
	})
	_ = http.Serve(l, nil)
	os.Exit(6)
}

func spec(t *testing.T, mode string) background.Spec {
	t.Helper()
	dir := t.TempDir()
	sock := filepath.Join(dir, "control.sock")
	return background.Spec{Path: os.Args[0], Args: []string{"-test.run=^$"},
		Env:     append(os.Environ(), childEnv+"="+mode, childSocketEnv+"="+sock),
		Secrets: map[string]string{"HOLON_TEST_KEY": canary}, Output: filepath.Join(dir, "logs", "stderr"),
		Socket: sock, StartWait: 30 * time.Second}
}

// TestSpawnWaitsForTheSocket: a real child, handed its secret through the
// pipe, is detached in its own session and returned once its socket
// answers with its pid; Terminate then ends it with SIGTERM.
func TestSpawnWaitsForTheSocket(t *testing.T) {
	ctx := context.Background()
	st, err := background.Spawn(ctx, spec(t, "serve"))
	if err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	pid := st.PID
	t.Cleanup(func() { _, _ = background.Terminate(ctx, pid, 5*time.Second) })
	if pid <= 0 || pid == os.Getpid() || !background.Alive(pid) {
		t.Fatalf("Spawn answered pid %d: want the live child's", pid)
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	if f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:])); f[3] != strconv.Itoa(pid) { // session id
		t.Errorf("child's session = %s, want its own (%d)", f[3], pid)
	}
	how, err := background.Terminate(ctx, pid, 5*time.Second)
	if err != nil || how != background.EndedBySIGTERM {
		t.Fatalf("Terminate = %q, %v; want it ended by SIGTERM", how, err)
	}
	if background.Alive(pid) {
		t.Errorf("pid %d alive after Terminate", pid)
	}
}

// TestSpawnReportsAnEarlyExit: a child that exits before its socket
// answers is reported as such, at once, not after the start wait.
func TestSpawnReportsAnEarlyExit(t *testing.T) {
	s := spec(t, "exit")
	s.StartWait = time.Hour // a failure bound: the exit must end the wait
	_, err := background.Spawn(context.Background(), s)
	if !errors.Is(err, background.ErrExited) || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("Spawn = %v, want ErrExited with the exit status", err)
	}
}

// TestSpawnGivesUpOnASilentChild: a child whose socket never answers is
// killed after the start wait.
func TestSpawnGivesUpOnASilentChild(t *testing.T) {
	s := spec(t, "serve")
	s.Path, s.Args = "sleep", []string{"60"} // alive, never listening
	s.StartWait = 200 * time.Millisecond
	_, err := background.Spawn(context.Background(), s)
	if !errors.Is(err, background.ErrNoAnswer) || !strings.Contains(err.Error(), s.Socket) {
		t.Fatalf("Spawn = %v, want ErrNoAnswer naming the socket", err)
	}
}
