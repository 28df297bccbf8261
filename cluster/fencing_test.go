package cluster_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/internal/pgtest"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/persistence/pgjournal"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools"
)

// pg is the package's PostgreSQL server; each test takes a database of it.
var pg *pgtest.Server

func TestMain(m *testing.M) {
	code := pgtest.Main(m, &pg)
	clusterNode.Remove() // the node binary the multi-node tests built
	os.Exit(code)
}

// stores are the two engines a cluster's journal can be: every fencing
// test runs on both (Badger is the single-node store, but its fence is the
// same contract).
var stores = []struct {
	name string
	open func(t *testing.T) persistence.Store
}{
	{"badger", func(t *testing.T) persistence.Store {
		o := persistence.DefaultOptions(persistence.DataDir(t.TempDir()))
		o.GCInterval = 0
		s, err := persistence.Open(o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}},
	{"postgres", func(t *testing.T) persistence.Store {
		s, err := pgjournal.Open(context.Background(), pgjournal.DefaultConfig(pg.NewDatabase(t)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}},
}

// node is one runtime of a two-node test: its own actor system, model and
// echo tool over the shared store, as a node process would have.
type node struct {
	rt   *actors.Runtime
	echo *testkit.EchoTool
	prov *testkit.Provider
}

func startNode(t *testing.T, name string, store persistence.Store, steps ...testkit.Step) *node {
	t.Helper()
	n := &node{echo: &testkit.EchoTool{}, prov: testkit.NewProvider(steps...)}
	reg, err := tools.NewRegistry(n.echo)
	if err != nil {
		t.Fatal(err)
	}
	n.rt, err = actors.NewRuntime(actors.AgentDeps{Store: store, Provider: n.prov, Tools: reg,
		Log: zerolog.Nop(), SystemPrompt: "You are a test agent.", Node: name},
		actors.RuntimeOptions{RequestTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.rt.Close() })
	return n
}

func prompt(id, text string) messages.MessageEnvelope {
	return messages.MessageEnvelope{ID: messages.NewID("msg"), AgentID: id, CreatedAt: time.Now(),
		Kind: messages.KindOperatorPrompt, Origin: messages.OperatorOrigin("operator"), Priority: messages.PriorityNormal,
		Body: messages.TextBody(text), DeliverySurface: messages.SurfaceCLIPrompt, AdmissionContext: messages.AdmissionLocalProcess}
}

func journal(t *testing.T, s persistence.Store, id string) []messages.Event {
	t.Helper()
	evs, err := s.Read(context.Background(), id, 1, ^uint64(0), 0)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// waitJournal waits, on the journal's subscription, until id's journal
// satisfies done, and returns it.
func waitJournal(t *testing.T, s persistence.Store, id string, done func([]messages.Event) bool) []messages.Event {
	t.Helper()
	sub := s.Subscribe(id)
	defer sub.Close()
	deadline := time.After(20 * time.Second)
	for {
		if evs := journal(t, s, id); done(evs) {
			return evs
		}
		select {
		case <-sub.C:
		case <-deadline:
			t.Fatalf("journal of %s never got there: %v", id, eventTypes(journal(t, s, id)))
		}
	}
}

func eventTypes(evs []messages.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = string(ev.Type)
	}
	return out
}

func has(typ messages.EventType, n int) func([]messages.Event) bool {
	return func(evs []messages.Event) bool { return testkit.CountOfType(evs, typ) >= n }
}

// settled is true once id has finished n turns and is idle again.
func settled(n int) func([]messages.Event) bool {
	return func(evs []messages.Event) bool {
		if !has(messages.EventTurnTerminal, n)(evs) || len(evs) == 0 {
			return false
		}
		last := evs[len(evs)-1]
		if last.Type != messages.EventAgentStateChanged {
			return false
		}
		p, err := last.Decode()
		return err == nil && p.(messages.AgentStateChanged).To == messages.StatusAwakeIdle
	}
}

// activations returns the nodes of id's agent_activated events, in order.
func activations(t *testing.T, evs []messages.Event) []string {
	t.Helper()
	var nodes []string
	for _, ev := range evs {
		if ev.Type != messages.EventAgentActivated {
			continue
		}
		p, err := ev.Decode()
		if err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, p.(messages.AgentActivated).Node)
	}
	return nodes
}

// linear checks the journal has every seq from 1 to its highest once.
func linear(t *testing.T, s persistence.Store, id string, evs []messages.Event) {
	t.Helper()
	high, err := s.HighestSeq(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	seqsInOrder(t, evs)
	if high != uint64(len(evs)) {
		t.Fatalf("highest seq %d, %d events", high, len(evs))
	}
}

// seqsInOrder checks evs are seqs 1 to len(evs), each once.
func seqsInOrder(t *testing.T, evs []messages.Event) {
	t.Helper()
	for i, ev := range evs {
		if ev.Seq != uint64(i+1) {
			t.Fatalf("event %d has seq %d: the history has a gap or a repeat", i, ev.Seq)
		}
	}
}

// waitGone waits until rt has no activation of id.
func waitGone(t *testing.T, rt *actors.Runtime, id string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for slices.Contains(rt.Active(), id) {
		if time.Now().After(deadline) {
			t.Fatalf("the fenced-out activation of %s is still running", id)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestActivationJournalsItsNode: in a cluster each activation writes
// agent_activated first; a single-node runtime writes none.
func TestActivationJournalsItsNode(t *testing.T) {
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			a := startNode(t, "node-a", s, testkit.Reply("hi"))
			if _, err := a.rt.Admit(context.Background(), prompt("x", "hello")); err != nil {
				t.Fatal(err)
			}
			evs := waitJournal(t, s, "x", settled(1))
			if got := activations(t, evs); !slices.Equal(got, []string{"node-a"}) {
				t.Fatalf("activations %v, want [node-a]", got)
			}
			// created first (fenced at 0), then activated, then the rest.
			if evs[2].Type != messages.EventAgentActivated {
				t.Fatalf("journal starts %v, want agent_activated right after creation", eventTypes(evs[:3]))
			}
			// The zero Node is the single-node runtime: unchanged.
			single := startNode(t, "", s, testkit.Reply("hi"))
			if _, err := single.rt.Admit(context.Background(), prompt("y", "hello")); err != nil {
				t.Fatal(err)
			}
			if got := activations(t, waitJournal(t, s, "y", settled(1))); len(got) != 0 {
				t.Fatalf("a single-node runtime journaled activations %v", got)
			}
		})
	}
}

// TestFencedOutActivationRefusesAndStops: once another node activated the
// agent, the older activation's next request fails with ErrFencedOut,
// writes nothing, calls no model, and the activation stops.
func TestFencedOutActivationRefusesAndStops(t *testing.T) {
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			ctx := context.Background()
			a := startNode(t, "node-a", s, testkit.Reply("from a"))
			b := startNode(t, "node-b", s, testkit.Reply("from b"))
			if _, err := a.rt.Admit(ctx, prompt("x", "one")); err != nil {
				t.Fatal(err)
			}
			waitJournal(t, s, "x", settled(1))
			if _, err := b.rt.State(ctx, "x"); err != nil { // activates x on node-b
				t.Fatal(err)
			}
			before := journal(t, s, "x")
			if got := activations(t, before); !slices.Equal(got, []string{"node-a", "node-b"}) {
				t.Fatalf("activations %v, want [node-a node-b]", got)
			}

			_, err := a.rt.Admit(ctx, prompt("x", "two"))
			if !errors.Is(err, actors.ErrFencedOut) || !errors.Is(err, persistence.ErrSeqConflict) {
				t.Fatalf("admit on the superseded activation = %v, want ErrFencedOut", err)
			}
			waitGone(t, a.rt, "x")
			after := journal(t, s, "x")
			if len(after) != len(before) {
				t.Fatalf("the fenced-out activation wrote %v", eventTypes(after[len(before):]))
			}
			if n := len(a.prov.Requests()); n != 1 {
				t.Fatalf("node-a's model was called %d times, want only the first turn's call", n)
			}
			// node-b, the owner, goes on.
			if _, err := b.rt.Admit(ctx, prompt("x", "three")); err != nil {
				t.Fatal(err)
			}
			linear(t, s, "x", waitJournal(t, s, "x", settled(2)))
		})
	}
}

// TestZombieRunsNoToolAfterLosingOwnership is the frozen-owner case in one
// process: node-a's model round is in flight when node-b activates the
// agent (node-a was declared dead); node-b finishes the turn; then node-a's
// model answers with a tool call. node-a must not run the tool, nor write,
// and must stop.
func TestZombieRunsNoToolAfterLosingOwnership(t *testing.T) {
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			ctx := context.Background()
			gate := make(chan struct{})
			held := testkit.Reply("Let me check.", testkit.Call("call_1", "echo", `{"text":"side effect"}`))
			held.Gate = gate
			a := startNode(t, "node-a", s, held)
			if _, err := a.rt.Admit(ctx, prompt("x", "do it")); err != nil {
				t.Fatal(err)
			}
			select {
			case <-a.prov.Called:
			case <-time.After(20 * time.Second):
				t.Fatal("node-a never called its model")
			}

			b := startNode(t, "node-b", s, testkit.Reply("done by b"))
			if _, err := b.rt.State(ctx, "x"); err != nil { // node-b takes x over and resumes its turn
				t.Fatal(err)
			}
			done := waitJournal(t, s, "x", settled(1))

			close(gate) // node-a's model answers, after it lost x
			waitGone(t, a.rt, "x")
			if got := a.echo.Executions(); len(got) != 0 {
				t.Fatalf("the zombie ran the tool: %v", got)
			}
			after := journal(t, s, "x")
			if len(after) != len(done) {
				t.Fatalf("the zombie wrote %v after losing x", eventTypes(after[len(done):]))
			}
			if got := activations(t, after); !slices.Equal(got, []string{"node-a", "node-b"}) {
				t.Fatalf("activations %v", got)
			}
			linear(t, s, "x", after)
		})
	}
}
