package bench

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// TestBriefWatch: a driver is woken by the append that holds its agent's
// brief, through either append, and by no other append; the runtime still
// sees the Badger store's optional abilities through the watch.
func TestBriefWatch(t *testing.T) {
	ctx := context.Background()
	o := persistence.DefaultOptions(filepath.Join(t.TempDir(), "store"))
	st, err := persistence.Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	w := newBriefWatch(st)
	if _, ok := persistence.Store(w).(persistence.HeaderStore); !ok {
		t.Fatal("the watch hides the store's stream headers from the runtime")
	}
	a, other := w.watch("a1"), w.watch("a2")
	event := func(p messages.Payload) []messages.Event {
		ev, err := messages.NewEvent("a1", time.Now(), p)
		if err != nil {
			t.Fatal(err)
		}
		return []messages.Event{ev}
	}
	changed := event(messages.AgentStateChanged{From: messages.StatusAsleep, To: messages.StatusAwakeIdle})
	brief := event(messages.BriefRecorded{Brief: messages.Brief{ID: "brief_1", AgentID: "a1", Kind: messages.BriefResult,
		Text: "done", RelatedMessageID: "msg_1", CreatedAt: time.Now().UTC()}})

	if _, err := w.Append(ctx, "a1", changed); err != nil {
		t.Fatal(err)
	}
	wantWake(t, a, false, "after an append without a brief")
	if _, err := w.AppendAfter(ctx, "a1", 1, append(changed, brief...)); err != nil {
		t.Fatal(err)
	}
	wantWake(t, a, true, "after AppendAfter with a brief")
	wantWake(t, other, false, "another agent's driver")
	if _, err := w.Append(ctx, "a1", brief); err != nil {
		t.Fatal(err)
	}
	wantWake(t, a, true, "after Append with a brief")
	if _, err := w.AppendAfter(ctx, "a1", 1, brief); err == nil {
		t.Fatal("AppendAfter at a stale seq succeeded")
	}
	wantWake(t, a, false, "after a refused append")
}

// wantWake checks whether c holds a signal now: the watch signals inside
// the append, so none can still be on its way.
func wantWake(t *testing.T, c <-chan struct{}, want bool, when string) {
	t.Helper()
	select {
	case <-c:
		if !want {
			t.Errorf("woken %s", when)
		}
	default:
		if want {
			t.Errorf("not woken %s", when)
		}
	}
}
