package actors

import (
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// TestPersistArmsTheTimersOfItsBatch: a durable batch arms each timer it
// scheduled, with no call of the step that made it, and a batch that did
// not become durable arms nothing.
func TestPersistArmsTheTimersOfItsBatch(t *testing.T) {
	sys := actor.NewActorSystem()
	defer sys.Shutdown()
	armed := make(chan *timers.Schedule, 4)
	probe := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if s, ok := c.Message().(*timers.Schedule); ok {
			armed <- s
		}
	}))
	deps := AgentDeps{Store: persistence.NewMemStore(), Log: zerolog.Nop()}.withDefaults()
	a := &agent{id: "a", deps: deps, wire: wiring{sys: sys, timers: probe}, state: &agentstate.State{ID: "a"}}
	due := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := a.persist(messages.TimerScheduled{TimerID: "tmr_1", DueAt: due, Reason: "test"},
		messages.TimerScheduled{TimerID: "tmr_2", DueAt: due.Add(time.Hour), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tmr_1", "tmr_2"} {
		select {
		case s := <-armed:
			if s.TimerID != want || s.AgentID != "a" {
				t.Fatalf("armed %+v, want %s of agent a", s, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("timer %s was not armed", want)
		}
	}
	a.state.LastSeq = 99 // another writer moved the stream: the fenced append fails
	if err := a.persist(messages.TimerScheduled{TimerID: "tmr_3", DueAt: due, Reason: "test"}); err == nil {
		t.Fatal("persist after a foreign write succeeded")
	}
	if err := sys.Root.PoisonFuture(probe).Wait(); err != nil { // the probe handled everything sent before
		t.Fatal(err)
	}
	select {
	case s := <-armed:
		t.Fatalf("a batch that was not written armed %+v", s)
	default:
	}
}
