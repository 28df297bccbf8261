package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/holon-actors/holon-actors/mcp"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/supervision"
)

// panicNow makes a server actor's test hook panic.
type panicNow struct{}

// actorHook records what server actor t receives and panics on panicNow.
type actorHook struct {
	mu       sync.Mutex
	requests int // session requests (the agents' calls go through the actor)
	events   chan any
	asked    chan struct{} // a session request arrived (dropped when full)
}

func newActorHook() *actorHook {
	return &actorHook{events: make(chan any, 64), asked: make(chan struct{}, 64)}
}

func (h *actorHook) see(msg any) {
	switch msg.(type) {
	case *panicNow:
		panic("server actor test panic")
	case *actor.Restarting, *actor.Stopped:
		h.events <- msg
	default:
		if typeName(msg) == "mcp.sessionRequest" {
			h.mu.Lock()
			h.requests++
			h.mu.Unlock()
			select {
			case h.asked <- struct{}{}:
			default:
			}
		}
	}
}

func (h *actorHook) sessionRequests() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.requests
}

// await waits for a message of the kind of want from the hook.
func (h *actorHook) await(t *testing.T, want string) {
	t.Helper()
	for {
		select {
		case m := <-h.events:
			if typeName(m) == want {
				return
			}
		case <-time.After(15 * time.Second):
			t.Fatalf("server actor got no %s", want)
		}
	}
}

// typeName is v's type without its pointer star: "actor.Restarting".
func typeName(v any) string { return strings.TrimPrefix(fmt.Sprintf("%T", v), "*") }

// spawned makes m's servers actors in a fresh actor system under policy,
// recording the backoff delays of their restarts.
func spawned(t *testing.T, m *mcp.Manager, p supervision.Policy, h *actorHook) (*actor.ActorSystem, *actor.PID, *[]time.Duration) {
	t.Helper()
	mcp.SetTestHook(m, h.see)
	sys := actor.NewActorSystem()
	var mu sync.Mutex
	delays := &[]time.Duration{}
	pid, err := m.Spawn(sys.Root, p, supervision.WithScheduler(func(d time.Duration, f func()) {
		mu.Lock()
		*delays = append(*delays, d)
		mu.Unlock()
		time.AfterFunc(d, f)
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sys.Root.StopFuture(pid).Wait(); sys.Shutdown() })
	return sys, pid, delays
}

func restartPolicy(maxRestarts int) supervision.Policy {
	return supervision.Policy{MaxRestarts: maxRestarts, Within: time.Minute, InitialBackoff: 20 * time.Millisecond,
		MaxBackoff: time.Second, Multiplier: 2}
}

func TestServerActorRestartedAfterPanicKeepsServing(t *testing.T) {
	m := manager(t, stdio(``), mcp.Options{})
	h := newActorHook()
	sys, _, delays := spawned(t, m, restartPolicy(3), h)
	ctx := context.Background()
	before := toolNamed(t, m, "mcp__t__pid").Call(ctx, nil).Receipt
	if h.sessionRequests() == 0 {
		t.Fatal("the call did not go through the server's actor")
	}

	sys.Root.Send(actor.NewPID(sys.Address(), "mcp/t"), &panicNow{})
	h.await(t, "actor.Restarting")
	if len(*delays) != 1 || (*delays)[0] <= 0 {
		t.Fatalf("restart delays = %v, want one backoff", *delays)
	}

	asked := h.sessionRequests()
	res := toolNamed(t, m, "mcp__t__echo").Call(ctx, json.RawMessage(`{"text":"after the panic"}`))
	if res.Status != messages.ToolOK || res.Receipt != "after the panic" {
		t.Fatalf("echo after the actor's restart = %s %q", res.Status, res.Receipt)
	}
	if h.sessionRequests() == asked {
		t.Fatal("the call after the restart did not go through the server's actor")
	}
	if after := toolNamed(t, m, "mcp__t__pid").Call(ctx, nil).Receipt; after != before {
		t.Fatalf("server pid %s after the actor's restart, was %s: a panic in the actor must not restart the server", after, before)
	}
	if st := m.Status()[0]; st.State != mcp.StateReady || st.Crashes != 0 {
		t.Fatalf("status after the actor's restart = %+v", st)
	}
}

func TestStoppingServerActorsClosesTheServers(t *testing.T) {
	m := manager(t, stdio(``), mcp.Options{})
	h := newActorHook()
	sys, pid, _ := spawned(t, m, restartPolicy(3), h)
	ctx := context.Background()
	proc, _ := strconv.Atoi(toolNamed(t, m, "mcp__t__pid").Call(ctx, nil).Receipt)
	if proc <= 0 || syscall.Kill(proc, 0) != nil {
		t.Fatalf("server pid %d not alive", proc)
	}
	tool := toolNamed(t, m, "mcp__t__echo")

	if err := sys.Root.StopFuture(pid).Wait(); err != nil {
		t.Fatal(err)
	}
	h.await(t, "actor.Stopped")
	if err := syscall.Kill(proc, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("server %d after its actor stopped: %v, want gone", proc, err)
	}
	if st := m.Status()[0]; st.State != mcp.StateClosed {
		t.Fatalf("state after the actor stopped = %s, want closed", st.State)
	}
	start := time.Now()
	res := tool.Call(ctx, json.RawMessage(`{"text":"x"}`))
	if res.Status == messages.ToolOK || time.Since(start) > 5*time.Second {
		t.Fatalf("call after shutdown = %s %q after %s, want a prompt error", res.Status, res.Receipt, time.Since(start))
	}
}

func TestServerActorPanickingTooOftenIsQuarantined(t *testing.T) {
	told := make(chan string, 1)
	m := manager(t, stdio(``), mcp.Options{OnQuarantine: func(_, msg string) { told <- msg }})
	h := newActorHook()
	sys, _, _ := spawned(t, m, restartPolicy(0), h)
	ctx := context.Background()
	proc, _ := strconv.Atoi(toolNamed(t, m, "mcp__t__pid").Call(ctx, nil).Receipt)

	sys.Root.Send(actor.NewPID(sys.Address(), "mcp/t"), &panicNow{})
	var msg string
	select {
	case msg = <-told:
	case <-time.After(15 * time.Second):
		t.Fatal("no quarantine notice")
	}
	if !strings.Contains(msg, "MCP server t stopped after its actor panicked") {
		t.Fatalf("notice = %q", msg)
	}
	h.await(t, "actor.Stopped")
	if st := m.Status()[0]; st.State != mcp.StateQuarantined || !strings.Contains(st.LastError, "panicked") {
		t.Fatalf("status = %+v, want quarantined", st)
	}
	if err := syscall.Kill(proc, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("server %d of a quarantined actor: %v, want gone", proc, err)
	}
	srv, _ := m.Server("t")
	if _, err := srv.Tools(ctx); !errors.Is(err, mcp.ErrQuarantined) {
		t.Fatalf("Tools of the quarantined server = %v", err)
	}
}

func TestSlowCallDoesNotBlockTheServerActor(t *testing.T) {
	m := manager(t, stdio(`,"timeout_seconds":60`), mcp.Options{})
	h := newActorHook()
	spawned(t, m, restartPolicy(3), h)
	hang := toolNamed(t, m, "mcp__t__hang")
	for len(h.asked) > 0 { // the listing's requests
		<-h.asked
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); hang.Call(ctx, nil) }()
	defer func() { cancel(); <-done }()
	select { // the hanging call has asked for its session
	case <-h.asked:
	case <-done:
		t.Fatal("the hanging call ended")
	case <-time.After(15 * time.Second):
		t.Fatal("the hanging call asked no session")
	}
	start := time.Now()
	res := toolNamed(t, m, "mcp__t__echo").Call(context.Background(), json.RawMessage(`{"text":"meanwhile"}`))
	if res.Status != messages.ToolOK || res.Receipt != "meanwhile" || time.Since(start) > 10*time.Second {
		t.Fatalf("echo during a hanging call = %s %q after %s", res.Status, res.Receipt, time.Since(start))
	}
	select {
	case <-done:
		t.Fatal("the hanging call ended before it was cancelled")
	default:
	}
}
