package testkit

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/tools"
)

// WaitTimeout bounds every wait of the harness. It is a failure bound, not
// synchronization: waits end as soon as the awaited event is durable.
const WaitTimeout = 20 * time.Second

// Harness runs a real runtime (real Badger store, real actors) on a
// temporary HOLON_HOME with a fake clock and a scripted provider. It can
// hard-crash the runtime and start a new one over the same data.
type Harness struct {
	t        testing.TB
	Home     string
	Clock    *clockwork.FakeClock
	Provider *Provider
	Echo     *EchoTool
	Runtime  *actors.Runtime

	tools          *tools.Registry
	inner          *persistence.BadgerStore
	store          *CrashStore
	requestTimeout time.Duration
	deps           func(home string, d *actors.AgentDeps)
	runtimeOpts    func(o *actors.RuntimeOptions)
	fault          atomic.Pointer[func(agentID, point string)]
}

// SetFault replaces the fault hook of every agent (nil removes it).
func (h *Harness) SetFault(f func(agentID, point string)) {
	if f == nil {
		h.fault.Store(nil)
		return
	}
	h.fault.Store(&f)
}

func (h *Harness) callFault(agentID, point string) {
	if f := h.fault.Load(); f != nil {
		(*f)(agentID, point)
	}
}

// Options configures a harness beyond its script.
type Options struct {
	Steps []Step
	// Fault is installed as AgentDeps.Fault; it may be changed later with
	// SetFault.
	Fault func(agentID, point string)
	// RequestTimeout bounds a request to an agent (default: the runtime's).
	RequestTimeout time.Duration
	// Deps, when set, adjusts the agents' dependencies each time a runtime
	// starts (also after Restart), e.g. to give them the built-in tools
	// bound under the harness's Home.
	Deps func(home string, d *actors.AgentDeps)
	// Runtime, when set, adjusts the runtime's options each time one starts.
	Runtime func(o *actors.RuntimeOptions)
}

// New starts a harness playing steps; t.Cleanup shuts it down and fails
// the test if a goroutine of this module is left running.
func New(t testing.TB, steps ...Step) *Harness {
	t.Helper()
	return NewWith(t, Options{Steps: steps})
}

// NewWith starts a harness with options.
func NewWith(t testing.TB, o Options) *Harness {
	t.Helper()
	h := &Harness{t: t, Home: t.TempDir(), Clock: clockwork.NewFakeClockAt(time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)),
		Provider: NewProvider(o.Steps...), Echo: &EchoTool{}, requestTimeout: o.RequestTimeout, deps: o.Deps, runtimeOpts: o.Runtime}
	h.SetFault(o.Fault)
	var err error
	if h.tools, err = tools.NewRegistry(h.Echo); err != nil {
		t.Fatal(err)
	}
	h.start()
	t.Cleanup(func() {
		h.shutdown()
		checkLeaks(t)
	})
	return h
}

// Store is the (crashable) store of the running runtime.
func (h *Harness) Store() *CrashStore { return h.store }

func (h *Harness) start() {
	h.t.Helper()
	o := persistence.DefaultOptions(persistence.DataDir(h.Home))
	o.GCInterval = 0
	inner, err := persistence.Open(o)
	if err != nil {
		h.t.Fatalf("open store: %v", err)
	}
	h.inner, h.store = inner, NewCrashStore(inner)
	deps := actors.AgentDeps{Store: h.store, Provider: h.Provider, Tools: h.tools, Clock: h.Clock,
		Log: zerolog.Nop(), SystemPrompt: "You are a test agent.", Fault: h.callFault}
	if h.deps != nil {
		h.deps(h.Home, &deps)
	}
	ro := actors.RuntimeOptions{
		Scheduler:      func(_ time.Duration, f func()) { go f() }, // restarts at once, no backoff wait
		RequestTimeout: h.requestTimeout,
	}
	if h.runtimeOpts != nil {
		h.runtimeOpts(&ro)
	}
	h.Runtime, err = actors.NewRuntime(deps, ro)
	if err != nil {
		h.t.Fatalf("start runtime: %v", err)
	}
}

func (h *Harness) shutdown() {
	h.store.Release()
	closeRuntime := h.Runtime.Close
	if h.store.isDead() {
		closeRuntime = h.Runtime.Halt // a dead process saves nothing
	}
	if err := closeRuntime(); err != nil {
		h.t.Errorf("close runtime: %v", err)
	}
	if err := h.inner.Close(); err != nil {
		h.t.Errorf("close store: %v", err)
	}
}

// Restart hard-crashes the runtime (nothing more is written, no graceful
// shutdown of agents), then starts a new one over the same data directory
// and runs recovery, as a daemon restarted after SIGKILL would.
func (h *Harness) Restart() []string {
	h.t.Helper()
	return h.RestartWith(nil)
}

// RestartWith is Restart with damage done to the data directory (the
// Badger store's, persistence.DataDir(h.Home)) while nothing has it open,
// as a disk fault between two runs would.
func (h *Harness) RestartWith(damage func(dataDir string)) []string {
	h.t.Helper()
	h.store.Crash()
	h.shutdown()
	if damage != nil {
		damage(persistence.DataDir(h.Home))
	}
	h.start()
	active, err := h.Runtime.Recover(context.Background())
	if err != nil {
		h.t.Fatalf("recover: %v", err)
	}
	return active
}

// GracefulRestart shuts the runtime down cleanly (no crash) and starts a
// new one over the same data, with recovery.
func (h *Harness) GracefulRestart() []string {
	h.t.Helper()
	h.shutdown()
	h.start()
	active, err := h.Runtime.Recover(context.Background())
	if err != nil {
		h.t.Fatalf("recover: %v", err)
	}
	return active
}

// Envelope builds an operator prompt for agent from the CLI surface.
func (h *Harness) Envelope(agent, text string, p messages.Priority) messages.MessageEnvelope {
	return messages.MessageEnvelope{
		ID: messages.NewID("msg"), AgentID: agent, CreatedAt: h.Clock.Now(), Kind: messages.KindOperatorPrompt,
		Origin: messages.OperatorOrigin("operator"), Priority: p, Body: messages.TextBody(text),
		DeliverySurface: messages.SurfaceCLIPrompt, AdmissionContext: messages.AdmissionLocalProcess,
	}
}

// Send admits env and fails the test if it is refused.
func (h *Harness) Send(env messages.MessageEnvelope) *actors.Admitted {
	h.t.Helper()
	res, err := h.Runtime.Admit(context.Background(), env)
	if err != nil {
		h.t.Fatalf("admit %s: %v", env.ID, err)
	}
	return res
}

// Prompt sends an operator prompt at normal priority.
func (h *Harness) Prompt(agent, text string) messages.MessageEnvelope {
	h.t.Helper()
	env := h.Envelope(agent, text, messages.PriorityNormal)
	h.Send(env)
	return env
}

// Events returns agent's whole journal (read past any simulated crash).
func (h *Harness) Events(agent string) []messages.Event {
	h.t.Helper()
	evs, err := h.inner.Read(context.Background(), agent, 1, ^uint64(0), 0)
	if err != nil {
		h.t.Fatalf("read %s: %v", agent, err)
	}
	return evs
}

// WaitEvent waits until agent's journal holds an event matching match and
// returns the first such event. match sees each event once, in order, so
// stateful matchers like NthOfType work. It wakes on every append (a
// journal subscription), never on a timer.
func (h *Harness) WaitEvent(agent string, match func(messages.Event) bool) messages.Event {
	h.t.Helper()
	sub := h.inner.Subscribe(agent)
	defer sub.Close()
	deadline := time.NewTimer(WaitTimeout)
	defer deadline.Stop()
	next := uint64(1)
	for {
		evs, err := h.inner.Read(context.Background(), agent, next, ^uint64(0), 0)
		if err != nil {
			h.t.Fatalf("read %s: %v", agent, err)
		}
		for _, ev := range evs {
			next = ev.Seq + 1
			if match(ev) {
				return ev
			}
		}
		select {
		case <-sub.C:
		case <-deadline.C:
			h.t.Fatalf("no matching event in %s's journal after %v; journal:\n%s", agent, WaitTimeout, Describe(h.Events(agent)))
		}
	}
}

// OfType matches events of type t.
func OfType(t messages.EventType) func(messages.Event) bool {
	return func(ev messages.Event) bool { return ev.Type == t }
}

// CountOfType is how many of evs are of type t.
func CountOfType(evs []messages.Event, t messages.EventType) int {
	n := 0
	for _, ev := range evs {
		if ev.Type == t {
			n++
		}
	}
	return n
}

// NthOfType matches the n-th (1-based) event of type t.
func NthOfType(t messages.EventType, n int) func(messages.Event) bool {
	seen := 0
	return func(ev messages.Event) bool {
		if ev.Type == t {
			seen++
			return seen == n
		}
		return false
	}
}

// Describe renders events one per line as "seq type payload" for failure
// messages and golden files.
func Describe(evs []messages.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		fmt.Fprintf(&b, "%d %s %s\n", ev.Seq, ev.Type, ev.Payload)
	}
	return b.String()
}

// checkLeaks fails t if a goroutine running this module's code outlives
// the harness. It polls: goroutines that are ending get a moment to end.
func checkLeaks(t testing.TB) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		leaked := moduleGoroutines()
		if len(leaked) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%d goroutine(s) of holon-actors leaked:\n%s", len(leaked), strings.Join(leaked, "\n\n"))
			return
		}
		runtime.Gosched()
		time.Sleep(10 * time.Millisecond) // polling interval, not synchronization
	}
}

func moduleGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "holon-actors/actors.") && !strings.Contains(g, "testkit.checkLeaks") {
			out = append(out, g)
		}
	}
	return out
}
