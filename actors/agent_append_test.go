package actors_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/testkit"
)

// appendLog records each append an agent makes: its event types and
// whether it was deferred.
type appendLog struct {
	persistence.Store
	mu      sync.Mutex
	appends []string
}

func (s *appendLog) record(deferred bool, evs []messages.Event) {
	types := make([]string, len(evs))
	for i, ev := range evs {
		types[i] = string(ev.Type)
	}
	mode := "durable"
	if deferred {
		mode = "deferred"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.appends = append(s.appends, mode+" "+strings.Join(types, ","))
}

func (s *appendLog) AppendAfter(ctx context.Context, stream string, after uint64, evs []messages.Event) (uint64, error) {
	s.record(false, evs)
	return s.Store.AppendAfter(ctx, stream, after, evs)
}

func (s *appendLog) AppendDeferred(ctx context.Context, stream string, after uint64, evs []messages.Event) (uint64, error) {
	s.record(true, evs)
	return s.Store.(persistence.DeferredAppender).AppendDeferred(ctx, stream, after, evs)
}

// TestTurnDefersOnlyItsModelSteps: of a one-tool turn's appends, only
// the start of the message's processing and the two model rounds are
// deferred; the admission, the tool's start and result, and the turn's
// end are durable before the agent goes on (so the tool runs, and the
// turn is reported, only after everything before them is synced).
func TestTurnDefersOnlyItsModelSteps(t *testing.T) {
	log := &appendLog{}
	h := testkit.NewWith(t, testkit.Options{
		Steps: crashScript(),
		Deps: func(_ string, d *actors.AgentDeps) {
			log.Store = d.Store
			d.Store = log
		},
	})
	h.Prompt("main", "Echo ping.")
	h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded))
	h.WaitEvent("main", testkit.NthOfType(messages.EventAgentStateChanged, 3))
	log.mu.Lock()
	got := append([]string(nil), log.appends...)
	log.mu.Unlock()
	want := []string{
		"durable message_admitted",
		"deferred agent_state_changed,message_processing_started",
		"deferred provider_round_completed,assistant_round_recorded",
		"durable tool_call_started",
		"durable tool_executed",
		"deferred provider_round_completed,assistant_round_recorded",
	}
	var turn []string
	for _, a := range got {
		if !strings.Contains(a, "agent_created") {
			turn = append(turn, a)
		}
	}
	if len(turn) != len(want)+1 || !reflect.DeepEqual(turn[:len(want)], want) || !strings.HasPrefix(turn[len(want)], "durable turn_terminal,") {
		t.Fatalf("appends =\n%s\nwant\n%s\nthen durable turn_terminal,...", strings.Join(turn, "\n"), strings.Join(want, "\n"))
	}
}
